"""Targets, ratios against the baselines, and the markdown table of one run."""

from __future__ import annotations

from memory_lab.config import MemoryConfig


def _is_recipe(name: str) -> bool:
    """Whether a result row is a memory recipe, as the systems registry says."""
    from memlab_evals.systems import kind_of

    return kind_of(name) == "recipe"


def targets(results: dict) -> list[dict]:
    """Each speed and scale target with the measured value and whether it was met."""
    out = []
    sizes = results["retrieval"]["sizes"] if "retrieval" in results else []
    biggest = max(sizes, key=lambda r: r["episodes"]) if sizes else None
    if biggest:
        p95 = biggest["retrieval_and_assembly"]["p95_ms"]
        scope = f"{biggest['episodes']:,} episodes + {biggest['facts']:,} facts"
        full_size = biggest["episodes"] >= 100_000
        out.append(
            {
                "target": "retrieval + assembly p95 <= 20 ms with 100k memories",
                "measured": f"{p95} ms at {scope}",
                "met": (p95 <= 20) if full_size else None,
            }
        )
    sizes_by = {r["episodes"]: r for r in sizes}
    if len(sizes_by) > 1:
        least = min(sizes_by)
        small = sizes_by[least]["retrieval_and_assembly"]["p95_ms"]
        big_p95 = biggest["retrieval_and_assembly"]["p95_ms"]
        out.append(
            {
                "target": "retrieval + assembly p95 at 100k memories <= 1.25x at 1k",
                "measured": f"{big_p95} / {small} ms = {big_p95 / small:.2f}x "
                f"({biggest['episodes']:,} vs {least:,})",
                "met": (big_p95 <= 1.25 * small)
                if biggest["episodes"] >= 100_000 and least <= 1_000
                else None,
            }
        )
    recipes = [r for r in results.get("ingest", []) if _is_recipe(r["system"])]
    if recipes:
        ratios = [r["compression_vs_turn"] for r in recipes]
        out.append(
            {
                "target": "compression turns' p95 and max <= 1.5x the ordinary "
                f"turns' p95 ({brain_label(results)})",
                "measured": ", ".join(
                    f"{r['system']} p95 {c['p95']}x, max {c['max']}x"
                    if c["p95"] is not None
                    else f"{r['system']} no trigger fired"
                    for r, c in zip(recipes, ratios, strict=True)
                ),
                "met": all(c["met"] for c in ratios if c["met"] is not None)
                if any(c["met"] is not None for c in ratios)
                else None,
            }
        )
        worst = max(recipes, key=lambda r: r["total"]["p95_ms"])
        out.append(
            {
                "target": "ingest p95 <= 25 ms per turn "
                f"({brain_label(results)}, local embeddings)",
                "measured": ", ".join(
                    f"{r['system']} {r['total']['p95_ms']} ms" for r in recipes
                ),
                "met": worst["total"]["p95_ms"] <= 25,
            }
        )
    growth = [g for g in results.get("growth", []) if _is_recipe(g["system"])]
    if growth:
        out.append(_latency_target(growth))
        first = growth[0]["points"][0]["turns"]
        last = growth[0]["points"][-1]["turns"]
        out.append(
            {
                "target": f"context tokens within 5% from {first} to {last} turns "
                "(target: 100 to 10,000)",
                "measured": ", ".join(
                    f"{g['system']} {g['context_change']:+.1%}" for g in growth
                ),
                "met": all(g["flat_within_5pct"] for g in growth),
            }
        )
    if "mcp" in results:
        from memlab_bench.mcp_stage import mcp_targets

        out += mcp_targets(results["mcp"])
    loc = results.get("locomo_eval")
    if loc:
        out.append(
            {
                "target": "LoCoMo dev eval (A, B, C + baselines) <= 5 minutes",
                "measured": f"{loc['seconds']} s"
                if not loc["error"]
                else f"error: {loc['error']}",
                "met": (loc["seconds"] <= 300)
                if loc["seconds"] and not loc["error"]
                else False,
            }
        )
    return out


def _latency_target(growth: list[dict]) -> dict:
    """Context build p50 at the longest checkpoint against the shortest, per recipe."""
    first = growth[0]["points"][0]["turns"]
    last = growth[0]["points"][-1]["turns"]
    growths = {
        g["system"]: g["points"][-1]["context_latency"]["p50_ms"]
        / g["points"][0]["context_latency"]["p50_ms"]
        for g in growth
    }
    return {
        "target": f"context build p50 at {last:,} turns <= 1.25x at {first:,}",
        "measured": ", ".join(f"{name} {x:.2f}x" for name, x in growths.items()),
        "met": all(x <= 1.25 for x in growths.values())
        if first <= 100 and last >= 10_000
        else None,
    }


