"""The app says when memory work keeps failing, instead of showing a memory
that silently stopped growing."""

from __future__ import annotations

from datetime import UTC, datetime

from app_ui.model_status import failure_line
from memory_lab.api import Memory
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.clock import ManualClock
from memory_lab.config import MemoryConfig
from memory_lab.engine import MemoryEngine
from memory_lab.jobs.ledger import MAX_ATTEMPTS

T0 = datetime(2025, 1, 6, 9, tzinfo=UTC)


class BrokenExtraction(RuleBasedBrain):
    def extract(self, messages, *, known=()):
        raise RuntimeError("extraction is broken")


def test_no_line_while_memory_work_succeeds():
    assert failure_line([]) is None


def test_work_given_up_on_is_named_with_its_last_error():
    engine = MemoryEngine(
        config=MemoryConfig(extractor="rules"),
        clock=ManualClock(T0),
        brain=BrokenExtraction(extractor="rules"),
    )
    with Memory(engine, ":memory:") as memory:
        memory.add("ana", [{"role": "user", "content": "I live in Lisbon."}])
        for _ in range(MAX_ATTEMPTS):
            memory.flush()
        line = failure_line(memory.failures("ana"))
        assert line is not None
        assert line.startswith("Memory work: 1 job failed for good")
        assert "extraction is broken" in line
        assert failure_line(memory.failures("someone-else")) is None
