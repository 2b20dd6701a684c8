"""A kept parse reads as the fresh one, and only to a parser that would make it."""

from __future__ import annotations

import sqlite3
from collections import OrderedDict

import pytest

from memory_lab.brains.offline.parse import parse_cache
from memory_lab.brains.offline.parse import pipeline as parsing
from memory_lab.brains.offline.parse.parse_cache import (
    KeptParses,
    ParseFile,
    doc_from_bytes,
    doc_to_bytes,
    parse_key,
    parser_version,
    parses_beside,
)

TEXTS = [
    "Yesterday I forgot my keys and rewrote the whole report.",
    "My sister Ana moved to Lisbon in May 2023, she works at Google now.",
    "i'm a teacher i live in leeds",
    "Did you sell the Golf before the trip?",
]


def reading(doc) -> tuple:
    """Everything a reader of a parse can ask of it, as plain values."""
    tokens = [
        (
            t.text,
            t.whitespace_,
            t.idx,
            t.tag_,
            t.pos_,
            t.dep_,
            t.head.i,
            t.lemma_,
            str(t.morph),
            t.ent_type_,
            t.ent_iob_,
            t.is_sent_start,
            t.norm_,
            t.lower_,
            t.is_punct,
            t.like_num,
        )
        for t in doc
    ]
    return (
        doc.text,
        tokens,
        [(s.start, s.end) for s in doc.sents],
        [(e.start, e.end, e.label_) for e in doc.ents],
        [(c.start, c.end) for c in doc.noun_chunks],
    )


@pytest.fixture
def fresh_process(monkeypatch):
    """No parse kept in memory, and a file-less `KEPT` of the test's own."""
    kept = KeptParses()
    monkeypatch.setattr(parsing, "_PARSED", OrderedDict())
    monkeypatch.setattr(parsing, "KEPT", kept)
    return kept


def test_a_kept_document_reads_as_the_parse_it_was_made_from() -> None:
    docs = parsing.parse_many(TEXTS)
    vocab = parsing.pipeline().vocab
    for doc in docs:
        again = doc_from_bytes(doc_to_bytes(doc), vocab)
        assert again is not doc
        assert reading(again) == reading(doc)
    mended = doc_from_bytes(doc_to_bytes(docs[0]), vocab)
    assert {t.text: t.lemma_ for t in mended}["forgot"] == "forget"


def test_the_second_process_reads_what_the_first_parsed(tmp_path, fresh_process):
    path = tmp_path / "parses.sqlite"
    fresh_process.keep_on_disk(path)
    first = [reading(d) for d in parsing.parse_many(TEXTS)]
    assert (fresh_process.made, fresh_process.read) == (len(TEXTS), 0)
    assert ParseFile(path).count() == len(TEXTS)

    parsing._PARSED.clear()  # another process: nothing in memory
    again = [reading(d) for d in parsing.parse_many([*TEXTS, "A new line."])]
    assert again[: len(TEXTS)] == first
    assert (fresh_process.made, fresh_process.read) == (len(TEXTS) + 1, len(TEXTS))
    assert ParseFile(path).count() == len(TEXTS) + 1


def test_without_a_file_nothing_is_written_or_read(tmp_path, fresh_process):
    parsing.parse_many(TEXTS)
    assert (fresh_process.made, fresh_process.read) == (0, 0)
    assert not any(tmp_path.iterdir())


def test_another_parser_or_mending_reads_nothing_kept() -> None:
    nlp = parsing.pipeline()

    def other_mending(doc, bases):  # a changed correction of fresh parses
        return None

    ours = parser_version(nlp, parsing._mend_irregular_verbs)
    theirs = parser_version(nlp, other_mending)
    assert ours != theirs
    assert nlp.meta["version"] in ours and "parser" in ours
    assert parse_key(ours, TEXTS[0]) != parse_key(theirs, TEXTS[0])
    assert parse_key(ours, TEXTS[0]) != parse_key(ours, TEXTS[1])
    assert parse_key(ours, TEXTS[0]) == parse_key(ours, TEXTS[0])


def test_an_unreadable_row_is_parsed_again(tmp_path, fresh_process):
    path = tmp_path / "parses.sqlite"
    fresh_process.keep_on_disk(path)
    expected = reading(parsing.parse_many(TEXTS[:1])[0])
    with sqlite3.connect(path) as db:
        db.execute("UPDATE parses SET doc = ?", (b"not a DocBin",))
    parsing._PARSED.clear()
    assert reading(parsing.parse_many(TEXTS[:1])[0]) == expected
    assert fresh_process.read == 0
    parsing._PARSED.clear()
    parsing.parse_many(TEXTS[:1])  # the row was written again, readable
    assert fresh_process.read == 1


def test_a_file_that_cannot_be_made_is_left_alone(tmp_path, fresh_process, caplog):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("a file where the folder would go")
    fresh_process.keep_on_disk(blocker / "parses.sqlite")
    assert fresh_process.disk is None
    assert "parse cache" in caplog.text
    assert len(parsing.parse_many(TEXTS[:2])) == 2


def test_parses_go_beside_the_vectors_or_nowhere(tmp_path) -> None:
    assert parses_beside(None) is None
    beside = parses_beside(tmp_path / "vectors-model.sqlite")
    assert beside == tmp_path / parse_cache.FILE_NAME
