"""When a stated fact began to hold: date phrases resolved against the message.

"She started on 1 November 2025", "we've used K3 since March", "I moved here
yesterday": the fact's valid time begins at the date the sentence names, not when
memory heard it. Absolute dates are parsed by python-dateutil; the relative forms
chat uses ("yesterday", "last week", "three days ago", "since March") are
resolved here against the message's timestamp, in the message's time zone.

Only phrases that date a beginning count ("on", "since", "from", "in", "as of",
relative words), and only dates not after the message. Deadlines ("before May
12", "by Friday", "until June") say when something is due, not when it began,
and are left to suggestions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime, timedelta

from dateutil import parser as date_parser
from dateutil.relativedelta import relativedelta

from memory_lab.text import NUMBER_WORD_PATTERN, NUMBER_WORDS
from memory_lab.types import FactCandidate, Message

_MONTHS = (
    "january february march april may june july august september october november "
    "december jan feb mar apr jun jul aug sep sept oct nov dec"
).split()
_MONTH = "(?:" + "|".join(_MONTHS) + r")\.?"
_COUNT = rf"(?P<n>\d+|{NUMBER_WORD_PATTERN})"
_UNIT = r"(?P<unit>day|week|month|year)s?"
_DAY_MONTH = rf"\d{{1,2}}(?:st|nd|rd|th)?\s+{_MONTH}(?:,?\s+\d{{4}})?"
_MONTH_DAY = rf"{_MONTH}\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
_MONTH_YEAR = rf"{_MONTH}(?:\s+\d{{4}})?"
_ISO = r"\d{4}-\d{2}-\d{2}"
_ABSOLUTE = re.compile(
    rf"\b(?P<prep>on|since|from|as\s+of|in|starting)\s+(?:the\s+)?"
    rf"(?P<date>{_ISO}|{_DAY_MONTH}|{_MONTH_DAY}|{_MONTH_YEAR}|\d{{4}})\b",
    re.I,
)
_AGO = re.compile(rf"\b{_COUNT}\s+{_UNIT}\s+ago\b", re.I)
_LAST = re.compile(r"\b(?:since\s+)?last\s+(?P<unit>week|month|year)\b", re.I)
_YESTERDAY = re.compile(r"\b(?:since\s+)?yesterday\b", re.I)
_DEADLINE = re.compile(r"\b(?:before|by|until|till|due)\s*$", re.I)


def _start_of_day(moment: datetime) -> datetime:
    return moment.replace(hour=0, minute=0, second=0, microsecond=0)


def _absolute(match: re.Match[str], said_at: datetime) -> datetime | None:
    text = match.group("date")
    default = _start_of_day(said_at).replace(month=1, day=1)
    try:
        parsed = date_parser.parse(text, default=default)
    except (ValueError, OverflowError):
        return None
    parsed = parsed.replace(tzinfo=said_at.tzinfo)
    has_year = bool(re.search(r"\d{4}", text))
    if not has_year and match.group("prep").lower() in ("since", "in", "from"):
        # "since March" said in February means last March.
        if parsed > said_at:
            parsed -= relativedelta(years=1)
    return parsed


def _relative(text: str, said_at: datetime) -> datetime | None:
    day = _start_of_day(said_at)
    match = _AGO.search(text)
    if match:
        raw = match.group("n").lower()
        n = int(raw) if raw.isdigit() else NUMBER_WORDS[raw]
        unit = match.group("unit").lower()
        return day - relativedelta(**{unit + "s": n})
    match = _LAST.search(text)
    if match:
        unit = match.group("unit").lower()
        if unit == "week":
            monday = day - timedelta(days=day.weekday())
            return monday - timedelta(weeks=1)
        if unit == "month":
            return day.replace(day=1) - relativedelta(months=1)
        return day.replace(month=1, day=1) - relativedelta(years=1)
    if _YESTERDAY.search(text):
        return day - timedelta(days=1)
    return None


def resolve_valid_from(sentence: str, said_at: datetime) -> datetime | None:
    """The instant a sentence says its fact began, or None when it names none.

    Args:
        sentence: The statement (a fact's evidence).
        said_at: When it was said; relative phrases count from this, and a date
            without a year takes this year.
    """
    for match in _ABSOLUTE.finditer(sentence):
        if _DEADLINE.search(sentence[: match.start()]):
            continue
        resolved = _absolute(match, said_at)
        # A date still to come names an event or a due date ("her birthday is on
        # 3 May"), not when a stated fact began.
        if resolved is not None and resolved <= said_at:
            return resolved
    return _relative(sentence, said_at)


def date_candidates(
    candidates: Sequence[FactCandidate], turns: Sequence[Message]
) -> list[FactCandidate]:
    """Candidates with their valid time set: the date they state, else their turn's.

    A candidate that already carries a valid time (an LLM brain may give one) is
    kept as it is; one that cites no known turn is left for the store to date.
    """
    said = {m.id: m.timestamp for m in turns}
    out = []
    for c in candidates:
        when = next((said[t] for t in c.turn_ids if t in said), None)
        if c.valid_from is not None or when is None:
            out.append(c)
            continue
        start = resolve_valid_from(c.evidence, when) if c.evidence else None
        update: dict = {"valid_from": start or when}
        if start is not None:
            # The date now lives in valid time; "Visma yesterday" is "Visma".
            update["value"] = without_trailing_date(c.value)
        out.append(c.model_copy(update=update))
    return out


def _bare_year(match: re.Match[str]) -> bool:
    """'in 1990' may be the value itself (a birth year), not when it began."""
    groups = match.re.groupindex
    return "date" in groups and bool(re.fullmatch(r"\d{4}", match.group("date")))


def without_trailing_date(value: str) -> str:
    """`value` without a date phrase at its end, unless nothing else is left."""
    for pattern in (_ABSOLUTE, _AGO, _LAST, _YESTERDAY):
        ends = [
            m
            for m in pattern.finditer(value)
            if not value[m.end() :].strip(" .,") and not _bare_year(m)
        ]
        if ends and value[: ends[-1].start()].strip(" ,"):
            return value[: ends[-1].start()].rstrip(" ,")
    return value


_WEEKDAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_DUE = re.compile(
    r"\b(?:before|by|until|till|due(?:\s+on|\s+by)?|no\s+later\s+than)\s+(?:the\s+)?"
    rf"(?P<date>{_ISO}|{_DAY_MONTH}|{_MONTH_DAY}|(?:next\s+)?(?:"
    + "|".join(_WEEKDAYS)
    + r"))\b",
    re.I,
)


def resolve_deadline(sentence: str, said_at: datetime) -> datetime | None:
    """The day something is due by ("before May 12", "by Friday"), or None.

    A date without a year is the next one on or after the day it was said; a
    weekday is the next such day. Returns the start of that day.
    """
    match = _DUE.search(sentence)
    if match is None:
        return None
    text = match.group("date").lower()
    day = _start_of_day(said_at)
    name = text.removeprefix("next").strip()
    if name in _WEEKDAYS:
        ahead = (_WEEKDAYS.index(name) - day.weekday()) % 7
        if text.startswith("next") and ahead == 0:
            ahead = 7
        return day + timedelta(days=ahead)
    try:
        parsed = date_parser.parse(text, default=day.replace(month=1, day=1))
    except (ValueError, OverflowError):
        return None
    parsed = parsed.replace(tzinfo=said_at.tzinfo)
    if not re.search(r"\d{4}", text) and parsed < day:
        parsed += relativedelta(years=1)
    return parsed
