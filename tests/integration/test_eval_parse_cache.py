"""Kept parses change nothing an eval reports: cold, warm and off agree."""

from __future__ import annotations

from collections import OrderedDict

import pytest
from memlab_datasets import load_dataset
from memlab_evals.reports.aggregate import probe_scores, summarize
from memlab_evals.running import runner

from memory_lab.brains.offline.parse import parse_cache
from memory_lab.brains.offline.parse import pipeline as parsing
from memory_lab.brains.offline.parse.parse_cache import KeptParses, ParseFile

pytestmark = pytest.mark.slow

SPEC = "synthetic:conversations=2,sessions=3,turns-per-session=8"
SYSTEMS = "A,B,rag-hybrid"
BUDGETS = [600, 1500]


def _written(logs) -> dict[int, tuple[str, str, object]]:
    """Per budget: the summary and per-probe scores as their CSV, and the log.

    Timing columns are left out: they are the one thing a cache should change.
    """
    out = {}
    for budget, log in logs.items():
        probes = probe_scores(log)
        summary = summarize(log, probes)
        out[budget] = (
            _untimed(summary).to_csv(index=False),
            _untimed(probes).to_csv(index=False),
            runner.strip_timing(log),
        )
    return out


def _untimed(table):
    timing = [
        c
        for c in table.columns
        if c in runner.TIMING_FIELDS or c.endswith(("_ms_p50", "_ms_p95"))
    ]
    assert len(timing) < len(table.columns)
    return table.drop(columns=timing)


@pytest.fixture
def kept(monkeypatch) -> KeptParses:
    """This process's kept parses, fresh, and nothing parsed in memory."""
    fresh = KeptParses()
    monkeypatch.setattr(parse_cache, "KEPT", fresh)
    monkeypatch.setattr(parsing, "KEPT", fresh)
    monkeypatch.setattr(parsing, "_PARSED", OrderedDict())
    return fresh


def test_cold_warm_and_off_write_the_same_results(tmp_path, kept, monkeypatch):
    data = load_dataset(SPEC)
    off = _written(runner.run_evals(data, SYSTEMS, BUDGETS, progress=False))
    assert (kept.made, kept.read) == (0, 0)  # no file: nothing kept

    vectors = tmp_path / "vectors.sqlite"
    # Cold: two worker processes share one new file.
    cold = _written(
        runner.run_evals(
            data, SYSTEMS, BUDGETS, workers=2, progress=False, vector_cache=vectors
        )
    )
    parses = ParseFile(tmp_path / parse_cache.FILE_NAME)
    made = parses.count()
    assert made > 0

    # Warm: this process, nothing parsed in memory, so every parse is read.
    monkeypatch.setattr(parsing, "_PARSED", OrderedDict())
    warm = _written(
        runner.run_evals(data, SYSTEMS, BUDGETS, progress=False, vector_cache=vectors)
    )
    assert kept.made == 0 and kept.read > 0
    assert parses.count() == made

    for budget in BUDGETS:
        assert cold[budget] == off[budget]
        assert warm[budget] == off[budget]
