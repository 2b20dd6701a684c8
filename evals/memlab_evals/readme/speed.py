"""The speed targets as the README shows them, from the bench's own result files.

`memory-lab bench --full` and `--faults` write JSON with every measurement and the
commit, date, machine and load it was taken at; the README's target table and the
sentences under it are built from those files, with that stamp above them, so a
reader sees what was measured, where, and how long ago.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from memlab_evals.readme.cells import (
    change,
    count,
    machine_stamp,
    ms,
    names,
    plural,
    seconds,
    share,
    span,
    times,
)
from memlab_evals.reports.report import markdown_table

FULL = Path("benchmarks/results/bench-full.json")
FAULTS = Path("benchmarks/results/bench-faults.json")
LLM_QUICK = Path("benchmarks/results/llm/bench-quick.json")
RECIPES = ("A", "B", "C")

COMPRESSION_TURN = 1.5
"""Target: compression turns' p95 and max over the ordinary turns' p95, at most."""
INGEST_P95_MS = 25.0
"""Target: a turn's ingest p95, at most."""
RETRIEVAL_P95_MS = 20.0
"""Target: retrieval and assembly p95 with 100,000 memories, at most."""
RETRIEVAL_GROWTH = 1.25
"""Target: retrieval and assembly p95 at 100,000 memories over its p95 at 1,000."""
FULL_SIZE = 100_000
"""Memories the retrieval targets are stated at."""
KILLS = 1000
"""Target: SIGKILLs the fault bench survives with nothing lost."""
LOCOMO_EVAL_S = 300.0
"""Target: the LoCoMo development eval (recipes and baselines), at most."""
CONTEXT_GROWTH = 1.25
"""Target: context build p50 at the longest conversation over the shortest."""
RECIPE_RETRIEVAL = 3.0
"""Target: the recipes' retrieval p95 on LoCoMo over `rag-hybrid`'s, at most."""
MAIN_LOCOMO = Path("evals/results/main/main-locomo-{budget}/summary.csv")
"""The main job's LoCoMo runs, whose retrieval timings the ratio is read from."""
MAIN_TIMES = Path("evals/results/main/main-times.json")
"""The main job's wall time, as `memory-lab main` recorded it."""
MAIN_JOB_S = 180.0
"""Target: `make run` (the main job) on 2 cores, nothing else running, at most."""


def read(root: Path, path: Path) -> dict:
    """One bench result file."""
    return json.loads((root / path).read_text(encoding="utf-8"))


def by_system(rows: list[dict]) -> dict[str, dict]:
    """A bench stage's rows, keyed by the system they measured."""
    return {r["system"]: r for r in rows}


def met_cell(verdicts: dict[str, bool | None]) -> str:
    """The met cell: yes, no, or which recipes met the target and which did not."""
    seen = set(verdicts.values())
    if seen == {None}:
        return "not measured"
    if seen == {True}:
        return "yes"
    if seen == {False}:
        return "no"
    words = {True: "yes", False: "no", None: "not measured"}
    groups = [
        f"{names([k for k, v in verdicts.items() if v is ok])} {words[ok]}"
        for ok in (True, False, None)
        if ok in seen
    ]
    return "; ".join(groups)


def compression_row(ingest: dict[str, dict]) -> tuple[str, str, str]:
    """A turn that starts compression must not wait for it."""
    parts, ok = [], {}
    for system in RECIPES:
        row = ingest[system]
        n = row["compression_turn_ms"]["n"]
        if not n:
            parts.append(f"{system} no compression turn")
            ok[system] = None
            continue
        ratios = row["compression_vs_turn"]
        parts.append(
            f"{system} p95 {times(ratios['p95'])}, max {times(ratios['max'])} "
            f"({plural(n, 'compression turn')})"
        )
        ok[system] = (
            ratios["p95"] <= COMPRESSION_TURN and ratios["max"] <= COMPRESSION_TURN
        )
    return (
        f"compression turns' p95 and max <= {COMPRESSION_TURN}x the ordinary turns' "
        "p95 (rule-based)",
        "; ".join(parts),
        met_cell(ok),
    )


