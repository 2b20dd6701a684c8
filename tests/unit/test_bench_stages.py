"""`bench --growth` and `bench --scale` run one stage of the full bench alone."""

from __future__ import annotations

import argparse
from dataclasses import replace

import pytest
from memlab_bench.cli import measure, register
from memlab_bench.growth_plot import plot_growth
from memlab_bench.modes import FULL, GROWTH, MODES, SCALE
from memlab_bench.report import markdown


def _parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    return parser.parse_args(["bench", *argv])


def test_the_stage_modes_keep_the_full_sizes_of_their_stage():
    assert (
        GROWTH.growth_checkpoints
        == FULL.growth_checkpoints
        == (100, 1_000, 3_000, 10_000)
    )
    assert SCALE.retrieval_sizes == FULL.retrieval_sizes
    assert GROWTH.stages == ("growth",) and SCALE.stages == ("retrieval",)
    assert MODES["growth"] is GROWTH
    assert _parse("--growth").growth and _parse("--scale").scale
    with pytest.raises(SystemExit):
        _parse("--growth", "--full")


@pytest.mark.slow
def test_a_growth_run_times_the_context_after_the_backlog_and_plots_it(tmp_path):
    tiny = replace(
        GROWTH,
        recipes=("A",),
        growth_baselines=("window",),
        growth_checkpoints=(20, 60),
        questions=2,
        growth_rounds=3,
        burst_messages=0,
    )
    results = measure(tiny, 7, tmp_path)
    assert {"growth"} <= set(results) and not {"ingest", "retrieval", "burst"} & set(
        results
    )
    a = next(g for g in results["growth"] if g["system"] == "A")
    assert [p["turns"] for p in a["points"]] == [20, 60]
    assert all(p["drain_s"] >= 0 for p in a["points"])
    assert all(p["context_latency"]["n"] == 2 * 3 for p in a["points"])
    latency = next(t for t in results["targets"] if "context build p50" in t["target"])
    assert latency["met"] is None  # 20 to 60 turns is not the 100-to-10,000 target
    page = markdown(results)
    assert "Context latency as the conversation grows" in page
    assert "## Ingest" not in page and "## Retrieval" not in page
    assert "bench-growth-growth.png" in page
    assert "asked once untimed, then 3 times timed" in page
    png = plot_growth(results["growth"], tmp_path / "growth.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
