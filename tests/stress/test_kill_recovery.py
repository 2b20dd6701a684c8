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

import json
import subprocess
import sys

import pytest
from memlab_bench.faults import summary_line

from memory_lab.jobs.phases import PHASES
from memory_lab.stores.chroma_telemetry import quiet_env

# The benchmark forks; a test worker has other tests' threads (and their locks),
# so it runs in a fresh interpreter, as `memory-lab bench --faults` does.
RUN = """
import json, sys
from pathlib import Path
from memlab_bench.faults import run_faults
result = run_faults(int(sys.argv[1]), Path(sys.argv[2]), seed=3, turns=30,
                    parallel=2, timer_share=0.2, child_timeout_s=240)
print(json.dumps(result, default=str))
"""


@pytest.mark.slow
def test_sigkill_at_every_phase_loses_and_repeats_nothing(tmp_path):
    # Every phase at least once, then some random-moment kills.
    done = subprocess.run(
        [sys.executable, "-c", RUN, str(len(PHASES) + 6), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=1200,
        env=quiet_env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
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
