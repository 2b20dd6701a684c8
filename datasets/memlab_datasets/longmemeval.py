"""LongMemEval (Wu et al., 2024) loaded into the shared conversation records.

The published files (``longmemeval_s``, ``longmemeval_m``, ``longmemeval_oracle``)
are JSON lists of instances, each one question over its own haystack of dated
chat sessions. They are separately licensed evaluation data, so they are read
from a path and never vendored.

Mapping, one instance at a time:

- the instance is one `Conversation` (id and tenant: its ``question_id``) whose
  sessions are ``haystack_sessions``, named by ``haystack_session_ids`` and
  started at ``haystack_dates``, in date order (the file's order breaks ties);
- turn ids are ``<session id>:<n>`` (n from 1); a turn is timestamped at its
  session's date plus one minute per turn, and never before the turn ahead of
  it, so the transcript stays in order when sessions sit minutes apart;
- one `Probe`, asked after the last turn at ``question_date`` (`Probe.asked_at`;
  a question dated before the last turn's minute is asked at that turn's time),
  so a memory's clock reads the question's date when it answers. Its category
  is the question type's number (`categories.LONGMEMEVAL_CATEGORIES`); an id
  ending in ``_abs`` is an abstention probe whose gold answer is ``not known``.
  Turns marked ``has_answer`` are its evidence, and ``answer_session_ids`` its
  `Probe.evidence_sessions`.

Dates like ``2023/05/30 (Tue) 23:40`` carry no zone, so they are read as UTC.

Options pick instances: ``longmemeval:PATH[:key=value,...]`` (see
`LongMemEvalOptions`), e.g. ``longmemeval:data/longmemeval_s.json:limit=50``,
``...:question_type=multi-session+knowledge-update``, ``...:sample=50,seed=7``.
Filters apply first, then the seeded sample, then the limit; instances keep the
file's order throughout.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from memlab_datasets.categories import (
    ABSTENTION_ANSWER,
    LONGMEMEVAL_CATEGORIES,
)
from memlab_datasets.locomo import read_json
from memlab_datasets.types import Conversation, Dataset, Probe, Session
from memory_lab.errors import DatasetError
from memory_lab.recipes import parse_params
from memory_lab.types import Message

QUESTION_TYPES: dict[str, int] = {
    category.name: number for number, category in LONGMEMEVAL_CATEGORIES.items()
}
"""Question type -> probe category number."""

REQUIRED_FIELDS = (
    "question_id",
    "question_type",
    "question",
    "answer",
    "question_date",
    "haystack_session_ids",
    "haystack_dates",
    "haystack_sessions",
    "answer_session_ids",
)
ABSTENTION_SUFFIX = "_abs"
_DATE = re.compile(
    r"^\s*(\d{4})/(\d{1,2})/(\d{1,2})\s*(?:\(\w+\))?\s*(\d{1,2}):(\d{2})\s*$"
)
_ROLES = ("user", "assistant")


class LongMemEvalOptions(BaseModel):
    """Which instances of a LongMemEval file to load (all, by default)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    question_type: tuple[str, ...] = Field(
        default=(),
        description="Keep these question types only ('+' between several).",
    )
    sample: int | None = Field(
        default=None, ge=1, description="Keep a seeded random sample of N instances."
    )
    seed: int = Field(default=0, description="Seed of the sample.")
    limit: int | None = Field(
        default=None, ge=1, description="Keep the first N instances left."
    )

    @field_validator("question_type", mode="before")
    @classmethod
    def _split_types(cls, value: Any) -> Any:
        if isinstance(value, str):
            value = tuple(t.strip() for t in value.split("+") if t.strip())
        for name in value:
            if name not in QUESTION_TYPES:
                raise ValueError(
                    f"unknown question type {name!r} (known: "
                    f"{', '.join(QUESTION_TYPES)})"
                )
        return value

    def label(self) -> str:
        """The options as written back in a spec; '' when none are set."""
        parts = []
        if self.question_type:
            parts.append("question_type=" + "+".join(self.question_type))
        if self.sample is not None:
            parts.append(f"sample={self.sample},seed={self.seed}")
        if self.limit is not None:
            parts.append(f"limit={self.limit}")
        return ",".join(parts)


class _BadInstance(Exception):
    """An instance cannot be read; re-raised as DatasetError with file and index."""


def looks_like_longmemeval(data: Any) -> bool:
    """Whether parsed JSON has LongMemEval's shape (a list of question instances)."""
    return (
        isinstance(data, list)
        and bool(data)
        and isinstance(data[0], dict)
        and {"question_id", "haystack_sessions"} <= set(data[0])
    )


