"""`none`: an empty context; the floor every memory must beat."""

from __future__ import annotations

from memlab_evals.systems.baselines.base import TurnBaseline, baseline
from memory_lab.types import Message


@baseline("none", "an empty context: the floor every memory must beat", order=90)
class NoMemory(TurnBaseline):
    """Keeps nothing, shows nothing."""

    def ingest(self, msg: Message) -> None:
        """Forget the turn."""

    def pick(self, question: str) -> list[int]:
        """Nothing."""
        return []
