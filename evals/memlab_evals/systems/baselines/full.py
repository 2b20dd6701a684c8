"""`full`: every turn so far, no budget; the ceiling on recall and on cost."""

from __future__ import annotations

from memlab_evals.systems.baselines.base import TurnBaseline, baseline


@baseline(
    "full", "every turn so far, no budget: the ceiling on recall and on cost", order=10
)
class FullHistory(TurnBaseline):
    """The whole history, whatever the budget."""

    budgeted = False

    def pick(self, question: str) -> list[int]:
        """Every turn."""
        return list(range(len(self.turns)))