def split_argument(argument: str) -> tuple[str, str]:
    """The path and the option text of ``PATH[:key=value,...]``.

    The options start at the first ``:``-separated part holding ``=``; further
    ``:`` between options read as ``,`` (``PATH:limit=5:seed=1`` is allowed).
    """
    parts = argument.split(":")
    for i, part in enumerate(parts):
        if i and "=" in part:
            return ":".join(parts[:i]), ",".join(parts[i:])
    return argument, ""


def parse_options(text: str, spec: str = "") -> LongMemEvalOptions:
    """`LongMemEvalOptions` from ``key=value,...`` text.

    Raises:
        DatasetError: naming the bad option and listing the valid ones.
    """
    where = f"{spec}: " if spec else ""
    try:
        raw = parse_params(text, spec)
    except ValueError as exc:
        raise DatasetError(str(exc).replace("key=value", "option=value")) from None
    if "seed" in raw and "sample" not in raw:
        raise DatasetError(f"{where}seed only applies with sample=N")
    try:
        return LongMemEvalOptions.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        name = ".".join(str(p) for p in first["loc"][:1])
        valid = ", ".join(LongMemEvalOptions.model_fields)
        raise DatasetError(
            f"{where}{name}: {first['msg'].removeprefix('Value error, ')} "
            f"(options: {valid})"
        ) from None


def load_longmemeval_spec(argument: str) -> Dataset:
    """The dataset ``longmemeval:ARGUMENT`` names (``PATH[:options]``).

    Raises:
        DatasetError: for a bad option, a missing file or a malformed instance.
    """
    path, text = split_argument(argument.strip())
    if not path:
        raise DatasetError("longmemeval: needs a PATH, as longmemeval:PATH[:options]")
    return load_longmemeval(path, parse_options(text, f"longmemeval:{argument}"))


def load_longmemeval(
    path: str | Path, options: LongMemEvalOptions | None = None
) -> Dataset:
    """Load a LongMemEval JSON file from any path.

    Every instance is checked, selected or not, so a broken file fails whatever
    the options pick.

    Raises:
        DatasetError: naming the file, and the instance and field at fault.
    """
    path = Path(path)
    options = options or LongMemEvalOptions()
    records = read_json(path)
    if not isinstance(records, list):
        raise DatasetError(
            f"{path}: expected a JSON list of LongMemEval instances, "
            f"got a {type(records).__name__}"
        )
    if not records:
        raise DatasetError(f"{path}: no instances in the file")
    conversations: list[Conversation] = []
    seen: set[str] = set()
    for index, record in enumerate(records):
        label = record.get("question_id", "?") if isinstance(record, dict) else "?"
        try:
            conversation = _conversation(record)
        except (_BadInstance, ValidationError) as exc:
            raise DatasetError(
                f"{path}: instance {index} ({label}): {_reason(exc)}"
            ) from exc
        if conversation.id in seen:
            raise DatasetError(
                f"{path}: instance {index}: duplicate question_id {conversation.id!r}"
            )
        seen.add(conversation.id)
        conversations.append(conversation)
    chosen = select(conversations, options)
    if not chosen:
        raise DatasetError(f"{path}: no instance matches {options.label()}")
    label = options.label()
    return Dataset.build(
        name=path.stem + (f":{label}" if label else ""),
        conversations=chosen,
        metadata={
            "source": "longmemeval",
            "file": path.name,
            "options": label,
            "instances_in_file": len(conversations),
            # What `datasets describe` prints beside the counts.
            "counts": {
                "instances_in_file": len(conversations),
                "instances_picked": len(chosen),
                "turns_shifted": sum(c.metadata["turns_shifted"] for c in chosen),
                "questions_dated_before_last_turn": sum(
                    c.metadata["question_date"] != c.probes[0].asked_at.isoformat()
                    for c in chosen
                ),
            },
        },
    )


def select(
    conversations: list[Conversation], options: LongMemEvalOptions
) -> list[Conversation]:
    """The conversations the options keep, in the file's order."""
    kept = [
        c
        for c in conversations
        if not options.question_type
        or c.metadata["question_type"] in options.question_type
    ]
    if options.sample is not None and options.sample < len(kept):
        picked = set(
            random.Random(options.seed).sample(range(len(kept)), options.sample)
        )
        kept = [c for i, c in enumerate(kept) if i in picked]
    if options.limit is not None:
        kept = kept[: options.limit]
    return kept


def parse_date(text: Any) -> datetime:
    """LongMemEval's '2023/05/30 (Tue) 23:40' as an aware datetime (UTC).

    Raises:
        ValueError: when the text is not a date in that form.
    """
    match = _DATE.match(text) if isinstance(text, str) else None
    if match is None:
        raise ValueError(
            f"cannot read date {text!r} (expected like '2023/05/30 (Tue) 23:40')"
        )
    year, month, day, hour, minute = (int(g) for g in match.groups())
    try:
        return datetime(year, month, day, hour, minute, tzinfo=UTC)
    except ValueError as exc:
        raise ValueError(f"cannot read date {text!r} ({exc})") from None


