"""The one base of the raw-turn baselines: keep every turn, show the picked ones.

A baseline differs from another only in which turns it picks for a question; how
turns are kept, counted, put in order and cut to the budget is here, once, so two
baselines never disagree about anything but their choice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, TypeVar

from memlab_evals.systems.registry import BuildArgs, SystemEntry, register
from memlab_evals.systems.types import Context, KeepsNoMemory
from memory_lab.text import truncate_to_tokens, turn_line
from memory_lab.tokens import TokenCounter, count_lines
from memory_lab.types import Message

B = TypeVar("B", bound=type["TurnBaseline"])


def baseline(
    name: str, description: str, *, retrieval: bool = False, order: int = 50
) -> Callable[[B], B]:
    """Register the decorated class as the baseline `name`.

    Args:
        name: Its short stable name, as ``--systems`` and the logs spell it.
        description: One line, the report's sentence for it.
        retrieval: Whether it is retrieval over raw turns (the best of these is
            what a memory recipe must beat).
        order: Where it is listed among the baselines, lowest first.
    """

    def wrap(cls: B) -> B:
        cls.name = name
        register(
            SystemEntry(
                name=name,
                kind="baseline",
                description=description,
                build=cls.build,
                retrieval=retrieval,
                order=order,
                module=cls.__module__,
            )
        )
        return cls

    return wrap


class TurnBaseline(KeepsNoMemory):
    """A baseline that keeps raw turns and shows the ones `pick` chooses.

    Subclasses say only how they pick; the context is always the picked turns in
    chronological order, cut to the budget from the lowest-ranked end.
    """

    name: ClassVar[str] = ""
    budgeted: ClassVar[bool] = True
    """False for a baseline that ignores the budget (`full`)."""

    def __init__(self, budget: int, counter: TokenCounter) -> None:
        self.budget: int | None = budget if self.budgeted else None
        self.counter = counter
        self.turns: list[Message] = []
        self.lines: list[str] = []
        self.costs: list[int] = []

    @classmethod
    def build(cls, args: BuildArgs) -> TurnBaseline:
        """A fresh one at the run's budget: the registry's builder."""
        return cls(args.budget, args.counter)

    def pick(self, question: str) -> list[int]:
        """Indices of the turns to show for `question`, best first."""
        raise NotImplementedError

    def context(self, question: str) -> Context:
        """The picked turns, oldest first, within the budget."""
        if not self.turns:
            return Context("", 0, [])
        chosen = self.pick(question)
        return self._render(chosen) if chosen else self.nothing_fits()

    def nothing_fits(self) -> Context:
        """The context when no turn is picked: empty."""
        return self._render([])

    def ingest(self, msg: Message) -> None:
        """Keep the turn and its rendered cost (counted once, not per question)."""
        line = turn_line(msg)
        self.turns.append(msg)
        self.lines.append(line)
        self.costs.append(self.counter.count(line))

    def stored_tokens(self) -> int:
        """Every raw turn: retrieval over turns has to keep them all."""
        return sum(self.costs)

    def close(self) -> None:
        """Nothing to release."""

    def _render(self, chosen: list[int]) -> Context:
        """Chosen turns in chronological order, trimmed until the budget holds.

        The greedy fill estimates one token per joining newline; the exact count of
        the joined text is the judge, and the lowest-ranked line goes first.
        """
        order = list(chosen)
        while True:
            ordered = sorted(order)
            lines = [self.lines[i] for i in ordered]
            text = "\n".join(lines)
            tokens = count_lines(self.counter, lines)
            if self.budget is None or tokens <= self.budget or not order:
                return Context(text, tokens, [self.turns[i].id for i in ordered])
            order.pop()

    def _fill(self, ranked: list[int]) -> list[int]:
        """Take turns in rank order while they fit; skip the ones that do not."""
        assert self.budget is not None
        taken: list[int] = []
        used = 0
        for i in ranked:
            cost = self.costs[i] + (1 if taken else 0)
            if used + cost <= self.budget:
                taken.append(i)
                used += cost
        return taken


class RankedBaseline(TurnBaseline):
    """A retriever over raw turns: it ranks turns, and the best that fit are shown."""

    def pick(self, question: str) -> list[int]:
        """The best-ranked turns that fit the budget, skipping those too long."""
        return self._fill(self.ranked(question))

    def ranked(self, question: str) -> list[int]:
        """Indices of the candidate turns, best first."""
        raise NotImplementedError


def truncate(counter: TokenCounter, text: str, budget: int) -> str:
    """The longest prefix of `text` within `budget` tokens."""
    cut = getattr(counter, "truncate", None)
    if cut is not None:
        return cut(text, budget)
    return truncate_to_tokens(text, budget, counter)
