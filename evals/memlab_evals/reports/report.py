"""report.md: the table, the plots and a plain reading against the project's targets.

Everything here reads the run log and the summary only, so a stored run can be
re-reported. Plots are drawn on matplotlib `Figure`s, not through pyplot: no
display is needed, and importing this never switches a notebook's backend.
"""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from memlab_datasets.categories import (
    CATEGORIES,
    LONGMEMEVAL_CATEGORIES,
    category_name,
)
from memlab_datasets.types import TRAP_KINDS
from rich.console import Console
from rich.table import Table

from memlab_evals.reports.aggregate import COLUMNS, probe_scores
from memlab_evals.reports.frontier_plot import plot_frontier
from memlab_evals.reports.goal import against_retrieval
from memlab_evals.reports.trigger_columns import COLUMNS as TRIGGER_COLUMNS
from memlab_evals.running.log import RunLog
from memlab_evals.scorers import ProbeCase, hallucination, source_of, stale_answer
from memlab_evals.scorers.trigger_effects import TIER_COLUMNS
from memlab_evals.systems import describe, is_baseline, kind_of, names

UNSCORED = "unscored: no judge configured"
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


def _plot_frontier(summary: pd.DataFrame, path: Path) -> list[str]:
    """Recall against compression per system; returns systems left off (no ratio)."""
    rows = _all_rows(summary)
    fig = Figure(figsize=(7, 4.5))
    ax = fig.subplots()
    skipped = []
    for metric, marker in (("evidence_recall", "o"), ("answer_recall", "^")):
        shown = rows.dropna(subset=["compression_ratio", metric])
        ax.scatter(
            shown["compression_ratio"], shown[metric], marker=marker, label=metric
        )
        if metric == "evidence_recall":
            for _, row in shown.iterrows():
                ax.annotate(
                    row["system"],
                    (row["compression_ratio"], row[metric]),
                    textcoords="offset points",
                    xytext=(4, 4),
                    fontsize=8,
                )
    skipped = sorted(
        set(rows["system"]) - set(rows.dropna(subset=["compression_ratio"])["system"])
    )
    if (rows["compression_ratio"].dropna() > 0).any():
        ax.set_xscale("log")
    ax.set_xlabel("compression_ratio (history tokens / context tokens, log)")
    ax.set_ylabel("recall")
    ax.set_ylim(-0.02, 1.02)
    ax.set_title("Recall against compression, per system")
    ax.legend(loc="lower left", fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return skipped


def _plot_categories(summary: pd.DataFrame, path: Path) -> None:
    """Per-category bars with bootstrap 95% error bars, one panel per recall metric."""
    rows = summary[summary["category"].astype(str) != "all"]
    systems = list(dict.fromkeys(rows["system"]))
    categories = sorted(rows["category"].astype(str).unique(), key=int)
    fig = Figure(figsize=(11, 4.2))
    axes = fig.subplots(1, 2, sharey=True)
    width = 0.8 / max(len(systems), 1)
    x = np.arange(len(categories))
    for ax, metric in zip(axes, ("evidence_recall", "answer_recall"), strict=True):
        for i, system in enumerate(systems):
            mine = rows[rows["system"] == system].set_index(
                rows[rows["system"] == system]["category"].astype(str)
            )
            mine = mine.reindex(categories)
            values = mine[metric].to_numpy(dtype=float)
            low = values - mine[f"{metric}_ci_low"].to_numpy(dtype=float)
            high = mine[f"{metric}_ci_high"].to_numpy(dtype=float) - values
            errors = np.nan_to_num(np.vstack([low, high]), nan=0.0).clip(min=0)
            ax.bar(
                x + i * width - 0.4 + width / 2,
                np.nan_to_num(values, nan=0.0),
                width,
                yerr=errors,
                capsize=2,
                label=system,
            )
        ax.set_xticks(
            x, [f"{c}\n{category_name(int(c))}" for c in categories], fontsize=7
        )
        ax.set_title(f"{metric} per category (95% bootstrap CI)")
        ax.set_ylim(0, 1.05)
        ax.grid(axis="y", alpha=0.3)
    axes[0].set_ylabel("recall")
    axes[1].legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def _recipes(log: RunLog, summary: pd.DataFrame) -> list[str]:
    ran = list(dict.fromkeys(summary["system"]))
    if log.config.recipes:
        return [s for s in ran if s in log.config.recipes]
    return [s for s in ran if not is_baseline(s)]


def _value(rows: pd.DataFrame, system: str, metric: str) -> float:
    hit = rows[rows["system"] == system]
    return float(hit[metric].iloc[0]) if len(hit) and metric in hit else math.nan


def _best(rows: pd.DataFrame, systems: list[str], metric: str) -> str | None:
    """The system with the highest value of `metric` among those that ran."""
    ran = [s for s in systems if not math.isnan(_value(rows, s, metric))]
    return max(ran, key=lambda s: _value(rows, s, metric)) if ran else None


def _locomo_targets(
    log: RunLog, summary: pd.DataFrame, probes: pd.DataFrame
) -> list[str]:
    rows = summary[summary["category"].astype(str) == "all"]
    recipes = _recipes(log, summary)
    if not recipes:
        return ["- No memory recipe in this run: the targets cannot be checked."]
    best = _best(rows, recipes, "evidence_recall") or recipes[0]
    tokens = _value(rows, best, "context_tokens_mean")
    lines = [
        f"- Best memory recipe by evidence recall: **{best}** "
        f"({_value(rows, best, 'evidence_recall'):.3f})."
    ]
    lines += _retrieval_lines(probes, summary, recipes)
    lines += _against_full(rows, best, tokens, log.config.budget)
    return lines


def _against_retrieval(
    probes: pd.DataFrame, summary: pd.DataFrame, recipes: list[str], metric: str
) -> str:
    """Whether the best recipe beats the best raw-turn retriever on `metric`, paired."""
    if probes.empty or metric not in probes:
        return f"- No probe has {metric}: the target cannot be checked."
    retrievers = list(names("baseline", retrieval=True))
    found = against_retrieval(probes, recipes, retrievers, metric)
    if found is None:
        listed = ", ".join(f"`{b}`" for b in retrievers)
        return (
            f"- {metric}: a recipe and one of {listed} must both run "
            "for the target to be checked."
        )
    line = f"- {metric} target {{}}: {found.sentence()} (paired bootstrap 95%)"
    if found.verdict == "ahead":
        return line.format("met") + "."
    gaps = _category_gaps(summary, found.system, found.other, metric)
    return line.format("NOT met") + f". Largest category gaps: {gaps}."


def _retrieval_lines(
    probes: pd.DataFrame, summary: pd.DataFrame, recipes: list[str]
) -> list[str]:
    return [
        _against_retrieval(probes, summary, recipes, metric)
        for metric in ("evidence_recall", "answer_recall")
    ]


def _against_full(rows: pd.DataFrame, best: str, tokens: float, budget: int) -> list:
    """Share of the full history's recall kept, and with how many fewer tokens."""
    full = _value(rows, "full", "context_tokens_mean")
    if math.isnan(full):
        return ["- `full` was not run: the 15x token target cannot be checked."]
    lines = []
    for metric, need in (("evidence_recall", 0.85), ("answer_recall", 0.75)):
        whole = _value(rows, "full", metric)
        share = _value(rows, best, metric) / whole if whole > 0 else math.nan
        verdict = "met" if share >= need else "MISSED"
        lines.append(
            f"- {metric} kept of full's: {share:.2f} (target {need}): {verdict}."
        )
    if tokens > 0 and full / tokens >= 15:
        lines.append(f"- Token target met: full uses {full / tokens:.1f}x the tokens.")
    else:
        ratio = full / tokens if tokens > 0 else math.inf
        lines.append(
            f"- Token target MISSED: full uses only {ratio:.1f}x {best}'s tokens "
            f"({full:.0f} vs {tokens:.0f}); the budget ({budget}) is too "
            "close to the history length at the probes for a 15x reduction."
        )
    return lines


def _category_gaps(
    summary: pd.DataFrame, system: str, other: str, metric: str = "evidence_recall"
) -> str:
    rows = summary[summary["category"].astype(str) != "all"]
    mine = rows[rows["system"] == system].set_index("category")[metric]
    theirs = rows[rows["system"] == other].set_index("category")[metric]
    gaps = (mine - theirs).dropna().sort_values()
    return (
        ", ".join(f"category {c} {g:+.2f}" for c, g in gaps.head(2).items()) or "none"
    )


def _synthetic_targets(
    log: RunLog, summary: pd.DataFrame, probes: pd.DataFrame
) -> list[str]:
    rows = summary[summary["category"].astype(str) == "all"]
    kinds = {t.get("kind") for r in log.conversations for t in r.traps}
    absent = [k for k in TRAP_KINDS if k not in kinds]
    lines = [
        "- Every trap kind present: "
        + ("yes." if not absent else f"NO, missing {', '.join(absent)}.")
    ]
    lines += _retrieval_lines(probes, summary, _recipes(log, summary))
    stale_why = _stale_reasons(log)
    halluc_why = _hallucination_reasons(log)
    for system in _recipes(log, summary):
        stale = _value(rows, system, "stale_answer_rate")
        halluc = _value(rows, system, "hallucinated_memory_rate")
        if math.isnan(stale):
            lines.append(
                f"- {system}: stale_answer_rate not measured (no update probes)."
            )
        elif stale <= 0.02:
            lines.append(f"- {system}: stale_answer_rate {stale:.3f} <= 0.02: met.")
        else:
            lines.append(
                f"- {system}: stale_answer_rate {stale:.3f} > 0.02: MISSED. Stale "
                f"contexts by cause: {stale_why.get(system) or 'none recorded'}."
            )
        if math.isnan(halluc):
            lines.append(
                f"- {system}: hallucinated_memory_rate not measured (nothing stored)."
            )
        elif halluc <= 0.05 and not absent:
            lines.append(
                f"- {system}: hallucinated_memory_rate {halluc:.3f} <= 0.05: met."
            )
        else:
            verdict = (
                "MISSED" if halluc > 0.05 else "not established (trap kinds missing)"
            )
            lines.append(
                f"- {system}: hallucinated_memory_rate {halluc:.3f}: {verdict}. "
                f"Hallucinated rows by reason: {halluc_why.get(system) or 'none'}."
            )
    return lines


def _counts(counter: Counter[str]) -> str:
    return ", ".join(f"{reason} {n}" for reason, n in counter.most_common())


def _stale_reasons(log: RunLog) -> dict[str, str]:
    runs = {(r.system, r.conversation): r for r in log.conversations}
    source = source_of(log.config)
    found: dict[str, Counter[str]] = {}
    for probe in log.probes:
        case = ProbeCase(probe, runs.get((probe.system, probe.conversation)), source)
        reason = stale_answer.diagnose(case)
        if reason:
            found.setdefault(probe.system, Counter())[reason] += 1
    return {s: _counts(c) for s, c in found.items()}


def _hallucination_reasons(log: RunLog) -> dict[str, str]:
    found: dict[str, Counter[str]] = {}
    for run in log.conversations:
        for verdict in hallucination.verdicts(run):
            for reason in verdict.reasons:
                found.setdefault(run.system, Counter())[reason] += 1
    return {s: _counts(c) for s, c in found.items()}


def system_lines(systems: list[str]) -> list[str]:
    """One line per system of the run: its kind and the registry's sentence."""
    return [f"- `{s}` ({kind_of(s)}): {describe(s)}" for s in systems]


def _retrievers() -> str:
    return ", ".join(f"`{b}`" for b in names("baseline", retrieval=True))


def _config_lines(log: RunLog) -> list[str]:
    c = log.config
    lines = [
        f"- dataset: `{c.dataset}` (sha256 `{c.dataset_hash[:16]}...`)",
        f"- systems: {', '.join(c.systems)}",
        f"- budget: {c.budget} tokens (every system except `full`)",
        f"- executor: {c.executor}, workers: {c.workers}; git commit "
        f"`{c.git_commit}`; started {c.started_at}",
        f"- memory-lab {c.memory_lab_version}; run log version {log.version}",
        f"- answer key: corrections `{c.corrections}`"
        + (" (LoCoMo audit fixes applied)" if c.corrections == "audit" else ""),
        f"- judge: {c.judge or UNSCORED}",
        *llm_lines(log),
    ]
    if c.recipes and "extractor" in c.memory:
        # Which runs kept facts at all: `none` is the ablation of them.
        lines.append(f"- facts read from turns by: `{c.memory['extractor']}`")
    for name, params in c.recipes.items():
        lines.append(f"- recipe `{name}`: `{params}`")
    versions = log.scorers or {}
    if versions:
        lines.append(
            "- scorers: " + ", ".join(f"{k} v{v}" for k, v in sorted(versions.items()))
        )
    return lines


def llm_lines(log: RunLog) -> list[str]:
    """The run's models, prompts, requests, cache hits, cost and wall time."""
    info = log.llm
    if info is None:
        return []
    lines = [f"- brain: `{info.brain}`"]
    for role, end in (
        ("brain endpoint", info.brain_endpoint),
        ("extraction model", info.extract_endpoint),
        ("answer model", info.answer_endpoint),
        ("judge model", info.judge_endpoint),
    ):
        if end is not None:
            lines.append(f"- {role}: `{end.model}` at {end.base_url}")
    if info.prompts:
        shown = ", ".join(f"{k} `{v}`" for k, v in sorted(info.prompts.items()))
        lines.append(f"- prompts: {shown}")
    lines.append(
        f"- response cache: {info.cache}; max connections {info.max_connections}"
    )
    for role, usage in info.usage.items():
        if not any(usage.values()):
            continue
        lines.append(
            f"- {role}: {usage.get('calls', 0)} requests sent, "
            f"{usage.get('cache_hits', 0)} served from the cache, "
            f"{usage.get('prompt_tokens', 0)} prompt and "
            f"{usage.get('completion_tokens', 0)} completion tokens"
            + (f", {usage['gave_up']} failed" if usage.get("gave_up") else "")
        )
    if info.cost is not None:
        lines.append(
            f"- cost: {info.cost:.4f} at {info.price_per_1k_prompt or 0} per 1k "
            f"prompt and {info.price_per_1k_completion or 0} per 1k completion tokens"
        )
    if info.seconds:
        shown = ", ".join(f"{k} {v:.1f} s" for k, v in info.seconds.items())
        lines.append(f"- wall time: {shown}")
    return lines


def cache_line(log: RunLog) -> str | None:
    """One sentence on requests sent and served from the cache, over every role."""
    if log.llm is None:
        return None
    sent = sum(u.get("calls", 0) for u in log.llm.usage.values())
    hits = sum(u.get("cache_hits", 0) for u in log.llm.usage.values())
    if not sent and not hits:
        return None
    return f"LLM requests: {sent} sent, {hits} served from the cache ({log.llm.cache})"


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
    skipped = _plot_frontier(summary, out_dir / "frontier.png")
    _plot_categories(summary, out_dir / "categories.png")
    judged = summary.get("judged_accuracy", pd.Series(dtype=float))
    source = source_of(log.config)
    parts = [
        f"# memory-lab eval: {log.config.dataset}",
        "## Run",
        "\n".join(_config_lines(log)),
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
        parts.append("\n".join(_locomo_targets(log, summary, probes)))
    else:
        parts.append(
            "Targets: the best memory recipe beats the best retrieval over raw "
            "turns on evidence and answer recall at the same budget; "
            "`stale_answer_rate` at most 2% and `hallucinated_memory_rate` at most "
            "5%, with every trap kind present."
        )
        parts.append("\n".join(_synthetic_targets(log, summary, probes)))
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
    _plot_trigger_costs(rows, out_dir / "trigger-costs.png")
    return [
        "## What the triggers changed",
        "Per recipe, pooled over conversations (column meanings below).",
        markdown_table(table),
        "![evidence recall against what the brain was given to summarise]"
        "(trigger-costs.png)",
    ]


def _plot_trigger_costs(rows: pd.DataFrame, path: Path) -> None:
    """Two frontiers: recall, and summary-only recall, against summarising cost."""
    fig = Figure(figsize=(13, 4.8))
    axes = fig.subplots(1, 2)
    for ax, quality in zip(
        axes, ("evidence_recall", "summary_only_evidence_recall"), strict=True
    ):
        plot_frontier(
            rows,
            quality=quality,
            cost="compress_input_tokens_per_1k_turns",
            ax=ax,
        )
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def health_lines(log: RunLog) -> list[str]:
    """One line per system that was skipped or failed, so a blank is not a zero.

    Errors are counted by kind; marked probes were answered from memory a failure
    left incomplete (they stay in the numbers, flagged in run.json).
    """
    lines = []
    for system in dict.fromkeys(r.system for r in log.conversations):
        runs = [r for r in log.conversations if r.system == system]
        statuses = sorted({r.status for r in runs})
        if statuses == ["ok"]:
            continue
        errors: dict[str, int] = {}
        for run in runs:
            for kind, n in run.errors.items():
                errors[kind] = errors.get(kind, 0) + n
        marked = sum(
            1 for p in log.probes if p.system == system and p.error is not None
        )
        line = f"- `{system}`: {', '.join(statuses)}"
        if errors:
            line += "; errors " + ", ".join(f"{k} {n}" for k, n in errors.items())
        if marked:
            line += f"; {marked} probes marked"
        events = [e for r in runs for e in r.events]
        if events:
            first = events[0]
            line += f"; first: {first.get('stage')} at {first.get('at')!r}: "
            line += first.get("error", "")
        lines.append(line)
    return lines


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