def ingest_row(ingest: dict[str, dict]) -> tuple[str, str, str]:
    """What a turn costs the caller, memory work aside."""
    totals = {s: ingest[s]["total"] for s in RECIPES}
    return (
        f"ingest p95 <= {INGEST_P95_MS:.0f} ms per turn (rule-based brain, local "
        "embeddings)",
        ", ".join(f"{s} {ms(t['p95_ms'])}" for s, t in totals.items())
        + f" (p50 {span((t['p50_ms'] for t in totals.values()), ms)})",
        met_cell({s: t["p95_ms"] <= INGEST_P95_MS for s, t in totals.items()}),
    )


def retrieval_rows(sizes: list[dict]) -> list[tuple[str, str, str]]:
    """Retrieval and assembly at the largest size, and how it grew from the smallest."""
    first, last = sizes[0], sizes[-1]
    p95 = [s["retrieval_and_assembly"]["p95_ms"] for s in sizes]
    full_size = last["episodes"] >= FULL_SIZE
    smaller = ", ".join(
        f"{ms(p)} at {s['episodes']:,}"
        for p, s in zip(p95[:-1], sizes[:-1], strict=True)
    )
    growth = p95[-1] / p95[0]
    return [
        (
            f"retrieval + assembly p95 <= {RETRIEVAL_P95_MS:.0f} ms with 100k memories",
            f"{ms(p95[-1])} at {last['episodes']:,} episodes + {last['facts']:,} "
            f"facts ({smaller}); episode search alone "
            f"{ms(last['episode_search']['p95_ms'])}",
            met_cell({"": p95[-1] <= RETRIEVAL_P95_MS if full_size else None}),
        ),
        (
            f"retrieval + assembly at 100k <= {RETRIEVAL_GROWTH}x its cost at 1k",
            f"{times(growth)} ({ms(p95[-1])} / {ms(p95[0])}); fact read p95 "
            f"{ms(first['fact_read']['p95_ms'])} at {first['facts']:,}, "
            f"{ms(last['fact_read']['p95_ms'])} at {last['facts']:,}",
            met_cell({"": growth <= RETRIEVAL_GROWTH if full_size else None}),
        ),
    ]


def faults_row(faults: dict) -> tuple[str, str, str]:
    """Crash safety: SIGKILLs at every phase of the memory path."""
    phases = {k: v for k, v in faults["per_phase"].items() if k != "random_time"}
    clean = not (faults["lost"] or faults["duplicated"] or faults["inconsistent"])
    ok = (
        clean
        and not faults["problems"]
        and faults["kills"] >= KILLS
        and all(phases.values())
    )
    return (
        f"0 lost / duplicated / inconsistent over >= {KILLS:,} SIGKILLs at every phase",
        f"kills {faults['kills']:,}, lost {faults['lost']}, duplicated "
        f"{faults['duplicated']}, inconsistent {faults['inconsistent']} "
        f"({faults['conversations']:,} conversations of "
        f"{faults['turns_per_conversation']} turns, {span(phases.values(), count)} "
        f"kills per phase + {faults['per_phase'].get('random_time', 0)} at random "
        f"moments, {seconds(faults['seconds'])})"
        + (f"; problems: {len(faults['problems'])}" if faults["problems"] else ""),
        met_cell({"": ok}),
    )


def burst_row(burst: list[dict]) -> tuple[str, str, str]:
    """How far the worker falls behind a burst, and how fast it catches up."""

    def over(key: str, fmt) -> str:
        return span((r[key] for r in burst), fmt)

    def per_s(x: float) -> str:
        return f"{x:.1f}"

    return (
        f"background throughput under a {burst[0]['messages']:,}-message burst",
        f"{names([r['system'] for r in burst])}: {over('ingest_s', seconds)} to "
        f"ingest, drained {over('drain_after_burst_s', seconds)} after; at most "
        f"{over('max_pending_jobs', count)} jobs pending and "
        f"{over('max_turns_awaiting_compression', count)} turns awaiting compression "
        f"(they stay in the window); {over('turns_compressed_per_s', per_s)} turns "
        f"compressed and {over('turns_extracted_per_s', per_s)} extracted per second "
        "of job time",
        "reported",
    )


