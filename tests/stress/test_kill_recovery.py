"""SIGKILL at every phase of the memory path, restart, and check against a reference.

Runs the fault benchmark (`memory-lab bench --faults`) at a small size: forked
children ingest synthetic conversations and are killed at chosen phases (trigger
decision, compression, embedding, episode write, extraction, fact writes, the
commit, job hand-over) or at random moments; after the last kill an undisturbed
child finishes. Every conversation must then match a run that was never killed:
nothing lost, nothing duplicated, no turn in both window and episode, no
overlapping episodes, no orphaned jobs. The committed full result (N >= 1,000)
is in benchmarks/results/bench-faults.json.
"""

import os

import pytest

from memlab_bench.faults import run_faults, summary_line
from memory_lab.jobs.phases import PHASES


@pytest.mark.slow
def test_sigkill_at_every_phase_loses_and_repeats_nothing(tmp_path):
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    # Every phase at least once, then some random-moment kills.
    result = run_faults(
        len(PHASES) + 6, tmp_path, seed=3, turns=30, parallel=2, timer_share=0.2
    )
    assert result["kills"] >= len(PHASES) + 6, result
    assert (result["lost"], result["duplicated"], result["inconsistent"]) == (
        0,
        0,
        0,
    ), result["problems"]
    assert summary_line(result) == (
        f"faults: kills {result['kills']}, lost 0, duplicated 0, inconsistent 0"
    )
    assert sum(result["per_phase"].values()) == result["kills"]
    assert all(result["per_phase"][p] >= 1 for p in PHASES), result["per_phase"]
