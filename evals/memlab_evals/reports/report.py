"""report.md: the table, the plots and a plain reading against the project's targets.

The pictures are drawn by `report_plots`, the run's own lines written by
`run_lines` and the targets section by `targets`; their public names are
importable from here as before.

Everything here reads the run log and the summary only, so a stored run can be
re-reported. Plots are drawn on matplotlib `Figure`s, not through pyplot: no
display is needed, and importing this never switches a notebook's backend.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from memlab_datasets.categories import (
    CATEGORIES,
    LONGMEMEVAL_CATEGORIES,
    category_name,
)
from rich.console import Console
from rich.table import Table

from memlab_evals.reports.aggregate import COLUMNS, probe_scores
from memlab_evals.reports.report_plots import (
    plot_categories,
    plot_recall_frontier,
    plot_trigger_costs,
)
from memlab_evals.reports.run_lines import (
    UNSCORED,
    cache_line,
    config_lines,
    health_lines,
    llm_lines,
    system_lines,
)
from memlab_evals.reports.targets import planted_targets, retrieval_targets
from memlab_evals.reports.targets import retrievers as _retrievers
from memlab_evals.running.log import RunLog
from memlab_evals.scorers import source_of
from memlab_evals.scorers.trigger_columns import COLUMNS as TRIGGER_COLUMNS
from memlab_evals.scorers.trigger_effects import TIER_COLUMNS

__all__ = [
    "ANSWER_FLOOR",
    "CATEGORY_METRICS",
    "GLOSSARY",
    "NAMED_ONLY",
    "PRINTED_COLUMNS",
    "TABLE_COLUMNS",
    "TRIGGER_TABLE",
    "UNSCORED",
    "cache_line",
    "health_lines",
    "llm_lines",
    "markdown_table",
    "print_table",
    "system_lines",
    "trigger_section",
    "write_report",
]

TRIGGER_TABLE = [
    "evidence_recall",
    "summary_only_evidence_recall",
    *TRIGGER_COLUMNS,
    *TIER_COLUMNS.values(),
]
"""The triggers' own table: what each recipe's triggers did, cost and kept."""
TABLE_COLUMNS = [
    c
    for c in COLUMNS
    if c not in ("dataset", "category")
    and "_ci_" not in c
    and (c not in TRIGGER_TABLE or c == "evidence_recall")
]
CATEGORY_METRICS = ["evidence_recall", "answer_recall", "fact_recall"]
NAMED_ONLY = ["session_recall"]
"""Columns only some data sets can fill: left out of a report where all are empty."""
ANSWER_FLOOR = [
    "answer_f1",
    "answer_exact_match",
    "answer_contains_gold",
    "answer_number_date_match",
    "judged_accuracy",
]
"""What holds of the answers without a judge, per category, and J beside it."""
GLOSSARY = {
    "evidence_recall": "share of the evidence turns the context holds (a turn is "
    "held when 80% of its content words are in the context)",
    "evidence_word_overlap": "the older, lenient evidence recall: share of the "
    "evidence turns' content words found anywhere in the context (chance overlap "
    "scores, so a window holding no evidence still earns a third or more)",
    "answer_recall": "gold answer (normalised; 80% of content words for multi-word "
    "answers) present in the context",
    "fact_recall": "planted value present in the context (synthetic only)",
    "session_recall": "share of the answer sessions the data set names "
    "(LongMemEval) of which the context holds at least one turn of three or more "
    "content words, held as for evidence_recall; empty where none are named",
    "answer_f1": "token F1 of the answer model's reply against the gold answer "
    "(LoCoMo normalisation; category 5 excluded)",
    "answer_bleu1": "BLEU-1 of the reply against the gold answer (category 5 excluded)",
    "answer_exact_match": "judge-free: the normalised reply is the normalised gold",
    "ragas_context_recall": "ragas NonLLMContextRecall (eval --ragas): share of "
    "evidence turns whose best-matching context line is similar enough by string "
    "similarity; unlike evidence_recall it needs a near-verbatim line, so a "
    "summary that keeps the words but not the sentence scores 0 there",
    "ragas_context_precision": "ragas NonLLMContextPrecisionWithReference: how high "
    "the context lines similar to an evidence turn rank among all its lines",
    "ragas_string_presence": "ragas StringPresence: the gold answer as a substring "
    "of the model's answer (case-sensitive, unlike answer_contains_gold)",
    "ragas_faithfulness": "ragas Faithfulness on the judge's endpoint (eval "
    "--ragas with a judge and --answer): share of the answer's statements the "
    "context supports",
    "ragas_answer_correctness": "ragas AnswerCorrectness, its factuality part only "
    "(weights 1, 0: the similarity part needs an embeddings endpoint): F1 of the "
    "answer's statements against the gold's",
    "ragas_llm_failures": "ragas LLM metric calls that failed (the probe is left "
    "unscored for that metric, not scored 0)",
    "answer_contains_gold": "judge-free: the gold's words appear together in the "
    "reply (category 1: share of its comma parts)",
    "answer_number_date_match": "judge-free: the reply states every number and date "
    "part of the gold, whatever the format (only golds that hold one)",
    "judged_accuracy": "J: share of replies the judge labelled CORRECT (category 5 "
    "excluded)",
    "answer_abstention_accuracy": "abstention probes (category 5) whose reply "
    "declines ('not known')",
    "context_judged_accuracy": "context judge: would an answer from this context "
    "alone be correct",
    "answer_failures": "probes whose answer request failed (marked, not dropped)",
    "stale_answer_rate": "update probes whose context serves an older value as current",
    "abstention_violation_rate": "abstention probes whose context asserts an answer",
    "hallucinated_memory_rate": "stored facts no cited turn supports (unsupported "
    "value, trap stored, wrong attribution), mean over conversations",
    "extraction_precision": "stored facts matching a gold fact (lenient)",
    "extraction_recall": "gold facts some stored fact matches (lenient)",
    "compression_ratio": "HEADLINE: raw history tokens / injected context tokens, "
    "mean over probes",
    "storage_compression_ratio": "raw history tokens / tokens the system stores",
    "episode_compression_ratio": "per episode, source tokens / summary tokens",
    "context_tokens_mean": "injected context tokens per probe",
    "status": "ok, errors (some calls failed), failed (gave up part-way) or "
    "skipped (never ran: no probes, so no scores)",
    "errors": "failures counted over the run (peer systems: failed requests, "
    "replies the library could not use, adds and searches that raised)",
    "marked_probes": "probes answered from memory a failure left incomplete",
    "brain_calls": "brain calls per conversation (mean)",
    "brain_tokens": "brain tokens per conversation (mean)",
    "llm_calls": "requests the system's brain and answers actually sent (total)",
    "llm_prompt_tokens": "prompt tokens of those requests",
    "llm_completion_tokens": "completion tokens of those requests",
    "llm_cache_hits": "requests the response cache served instead (nothing sent)",
    "extraction_rejected_rate": "share of facts the LLM brain proposed that the "
    "grounding check refused",
    "summary_only_evidence_recall": "evidence recall (turns held) of the context "
    "built without "
    "verbatim excerpts: what the summaries, window and facts alone hold",
    "compressions_per_1k_turns": "times a trigger fired, per 1,000 turns",
    "brain_input_tokens_per_1k_turns": "tokens memory work gave the brain to read "
    "(summaries, condensations, extraction with the facts shown), per 1,000 turns; "
    "counted for every brain: the bill a model brain would send",
    "compress_input_tokens_per_1k_turns": "the summarising part of those reads, "
    "the part a trigger decides",
    "brain_cost_per_1k_turns": "brain input tokens priced at --price-per-1k-prompt",
    "wait_turns_p50": "turns a turn stays in the window before a trigger chooses "
    "it for compression (median over compressed turns; p95 beside it)",
    "wait_minutes_p50": "minutes from a turn to that decision (median; p95 beside it)",
    "episode_coherence": "mean cosine of an episode's turns to their centroid "
    "(MiniLM): one topic per episode scores high",
    "prefix_changes_per_1k_turns": "turns after which the question-independent "
    "part of the context (running summary, core facts) changed: each change "
    "invalidates a provider's prompt cache",
    "evidence_from_window": "share of the evidence found that the window held "
    "(likewise _summary, _episodes, _excerpts, _facts; they add up to 1)",
}


def _fmt(value: object) -> str:
    if isinstance(value, str):
        return value
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    number = float(value)  # type: ignore[arg-type]
    return f"{number:,.0f}" if abs(number) >= 100 else f"{number:.3f}"


def markdown_table(frame: pd.DataFrame) -> str:
    """A GitHub-flavoured table; empty cells where a metric does not apply."""
    head = "| " + " | ".join(frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = [
        "| " + " | ".join(_fmt(v) for v in row) + " |"
        for row in frame.itertuples(index=False)
    ]
    return "\n".join([head, rule, *body])


def _all_rows(summary: pd.DataFrame) -> pd.DataFrame:
    rows = summary[summary["category"].astype(str) == "all"]
    rows = rows[[c for c in TABLE_COLUMNS if c in rows.columns]]
    return rows.drop(columns=[c for c in NAMED_ONLY if c in rows and _unset(rows[c])])


def _unset(column: pd.Series) -> bool:
    return bool(column.isna().all())


def _with_ci(row: pd.Series, metric: str) -> str:
    value = _fmt(row.get(metric, math.nan))
    low, high = row.get(f"{metric}_ci_low"), row.get(f"{metric}_ci_high")
    if value and low is not None and not pd.isna(low):
        return f"{value} [{low:.2f}, {high:.2f}]"
    return value


def _category_table(summary: pd.DataFrame) -> pd.DataFrame:
    rows = summary[summary["category"].astype(str) != "all"]
    out = pd.DataFrame(
        {
            "system": rows["system"],
            "category": rows["category"].astype(str),
            "name": [category_name(int(c)) for c in rows["category"]],
            "n": rows["n"],
        }
    )
    for metric in CATEGORY_METRICS + ["stale_answer_rate", "abstention_violation_rate"]:
        out[metric] = [_with_ci(r, metric) for _, r in rows.iterrows()]
    for metric in NAMED_ONLY:
        if metric in rows and not _unset(rows[metric]):
            out[metric] = [_fmt(v) for v in rows[metric]]
    # With answers, the judge-free floor per category, beside J.
    for metric in ANSWER_FLOOR:
        if metric in rows and rows[metric].notna().any():
            out[metric] = [_fmt(v) for v in rows[metric]]
    return out


def write_report(
    log: RunLog,
    summary: pd.DataFrame,
    out_dir: Path,
    probes: pd.DataFrame | None = None,
) -> Path:
    """Write report.md and its PNG plots into `out_dir`; returns the report's path.

    `probes` is `probe_scores(log)` when the caller has it already.
    """
    probes = probe_scores(log) if probes is None else probes
    out_dir.mkdir(parents=True, exist_ok=True)
    skipped = plot_recall_frontier(_all_rows(summary), out_dir / "frontier.png")
    plot_categories(summary, out_dir / "categories.png")
    judged = summary.get("judged_accuracy", pd.Series(dtype=float))
    source = source_of(log.config)
    parts = [
        f"# memory-lab eval: {log.config.dataset}",
        "## Run",
        "\n".join(config_lines(log)),
        "## Systems",
        "\n".join(system_lines(log.config.systems)),
        "## Summary (category `all`)",
        markdown_table(_all_rows(summary)),
    ]
    if judged.isna().all():
        parts.append(f"judged_accuracy: {UNSCORED}.")
    elif log.llm is not None and log.llm.judge_calibration is not None:
        from memlab_evals.judging.judge_check import JudgeCalibration, report_line

        check = JudgeCalibration.model_validate(log.llm.judge_calibration)
        parts.append(report_line(check))
    if health := health_lines(log):
        parts.append("\n".join(health))
    if (line := cache_line(log)) is not None:
        parts.append(line + ".")
    parts += [
        "## Per category (mean [bootstrap 95% CI])",
        markdown_table(_category_table(summary)),
        "## Category numbers used",
        "Keyed by number as LoCoMo's evaluation code reads them (the Mem0 paper "
        "swaps 1, 3 and 4); 6 exists only in the synthetic set"
        + (
            "; 7 to 12 are LongMemEval's question types (its abstention questions "
            "keep their type's number, with the abstention kind)."
            if (more := _other_categories(summary))
            else "."
        ),
        markdown_table(
            pd.DataFrame(
                [(str(n), c.name, c.kind) for n, c in {**CATEGORIES, **more}.items()],
                columns=["category", "name", "probe kind"],
            )
        ),
        "## Plots",
        "![recall against compression ratio](frontier.png)",
        "![per-category recall](categories.png)",
    ]
    if skipped:
        parts.append(
            f"Not on the frontier plot (empty context, no ratio): {', '.join(skipped)}."
        )
    parts += trigger_section(summary, out_dir)
    parts.append("## Against the project's targets")
    # Planted truth (traps, stale values) is what the synthetic targets read; a
    # public benchmark, or a plug-in without it, is held to the retrieval targets.
    planted = source == "synthetic" or any(r.traps for r in log.conversations)
    if not planted:
        parts.append(
            "Targets: the best memory recipe beats the best retrieval over raw turns "
            f"({_retrievers()}) on evidence and answer recall "
            "at the same budget, and keeps at least 0.85 of `full`'s evidence "
            "recall and 0.75 of its answer recall with at least 15x fewer tokens."
        )
        parts.append("\n".join(retrieval_targets(log, summary, probes)))
    else:
        parts.append(
            "Targets: the best memory recipe beats the best retrieval over raw "
            "turns on evidence and answer recall at the same budget; "
            "`stale_answer_rate` at most 2% and `hallucinated_memory_rate` at most "
            "5%, with every trap kind present."
        )
        parts.append("\n".join(planted_targets(log, summary, probes)))
    parts += [
        "## Columns",
        "\n".join(f"- `{k}`: {v}" for k, v in GLOSSARY.items()),
    ]
    path = out_dir / "report.md"
    path.write_text("\n\n".join(parts) + "\n", encoding="utf-8")
    return path


def _other_categories(summary: pd.DataFrame) -> dict:
    """LongMemEval's categories that occur in the summary, for the legend."""
    found = {str(c) for c in summary["category"]}
    return {n: c for n, c in LONGMEMEVAL_CATEGORIES.items() if str(n) in found}


