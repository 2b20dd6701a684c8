"""LoCoMo (Maharana et al., 2024) loaded into the shared conversation records.

The file is separately licensed evaluation data, so it is read from a path and
never vendored. Mapping: speaker_a is the 'user' role and speaker_b the
'assistant' role (names kept as speakers); the tenant is the sample id; turn ids
are LoCoMo's dia_ids; turn timestamps are the session's date plus one minute per
turn. LoCoMo's dates carry no zone, so they are read as UTC.

The answer key has known faults. Malformed or dangling evidence ids are repaired
where possible and counted, never fatal; the published audit's corrections can be
attached and, optionally, applied (each probe keeps both versions).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from memlab_datasets.categories import ABSTENTION_ANSWER, CATEGORIES, kind_of
from memlab_datasets.types import (
    AuditNote,
    Conversation,
    Dataset,
    GoldFact,
    Probe,
    Session,
)
from memory_lab.errors import DatasetError
from memory_lab.types import Message

_SESSION_KEY = re.compile(r"session_(\d+)")
_OBSERVATION_KEY = re.compile(r"session_(\d+)_observation")
_TURN_ID = re.compile(r"D(\d+):(\d+)")
# Also accepts the stray colon of ids like "D:11:26".
_LOOSE_TURN_ID = re.compile(r"D:?(\d+):(\d+)")
_AUDIT_ID = re.compile(r"locomo_(\d+)_qa(\d+)")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y")
_COUNT_KEYS = (
    "evidence_ids",
    "evidence_malformed",
    "evidence_recovered",
    "evidence_unparseable",
    "evidence_dangling",
    "observation_dangling",
    "audit_matched",
    "audit_unmatched",
    "corrections_applied",
)


class _BadRecord(Exception):
    """A record cannot be read; re-raised as DatasetError with file and index."""


def load_locomo(
    path: str | Path,
    audit: str | Path | None = None,
    apply_corrections: bool = True,
) -> Dataset:
    """Load a LoCoMo JSON file (the full set or a split) from any path.

    Args:
        path: The LoCoMo JSON list.
        audit: Optional audit file (locomo-audit format) with answer-key fixes.
        apply_corrections: With an audit, put the corrected answer and evidence in
            `answer`/`evidence` (else keep the original there); the other version
            stays in `Probe.audit` either way.

    Raises:
        DatasetError: naming the file and the first bad record.
    """
    path = Path(path)
    records = read_json(path)
    if not isinstance(records, list):
        raise DatasetError(f"{path}: expected a JSON list of conversations")
    totals: Counter[str] = Counter({key: 0 for key in _COUNT_KEYS})
    notes = (
        _place_audit(_read_audit(Path(audit)), records, totals)
        if audit is not None
        else {}
    )
    conversations: list[Conversation] = []
    for index, record in enumerate(records):
        label = record.get("sample_id", "?") if isinstance(record, dict) else "?"
        try:
            conversation = _conversation(
                record, notes.pop(index, {}), apply_corrections
            )
        except (_BadRecord, KeyError, TypeError, ValueError, ValidationError) as exc:
            raise DatasetError(
                f"{path}: record {index} ({label}): {_reason(exc)}"
            ) from exc
        totals.update(conversation.metadata["counts"])
        conversations.append(conversation)
    totals["audit_unmatched"] += sum(len(rest) for rest in notes.values())
    if audit is None:
        corrections = "none"
    else:
        corrections = "applied" if apply_corrections else "attached, not applied"
    name = path.stem + ("+audit" if audit is not None and apply_corrections else "")
    return Dataset.build(
        name=name,
        conversations=conversations,
        metadata={
            "source": "locomo",
            "file": path.name,
            "audit_file": Path(audit).name if audit is not None else None,
            "corrections": corrections,
            "counts": dict(totals),
        },
    )


def read_json(path: Path) -> Any:
    """Parse a JSON file, turning every failure into a DatasetError naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DatasetError(
            f"{path}: cannot read dataset file ({exc.strerror})"
        ) from exc
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise DatasetError(
            f"{path}: not valid JSON at line {exc.lineno}, "
            f"column {exc.colno}: {exc.msg}"
        ) from exc


