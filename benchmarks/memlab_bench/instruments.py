"""Timers around the domain functions the graph nodes call, without editing them.

The engine takes its brain and embedder by injection, so those are wrapped; the
trigger check and compression functions are looked up by the nodes module at call
time, so they are patched there for the length of a measurement.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from typing import Any
from unittest import mock

import numpy as np

from memlab_bench.stats import Stopwatch


def _timed(watch: Stopwatch, part: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        with watch.part(part):
            return fn(*args, **kwargs)

    return wrapper


class TimedBrain:
    """A brain whose extraction is timed; everything else is passed through."""

    def __init__(self, inner: Any, watch: Stopwatch) -> None:
        self._inner = inner
        self.name = inner.name
        self.extract = _timed(watch, "extraction", inner.extract)

    def __getattr__(self, item: str) -> Any:
        return getattr(self._inner, item)


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
    """Time the trigger decision and the summarising half of compression."""
    from memory_lab.graph import nodes

    with ExitStack() as stack:
        stack.enter_context(
            mock.patch.object(
                nodes, "decide", _timed(watch, "trigger_check", nodes.decide)
            )
        )
        for name in ("build_episodes", "update_running_summary"):
            stack.enter_context(
                mock.patch.object(
                    nodes, name, _timed(watch, "compression", getattr(nodes, name))
                )
            )
        yield
