"""The regression gate as CI runs it: a synthetic set and the LoCoMo development split,
each against thresholds measured from an earlier run of the same command."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOCOMO = ROOT.parent / "shared" / "datasets" / "locomo" / "locomo10_dev.json"
SYSTEMS = "A,B,C,full,window,rag-bm25,rag-hybrid"


def _gate(dataset: str, thresholds: str, out: Path) -> subprocess.CompletedProcess:
    cmd = [
        sys.executable,
        "-m",
        "memlab_cli.main",
        "eval",
        "--dataset",
        dataset,
        "--systems",
        SYSTEMS,
        "--budget",
        "1500",
        "--out",
        str(out),
        "--workers",
        "2",
        "--quiet",
        "--gate",
        str(ROOT / "evals" / "thresholds" / thresholds),
    ]
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=1800)


@pytest.mark.slow
@pytest.mark.xdist_group("gate")
def test_gate_passes_on_synthetic(tmp_path):
    done = _gate("synthetic", "ci_synthetic.json", tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert (tmp_path / "summary.csv").exists() and (tmp_path / "report.md").exists()


@pytest.mark.slow
@pytest.mark.xdist_group("gate")
def test_gate_passes_on_locomo_dev_split(tmp_path):
    if not LOCOMO.exists():
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the LoCoMo gate but {LOCOMO} is missing")
        pytest.skip(f"LoCoMo development split not found at {LOCOMO}")
    done = _gate(f"locomo:{LOCOMO}", "ci_locomo.json", tmp_path)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
