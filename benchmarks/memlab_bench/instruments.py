"""Timers around the domain functions the engine calls, without editing them.

The engine takes its brain and embedder by injection, so those are wrapped; the
trigger check is looked up by the planning module at call time, so it is patched
there for the length of a measurement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any
from unittest import mock

import numpy as np

from memlab_bench.stats import Stopwatch


def _timed(watch: Stopwatch, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with watch.part(part):
            return fn(*args, **kwargs)

    return wrapper


class TimedEmbedder:
    """An embedder whose calls are timed."""

    def __init__(self, inner: Any, watch: Stopwatch) -> None:
        self.name, self.dim = inner.name, inner.dim
        self._inner, self._watch = inner, watch

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """The inner embedder's vectors, timed as `embedding`."""
        with self._watch.part("embedding"):
            return self._inner.embed(texts)


@contextmanager
def timed_nodes(watch: Stopwatch) -> Iterator[None]:
    """Time the trigger decision, the one piece of memory work left on the turn."""
    from memory_lab.jobs import planning

    with mock.patch.object(
        planning, "decide", _timed(watch, "trigger_check", planning.decide)
    ):
        yield
