"""probes.csv: a run's per-probe scores, kept beside its summary.

summary.csv holds means, which cannot be paired: two runs over the same probes
(the main job and the same job with `--extractor none`) are compared probe by
probe, and run.json is too large to keep in the repository. This file is the
part of it a paired comparison needs, small enough to commit: one row per system
and probe with the metrics that have intervals in the summary.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from memlab_evals.reports.aggregate import CI_METRICS

NAME = "probes.csv"
KEYS = ["system", "conversation", "probe_id", "category"]
"""What identifies a row: a probe is paired across runs by conversation and id."""
COLUMNS = [*KEYS, *CI_METRICS]
FLOAT_FORMAT = "%.6g"
"""Six significant digits: a per-probe rate such as 2/3 to within 5e-7, which no
mean shown to three decimals can feel."""


def write_probe_scores(probes: pd.DataFrame, out: Path) -> Path:
    """Write `aggregate.probe_scores`'s frame, cut to `COLUMNS`, to OUT/probes.csv.

    A metric the frame lacks (a run with no probes of that kind) is written empty.
    """
    path = out / NAME
    frame = probes.reindex(columns=COLUMNS)
    frame.to_csv(path, index=False, float_format=FLOAT_FORMAT)
    return path


def read_probe_scores(path: Path) -> pd.DataFrame:
    """A probes.csv, with ids read as text so "12" and "012" stay apart.

    Raises:
        FileNotFoundError: when the run kept no per-probe scores.
        ValueError: when the file lacks a column a paired comparison reads.
    """
    frame = pd.read_csv(
        path, dtype={"system": str, "conversation": str, "probe_id": str}
    )
    lacking = [c for c in COLUMNS if c not in frame.columns]
    if lacking:
        raise ValueError(f"{path}: no column {', '.join(lacking)}")
    return frame
