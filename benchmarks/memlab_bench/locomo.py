"""Wall time of the full LoCoMo development-split eval, run as a user would run it."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

from memlab_evals.cli import LOCOMO_DEV
from memlab_evals.systems import pick

DATASET = LOCOMO_DEV
"""Where the main job finds the development split too; MEMORY_LAB_LOCOMO names
another file."""
SYSTEMS = ",".join(["A", "B", "C", *pick("full", "window", "rag-bm25")])
"""The recipes and the cheap baselines: the set the five-minute target is set on."""


def command(out: Path, dataset: Path = DATASET) -> list[str]:
    """The eval command line, as documented in the benchmarks README."""
    return [
        sys.executable,
        "-m",
        "memlab_cli.main",
        "eval",
        "--dataset",
        f"locomo:{dataset}",
        "--systems",
        SYSTEMS,
        "--budget",
        "1500",
        "--out",
        str(out),
        "--workers",
        "2",
    ]


def time_locomo_eval(out: Path, dataset: Path = DATASET, limit_s: float = 1800) -> dict:
    """Run the eval once; seconds taken, or why it could not run."""
    cmd = command(out, dataset)
    shown = " ".join(["memory-lab", *cmd[3:]])
    if not dataset.exists():
        return {"command": shown, "seconds": None, "error": f"{dataset} not found"}
    shutil.rmtree(out, ignore_errors=True)
    start = time.perf_counter()
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit_s)
    except subprocess.TimeoutExpired:
        return {
            "command": shown,
            "seconds": None,
            "error": f"timed out after {limit_s:.0f} s",
        }
    seconds = round(time.perf_counter() - start, 1)
    if done.returncode != 0:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        return {"command": shown, "seconds": seconds, "error": " | ".join(tail)}
    # The run log holds every probe's context (~140 MB with `full`): keep the
    # summary, report and plots beside the bench results, not the log.
    (out / "run.json").unlink(missing_ok=True)
    return {"command": shown, "seconds": seconds, "error": None}
