"""`memory-lab bench`: speed, scale and memory of the recipes beside the baselines."""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from memlab_bench.modes import MODES, Mode
from memory_lab.config import LLMSettings
from memory_lab.stores.chroma_telemetry import telemetry_off

REPO = Path(__file__).resolve().parents[2]


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `bench` sub-command."""
    p = sub.add_parser(
        "bench",
        help="measure ingest, retrieval and growth of the recipes and baselines",
        description="Writes DIR/bench-<mode>.json and DIR/bench-<mode>.md. Quick "
        "mode finishes in under a minute; full mode (about 15 minutes) uses "
        "100k memories, 10,000-turn conversations and times the LoCoMo dev eval.",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="small sizes (default)")
    mode.add_argument(
        "--full",
        action="store_true",
        help="the full sizes: 100k memories, 10,000-turn conversations and the "
        "LoCoMo dev eval",
    )
    mode.add_argument(
        "--growth",
        action="store_true",
        help="only the full run's growth stage: context latency (p50, p95) from "
        "100 to 10,000 turns, with its plot (writes bench-growth.*)",
    )
    mode.add_argument(
        "--scale",
        action="store_true",
        help="only the full run's 100k stage: retrieval and assembly at 1k, 10k "
        "and 100k memories (writes bench-scale.*)",
    )
    mode.add_argument(
        "--mcp",
        action="store_true",
        help="only the MCP stage: memory_add and memory_recall p50/p95 through "
        "the MCP SDK's client over stdio on a 2,000-turn memory (writes bench-mcp.*)",
    )
    mode.add_argument(
        "--faults",
        action="store_true",
        help="SIGKILL ingesting processes at every phase, restart, check",
    )
    p.add_argument(
        "--kills", type=int, default=1000, help="kills for --faults (default 1000)"
    )
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="output folder (default: bench/ under MEMORY_LAB_RUNS, so a run never "
        "overwrites the committed results in benchmarks/results/)",
    )
    p.add_argument("--seed", type=int, default=7, help="synthetic conversation seed")
    p.add_argument(
        "--llm-throughput",
        action="store_true",
        help="only measure LLM client calls/s at 1, 4 and 8 connections against a "
        "loopback server with a fixed delay (writes bench-llm-throughput.*)",
    )
    p.add_argument(
        "--executors",
        action="store_true",
        help="only time one small eval with the local executor and with Ray, "
        "2 workers each (writes bench-executors.json)",
    )
    p.add_argument(
        "--ingest-scaling",
        action="store_true",
        help="only measure ingest throughput with 1, 2 and 4 processes on SQLite, "
        "on Postgres and on Postgres with a Chroma server, each started for the "
        "run (writes bench-ingest-scaling.json)",
    )
    p.add_argument(
        "--store",
        action="store_true",
        help="only the LangGraph store stage: search p50/p95 with --store-items "
        "items in a MemoryLabStore (writes bench-store.json)",
    )
    p.add_argument(
        "--store-items", type=int, default=10_000, help="items for --store (10,000)"
    )
    p.add_argument(
        "--store-location",
        default=None,
        help="a folder or postgresql:// URL for --store (default: a new folder)",
    )
    p.set_defaults(func=run)


def _conversation(turns: int, seed: int):
    from memlab_datasets import GeneratorConfig, generate

    per_session = 40
    cfg = GeneratorConfig(
        seed=seed,
        conversations=1,
        sessions=max(2, math.ceil(turns / per_session)),
        turns_per_session=per_session,
    )
    return generate(cfg).conversations[0]


def _questions(conv, n: int) -> list[str]:
    asked = list(dict.fromkeys(p.question for p in conv.probes))
    fixed = ["What do I prefer?", "What did we decide last time?", "Where do I work?"]
    return (asked + fixed)[:n]


def out_folder(args: argparse.Namespace) -> Path:
    """`--out`, else bench/ under the runs folder (MEMORY_LAB_RUNS).

    Never the committed `benchmarks/results/` unless named: a user's run on a
    busy laptop must not replace the figures the README cites.
    """
    if args.out is not None:
        return args.out
    settings = getattr(args, "settings", None)
    return (settings.runs if settings else Path("runs")) / "bench"


def run(args: argparse.Namespace) -> int:
    """Run every benchmark of the mode and write the results."""
    from memlab_bench.machine import git_commit

    telemetry_off()
    git_commit(REPO)  # the code as it starts, before any result is written
    args.out = out_folder(args)
    if args.llm_throughput:
        return _run_throughput(args.out)
    if args.executors:
        return _run_executors(args.out)
    if args.ingest_scaling:
        return _run_ingest_scaling(args.out, args.seed)
    if args.store:
        from memlab_bench.machine import machine_info
        from memlab_bench.store_stage import run_store_bench

        return run_store_bench(
            args.out,
            location=args.store_location,
            items=args.store_items,
            seed=args.seed,
            machine=machine_info(REPO),
        )
    if args.faults:
        return run_fault_bench(args)
    mode = MODES[
        "full"
        if args.full
        else "growth"
        if args.growth
        else "scale"
        if args.scale
        else "mcp"
        if args.mcp
        else "quick"
    ]
    models = getattr(args, "models", None)
    settings = getattr(args, "settings", None)
    results = measure(
        mode,
        args.seed,
        args.out,
        llm=models.llm if models else None,
        locomo=settings.locomo if settings else None,
    )
    args.out.mkdir(parents=True, exist_ok=True)
    stem = args.out / f"bench-{mode.name}"
    stem.with_suffix(".json").write_text(json.dumps(results, indent=1) + "\n")
    from memlab_bench.report import markdown

    stem.with_suffix(".md").write_text(markdown(results) + "\n")
    if results.get("growth"):
        from memlab_bench.growth_plot import plot_growth
        from memlab_bench.report import GROWTH_PLOT

        plot_growth(results["growth"], args.out / GROWTH_PLOT.format(mode=mode.name))
    _print_summary(results, stem)
    return 0


def run_fault_bench(args: argparse.Namespace) -> int:
    """`--faults`: kill, restart and check; one summary line and bench-faults.json."""
    import sys
    import tempfile

    from memlab_bench.faults import run_faults, summary_line
    from memlab_bench.machine import machine_info

    with tempfile.TemporaryDirectory(prefix="memlab-faults-") as tmp:
        result = run_faults(
            args.kills,
            Path(tmp),
            seed=args.seed,
            report=lambda line: print(line, file=sys.stderr, flush=True),
        )
    result["command"] = f"memory-lab bench --faults --kills {args.kills}"
    result["machine"] = machine_info(REPO)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "bench-faults.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(summary_line(result))
    clean = not (result["lost"] or result["duplicated"] or result["inconsistent"])
    return 0 if clean else 1


def _run_throughput(out: Path) -> int:
    from memlab_bench.llm_throughput import markdown, measure_throughput

    rows = measure_throughput()
    out.mkdir(parents=True, exist_ok=True)
    stem = out / "bench-llm-throughput"
    stem.with_suffix(".json").write_text(json.dumps(rows, indent=1) + "\n")
    stem.with_suffix(".md").write_text(markdown(rows) + "\n")
    for r in rows:
        print(
            f"llm throughput: {r['connections']} connection(s): "
            f"{r['calls_per_s']} calls/s ({r['calls']} calls, {r['delay_ms']} ms "
            f"server delay, peak {r['server_peak_in_flight']} in flight)"
        )
    print(f"wrote {stem.with_suffix('.json')} and {stem.with_suffix('.md')}")
    return 0


def _run_executors(out: Path) -> int:
    from memlab_bench.executor_walltime import measure_executors
    from memlab_bench.machine import machine_info

    result = measure_executors()
    result["command"] = "memory-lab bench --executors"
    result["machine"] = machine_info(REPO)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "bench-executors.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    print(
        f"eval wall time, {result['units']} units on {result['workers']} workers: "
        f"local {result['local_s']} s, Ray {result['ray_s']} s "
        f"(Ray/local {result['ray_over_local']}); identical logs: "
        f"{result['identical_logs']}"
    )
    print(f"wrote {path}")
    return 0 if result["identical_logs"] else 1


def _run_ingest_scaling(out: Path, seed: int) -> int:
    import sys

    from memlab_bench.ingest_scaling import measure_ingest_scaling
    from memlab_bench.machine import machine_info

    result = measure_ingest_scaling(
        seed=seed, report=lambda line: print(line, file=sys.stderr, flush=True)
    )
    result["command"] = "memory-lab bench --ingest-scaling"
    result["machine"] = machine_info(REPO)
    out.mkdir(parents=True, exist_ok=True)
    path = out / "bench-ingest-scaling.json"
    path.write_text(json.dumps(result, indent=1) + "\n")
    for store, ratios in result["ratios"].items():
        shown = ", ".join(f"{n} processes x{r}" for n, r in ratios.items())
        print(f"ingest scaling on {store}: {shown}")
    print(f"wrote {path}")
    return 0


def measure(
    mode: Mode,
    seed: int,
    out: Path,
    llm: LLMSettings | None = None,
    locomo: Path | None = None,
) -> dict:
    """Every benchmark of `mode`, under one progress display.

    `llm` puts the LLM brain behind the recipes' ingest benchmark; the other
    stages measure the stores and retrieval, which no brain touches. `locomo` is
    the development split's file (MEMORY_LAB_LOCOMO), as the main job reads it.
    """
    from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

    from memlab_bench.growth import run_growth
    from memlab_bench.ingest import run_ingest
    from memlab_bench.machine import machine_info
    from memlab_bench.report import ratios, targets
    from memlab_bench.retrieval import run_retrieval
    from memlab_bench.stats import peak_rss_mb

    started = time.perf_counter()
    longest = max(mode.growth_checkpoints)
    conv = _conversation(max(longest, mode.burst_messages), seed)
    turns = conv.turns[:longest]
    tenant = turns[0].tenant
    questions = _questions(conv, mode.questions)
    distinct = dict.fromkeys(m.content for m in conv.turns if len(m.content) > 20)
    pool = list(distinct)[: mode.retrieval_pool]
    growth_systems = [*mode.recipes, *mode.growth_baselines]
    steps = {
        "ingest": len(mode.recipes) + len(mode.baselines),
        "burst": len(mode.burst_recipes),
        "retrieval": len(mode.retrieval_sizes),
        "growth": len(growth_systems),
        "locomo_eval": 1,
        "mcp": 1,
    }
    stages = sum(steps[s] for s in mode.stages)
    results: dict = {"mode": mode.name, "command": f"memory-lab bench --{mode.name}"}
    if llm is not None:
        results["brain"] = f"llm:{llm.model}"
        results["command"] += f" --brain llm --llm-model {llm.model}"
    with Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.completed}/{task.total}"),
        TimeElapsedColumn(),
    ) as progress:
        overall = progress.add_task("bench", total=stages)
        turns_task = progress.add_task("turns", total=len(turns), visible=False)

        def advance(label: str) -> None:
            progress.update(overall, description=label)
            progress.advance(overall)

        def begin_turns(label: str) -> None:
            advance(label)
            progress.reset(
                turns_task, total=len(turns), visible=True, description=label
            )

        rss = results["peak_rss_mb_after"] = {}
        # Where the run's time goes, so a mode's sizes can be set against its budget.
        took = results["stage_seconds"] = {}
        mark = time.perf_counter()

        def lap(stage: str) -> None:
            nonlocal mark
            took[stage] = round(time.perf_counter() - mark, 1)
            mark = time.perf_counter()

        if "ingest" in mode.stages:
            results["ingest"] = run_ingest(
                mode.recipes,
                mode.baselines,
                turns[: mode.ingest_turns],
                tenant,
                advance,
                llm=llm,
            )
            rss["ingest"] = peak_rss_mb()
            lap("ingest")
        if "burst" in mode.stages:
            from memlab_bench.burst import run_burst

            results["burst"] = []
            for spec in mode.burst_recipes:
                advance(f"burst {spec}")
                results["burst"].append(
                    run_burst(spec, conv.turns[: mode.burst_messages])
                )
            lap("burst")
        if "retrieval" in mode.stages:
            results["retrieval"] = run_retrieval(
                mode.retrieval_sizes,
                pool,
                (questions * mode.retrieval_queries)[: mode.retrieval_queries],
                turns[0].timestamp,
                advance,
            )
            rss["retrieval"] = peak_rss_mb()
            lap("retrieval")
        if "growth" in mode.stages:
            results["growth"] = run_growth(
                growth_systems,
                turns,
                tenant,
                mode.growth_checkpoints,
                questions,
                mode.budget,
                begin_turns,
                lambda: progress.advance(turns_task),
                mode.growth_rounds,
            )
            rss["growth"] = peak_rss_mb()
            lap("growth")
            progress.update(turns_task, visible=False)
        if "locomo_eval" in mode.stages:
            from memlab_bench.locomo import time_locomo_eval

            advance("LoCoMo dev eval")
            results["locomo_eval"] = time_locomo_eval(
                out / "locomo-eval", **({"dataset": locomo} if locomo else {})
            )
            lap("locomo_eval")
        if "mcp" in mode.stages:
            from memlab_bench.mcp_stage import run_mcp

            advance("MCP server")
            need = mode.mcp_turns + mode.mcp_calls + 1
            mcp_conv = conv if len(conv.turns) >= need else _conversation(need, seed)
            results["mcp"] = run_mcp(
                mcp_conv.turns,
                questions,
                preload=mode.mcp_turns,
                calls=mode.mcp_calls,
                budget=mode.budget,
            )
            lap("mcp")
    results["peak_rss_mb"] = peak_rss_mb()
    results["seconds"] = round(time.perf_counter() - started, 1)
    results["machine"] = machine_info(REPO)
    results["questions"] = questions
    results["growth_rounds"] = mode.growth_rounds
    results["targets"] = targets(results)
    results["ratios"] = ratios(results)
    return results


def _print_summary(results: dict, stem: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"memory-lab bench ({results['mode']}, {results['seconds']} s, "
        f"peak {results['peak_rss_mb']} MB)"
    )
    for col in ("target", "measured", "met"):
        table.add_column(col)
    for t in results["targets"]:
        met = {True: "[green]yes", False: "[red]no", None: "[yellow]n/a (quick)"}[
            t["met"]
        ]
        table.add_row(t["target"], t["measured"], met)
    console = Console()
    console.print(table)
    console.print(f"wrote {stem.with_suffix('.json')} and {stem.with_suffix('.md')}")