def ratios(results: dict) -> dict:
    """Recipes against each baseline: ingest p50, context and stored tokens."""
    out: dict[str, dict] = {"ingest_p50": {}, "context_tokens": {}, "stored_tokens": {}}
    ingest = {r["system"]: r["total"]["p50_ms"] for r in results.get("ingest", [])}
    growth = {g["system"]: g["points"][-1] for g in results.get("growth", [])}
    for recipe in (s for s in ingest if _is_recipe(s)):
        out["ingest_p50"][recipe] = {
            b: round(ingest[recipe] / ingest[b], 1)
            for b in ingest
            if not _is_recipe(b) and ingest[b]
        }
    for recipe in (s for s in growth if _is_recipe(s)):
        mine = growth[recipe]
        out["context_tokens"][recipe] = {
            b: round(mine["context_tokens_mean"] / growth[b]["context_tokens_mean"], 3)
            for b in growth
            if not _is_recipe(b) and growth[b]["context_tokens_mean"]
        }
        out["stored_tokens"][recipe] = {
            b: round(mine["stored_tokens"] / growth[b]["stored_tokens"], 3)
            for b in growth
            if not _is_recipe(b) and growth[b]["stored_tokens"]
        }
    return out


def _pair(s: dict) -> str:
    return f"{s['p50_ms']} / {s['p95_ms']}"


def _row(cells: list[object]) -> str:
    return "| " + " | ".join("" if c is None else str(c) for c in cells) + " |"


def _ms3(s: dict) -> str:
    if not s["n"]:
        return ""
    return f"{s['p50']} / {s['p95']} / {s['max']} (n={s['n']})"


def _triple(s: dict) -> str:
    return f"{s['p50_ms']} / {s['p95_ms']} / {s['max_ms']}"


def _table(head: list[str], rows: list[list[object]]) -> list[str]:
    return [_row(head), _row(["---"] * len(head)), *(_row(r) for r in rows), ""]


OFFLINE_BRAIN = f"rule-based brain, {MemoryConfig().extractor} extractor"
BURST_NOTE = f" (the burst below uses the {OFFLINE_BRAIN})"


def brain_label(results: dict) -> str:
    """Which brain the recipes' ingest ran with, as the tables say it."""
    brain = results.get("brain", "")
    return f"LLM brain `{brain.removeprefix('llm:')}`" if brain else OFFLINE_BRAIN


def markdown(results: dict) -> str:
    """The run as a markdown page: machine, targets, then one table per benchmark."""
    m = results["machine"]
    lines = [
        f"# memory-lab bench ({results['mode']} mode)",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, {m['ram_gb']} GB RAM; Python "
        f"{m['python']} on {m['platform']}; {m['date']}; commit {m['git_commit']}. "
        f"Load average at the end {m['load_average']}. "
        f"Run took {results['seconds']} s; peak RSS {results['peak_rss_mb']} MB "
        f"(after each stage: {results['peak_rss_mb_after']}); seconds per stage: "
        f"{results.get('stage_seconds', 'not recorded')}.",
        "",
        f"Command: `{results['command']}`",
        "",
        "## Targets",
        "",
        *_table(
            ["target", "measured", "met"],
            [
                [
                    t["target"],
                    t["measured"],
                    {True: "yes", False: "**no**", None: "not measured at full size"}[
                        t["met"]
                    ],
                ]
                for t in results["targets"]
            ],
        ),
    ]
    if "ingest" in results:
        lines += _ingest_lines(results)
    burst = results.get("burst") or []
    if burst:
        lines += [
            "## Background work under a burst",
            "",
            "Messages ingested back to back; the worker compresses and extracts "
            "behind them. Backlog: the most jobs pending, and the most turns asked "
            "to be compressed but not yet committed (they stay in the window "
            "meanwhile). Throughput per second of the worker's own job time.",
            "",
        ]
        lines += _table(
            [
                "recipe",
                "messages",
                "turn p50 / p95",
                "ingest (s)",
                "drain after (s)",
                "max pending jobs",
                "max turns awaiting compression",
                "turns compressed / s",
                "turns extracted / s",
                "facts written / s",
            ],
            [
                [
                    b["system"],
                    f"{b['messages']:,}",
                    _pair(b["turn"]),
                    b["ingest_s"],
                    b["drain_after_burst_s"],
                    b["max_pending_jobs"],
                    b["max_turns_awaiting_compression"],
                    b["turns_compressed_per_s"],
                    b["turns_extracted_per_s"],
                    b["facts_written_per_s"],
                ]
                for b in burst
            ],
        )
    if "retrieval" in results:
        lines += _retrieval_lines(results["retrieval"])
    if results.get("growth"):
        lines += _growth_lines(
            results["growth"], results["mode"], results.get("growth_rounds")
        )
    if results["ratios"]["context_tokens"]:
        lines += _ratio_lines(results["ratios"])
    loc = results.get("locomo_eval")
    if loc:
        lines += [
            "## LoCoMo dev eval",
            "",
            f"`{loc['command']}`: "
            + (
                f"{loc['seconds']} s" if not loc["error"] else f"failed: {loc['error']}"
            ),
            "",
        ]
    if "mcp" in results:
        from memlab_bench.mcp_stage import mcp_lines

        lines += mcp_lines(results["mcp"])
    return "\n".join(lines)


