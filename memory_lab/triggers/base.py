"""What a trigger is: parameters, a read-only view of the window, and a verdict.

A trigger decides, from the window and the clock alone, whether the oldest turns
of the window should be compressed now, and how many. It is a pure function: no
I/O, no state kept between calls, so a run can be replayed and two triggers
compared on the same turns. Writing one takes a parameter model and a function:

    class QuietParams(TriggerParams):
        minutes: int = Field(default=30, ge=1, description="Silence that ends a topic.")

    @register("Q", QuietParams)
    def quiet(view: WindowView, p: QuietParams) -> Compress | None:
        stamps = [m.timestamp for m in view] + [view.now]
        gaps = [i + 1 for i in range(len(view))
                if (stamps[i + 1] - stamps[i]).total_seconds() >= p.minutes * 60]
        return Compress(gaps[-1], f"Q: silence after turn {gaps[-1]}") if gaps else None

After that, ``Q``, ``A+Q`` and ``Q(minutes=10)`` are recipes everywhere a recipe
is named: the CLI's ``--systems``, sweeps, the app's sidebar and the run log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, overload

import numpy as np
from pydantic import BaseModel, ConfigDict

from memory_lab.tokens import TokenCounter
from memory_lab.types import Message


class TriggerParams(BaseModel):
    """Base of a trigger's parameters: immutable, and unknown names are errors.

    Give every field a default, bounds and a description: the app builds its
    widgets from them and a sweep's columns are their names.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")


@dataclass(frozen=True)
class Compress:
    """A trigger's verdict: compress the `count` oldest turns of the window.

    The window is the thread's turns past the last compression, oldest first, so
    a count names a span that starts at its oldest turn. `reason` is one line for
    the event log and the app's activity feed.
    """

    count: int
    reason: str


class WindowView(Sequence[Message]):
    """The window a trigger decides over, read-only, with the clock's time.

    Token counts and embeddings are computed on first use and cached, so a
    trigger that never asks for them costs nothing.
    """

    def __init__(
        self,
        messages: Sequence[Message],
        now: datetime,
        counter: TokenCounter,
        embed: Callable[[Sequence[Message]], np.ndarray] | None = None,
    ) -> None:
        self._messages = tuple(messages)
        self._now = now
        self._counter = counter
        self._embed = embed
        self._tokens: tuple[int, ...] | None = None
        self._vectors: np.ndarray | None = None

    @property
    def now(self) -> datetime:
        """The clock's time of the decision."""
        return self._now

    @property
    def messages(self) -> tuple[Message, ...]:
        """The window's turns, oldest first."""
        return self._messages

    def __len__(self) -> int:
        return len(self._messages)

    @overload
    def __getitem__(self, index: int) -> Message: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[Message, ...]: ...
    def __getitem__(self, index: int | slice) -> Message | tuple[Message, ...]:
        return self._messages[index]

    def __iter__(self) -> Iterator[Message]:
        return iter(self._messages)

    def tokens(self) -> tuple[int, ...]:
        """Tokens of each turn's text, in window order."""
        if self._tokens is None:
            self._tokens = tuple(self._counter.count(m.content) for m in self)
        return self._tokens

    def vectors(self) -> np.ndarray:
        """One unit-length sentence embedding per turn, in window order (read-only).

        Raises:
            RuntimeError: when the memory was built without an embedder.
        """
        if self._vectors is None:
            if self._embed is None:
                raise RuntimeError("this window view has no embedder")
            vectors = np.array(self._embed(self._messages), dtype=np.float32)
            vectors = vectors.reshape(len(self), -1)
            vectors.setflags(write=False)
            self._vectors = vectors
        return self._vectors


Decide = Callable[[WindowView, Any], "Compress | None"]
"""The decision: the window view and the trigger's parameters in, a verdict out."""
Splits = Callable[[Message, Message, Any], bool]
"""Whether an episode must not span the two consecutive turns (a day boundary)."""


@dataclass(frozen=True)
class Trigger:
    """A registered trigger: its name, parameter model, decision and origin."""

    name: str
    params: type[TriggerParams]
    decide: Decide
    splits: Splits | None = None
    """Optional: where a compressed span is cut into episodes besides sizes."""
    module: str = ""
    """Where it was defined, for the run log and error messages."""
    summary: str = ""
    """One line on what it does, for help texts and the app."""
    time_limited: bool = True
    """Decide in a thread of its own, cut off after the recipe's
    `decision_seconds`. False decides in the caller's thread, with no limit: for
    decisions known to return, such as the built-in ones. Handing a decision to
    another thread and back costs 0.3 ms on an idle interpreter and about 4 ms
    while a background thread (the memory worker) is running Python, against
    0.01 ms for the decision itself; a research trigger can opt out once it is
    trusted, so its ingest latency compares with A's on equal terms."""

    @property
    def prefix(self) -> str:
        """How its parameters are named in a combined recipe: ``a_max_messages``."""
        return self.name.lower() + "_"