def _reason(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}"
    return str(exc)


def _date(text: Any, where: str) -> datetime:
    try:
        return parse_date(text)
    except ValueError as exc:
        raise _BadInstance(f"{where}: {exc}") from None


def _list(record: dict[str, Any], field: str) -> list[Any]:
    value = record[field]
    if not isinstance(value, list):
        raise _BadInstance(f"{field}: expected a list, got {type(value).__name__}")
    return value


def _conversation(record: Any) -> Conversation:
    if not isinstance(record, dict):
        raise _BadInstance("expected a JSON object")
    missing = [f for f in REQUIRED_FIELDS if f not in record]
    if missing:
        raise _BadInstance(f"missing field {', '.join(map(repr, missing))}")
    qid = str(record["question_id"])
    qtype = str(record["question_type"])
    if qtype not in QUESTION_TYPES:
        raise _BadInstance(
            f"unknown question_type {qtype!r} (known: {', '.join(QUESTION_TYPES)})"
        )
    ids = [str(s) for s in _list(record, "haystack_session_ids")]
    dates = _list(record, "haystack_dates")
    bodies = _list(record, "haystack_sessions")
    if not len(ids) == len(dates) == len(bodies):
        raise _BadInstance(
            f"haystack_session_ids, haystack_dates and haystack_sessions differ in "
            f"length ({len(ids)}, {len(dates)}, {len(bodies)})"
        )
    if not ids:
        raise _BadInstance("no haystack sessions")
    if len(set(ids)) != len(ids):
        dupes = [s for s, n in Counter(ids).items() if n > 1]
        raise _BadInstance(f"duplicate haystack session ids {dupes[:3]}")
    starts = [_date(d, f"haystack_dates[{i}]") for i, d in enumerate(dates)]
    asked = _date(record["question_date"], "question_date")

    sessions: list[Session] = []
    turns: list[Message] = []
    evidence: list[str] = []
    shifted = 0
    for i in sorted(range(len(ids)), key=lambda i: starts[i]):
        body = bodies[i]
        if not isinstance(body, list):
            raise _BadInstance(f"haystack_sessions[{i}]: expected a list of turns")
        turn_ids: list[str] = []
        for n, raw in enumerate(body, start=1):
            where = f"haystack_sessions[{i}][{n - 1}]"
            if not isinstance(raw, dict) or "role" not in raw or "content" not in raw:
                raise _BadInstance(f"{where}: expected an object with role and content")
            role = raw["role"]
            if role not in _ROLES:
                raise _BadInstance(f"{where}: role {role!r} is not user or assistant")
            at = starts[i] + timedelta(minutes=n - 1)
            if turns and at <= turns[-1].timestamp:
                at = turns[-1].timestamp + timedelta(seconds=1)
                shifted += 1
            turn = Message(
                id=f"{ids[i]}:{n}",
                tenant=qid,
                session=ids[i],
                role=role,
                content=str(raw["content"]),
                timestamp=at,
            )
            if raw.get("has_answer") is True:
                evidence.append(turn.id)
            turn_ids.append(turn.id)
            turns.append(turn)
        sessions.append(Session(id=ids[i], started_at=starts[i], turn_ids=turn_ids))
    if not turns:
        raise _BadInstance("no turns in any haystack session")

    abstention = qid.endswith(ABSTENTION_SUFFIX)
    answer = record["answer"]
    if isinstance(answer, float) and answer.is_integer():
        answer = int(answer)
    probe = Probe(
        id=f"{qid}:q",
        asked_at=max(asked, turns[-1].timestamp),
        question=str(record["question"]),
        answer=ABSTENTION_ANSWER if abstention else str(answer),
        evidence=evidence,
        after_turn=turns[-1].id,
        category=QUESTION_TYPES[qtype],
        kind="abstention"
        if abstention
        else LONGMEMEVAL_CATEGORIES[QUESTION_TYPES[qtype]].kind,
        evidence_sessions=[
            str(s) for s in _list(record, "answer_session_ids") if str(s) in ids
        ],
    )
    return Conversation(
        id=qid,
        tenant=qid,
        source="longmemeval",
        speakers={"user": "user", "assistant": "assistant"},
        sessions=sessions,
        turns=turns,
        probes=[probe],
        metadata={
            "question_type": qtype,
            "question_date": asked.isoformat(),
            "original_answer": str(answer),
            "turns_shifted": shifted,
        },
    )