def _ingest_lines(results: dict) -> list[str]:
    lines = [
        "## Ingest per turn (ms)",
        "",
        "Memory recipes on SQLite + Chroma in a temporary folder, "
        f"{brain_label(results)}, local MiniLM embeddings"
        f"{BURST_NOTE if 'brain' in results else ''}"
        ". Compression and extraction run in the engine's "
        "background worker, so a turn where a trigger fires only records a job; "
        "`turn` is the turns where no trigger fired, `compression turn` those where "
        "one did (p50 / p95 / max), and the ratio is the compression turns' p95 "
        "and max over the ordinary turns' p95 (target <= 1.5). Background jobs: "
        "p50 / p95 per job. Baselines: all turns.",
        "",
    ]
    rows = []
    for r in results["ingest"]:
        t = r["total"]
        if "turn_ms" not in r:
            rows.append([r["system"], r["turns"], _triple(t), "", "", "", "", ""])
            continue
        c = r["compression_vs_turn"]
        bg = r["background_ms"]
        rows.append(
            [
                r["system"],
                r["turns"],
                _ms3(r["turn_ms"]),
                _ms3(r["compression_turn_ms"]),
                f"{c['p95']}x / {c['max']}x" if c["p95"] is not None else "",
                _pair(r["parts"]["trigger_check"]),
                _pair(bg["compress_job"]) if bg["compress_job"]["n"] else "",
                _pair(bg["extract_job"]) if bg["extract_job"]["n"] else "",
            ]
        )
    return lines + _table(
        [
            "system",
            "turns",
            "turn",
            "compression turn",
            "ratio p95 / max",
            "trigger check",
            "compress job",
            "extract job",
        ],
        rows,
    )


def _retrieval_lines(r: dict) -> list[str]:
    lines = ["## Retrieval and assembly (ms)", "", f"Note: {r['vectors']}.", ""]
    return lines + _table(
        [
            "episodes",
            "facts",
            "episode search p50/p95",
            "fact read (candidates + about) p50/p95",
            "retrieval+assembly p50/p95",
            "context tokens",
            "load (s)",
        ],
        [
            [
                f"{s['episodes']:,}",
                f"{s['facts']:,}",
                f"{s['episode_search']['p50_ms']} / {s['episode_search']['p95_ms']}",
                f"{s['fact_read']['p50_ms']} / {s['fact_read']['p95_ms']}",
                _pair(s["retrieval_and_assembly"]),
                s["context_tokens_mean"],
                f"{s['load_episodes_s']} + {s['load_facts_s']}",
            ]
            for s in r["sizes"]
        ],
    )


GROWTH_PLOT = "bench-{mode}-growth.png"
"""The latency plot beside a report that has a growth stage."""


def _growth_lines(growth: list[dict], mode: str, rounds: int | None) -> list[str]:
    """The growth tables and plot, and how their latencies were taken.

    `rounds`: timed rounds of the questions; None in results from before they
    were repeated, when each was asked once, timed.
    """
    checkpoints = [p["turns"] for p in growth[0]["points"]]
    lines = ["## Context tokens per request as the conversation grows", ""]
    lines += _table(
        ["system", *[f"{c:,} turns" for c in checkpoints], "change"],
        [
            [
                g["system"],
                *[p["context_tokens_mean"] for p in g["points"]],
                # None: a system that sends no context (`none`) has no change.
                "no context"
                if g["context_change"] is None
                else f"{g['context_change']:+.1%}",
            ]
            for g in growth
        ],
    )
    lines += ["## Memory stored (tokens) as the conversation grows", ""]
    lines += _table(
        ["system", *[f"{c:,} turns" for c in checkpoints]],
        [[g["system"], *[p["stored_tokens"] for p in g["points"]]] for g in growth],
    )
    lines += [
        "## Context latency as the conversation grows (p50 / p95 ms)",
        "",
        "Building each question's context at each checkpoint, after the memory "
        "work owed was finished (`drain` in the JSON: the backlog the worker had "
        "left, since the turns are fed faster than any chat); "
        + (
            "each question asked once."
            if rounds is None
            else f"the questions asked once untimed, then {rounds} times timed."
        ),
        "",
        f"![context latency against turns]({GROWTH_PLOT.format(mode=mode)})",
        "",
    ]
    lines += _table(
        ["system", *[f"{c:,} turns" for c in checkpoints]],
        [
            [g["system"], *[_pair(p["context_latency"]) for p in g["points"]]]
            for g in growth
        ],
    )
    return lines


def _ratio_lines(rat: dict) -> list[str]:
    lines = [
        "## Ratios against the baselines",
        "",
        "recipe / baseline: ingest p50, context tokens and stored tokens at the "
        "last growth checkpoint.",
        "",
    ]
    rows = []
    for recipe in rat["context_tokens"]:
        for b in rat["context_tokens"][recipe]:
            rows.append(
                [
                    recipe,
                    b,
                    rat["ingest_p50"].get(recipe, {}).get(b),
                    rat["context_tokens"][recipe][b],
                    rat["stored_tokens"][recipe].get(b),
                ]
            )
    return lines + _table(
        ["recipe", "baseline", "ingest p50", "context tokens", "stored tokens"], rows
    )
