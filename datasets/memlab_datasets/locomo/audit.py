"""The published audit of LoCoMo's answer key: read, placed on its questions, applied.

An entry is applied only to the one question it is about; a fix on the wrong
question is worse than none, so an entry that fits none or several is counted
as unmatched instead.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

from memlab_datasets.locomo.reading import answer_text, read_json, usable_evidence
from memlab_datasets.types import AuditNote
from memory_lab.errors import DatasetError

_AUDIT_ID = re.compile(r"locomo_(\d+)_qa(\d+)")


def read_audit(path: Path) -> list[dict[str, Any]]:
    """The audit's entries, each checked to name a question and a correct answer."""
    entries = read_json(path)
    if not isinstance(entries, list):
        raise DatasetError(f"{path}: expected a JSON list of audit entries")
    for index, entry in enumerate(entries):
        qid = entry.get("question_id") if isinstance(entry, dict) else None
        if _AUDIT_ID.fullmatch(str(qid)) is None or "correct_answer" not in entry:
            raise DatasetError(
                f"{path}: entry {index}: needs question_id like 'locomo_0_qa1' "
                "and correct_answer"
            )
    return entries


def place_audit(
    entries: list[dict[str, Any]], records: list[Any], counts: Counter[str]
) -> dict[int, dict[int, dict[str, Any]]]:
    """Audit entries by record, then question index, placed by what they say.

    The audit's `locomo_<n>_qa<m>` ids are positions in the full benchmark file,
    so in a split or a slice they point at other conversations. An entry is
    placed on the one question with its text, narrowed by its `sample_id` when
    it has one, then by its gold answer and cited evidence, and only last by the
    position its id names. An entry that fits no question, or several, is
    counted as unmatched and never applied: a fix on the wrong question is
    worse than none. Entries without question text can only go by position.
    """
    by_text: dict[str, list[tuple[int, int]]] = {}
    for r, record in enumerate(records):
        questions = record.get("qa") if isinstance(record, dict) else None
        for q, qa in enumerate(questions if isinstance(questions, list) else []):
            if isinstance(qa, dict):
                by_text.setdefault(_question_key(qa.get("question")), []).append((r, q))
    placed: dict[int, dict[int, dict[str, Any]]] = {}
    for entry in entries:
        match = _AUDIT_ID.fullmatch(str(entry["question_id"]))
        assert match is not None  # checked by _read_audit
        position = (int(match.group(1)), int(match.group(2)))
        if entry.get("question") is None:
            placed.setdefault(position[0], {})[position[1]] = entry
            continue
        hits = _narrowed(
            by_text.get(_question_key(entry["question"]), []), entry, records, position
        )
        if len(hits) == 1 and hits[0][1] not in placed.get(hits[0][0], {}):
            placed.setdefault(hits[0][0], {})[hits[0][1]] = entry
        else:
            counts["audit_unmatched"] += 1
    return placed


def _narrowed(
    hits: list[tuple[int, int]],
    entry: dict[str, Any],
    records: list[Any],
    position: tuple[int, int],
) -> list[tuple[int, int]]:
    """The questions with an entry's text that it can be about, fewest possible.

    A `sample_id` on the entry is a requirement; gold answer and cited evidence,
    then the id's position, only break ties.
    """
    sample_id = entry.get("sample_id")
    if sample_id is not None:
        hits = [(r, q) for r, q in hits if records[r].get("sample_id") == sample_id]
    for keep in (
        lambda r, q: _same_answer(entry, records[r]["qa"][q]),
        lambda r, q: (r, q) == position,
    ):
        if len(hits) <= 1:
            break
        hits = [(r, q) for r, q in hits if keep(r, q)] or hits
    return hits


def _question_key(text: Any) -> str:
    return " ".join(str(text).split()).casefold()


def _same_answer(entry: dict[str, Any], qa: dict[str, Any]) -> bool:
    """Whether an entry's gold answer and cited evidence are this question's."""
    answer = entry.get("golden_answer")
    cited = entry.get("cited_evidence")
    return (answer is None or str(answer) == str(qa.get("answer"))) and (
        cited is None or list(cited) == list(qa.get("evidence") or [])
    )


def match_audit(
    notes: dict[int, dict[str, Any]],
    questions: list[dict[str, Any]],
    counts: Counter[str],
) -> dict[int, dict[str, Any]]:
    """Audit entries by question index, checked against the question text.

    An entry whose index points at another question is matched by its text
    instead when exactly one question has that text; otherwise it is counted
    as unmatched and not applied, since a fix on the wrong question is worse
    than none.
    """
    matched: dict[int, dict[str, Any]] = {}
    misplaced: list[dict[str, Any]] = []
    for index, note in sorted(notes.items()):
        text = note.get("question")
        fits = index < len(questions) and (
            text is None or _same_question(text, questions[index].get("question"))
        )
        if fits:
            matched[index] = note
        else:
            misplaced.append(note)
    for note in misplaced:
        hits = [
            i
            for i, qa in enumerate(questions)
            if i not in matched
            and _same_question(note.get("question"), qa.get("question"))
        ]
        if len(hits) == 1:
            matched[hits[0]] = note
        else:
            counts["audit_unmatched"] += 1
    return matched


def _same_question(a: Any, b: Any) -> bool:
    return " ".join(str(a).split()).casefold() == " ".join(str(b).split()).casefold()


def audit_fields(
    note: dict[str, Any],
    fields: dict[str, Any],
    known: set[str],
    counts: Counter[str],
    apply: bool,
) -> dict[str, Any]:
    """A probe's fields as its audit note changes them (the fix only if `apply`)."""
    scratch: Counter[str] = Counter()
    fixed_evidence = usable_evidence(note.get("correct_evidence"), known, scratch)
    audit = AuditNote(
        error_type=str(note.get("error_type", "")),
        original_answer=fields["answer"],
        original_evidence=fields["evidence"],
        correct_answer=answer_text(note["correct_answer"]),
        correct_evidence=fixed_evidence,
        reasoning=str(note.get("reasoning", "")),
    )
    update: dict[str, Any] = {"audit": audit}
    if apply:
        counts["corrections_applied"] += 1
        update["corrected"] = True
        update["evidence"] = fixed_evidence
        # An abstention probe's gold answer stays "not known" by definition.
        if fields["kind"] != "abstention":
            update["answer"] = audit.correct_answer
    return update
