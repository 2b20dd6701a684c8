"""A stated change of a preference replaces the one it changes, and only that one.

In this file's own phrasings. "Prefer" alone states a preference, not a change;
"rather", "these days", "from now on" say the preference changed. When the
speaker holds one preference of that relation, it is the one that changed, even
when the two values embed far apart ("paper statements" and "the app"); with several,
only meaning may choose, and nothing unlike is replaced.
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from memory_lab.brains.offline.parse.extract import parse_candidates
from memory_lab.clock import ManualClock
from memory_lab.config import MemoryConfig
from memory_lab.engine import MemoryEngine
from tests.helpers import T0, msg


def _active_after(said: list[str]) -> tuple[set[str], set[str]]:
    """Values active and values superseded once every line was said, a day apart."""
    clock = ManualClock(T0)
    engine = MemoryEngine(config=MemoryConfig(extractor="parse"), clock=clock)
    try:
        for i, text in enumerate(said):
            clock.advance(timedelta(days=1))
            engine.ingest("t1", [msg(i, text, at=clock.now())])
            engine.close_session("t1")
            assert engine.flush(timeout=60)
        rows = engine.facts.rows("t1")
        now = clock.now()
        return (
            {r.value for r in rows if r.is_active(now)},
            {r.value for r in rows if r.status == "superseded"},
        )
    finally:
        engine.close()


@pytest.mark.parametrize(
    "text", ["I prefer aisle seats.", "We prefer the early ferry."]
)
def test_prefer_alone_states_no_change(text: str) -> None:
    found = parse_candidates([msg(0, text)])
    assert found, text
    assert not any(c.changes for c in found), found


def test_a_changed_preference_replaces_the_only_one_of_its_relation() -> None:
    active, superseded = _active_after(
        [
            "I prefer paper statements.",
            "Honestly, I'd rather use the app these days.",
        ]
    )
    assert any("app" in v for v in active), active
    assert any("paper statements" in v for v in superseded), superseded


def test_a_preference_without_a_change_replaces_nothing() -> None:
    active, superseded = _active_after(
        ["I prefer aisle seats.", "I prefer oat milk in my coffee."]
    )
    assert any("aisle" in v for v in active), active
    assert any("oat milk" in v for v in active), active
    assert not superseded


def test_with_several_of_a_relation_only_the_alike_one_is_replaced() -> None:
    active, superseded = _active_after(
        [
            "I prefer aisle seats.",
            "I prefer dark mode on every screen.",
            "Lately I prefer light mode.",
        ]
    )
    assert any("aisle" in v for v in active), active
    assert any("light mode" in v for v in active), active
    assert any("dark mode" in v for v in superseded), superseded