def looks_like_locomo(data: Any) -> bool:
    """Whether parsed JSON has LoCoMo's shape (a list of conversations with qa)."""
    return (
        isinstance(data, list)
        and bool(data)
        and isinstance(data[0], dict)
        and "conversation" in data[0]
        and "qa" in data[0]
    )


def parse_session_date(text: str) -> datetime:
    """LoCoMo's '1:56 pm on 8 May, 2023' as an aware datetime (UTC).

    Raises:
        ValueError: when the string matches none of the known formats.
    """
    cleaned = " ".join(text.split())
    for fmt in _DATE_FORMATS:
        try:
            return datetime.strptime(cleaned, fmt).replace(tzinfo=UTC)
        except ValueError:
            continue
    raise ValueError(f"unrecognised session date {text!r}")


def parse_evidence(raw: object) -> tuple[list[str], bool]:
    """Turn ids in one evidence entry, and whether the entry was well formed.

    "D8:6; D9:17" gives two ids, "D:11:26" gives "D11:26", "D" gives none.
    """
    text = str(raw).strip()
    if _TURN_ID.fullmatch(text):
        return [text], True
    ids = [f"D{s}:{t}" for s, t in _LOOSE_TURN_ID.findall(text)]
    return ids, False


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}"
    return str(exc)


def _conversation(
    record: dict[str, Any], notes: dict[int, dict[str, Any]], apply: bool
) -> Conversation:
    if not isinstance(record, dict):
        raise _BadRecord("expected a JSON object")
    sample_id = str(record["sample_id"])
    body = record["conversation"]
    speakers = {"user": str(body["speaker_a"]), "assistant": str(body["speaker_b"])}
    roles = {speakers["user"]: "user", speakers["assistant"]: "assistant"}
    summaries = record.get("session_summary") or {}
    counts: Counter[str] = Counter({key: 0 for key in _COUNT_KEYS})

    numbers = sorted(
        int(m.group(1))
        for key, value in body.items()
        if (m := _SESSION_KEY.fullmatch(key)) and isinstance(value, list)
    )
    sessions: list[Session] = []
    turns: list[Message] = []
    for number in numbers:
        session_id = f"session_{number}"
        date_key = f"{session_id}_date_time"
        if date_key not in body:
            raise _BadRecord(f"{session_id} has no {date_key}")
        started = parse_session_date(str(body[date_key]))
        ids: list[str] = []
        for i, raw in enumerate(body[session_id]):
            turn = _turn(raw, sample_id, session_id, started, i, roles)
            ids.append(turn.id)
            turns.append(turn)
        sessions.append(
            Session(
                id=session_id,
                started_at=started,
                turn_ids=ids,
                summary=str(summaries.get(f"{session_id}_summary", "")),
            )
        )
    known = {t.id for t in turns}
    if len(known) != len(turns):
        dupes = [i for i, n in Counter(t.id for t in turns).items() if n > 1]
        raise _BadRecord(f"duplicate turn ids {dupes[:3]}")
    if not turns:
        raise _BadRecord("no turns")

    last = turns[-1].id
    questions = record["qa"]
    matched = _match_audit(notes, questions, counts)
    probes = [
        _probe(qa, i, sample_id, last, known, counts, matched.get(i), apply)
        for i, qa in enumerate(questions)
    ]
    facts = _observations(record.get("observation") or {}, known, counts)
    return Conversation(
        id=sample_id,
        tenant=sample_id,
        source="locomo",
        speakers=speakers,
        sessions=sessions,
        turns=turns,
        probes=probes,
        gold_facts=facts,
        metadata={"counts": dict(counts)},
    )


def _turn(
    raw: Any,
    tenant: str,
    session_id: str,
    started: datetime,
    index: int,
    roles: dict[str, str],
) -> Message:
    if not isinstance(raw, dict):
        raise _BadRecord(f"{session_id} turn {index}: expected an object")
    speaker = str(raw["speaker"])
    if speaker not in roles:
        raise _BadRecord(
            f"{session_id} turn {index}: speaker {speaker!r} is neither speaker_a "
            "nor speaker_b"
        )
    text = str(raw["text"])
    caption = raw.get("blip_caption")
    if caption:
        text = f"{text} [shares a photo: {caption}]"
    return Message(
        id=str(raw["dia_id"]),
        tenant=tenant,
        session=session_id,
        role=roles[speaker],
        content=text,
        timestamp=started + timedelta(minutes=index),
        speaker=speaker,
    )


