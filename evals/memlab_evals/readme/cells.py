"""How a figure from a result file is written in the README, in one place.

Every generated block formats through these functions, so the same quantity reads
the same everywhere (a rate always has three decimals, a token count always has
thousands separators) and a reader can find a table's cell again in the prose.
Blocks also say which files they were built from and when those were measured, so
an old figure is visibly old.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path

import pandas as pd

DATASET_LABELS = {"locomo": "LoCoMo dev", "synthetic": "synthetic main set"}
"""Names the main job's two datasets go by in the README, by dataset source."""


def missing(value: object) -> bool:
    """True for None and NaN, which a table shows as an empty cell."""
    return value is None or (isinstance(value, float) and math.isnan(value))


def rate(value: object) -> str:
    """A rate or a mean of rates: three decimals, blank when undefined."""
    return "" if missing(value) else f"{float(value):.3f}"  # type: ignore[arg-type]


def signed(value: float) -> str:
    """A difference, with its sign even when it rounds to zero."""
    return f"{value:+.3f}"


def count(value: object) -> str:
    """Tokens, turns, requests: whole numbers with thousands separators."""
    return "" if missing(value) else f"{float(value):,.0f}"  # type: ignore[arg-type]


def ratio(value: object) -> str:
    """A compression ratio (history over context): one decimal."""
    return "" if missing(value) else f"{float(value):.1f}"  # type: ignore[arg-type]


def times(value: float) -> str:
    """A multiple of another measurement, such as 1.48x."""
    return f"{value:.2f}x"


def share(value: float) -> str:
    """A fraction shown as a percentage, such as a change in context size."""
    return f"{value:.1%}"


def change(value: float) -> str:
    """A relative change, signed."""
    return f"{value:+.1%}"


def ms(value: float) -> str:
    """A latency: two decimals below 10 ms, where they still mean something."""
    return f"{value:.2f} ms" if value < 10 else f"{value:,.1f} ms"


def seconds(value: float) -> str:
    """A duration: tenths below 100 s, whole seconds above."""
    return f"{value:.1f} s" if value < 100 else f"{value:,.0f} s"


def plural(n: int, noun: str) -> str:
    """A count with its noun, such as "1 compression turn" or "39 compression turns"."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def span(values: Iterable[float], fmt: Callable[[float], str]) -> str:
    """The range of `values` as "low-high", or one value when both read the same.

    A unit (" ms", " s", "x", "%") that `fmt` appends is written once, at the end.
    """
    ordered = sorted(values)
    low, high = fmt(ordered[0]), fmt(ordered[-1])
    if low == high:
        return low
    unit = re.search(r"[^\d.,+-]*$", high).group(0)  # type: ignore[union-attr]
    return f"{low.removesuffix(unit)}-{high}"


def with_ci(row: pd.Series, metric: str) -> str:
    """`metric` with its bootstrap interval, when the file has one that is not a point.

    An interval whose ends are equal (`full` always holds the evidence, `none`
    never does) says nothing the value does not, so it is left out.
    """
    value = row.get(metric)
    low, high = row.get(f"{metric}_ci_low"), row.get(f"{metric}_ci_high")
    if missing(value) or missing(low) or missing(high) or rate(low) == rate(high):
        return rate(value)
    return f"{rate(value)} [{rate(low)}, {rate(high)}]"


def dataset_label(spec: str) -> str:
    """The README's name for a dataset spec such as ``locomo:PATH``."""
    source = spec.split(":", 1)[0]
    return DATASET_LABELS.get(source, f"`{spec}`")


def commit_ref(commit: str) -> str:
    """A commit as a reader can look it up, saying when the tree had local edits."""
    clean = commit.removesuffix("+dirty")
    shown = f"`{clean[:7]}`"
    return shown if clean == commit else f"{shown} with uncommitted changes"


def moment(stamp: str) -> str:
    """An ISO timestamp to the minute, in UTC as recorded."""
    return datetime.fromisoformat(stamp).strftime("%Y-%m-%d %H:%M UTC")


def machine_stamp(result: dict) -> str:
    """Commit, date, machine and load a bench file records, as one clause.

    A bench's load average is read when it ends; a machine busy with other work
    inflates every time in the file, so the reader needs it beside the times.
    """
    machine = result["machine"]
    if "code_commit" in result:
        commit = (
            f"code at {commit_ref(result['code_commit'])}, branch head "
            f"{commit_ref(machine['git_commit'])} when it ended"
        )
    else:
        commit = f"commit {commit_ref(machine['git_commit'])}"
    load = ", ".join(f"{x:.2f}" for x in machine["load_average"])
    parts = [
        f"`{result['command']}`" if "command" in result else None,
        commit,
        moment(machine["date"]),
        f"{machine['cpu']}, {machine['cores']} cores, {machine['ram_gb']} GB",
        f"load average {load} (1, 5, 15 min) at the end",
        f"{seconds(result['seconds'])} in all" if "seconds" in result else None,
    ]
    return "; ".join(p for p in parts if p)


def source(*paths: Path) -> str:
    """The files a block was built from, as code spans, relative to the repository."""
    return ", ".join(f"`{p.as_posix()}`" for p in paths)


def names(items: list[str]) -> str:
    """Systems as a list in prose: "A", "A and B", "A, B and C"."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def verdict(shares: dict[str, float], target: float) -> str:
    """Which recipes reach `target`, in the words a reader scans for."""
    met = [k for k, v in shares.items() if v >= target]
    missed = [k for k in shares if k not in met]
    if not missed:
        return "met by all" if len(met) > 1 else "met"
    if not met:
        return "missed by all" if len(missed) > 1 else "missed"
    return f"met by {names(met)}, missed by {names(missed)}"