def growth_row(growth: dict[str, dict]) -> tuple[str, str, str]:
    """Context tokens per request as the conversation grows, per recipe."""
    parts, notes, ok = [], [], {}
    for system in RECIPES:
        points = growth[system]["points"]
        first, last = points[0], points[-1]
        moved = last["context_tokens_mean"] / first["context_tokens_mean"] - 1
        parts.append(f"{system} {change(moved)}")
        ok[system] = growth[system]["flat_within_5pct"]
        if not ok[system] and len(points) > 2:
            later = last["context_tokens_mean"] / points[1]["context_tokens_mean"] - 1
            notes.append(
                f"{system} has {count(first['context_tokens_mean'])} tokens at "
                f"{first['turns']:,} turns and moves {change(later)} from "
                f"{points[1]['turns']:,}"
            )
    first, last = growth[RECIPES[0]]["points"][0], growth[RECIPES[0]]["points"][-1]
    return (
        "context tokens per request flat (within 5%) as a conversation grows",
        f"from {first['turns']:,} to {last['turns']:,} turns: {', '.join(parts)}"
        + (f" ({'; '.join(notes)})" if notes else ""),
        met_cell(ok),
    )


def latency_growth_row(growth: dict[str, dict]) -> tuple[str, str, str]:
    """Context build time at the longest conversation against the shortest."""
    first = growth[RECIPES[0]]["points"][0]["turns"]
    last = growth[RECIPES[0]]["points"][-1]["turns"]
    grew = {
        s: growth[s]["points"][-1]["context_latency"]["p50_ms"]
        / growth[s]["points"][0]["context_latency"]["p50_ms"]
        for s in RECIPES
    }
    return (
        f"context build p50 at {last:,} turns <= {CONTEXT_GROWTH}x its p50 at "
        f"{first:,}",
        ", ".join(f"{s} {times(x)}" for s, x in grew.items()),
        met_cell({s: x <= CONTEXT_GROWTH for s, x in grew.items()}),
    )


def locomo_row(locomo: dict) -> tuple[str, str, str]:
    """The LoCoMo development eval, recipes and baselines, timed end to end."""
    error = f"; failed: {locomo['error']}" if locomo.get("error") else ""
    return (
        f"LoCoMo dev eval (A, B, C + baselines) <= {LOCOMO_EVAL_S / 60:.0f} minutes",
        f"{seconds(locomo['seconds'])}{error}",
        met_cell({"": locomo["seconds"] <= LOCOMO_EVAL_S and not error}),
    )


def recipe_retrieval_row(root: Path) -> tuple[str, str, str]:
    """The recipes' retrieval p95 on LoCoMo against `rag-hybrid`'s, per budget.

    The main job assembles each question at 600 tokens, then at 1,500 from the
    same memory. Each question is embedded before its conversation's first
    turn, untimed (`runner.run_unit`), so neither figure holds an embedding,
    for recipes and baselines alike.
    """
    cells, verdicts = [], {}
    for budget, note in (
        (600, "the first assembly of each question"),
        (1500, "the same memory assembled again"),
    ):
        rows = pd.read_csv(root / str(MAIN_LOCOMO).format(budget=budget))
        p95 = rows.groupby("system").tail(1).set_index("system")["retrieve_ms_p95"]
        ratios = {s: p95[s] / p95["rag-hybrid"] for s in RECIPES}
        cells.append(
            f"at {budget:,} tokens ({note}): "
            + ", ".join(f"{s} {times(r)}" for s, r in ratios.items())
            + f" ({', '.join(ms(p95[s]) for s in RECIPES)} against "
            f"{ms(p95['rag-hybrid'])})"
        )
        verdicts[f"{budget:,}"] = all(r <= RECIPE_RETRIEVAL for r in ratios.values())
    met = "; ".join(f"at {b}: {'yes' if v else 'no'}" for b, v in verdicts.items())
    return (
        f"recipes' retrieval p95 on the LoCoMo development split <= "
        f"{RECIPE_RETRIEVAL:g}x `rag-hybrid`'s (main job)",
        "; ".join(cells),
        met,
    )


def main_job_row(root: Path) -> tuple[str, str, str]:
    """The main job's wall time, per dataset, and how warm its vector cache was."""
    times_ = read(root, MAIN_TIMES)
    per = ", ".join(f"{k} {seconds(v)}" for k, v in times_["seconds"].items())
    kept = times_["vectors_kept_before"]
    cache = (
        "vector cache off"
        if times_["vector_cache"] == "off"
        else f"{count(kept)} vectors kept beforehand"
        if kept
        else "vector cache empty beforehand: every vector made"
    )
    return (
        f"`make run` (the main job) <= {MAIN_JOB_S / 60:.0f} minutes on "
        f"{times_['cores']} cores",
        f"{seconds(times_['total_seconds'])} ({per}; {times_['workers']} workers; "
        f"{cache}; commit {times_['git_commit'][:7]})",
        met_cell({"": times_["total_seconds"] <= MAIN_JOB_S}),
    )


