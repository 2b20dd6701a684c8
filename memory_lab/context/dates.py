"""Dates a reader can use: spoken calendar dates, and relative ones resolved.

People date things relative to when they speak ("yesterday", "last Friday", "two
days ago", "last year"). Weeks later that turn is only useful if the memory says
which day was meant, so lines shown from memory carry the resolved date beside the
words. Only unambiguous expressions are resolved; "last week" or "recently" are
left as said, with the turn's own date beside them.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from functools import lru_cache

from memory_lab.text import NUMBER_WORD_PATTERN, NUMBER_WORDS, spoken_date

_WEEKDAYS = {
    "monday": 0,
    "mon": 0,
    "tuesday": 1,
    "tue": 1,
    "tues": 1,
    "wednesday": 2,
    "wed": 2,
    "thursday": 3,
    "thu": 3,
    "thur": 3,
    "thurs": 3,
    "friday": 4,
    "fri": 4,
    "saturday": 5,
    "sat": 5,
    "sunday": 6,
    "sun": 6,
}
_NUMBER = rf"(\d{{1,2}}|{NUMBER_WORD_PATTERN})"
_PATTERNS = (
    ("day", re.compile(r"\b(yesterday|last night)\b", re.I)),
    ("days", re.compile(rf"\b{_NUMBER} days? ago\b", re.I)),
    ("weekday", re.compile(r"\blast (" + "|".join(_WEEKDAYS) + r")\b\.?", re.I)),
    ("month", re.compile(r"\b(last|this|next) month\b", re.I)),
    ("year", re.compile(r"\b(last|this|next) year\b", re.I)),
    ("years", re.compile(rf"\b{_NUMBER} years? ago\b", re.I)),
    ("tomorrow", re.compile(r"\btomorrow\b", re.I)),
)


def _month(day: date, shift: int) -> str:
    index = day.year * 12 + day.month - 1 + shift
    return date(index // 12, index % 12 + 1, 1).strftime("%B %Y")


def _count(word: str) -> int:
    word = word.lower()
    return int(word) if word.isdigit() else NUMBER_WORDS.get(word, 0)


def _resolve(kind: str, match: re.Match, day: date) -> str | None:
    if kind == "day":
        return spoken_date(day - timedelta(days=1))
    if kind == "tomorrow":
        return spoken_date(day + timedelta(days=1))
    if kind == "days":
        n = _count(match.group(1))
        return spoken_date(day - timedelta(days=n)) if 0 < n <= 14 else None
    if kind == "weekday":
        target = _WEEKDAYS[match.group(1).lower()]
        back = (day.weekday() - target) % 7 or 7
        return f"{(day - timedelta(days=back)).strftime('%A')} " + spoken_date(
            day - timedelta(days=back)
        )
    if kind == "month":
        shift = {"last": -1, "this": 0, "next": 1}[match.group(1).lower()]
        return _month(day, shift)
    if kind == "year":
        shift = {"last": -1, "this": 0, "next": 1}[match.group(1).lower()]
        return str(day.year + shift)
    if kind == "years":
        n = _count(match.group(1))
        return str(day.year - n) if 0 < n <= 60 else None
    return None


def resolved_dates(text: str, when: datetime) -> list[str]:
    """'yesterday = 7 May 2023'-style notes for the relative dates in `text`.

    In order of appearance, each expression once.
    """
    day = when.date()
    found: list[tuple[int, str]] = []
    seen: set[str] = set()
    for kind, pattern in _PATTERNS:
        for match in pattern.finditer(text):
            said = match.group(0).rstrip(".").lower()
            value = _resolve(kind, match, day)
            if value and said not in seen:
                seen.add(said)
                found.append((match.start(), f"{said} = {value}"))
    return [note for _, note in sorted(found)]


@lru_cache(maxsize=65_536)
def dated(text: str, when: datetime) -> str:
    """`text` with its relative dates resolved in a trailing bracket, if any.

    Cached: every question re-renders the same candidate turns, and the pattern
    scan is most of what rendering a turn costs.
    """
    notes = resolved_dates(text, when)
    return f"{text} [{'; '.join(notes)}]" if notes else text
