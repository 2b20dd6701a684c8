"""Replies that restate memory: the spans found, the memory-facing text, and the
consumers (compression, excerpts, stores) that read turns without them."""

from __future__ import annotations

import sqlite3

import numpy as np
import pytest
from pydantic import ValidationError

from memory_lab.brains.base import BrainResult
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.config import WindowConfig
from memory_lab.episodes.compression import build_episodes, split_span
from memory_lab.episodes.turn_index import TurnIndex
from memory_lab.recipes import recipe
from memory_lab.restatement import memory_view, restated_spans, segments
from memory_lab.stores import SqlTranscriptStore
from memory_lab.stores.memory import InMemoryEpisodeStore, InMemoryTranscriptStore
from memory_lab.tokens import default_counter
from memory_lab.types import ContextBlock, ContextBundle, Message
from tests.helpers import T0, msg

COUNTER = default_counter()

CONTEXT = ContextBundle(
    blocks=[
        ContextBlock(
            kind="instructions",
            text="Answer briefly and suggest a museum when asked.",
            tokens=9,
            budget=20,
        ),
        ContextBlock(
            kind="facts",
            text='<memory type="facts">\nKnowledge:\n'
            "- home city = Porto (since 2025-03-03)\n</memory>",
            tokens=12,
            budget=50,
        ),
        ContextBlock(
            kind="window",
            text='<memory type="window">\n'
            "user (3 March 2025): I live in Porto and I work as a nurse.\n"
            "user (3 March 2025): Any plans for the weekend?\n</memory>",
            tokens=30,
            budget=100,
        ),
    ],
    total_tokens=51,
    budget=170,
)


def reply(text: str, spans=(), *, session: str = "s1") -> Message:
    made = msg(9, text, role="assistant", session=session).model_dump()
    return Message.model_validate({**made, "restated": list(spans)})


def marked(text: str) -> list[str]:
    return [text[a:b] for a, b in restated_spans(text, CONTEXT)]


def test_a_sentence_quoting_a_context_line_is_marked_and_one_adding_to_it_is_not():
    text = (
        "You told me you live in Porto and work as a nurse. "
        "I suggest the Serralves museum on Saturday morning."
    )
    assert marked(text) == ["You told me you live in Porto and work as a nurse."]


def test_fact_lines_dates_and_semicolon_lists_count_as_memory():
    text = (
        "Your home city is Porto (since 2025-03-03); you work as a nurse. "
        "Maybe try surfing at Matosinhos beach."
    )
    assert marked(text) == [
        "Your home city is Porto (since 2025-03-03); you work as a nurse."
    ]


def test_words_scattered_over_the_context_do_not_add_up_to_a_quote():
    # Every word is in the context, but each in a line sharing no other with it.
    assert marked("A city nurse on a weekend.") == []


def test_instructions_are_not_memory_and_pleasantries_are_not_quotes():
    assert marked("Answer briefly and suggest a museum.") == []
    assert marked("Yes, I can do that!") == []


def test_spans_the_responder_gives_are_kept_and_merged_with_those_found():
    text = "From memory: you live in Porto. Also a nurse, I recall. Try Serralves."
    assert marked(text) == ["From memory: you live in Porto."]
    spans = restated_spans(text, CONTEXT, given=[(32, 55)])
    assert [text[a:b] for a, b in spans] == [
        "From memory: you live in Porto. Also a nurse, I recall."
    ]


def test_segments_are_spans_of_the_text_itself():
    text = "One thing; another.\nA third? Yes."
    assert [text[a:b] for a, b in segments(text)] == [
        "One thing;",
        "another.",
        "A third?",
        "Yes.",
    ]


def test_memory_text_leaves_the_restated_spans_out_and_keeps_the_rest_verbatim():
    text = "You live in Porto. Try Serralves. You are a nurse."
    m = reply(text, [(0, 18), (34, len(text))])
    assert m.content == text
    assert m.memory_text == "Try Serralves."


def test_unmarked_turns_pass_through_the_view_as_the_same_objects():
    turns = [msg(0), msg(1, role="assistant")]
    view = memory_view(turns)
    assert all(a is b for a, b in zip(view, turns, strict=True))


def test_the_view_drops_a_reply_that_adds_nothing_and_trims_one_that_adds():
    whole = reply("You live in Porto.", [(0, 18)])
    part = reply("You live in Porto. Try Serralves.", [(0, 18)])
    pleasantry = reply("You live in Porto. Yes, I can do that.", [(0, 18)])
    view = memory_view([msg(0), whole, part, pleasantry])
    assert [m.content for m in view] == [msg(0).content, "Try Serralves."]
    assert view[1].restated == []


def test_spans_must_be_ordered_and_inside_the_content():
    with pytest.raises(ValidationError, match="restated span"):
        reply("short", [(0, 99)])
    with pytest.raises(ValidationError, match="restated span"):
        reply("two sentences here", [(5, 9), (0, 3)])


def test_the_offline_responder_marks_its_whole_reply():
    brain = RuleBasedBrain(counter=COUNTER)
    answered = brain.respond(msg(5, "Where do I live?"), CONTEXT)
    assert "Porto" in answered.value
    assert answered.restated == ((0, len(answered.value)),)
    nothing = brain.respond(msg(5, "Quantum chromodynamics?"), CONTEXT)
    assert nothing.restated == ((0, len(nothing.value)),)


class RecordingBrain(RuleBasedBrain):
    """The offline brain, remembering every text it was asked to summarise."""

    def __init__(self) -> None:
        super().__init__(counter=COUNTER)
        self.read: list[str] = []

    def summarize(self, messages, *, max_tokens):
        self.read += [m.content for m in messages]
        return super().summarize(messages, max_tokens=max_tokens)