def growth_sentences(full: dict) -> str:
    """What the recipes send and store against `full` at the longest conversation."""
    growth = by_system(full["growth"])
    whole = growth["full"]["points"][-1]
    last = {s: growth[s]["points"][-1] for s in RECIPES}
    sent = [
        p["context_tokens_mean"] / whole["context_tokens_mean"] for p in last.values()
    ]
    kept = [p["stored_tokens"] / whole["stored_tokens"] for p in last.values()]
    latency = ", ".join(
        f"{s} {ms(growth[s]['points'][0]['context_latency']['p50_ms'])} at "
        f"{growth[s]['points'][0]['turns']:,} turns and "
        f"{ms(p['context_latency']['p50_ms'])} at {p['turns']:,}"
        for s, p in last.items()
    )
    return (
        f"At {whole['turns']:,} turns the recipes send {span(sent, share)} of "
        f"`full`'s context tokens ("
        + ", ".join(f"{s} {count(p['context_tokens_mean'])}" for s, p in last.items())
        + f" against {count(whole['context_tokens_mean'])}) and store "
        f"{span(kept, share)} of its tokens. Building the context (p50): {latency}. "
        f"Peak RSS {count(full['peak_rss_mb'])} MB."
    )


def speed_block(root: Path) -> str:
    """The speed targets, measured, with the commit and load they were measured at."""
    full, faults = read(root, FULL), read(root, FAULTS)
    ingest = by_system(full["ingest"])
    rows = [
        compression_row(ingest),
        ingest_row(ingest),
        *retrieval_rows(full["retrieval"]["sizes"]),
        faults_row(faults),
        burst_row(full["burst"]),
        growth_row(by_system(full["growth"])),
        latency_growth_row(by_system(full["growth"])),
        locomo_row(full["locomo_eval"]),
        recipe_retrieval_row(root),
        main_job_row(root),
    ]
    table = pd.DataFrame(rows, columns=["target", "measured", "met"])
    notes = [
        f"`{path.name}`: {data['note']}"
        for path, data in (
            (FULL, full),
            (FAULTS, faults),
            (MAIN_TIMES, read(root, MAIN_TIMES)),
        )
        if data.get("note")
    ]
    parts = [
        f"From `{FULL.as_posix()}` ({machine_stamp(full)}) and "
        f"`{FAULTS.as_posix()}` ({machine_stamp(faults)}); the last two rows from "
        f"`{str(MAIN_LOCOMO).format(budget='*')}` and `{MAIN_TIMES.as_posix()}` "
        "(the main job).",
        "",
        markdown_table(table),
        "",
        growth_sentences(full),
    ]
    if notes:
        parts += ["", "Noted with the results: " + " ".join(notes)]
    return "\n".join(parts)


def llm_speed_block(root: Path) -> str:
    """With the LLM brain: turns that start compression against the model's time."""
    quick = read(root, LLM_QUICK)
    ingest = by_system(quick["ingest"])
    fired = [s for s in RECIPES if ingest[s]["compression_turn_ms"]["n"]]
    quiet = [s for s in RECIPES if s not in fired]
    ratios = " and ".join(
        f"{times(ingest[s]['compression_vs_turn']['p95'])} ({s}, "
        f"{plural(ingest[s]['compression_turn_ms']['n'], 'compression turn')})"
        for s in fired
    )
    ordinary = " and ".join(ms(ingest[s]["turn_ms"]["p95"]) for s in fired)
    jobs = []
    for s in fired:
        job = ingest[s]["background_ms"]["compress_job"]
        took = span((job["p50_ms"] / 1000, job["p95_ms"] / 1000), seconds)
        jobs.append(f"{took} ({s}{', p50 to p95' if job['n'] > 1 else ''})")
    text = (
        f"From `{LLM_QUICK.as_posix()}` ({machine_stamp(quick)}): compression "
        f"turns' p95 is {ratios} the ordinary turns' p95 ({ordinary}), while the "
        f"worker's compress jobs took {' and '.join(jobs)} each."
    )
    if quiet:
        turns = ingest[quiet[0]]["turns"]
        text += f" {names(quiet)} did not compress in {turns} turns."
    return text
