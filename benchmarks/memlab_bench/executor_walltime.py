"""Wall time of one eval with the local executor and with Ray, on this machine.

Ray pays for starting its cluster and for a fresh worker per CPU that loads the
embedder and stores; on one small machine that cost is the whole story, so the
ratio says what Ray costs before it can pay off on more machines. Both runs must
log the same thing (timing aside), and the result says whether they did.
"""

from __future__ import annotations

import os
import time

from memlab_evals.systems import pick

SPEC = "synthetic:conversations=4,sessions=2,turns-per-session=20"
SYSTEMS = ",".join(["A", *pick("window", "rag-bm25")])
BUDGET = 600


def measure_executors(workers: int = 2) -> dict:
    """Time the same eval on local worker processes, then on Ray.

    The Ray cluster is started for the run with as many CPUs as `workers`, and
    its start-up counts: that is what a user waits for.
    """
    from memlab_datasets import load_dataset
    from memlab_evals.running.executors import LocalExecutor, RayExecutor
    from memlab_evals.running.runner import run_eval, strip_timing

    data = load_dataset(SPEC)
    seconds = {}
    logs = {}
    for name, executor in (
        ("local", LocalExecutor(workers)),
        ("ray", RayExecutor(num_cpus=workers)),
    ):
        started = time.perf_counter()
        logs[name] = run_eval(
            data, SYSTEMS, BUDGET, workers=workers, executor=executor, progress=False
        )
        seconds[name] = round(time.perf_counter() - started, 2)
    return {
        "dataset": SPEC,
        "systems": SYSTEMS,
        "budget": BUDGET,
        "units": len(data.conversations) * len(SYSTEMS.split(",")),
        "workers": workers,
        "local_s": seconds["local"],
        "ray_s": seconds["ray"],
        "ray_over_local": round(seconds["ray"] / seconds["local"], 2),
        "identical_logs": strip_timing(logs["local"]) == strip_timing(logs["ray"]),
        "load_average_1m": round(os.getloadavg()[0], 1),
    }
