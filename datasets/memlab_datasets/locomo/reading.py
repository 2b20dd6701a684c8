"""Reading LoCoMo's file and its fields: JSON, dates, evidence ids, answers."""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory_lab.errors import DatasetError

_TURN_ID = re.compile(r"D(\d+):(\d+)")
# Also accepts the stray colon of ids like "D:11:26".
_LOOSE_TURN_ID = re.compile(r"D:?(\d+):(\d+)")
_DATE_FORMATS = ("%I:%M %p on %d %B, %Y", "%I:%M %p on %d %b, %Y")


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


def usable_evidence(raw: Any, known: set[str], counts: Counter[str]) -> list[str]:
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


def answer_text(value: Any) -> str:
    """Answers are strings; a few in the file are numbers."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)
