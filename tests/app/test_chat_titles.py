"""A chat named by the brain when it can, by its first question when it cannot."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest

from app_ui.actions import title_by_model
from memory_lab import Memory
from memory_lab.brains.llm.brain import clean_title
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.clock import ManualClock
from memory_lab.engine import MemoryEngine

T0 = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)
FIRST = "Can you help me plan the garden shed build this summer?"


class NamingBrain(RuleBasedBrain):
    """The offline brain with a fixed answer to `title`, standing in for a model."""

    def __init__(self, answer: str | None) -> None:
        super().__init__()
        self.answer = answer

    def title(self, first_message: str) -> str | None:
        return self.answer


def _memory(tmp_path: Path, answer: str | None) -> Memory:
    # `Memory.open` takes settings, not a brain object: the stand-in brain goes
    # into an engine, wrapped the way `Memory.open` wraps one.
    engine = MemoryEngine(
        tmp_path / "data", clock=ManualClock(T0), brain=NamingBrain(answer)
    )
    return Memory(engine, str(tmp_path / "data"))


def test_a_model_title_replaces_the_first_question(tmp_path: Path) -> None:
    with _memory(tmp_path, "Garden shed plans") as memory:
        memory.chat("ana", FIRST, thread="c1")
        assert memory.chats.get("ana", "c1").titled_by == "first question"
        title_by_model(memory, "ana", "c1", FIRST)
        chat = memory.chats.get("ana", "c1")
        assert (chat.title, chat.titled_by) == ("Garden shed plans", "model")


@pytest.mark.parametrize("answer", [None, "", "x" * 200])
def test_no_usable_title_keeps_the_first_question(tmp_path: Path, answer) -> None:
    with _memory(tmp_path, answer) as memory:
        memory.chat("ana", FIRST, thread="c1")
        before = memory.chats.get("ana", "c1")
        title_by_model(memory, "ana", "c1", FIRST)
        assert memory.chats.get("ana", "c1") == before


def test_a_title_the_user_gave_is_never_replaced(tmp_path: Path) -> None:
    with _memory(tmp_path, "Garden shed plans") as memory:
        memory.chat("ana", FIRST, thread="c1")
        memory.chats.rename("ana", "c1", "Shed")
        title_by_model(memory, "ana", "c1", FIRST)
        assert memory.chats.get("ana", "c1").title == "Shed"


def test_the_offline_brain_gives_no_title() -> None:
    assert RuleBasedBrain().title(FIRST) is None


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Garden shed plans", "Garden shed plans"),
        ('"Garden shed plans."', "Garden shed plans"),
        ("Title: **Shed**\nmore text", "Shed"),
        ("   ", None),
        ("word " * 30, ("word " * 12).strip() + "…"),
    ],
)
def test_model_titles_are_cleaned_for_the_list(raw: str, shown) -> None:
    assert clean_title(raw) == shown
