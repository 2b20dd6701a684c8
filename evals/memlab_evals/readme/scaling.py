"""How ingest scales with processes, and what Ray costs, as the README shows them.

Both come from one bench command each (`memory-lab bench --ingest-scaling`,
`memory-lab bench --executors`), whose JSON keeps the machine and load beside the
times; a table without them would read as a limit of the stores, not of a busy
two-core machine.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from memlab_evals.readme.cells import machine_stamp, seconds
from memlab_evals.readme.speed import read
from memlab_evals.reports.report import markdown_table

SCALING = Path("benchmarks/results/bench-ingest-scaling.json")
EXECUTORS = Path("benchmarks/results/bench-executors.json")
STORES = {
    "sqlite": "SQLite (one data folder)",
    "postgres": "Postgres (episodes in a shared Chroma folder)",
    "servers": "Postgres + Chroma server",
}
"""What each store setting of the bench is, in the README's words."""
LOAD = re.compile(r"load average: ([\d.]+), ([\d.]+), ([\d.]+)")


def processes(n: int) -> str:
    """A process count with its noun, such as "1 process" or "4 processes"."""
    return f"{n} process" if n == 1 else f"{n} processes"


def scaling_block(root: Path) -> str:
    """Throughput with 1, 2 and 4 processes on one store, as ratios to one."""
    data = read(root, SCALING)
    rows = data["rows"]
    counts = sorted({r["processes"] for r in rows})
    stores = list(dict.fromkeys(r["store"] for r in rows))
    cell = {(r["store"], r["processes"]): r for r in rows}
    table = pd.DataFrame(
        [
            [
                STORES.get(store, store),
                *(
                    f"{cell[store, n]['turns_per_s']:.1f} turns/s"
                    if n == counts[0]
                    else f"x{cell[store, n]['ratio_vs_1']:.2f}"
                    for n in counts
                ),
            ]
            for store in stores
        ],
        columns=["store", *(processes(n) for n in counts)],
    )
    taken = "; ".join(
        f"{STORES.get(store, store)} "
        + ", ".join(f"{cell[store, n]['ingest_only_turns_per_s']:.1f}" for n in counts)
        for store in stores
    )
    start = LOAD.search(data.get("uptime_before", ""))
    before = f"; load average {', '.join(start.groups())} at the start" if start else ""
    parts = [
        f"From `{SCALING.as_posix()}` ({machine_stamp(data)}{before}; "
        f"{data['turns_per_process']} turns per process, recipe {data['recipe']}, "
        f"{data['brain']} brain).",
        "",
        markdown_table(table),
        "",
        "Turns taken in without waiting for the memory work, turns/s with "
        f"{', '.join(str(n) for n in counts)} processes: {taken}.",
    ]
    if data.get("note"):
        parts += ["", f"Noted with the results: {data['note']}"]
    return "\n".join(parts)


def executors_block(root: Path) -> str:
    """The same units on the local executor and on Ray, and whether the logs match."""
    data = read(root, EXECUTORS)
    workers = data["workers"]
    table = pd.DataFrame(
        [
            (f"local, {processes(workers)}", seconds(data["local_s"]), "1.00"),
            (
                f"Ray, in-process cluster of {workers} CPUs",
                seconds(data["ray_s"]),
                f"{data['ray_over_local']:.2f}",
            ),
        ],
        columns=["executor", "wall time", "ratio"],
    )
    logs = "identical" if data["identical_logs"] else "DIFFERENT"
    return (
        f"From `{EXECUTORS.as_posix()}` ({machine_stamp(data)}): {data['units']} "
        f"units ({data['systems'].replace(',', ', ')} on `{data['dataset']}`, budget "
        f"{data['budget']}) on {workers} workers each way; the two run logs were "
        f"{logs}.\n\n{markdown_table(table)}"
    )