def _seqd(messages):
    return [m.model_copy(update={"seq": i}) for i, m in enumerate(messages)]


def test_compression_summarises_what_replies_add_and_covers_every_turn():
    span = _seqd(
        [
            msg(0, "I live in Porto and I work as a nurse."),
            reply("You live in Porto. I suggest the Serralves museum.", [(0, 18)]),
            msg(2, "Any plans for the weekend?"),
            reply("You live in Porto.", [(0, 18)]),
        ]
    )
    brain = RecordingBrain()
    [episode] = build_episodes(
        "t1",
        "main",
        span,
        recipe=recipe("A"),
        brain=brain,
        counter=COUNTER,
        now=T0,
        config=WindowConfig(),
        trigger="A",
    ).value
    assert episode.turn_ids == [m.id for m in span]
    assert brain.read == [
        "I live in Porto and I work as a nurse.",
        "I suggest the Serralves museum.",
        "Any plans for the weekend?",
    ]
    assert "Serralves" in episode.summary
    assert "assistant: You live" not in episode.summary


def test_a_chunk_of_restatement_alone_joins_its_neighbour():
    rec = recipe("A").with_params(episode_max_messages=2)
    span = [
        msg(0),
        msg(1),
        reply("You live in Porto.", [(0, 18)]),
        msg(3, session="s2"),
    ]
    chunks = split_span(span, rec)
    assert [[m.id for m in c] for c in chunks] == [["m0", "m1", "m9"], ["m3"]]
    first = [reply("You live in Porto.", [(0, 18)])]
    first += [msg(1, session="s2"), msg(2, session="s2")]
    assert [len(c) for c in split_span(first, rec)] == [3]


def test_a_span_of_restatement_alone_is_an_episode_the_brain_never_reads():
    brain = RecordingBrain()
    [episode] = build_episodes(
        "t1",
        "main",
        _seqd([reply("You live in Porto.", [(0, 18)])]),
        recipe=recipe("A"),
        brain=brain,
        counter=COUNTER,
        now=T0,
        config=WindowConfig(),
        trigger="A",
    ).value
    assert brain.read == [] and episode.summary == ""
    assert episode.original_message_count == 1


class WordEmbedder:
    name, dim = "words", 3

    def embed(self, texts):
        rows = [
            [float("porto" in t.lower()), float("serralves" in t.lower()), 1e-3]
            for t in texts
        ]
        return np.array(rows, dtype=np.float32)


def test_excerpts_index_what_a_reply_added_and_not_what_it_restated():
    transcript = InMemoryTranscriptStore()
    turns = transcript.append(
        "t1",
        "main",
        [
            msg(0, "Lunch was lovely."),
            reply("You live in Porto. I suggest the Serralves museum.", [(0, 18)]),
            reply("You live in Porto.", [(0, 18)]).model_copy(update={"id": "r2"}),
        ],
    )
    index = TurnIndex(WordEmbedder())
    episodes = InMemoryEpisodeStore(WordEmbedder())
    index.rank(transcript, episodes, "t1", "porto", [])  # loads the empty index
    index.add("t1", turns)
    found = index.rank(transcript, episodes, "t1", "porto serralves", [])
    assert sorted(m.content for m, _ in found) == [
        "I suggest the Serralves museum.",
        "Lunch was lovely.",
    ]


def test_window_turns_offered_as_excerpts_are_read_the_same_way():
    transcript = InMemoryTranscriptStore()
    episodes = InMemoryEpisodeStore(WordEmbedder())
    index = TurnIndex(WordEmbedder())
    window = transcript.append(
        "t1",
        "main",
        [
            msg(0, "I went to Porto."),
            reply("You went to Porto. Serralves is near.", [(0, 18)]),
            reply("You went to Porto.", [(0, 18)]).model_copy(update={"id": "r2"}),
        ],
    )
    ranked = index.rank(transcript, episodes, "t1", "porto", [], extra=window)
    assert sorted(m.content for m, _ in ranked) == [
        "I went to Porto.",
        "Serralves is near.",
    ]


def test_sqlite_keeps_the_spans_and_brings_an_older_file_up_to_date(tmp_path):
    path = tmp_path / "memory.sqlite3"
    with sqlite3.connect(path) as conn:  # the layout before replies were marked
        conn.execute(
            "CREATE TABLE messages (tenant TEXT NOT NULL, seq INTEGER NOT NULL, "
            "id TEXT NOT NULL, thread TEXT NOT NULL, session TEXT NOT NULL, "
            "role TEXT NOT NULL, content TEXT NOT NULL, timestamp TEXT NOT NULL, "
            "speaker TEXT NOT NULL, PRIMARY KEY (tenant, seq), UNIQUE (tenant, id))"
        )
        conn.execute(
            "INSERT INTO messages VALUES ('t1', 0, 'old', 'main', 's1', 'user', "
            "'hello', ?, '')",
            (T0.isoformat(),),
        )
    store = SqlTranscriptStore(path)
    marked_reply = reply("You live in Porto. Try Serralves.", [(0, 18)])
    store.append("t1", "main", [marked_reply])
    store.close()
    [old, new] = SqlTranscriptStore(path).messages("t1")
    assert old.restated == [] and old.content == "hello"
    assert new.restated == [(0, 18)]
    assert new.memory_text == "Try Serralves."


def test_brain_notes_keep_the_spans():
    from memory_lab.brains.base import BrainNote, noted

    result = noted(
        BrainResult("x", restated=((0, 1),)), BrainNote("brain_fallback", "d")
    )
    assert result.restated == ((0, 1),) and len(result.notes) == 1
