"""Bitemporal reads: what was true at a time, as memory believed it at a time.

Pure over rows, so the rule can be checked against a plain reference model and
any store's rows (SQLite or in memory) give the same answer.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from memory_lab.types import Fact


def as_of(
    rows: Iterable[Fact],
    *,
    at: datetime,
    believed_at: datetime,
    subject: str | None = None,
) -> list[Fact]:
    """Rows that held in the world at `at`, as memory stood at `believed_at`.

    `at` is valid time (when the fact was true); `believed_at` is record time
    (what memory had learned and not yet ended by then). Asking about last month
    with today's knowledge (`at` past, `believed_at` now) answers with corrected
    history; asking with last month's knowledge answers as memory did then.
    """
    return [
        row
        for row in rows
        if subject in (None, row.subject)
        and row.believed_at(believed_at)
        and row.holds_at(at, believed_at=believed_at)
    ]


def current_view_at(
    rows: Iterable[Fact], when: datetime, *, subject: str | None = None
) -> list[Fact]:
    """The rows memory held as current at record time `when` (`Fact.current_at`).

    Background work reads facts as they stood at its turn's time; this gives the
    same rows whether or not the clock has moved on since, so what a job reads
    does not depend on how far the worker lags behind the turns.
    """
    return [
        row for row in rows if subject in (None, row.subject) and row.current_at(when)
    ]
