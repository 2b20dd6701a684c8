"""Compression triggers A, B, C and their any-of combinations.

A trigger decision is a pure function of the window, the clock's time and the
recipe: no I/O, no hidden state, so researchers can replay and compare them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime
from zoneinfo import ZoneInfo

from memory_lab.config import (
    MessageCountTrigger,
    Recipe,
    TimeTrigger,
    TokenCountTrigger,
)
from memory_lab.tokens import TokenCounter
from memory_lab.types import Message, TriggerDecision


def decide_message_count(
    window: Sequence[Message], trig: MessageCountTrigger
) -> tuple[int, str]:
    """A: at `max_messages`, compress all but the last `keep_last`."""
    if len(window) < trig.max_messages:
        return 0, ""
    count = len(window) - trig.keep_last
    return (
        count,
        f"A: {len(window)} messages >= {trig.max_messages}; keep last {trig.keep_last}",
    )


def decide_token_count(
    window: Sequence[Message], trig: TokenCountTrigger, counter: TokenCounter
) -> tuple[int, str]:
    """B: above the high-water mark, compress the oldest until at or below low water."""
    sizes = [counter.count(m.content) for m in window]
    total = sum(sizes)
    if total <= trig.high_water:
        return 0, ""
    count, remaining = 0, total
    while count < len(sizes) and remaining > trig.low_water:
        remaining -= sizes[count]
        count += 1
    return (
        count,
        f"B: {total} tokens > {trig.high_water}; "
        f"compress to {remaining} <= {trig.low_water}",
    )


def period_of(when: datetime, trig: TimeTrigger) -> date:
    """The day (or the ISO week's Monday) `when` falls in, in the trigger's zone."""
    local = when.astimezone(ZoneInfo(trig.timezone)).date()
    if trig.granularity == "week":
        return date.fromordinal(local.toordinal() - local.weekday())
    return local


def decide_time(
    window: Sequence[Message], trig: TimeTrigger, now: datetime
) -> tuple[int, str]:
    """C: compress every message from a finished day (or week).

    Also compresses every message before an idle gap.
    """
    today = period_of(now, trig)
    by_period = 0
    for i, m in enumerate(window):
        if period_of(m.timestamp, trig) < today:
            by_period = i + 1
    by_idle = 0
    if trig.idle_gap_minutes is not None and window:
        gap_s = trig.idle_gap_minutes * 60
        stamps = [m.timestamp for m in window] + [now]
        for i in range(len(window)):
            if (stamps[i + 1] - stamps[i]).total_seconds() >= gap_s:
                by_idle = i + 1
    count = max(by_period, by_idle)
    if not count:
        return 0, ""
    if by_period >= by_idle:
        return (
            count,
            f"C: {count} messages from before {today.isoformat()} "
            f"({trig.granularity} boundary)",
        )
    return count, f"C: idle gap of {trig.idle_gap_minutes} min after message {count}"


def decide(
    window: Sequence[Message], now: datetime, recipe: Recipe, counter: TokenCounter
) -> TriggerDecision:
    """Evaluate every trigger of the recipe.

    The largest span any of them asks for wins.
    """
    results: list[tuple[str, int, str]] = []
    if recipe.a:
        results.append(("A", *decide_message_count(window, recipe.a)))
    if recipe.b:
        results.append(("B", *decide_token_count(window, recipe.b, counter)))
    if recipe.c:
        results.append(("C", *decide_time(window, recipe.c, now)))
    fired = [(name, n, why) for name, n, why in results if n > 0]
    if not fired:
        return TriggerDecision(fire=False)
    return TriggerDecision(
        fire=True,
        triggers=[name for name, _, _ in fired],
        reasons=[why for _, _, why in fired],
        compress_count=min(len(window), max(n for _, n, _ in fired)),
        group_by_day=recipe.c is not None,
    )
