"""Latency samples and their percentiles, and the process's peak memory."""

from __future__ import annotations

import resource
import sys
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np


def summarize_ms(samples: list[float]) -> dict:
    """p50, p95, mean and max of samples given in seconds, in milliseconds."""
    if not samples:
        return {"n": 0, "p50_ms": None, "p95_ms": None, "mean_ms": None, "max_ms": None}
    arr = np.asarray(samples) * 1000.0
    return {
        "n": len(samples),
        "p50_ms": round(float(np.percentile(arr, 50)), 3),
        "p95_ms": round(float(np.percentile(arr, 95)), 3),
        "mean_ms": round(float(arr.mean()), 3),
        "max_ms": round(float(arr.max()), 3),
    }


def percentiles(samples: list[float]) -> dict:
    """n, p50, p95 and max of samples given in seconds, in milliseconds."""
    if not samples:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    arr = np.asarray(samples) * 1000.0
    return {
        "n": len(samples),
        "p50": round(float(np.percentile(arr, 50)), 3),
        "p95": round(float(np.percentile(arr, 95)), 3),
        "max": round(float(arr.max()), 3),
    }


class Stopwatch:
    """Accumulates time per named part within the current sample.

    Parts can nest in the call graph (extraction calls nothing we time, but
    compression embeds), so each part is its own total, not a share of a sum.
    """

    def __init__(self) -> None:
        self.current: dict[str, float] = defaultdict(float)

    @contextmanager
    def part(self, name: str) -> Iterator[None]:
        """Time a block and add it to the current sample's `name` total."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.current[name] += time.perf_counter() - start

    def take(self) -> dict[str, float]:
        """The finished sample's totals; starts a new sample."""
        done, self.current = dict(self.current), defaultdict(float)
        return done


def peak_rss_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux reports KiB, macOS bytes.
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)
