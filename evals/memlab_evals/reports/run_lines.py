"""The report's lines about the run itself: its config, models, systems and health.

`print_table` prints the health and cache lines under the table as well.
"""

from __future__ import annotations

from memlab_evals.running.log import RunLog
from memlab_evals.systems import describe, kind_of

UNSCORED = "unscored: no judge configured"


def system_lines(systems: list[str]) -> list[str]:
    """One line per system of the run: its kind and the registry's sentence."""
    return [f"- `{s}` ({kind_of(s)}): {describe(s)}" for s in systems]


def config_lines(log: RunLog) -> list[str]:
    """The run's dataset, systems, budget, provenance, models and scorers."""
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
