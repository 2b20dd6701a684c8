"""One LoCoMo record converted into a `Conversation`: sessions, turns, probes, facts.

Speaker_a is the user and speaker_b the assistant; turn ids are LoCoMo's
dia_ids and turn timestamps the session's date plus one minute per turn.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

from memlab_datasets.categories import ABSTENTION_ANSWER, CATEGORIES, kind_of
from memlab_datasets.locomo.audit import audit_fields, match_audit
from memlab_datasets.locomo.reading import (
    answer_text,
    parse_session_date,
    usable_evidence,
)
from memlab_datasets.types import Conversation, GoldFact, Probe, Session
from memory_lab.types import Message

_SESSION_KEY = re.compile(r"session_(\d+)")
_OBSERVATION_KEY = re.compile(r"session_(\d+)_observation")
COUNT_KEYS = (
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


class BadRecord(Exception):
    """A record cannot be read; re-raised as DatasetError with file and index."""


def convert_record(
    record: dict[str, Any], notes: dict[int, dict[str, Any]], apply: bool
) -> Conversation:
    """One record, with its audit notes by question index placed on its probes.

    Raises:
        BadRecord: when the record cannot be read as a conversation.
    """
    if not isinstance(record, dict):
        raise BadRecord("expected a JSON object")
    sample_id = str(record["sample_id"])
    body = record["conversation"]
    speakers = {"user": str(body["speaker_a"]), "assistant": str(body["speaker_b"])}
    roles = {speakers["user"]: "user", speakers["assistant"]: "assistant"}
    summaries = record.get("session_summary") or {}
    counts: Counter[str] = Counter({key: 0 for key in COUNT_KEYS})

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
            raise BadRecord(f"{session_id} has no {date_key}")
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
        raise BadRecord(f"duplicate turn ids {dupes[:3]}")
    if not turns:
        raise BadRecord("no turns")

    last = turns[-1].id
    questions = record["qa"]
    matched = match_audit(notes, questions, counts)
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
        raise BadRecord(f"{session_id} turn {index}: expected an object")
    speaker = str(raw["speaker"])
    if speaker not in roles:
        raise BadRecord(
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
        raise BadRecord(f"{where}: unknown category {category}")
    kind = kind_of(category)
    if kind == "abstention":
        answer = ABSTENTION_ANSWER
    elif "answer" in qa and qa["answer"] is not None:
        answer = answer_text(qa["answer"])
    else:
        raise BadRecord(f"{where}: category {category} question has no answer")
    evidence = usable_evidence(qa.get("evidence"), known, counts)
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
        fields.update(audit_fields(note, fields, known, counts, apply))
    return Probe(**fields)


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
                ids = usable_evidence(refs, known, scratch)
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
