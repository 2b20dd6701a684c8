"""Trigger C: compress each finished day (or week), and after a long silence.

Its episodes never straddle a day (or week) boundary: the period rule lives
here once, for the decision and for cutting spans into episodes.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pydantic import Field, field_validator

from memory_lab.triggers.base import Compress, TriggerParams, WindowView
from memory_lab.triggers.registry import register
from memory_lab.types import Message


class TimeTrigger(TriggerParams):
    """Compress each finished day or week; also compress after an idle gap."""

    granularity: Literal["day", "week"] = Field(
        default="day", description="The period whose end compresses it."
    )
    idle_gap_minutes: int | None = Field(
        default=180, ge=1, description="Compress everything before this much silence."
    )
    timezone: str = Field(default="UTC", description="Where day boundaries fall.")

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, zone: str) -> str:
        try:
            ZoneInfo(zone)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {zone!r}") from None
        return zone


def period_of(when: datetime, p: TimeTrigger) -> date:
    """The day (or the ISO week's Monday) `when` falls in, in the trigger's zone."""
    local = when.astimezone(ZoneInfo(p.timezone)).date()
    if p.granularity == "week":
        return date.fromordinal(local.toordinal() - local.weekday())
    return local


def new_period(before: Message, after: Message, p: TimeTrigger) -> bool:
    """Whether the two turns fall in different periods (an episode cut)."""
    return period_of(before.timestamp, p) != period_of(after.timestamp, p)


def time_period(view: WindowView, p: TimeTrigger) -> Compress | None:
    """C: compress every message of a finished day (or week), and before an idle gap."""
    today = period_of(view.now, p)
    by_period = 0
    for i, m in enumerate(view):
        if period_of(m.timestamp, p) < today:
            by_period = i + 1
    by_idle = 0
    if p.idle_gap_minutes is not None and len(view):
        gap_s = p.idle_gap_minutes * 60
        stamps = [m.timestamp for m in view] + [view.now]
        for i in range(len(view)):
            if (stamps[i + 1] - stamps[i]).total_seconds() >= gap_s:
                by_idle = i + 1
    count = max(by_period, by_idle)
    if not count:
        return None
    if by_period >= by_idle:
        return Compress(
            count,
            f"C: {count} messages from before {today.isoformat()} "
            f"({p.granularity} boundary)",
        )
    return Compress(
        count, f"C: idle gap of {p.idle_gap_minutes} min after message {count}"
    )


register("C", TimeTrigger, time_period, splits=new_period, time_limited=False)
