"""`window`: the last turns that fit the budget, as a chat app without memory."""

from __future__ import annotations

from memlab_evals.systems.baselines.base import TurnBaseline, baseline, truncate
from memlab_evals.systems.types import Context


@baseline(
    "window",
    "the newest turns that fit the budget, as a chat app without memory keeps them",
    order=20,
)
class RecentWindow(TurnBaseline):
    """The newest turns, back to the first that does not fit."""

    def pick(self, question: str) -> list[int]:
        """The newest turns while they fit, newest first."""
        taken: list[int] = []
        used = 0
        for i in range(len(self.turns) - 1, -1, -1):
            cost = self.costs[i] + (1 if taken else 0)
            if used + cost > (self.budget or 0):
                break
            taken.append(i)
            used += cost
        return taken

    def nothing_fits(self) -> Context:
        """A newest turn too long alone is cut to the budget, as a chat app would."""
        assert self.budget is not None
        text = truncate(self.counter, self.lines[-1], self.budget)
        tokens = self.counter.count(text)
        return Context(text, tokens, [self.turns[-1].id] if text else [])

    def stored_tokens(self) -> int:
        """Only what the window holds: older turns are gone for good."""
        return sum(self.costs[i] for i in self.pick(""))