def trigger_section(summary: pd.DataFrame, out_dir: Path) -> list[str]:
    """What the recipes' triggers did and cost, and recall against that cost.

    Recall barely tells triggers apart (excerpts keep every compressed turn
    findable), so the section shows what does differ: how often each fired, what
    it had summarised, how long turns waited, what the summaries alone hold and
    where the evidence was found. Empty when the run has no memory recipe.
    """
    rows = summary[summary["category"] == "all"]
    rows = rows[rows["compressions_per_1k_turns"].notna()]
    if rows.empty:
        return []
    table = rows[["system", *TRIGGER_TABLE]].dropna(axis=1, how="all")
    plot_trigger_costs(rows, out_dir / "trigger-costs.png")
    return [
        "## What the triggers changed",
        "Per recipe, pooled over conversations (column meanings below).",
        markdown_table(table),
        "![evidence recall against what the brain was given to summarise]"
        "(trigger-costs.png)",
    ]


PRINTED_COLUMNS = [
    "system",
    "n",
    "evidence_recall",
    "session_recall",
    "answer_recall",
    "fact_recall",
    "answer_f1",
    "judged_accuracy",
    "stale_answer_rate",
    "abstention_violation_rate",
    "hallucinated_memory_rate",
    "compression_ratio",
    "context_tokens_mean",
    "retrieve_ms_p95",
    "llm_calls",
    "llm_cache_hits",
]
"""The headline columns; the report and summary.csv hold the rest."""


def print_table(
    summary: pd.DataFrame, console: Console | None = None, log: RunLog | None = None
) -> None:
    """Print the `all` rows' headline columns as a rich table."""
    console = console or Console(width=max(Console().width, 150))
    rows = summary[summary["category"].astype(str) == "all"]
    shown = [
        c
        for c in PRINTED_COLUMNS
        if c in rows.columns and (c in ("system", "n") or rows[c].notna().any())
    ]
    dataset = str(summary["dataset"].iloc[0]) if len(summary) else ""
    table = Table(title=f"memory-lab eval: {dataset} (category all)")
    for column in shown:
        table.add_column(
            column.replace("_", " "),
            justify="left" if column == "system" else "right",
            overflow="fold",
        )
    for _, row in rows.iterrows():
        table.add_row(*(_fmt(row[c]) for c in shown))
    console.print(table)
    if "judged_accuracy" in rows and rows["judged_accuracy"].isna().all():
        console.print(f"judged_accuracy: {UNSCORED}")
    for line in health_lines(log) if log is not None else []:
        console.print(line, markup=False)
    line = cache_line(log) if log is not None else None
    if line:
        console.print(line)
