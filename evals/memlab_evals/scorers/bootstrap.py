"""The bootstrap interval every summary, goal and judge check reports.

One seed and one number of resamples, so an interval is the same wherever it
is computed; `memlab_evals.scorers.summary` re-exports all three names.
"""

from __future__ import annotations

import math

import numpy as np

SEED = 20240607
RESAMPLES = 1000


def bootstrap_ci(
    values: np.ndarray, seed: int = SEED, resamples: int = RESAMPLES
) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the mean, ignoring NaN.

    Written out rather than scipy.stats.bootstrap because constant samples (a recall
    of 1 everywhere) must give the degenerate interval [1, 1], where scipy's default
    BCa method returns NaN with a warning.
    """
    values = np.asarray(values, dtype=float)
    values = values[~np.isnan(values)]
    if values.size == 0:
        return math.nan, math.nan
    rng = np.random.Generator(np.random.PCG64(seed))
    picks = rng.integers(0, values.size, size=(resamples, values.size))
    means = values[picks].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(low), float(high)
