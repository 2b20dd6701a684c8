"""Memory jobs that keep failing are given up on, and the engine lists them.

A replay or an eval reads `MemoryEngine.failures` at the end of a run, so a
memory that silently kept nothing is reported instead of scored as forgetful.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.clock import ManualClock
from memory_lab.config import MemoryConfig
from memory_lab.engine import MemoryEngine
from memory_lab.jobs.ledger import MAX_ATTEMPTS
from memory_lab.types import Message

T0 = datetime(2025, 1, 6, 9, tzinfo=UTC)


class BrokenExtraction(RuleBasedBrain):
    def extract(self, messages, *, known=()):
        raise RuntimeError("extraction is broken")


def _turn(i: int) -> Message:
    return Message(
        id=f"m{i}",
        tenant="ana",
        session="s1",
        role="user" if i % 2 == 0 else "assistant",
        content=f"I live in Lisbon, note {i}.",
        timestamp=T0 + timedelta(minutes=i),
    )


def _engine(brain: RuleBasedBrain) -> MemoryEngine:
    return MemoryEngine(
        config=MemoryConfig(extractor="rules"), clock=ManualClock(T0), brain=brain
    )


def test_a_job_is_listed_once_it_is_given_up_on():
    with _engine(BrokenExtraction(extractor="rules")) as engine:
        engine.ingest("ana", [_turn(0)])
        for _ in range(MAX_ATTEMPTS):
            engine.flush()
        (failed,) = engine.failures("ana")
        assert failed.kind == "job_failed"
        assert failed.detail == (
            "extract of turns 0..0 failed for good: "
            "RuntimeError('extraction is broken')"
        )
        # The tries before it said they would retry; they are not failures yet.
        tries = [e for e in engine.events.events("ana") if e.kind == "job_failed"]
        assert len(tries) == MAX_ATTEMPTS
        assert all("will retry" in e.detail for e in tries[:-1])
        assert engine.failures("bo") == []


def test_a_healthy_memory_lists_none():
    with _engine(RuleBasedBrain(extractor="rules")) as engine:
        for i in range(4):
            engine.ingest("ana", [_turn(i)])
            engine.flush()
        assert engine.failures("ana") == []