def _evidence(raw: Any, known: set[str], counts: Counter[str]) -> list[str]:
    """Usable turn ids from an evidence list; everything else is counted."""
    out: list[str] = []
    for entry in raw or []:
        counts["evidence_ids"] += 1
        ids, clean = parse_evidence(entry)
        if not clean:
            counts["evidence_malformed"] += 1
            if ids:
                counts["evidence_recovered"] += len(ids)
            else:
                counts["evidence_unparseable"] += 1
        for turn_id in ids:
            if turn_id not in known:
                counts["evidence_dangling"] += 1
            elif turn_id not in out:
                out.append(turn_id)
    return out


def _answer_text(value: Any) -> str:
    """Answers are strings; a few in the file are numbers."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def _probe(
    qa: dict[str, Any],
    index: int,
    sample_id: str,
    last: str,
    known: set[str],
    counts: Counter[str],
    note: dict[str, Any] | None,
    apply: bool,
) -> Probe:
    where = f"qa {index}"
    category = int(qa["category"])
    if category not in CATEGORIES:
        raise _BadRecord(f"{where}: unknown category {category}")
    kind = kind_of(category)
    if kind == "abstention":
        answer = ABSTENTION_ANSWER
    elif "answer" in qa and qa["answer"] is not None:
        answer = _answer_text(qa["answer"])
    else:
        raise _BadRecord(f"{where}: category {category} question has no answer")
    evidence = _evidence(qa.get("evidence"), known, counts)
    adversarial = qa.get("adversarial_answer")
    fields: dict[str, Any] = {
        "id": f"{sample_id}:q{index}",
        "question": str(qa["question"]),
        "answer": answer,
        "evidence": evidence,
        "after_turn": last,
        "category": category,
        "kind": kind,
        "adversarial_answer": None if adversarial is None else str(adversarial),
    }
    if note is not None:
        counts["audit_matched"] += 1
        fields.update(_correction(note, fields, known, counts, apply))
    return Probe(**fields)


def _correction(
    note: dict[str, Any],
    fields: dict[str, Any],
    known: set[str],
    counts: Counter[str],
    apply: bool,
) -> dict[str, Any]:
    scratch: Counter[str] = Counter()
    fixed_evidence = _evidence(note.get("correct_evidence"), known, scratch)
    audit = AuditNote(
        error_type=str(note.get("error_type", "")),
        original_answer=fields["answer"],
        original_evidence=fields["evidence"],
        correct_answer=_answer_text(note["correct_answer"]),
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


def _same_question(a: Any, b: Any) -> bool:
    return " ".join(str(a).split()).casefold() == " ".join(str(b).split()).casefold()


def _match_audit(
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


def _observations(
    raw: dict[str, Any], known: set[str], counts: Counter[str]
) -> list[GoldFact]:
    facts: list[GoldFact] = []
    ordered = sorted(
        (int(m.group(1)), value)
        for key, value in raw.items()
        if (m := _OBSERVATION_KEY.fullmatch(key))
    )
    for number, by_speaker in ordered:
        n = 0
        for speaker, entries in by_speaker.items():
            for entry in entries:
                text, refs = entry[0], entry[1]
                refs = refs if isinstance(refs, list) else [refs]
                scratch: Counter[str] = Counter()
                ids = _evidence(refs, known, scratch)
                if not ids:
                    counts["observation_dangling"] += 1
                    continue
                n += 1
                facts.append(
                    GoldFact(
                        subject=str(speaker),
                        category="observation",
                        key=f"session_{number}:obs{n}",
                        value=str(text),
                        turn_id=ids[0],
                        turn_ids=ids,
                    )
                )
    return facts


def _read_audit(path: Path) -> list[dict[str, Any]]:
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


def _place_audit(
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
