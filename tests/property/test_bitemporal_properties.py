"""As-of queries on both time axes, checked against a plain reference model.

The reference keeps, after every write, memory's whole belief about one key as a
list of (valid from, valid until, value) intervals; asking "what held at T as
memory believed at B" reads the last belief recorded at or before B. The fact
tier instead keeps one row per value and end-dates rows in place, so agreement
checks the row encoding (ended_at, valid_until, status) on both axes.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_lab.clock import ManualClock
from memory_lab.config import FactConfig
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from memory_lab.types import FactCandidate

DAY0 = datetime(2026, 1, 1, tzinfo=UTC)
NEVER = datetime.max.replace(tzinfo=UTC)

write = st.tuples(
    st.just("write"),
    st.sampled_from(["Oslo", "Uppsala", "Bergen"]),
    st.one_of(st.none(), st.integers(min_value=-6, max_value=2)),
)
forget = st.tuples(st.just("forget"), st.none(), st.none())
operations = st.lists(
    st.tuples(st.integers(min_value=1, max_value=3), st.one_of(write, write, forget)),
    min_size=1,
    max_size=8,
)


class ReferenceTimeline:
    """Beliefs recorded over time, each a list of valid-time intervals."""

    def __init__(self) -> None:
        self.beliefs: list[tuple[datetime, list[tuple[datetime, datetime, str]]]] = []
        self.current: list[tuple[datetime, datetime, str]] = []
        self.open_value: str | None = None

    def write(self, now: datetime, value: str, start: datetime) -> None:
        if self.open_value == value:
            return  # a restatement confirms; belief does not change
        if self.open_value is not None:
            began, _, old = self.current[-1]
            self.current[-1] = (began, max(start, began), old)
        self.current.append((start, NEVER, value))
        self.open_value = value
        self.beliefs.append((now, list(self.current)))

    def forget(self, now: datetime) -> None:
        if self.open_value is None:
            return
        self.current.pop()
        self.open_value = None
        self.beliefs.append((now, list(self.current)))

    def held(self, at: datetime, believed_at: datetime) -> list[str]:
        known = [b for when, b in self.beliefs if when <= believed_at]
        if not known:
            return []
        return sorted(v for a, u, v in known[-1] if a <= at < u)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(operations)
def test_as_of_queries_agree_with_the_reference(ops):
    clock = ManualClock(DAY0)
    memory = FactMemory(InMemoryFactStore(), InMemoryEventLog(), clock, FactConfig())
    model = ReferenceTimeline()
    now = DAY0
    for n, (step, (op, value, offset)) in enumerate(ops):
        now += timedelta(days=step)
        clock.set(now)
        if op == "write":
            start = now if offset is None else now + timedelta(days=offset)
            memory.write(
                "t",
                FactCandidate(
                    category="identity",
                    key="home_city",
                    value=value,
                    confidence=0.9,
                    turn_ids=[f"m{n}"],
                    valid_from=start,
                ),
            )
            model.write(now, value, start)
        else:
            live = memory.active("t")
            if live:
                memory.forget("t", live[0].id)
            model.forget(now)
    grid = [DAY0 + timedelta(days=d, hours=12) for d in range(-8, 30)]
    for believed_at in grid:
        for at in grid:
            got = sorted(
                f.value for f in memory.active("t", at=at, believed_at=believed_at)
            )
            assert got == model.held(at, believed_at), (at, believed_at)
