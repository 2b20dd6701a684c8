"""What a dataset holds, counted once for the CLI, the app and eval logs."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.table import Table

from memlab_datasets.categories import (
    CATEGORIES,
    LONGMEMEVAL_CATEGORIES,
    PROBE_KINDS,
    category_name,
)
from memlab_datasets.types import TRAP_KINDS, Dataset


@dataclass(frozen=True)
class DatasetStats:
    """Counts that describe a dataset; every field is a plain number or mapping."""

    name: str
    content_hash: str
    sources: list[str]
    conversations: int
    sessions: int
    turns: int
    probes: int
    probes_by_kind: dict[str, int]
    probes_by_category: dict[int, int]
    corrected_probes: int
    gold_facts: int
    gold_facts_by_category: dict[str, int]
    traps: int
    traps_by_kind: dict[str, int]
    loader_counts: dict[str, Any] = field(default_factory=dict)


def describe(dataset: Dataset) -> DatasetStats:
    """Count conversations, sessions, turns, probes, gold facts and traps."""
    convs = dataset.conversations
    probes = [p for c in convs for p in c.probes]
    facts = [f for c in convs for f in c.gold_facts]
    traps = [t for c in convs for t in c.traps]
    kinds = Counter(p.kind for p in probes)
    trap_kinds = Counter(t.kind for t in traps)
    return DatasetStats(
        name=dataset.name,
        content_hash=dataset.content_hash,
        sources=sorted({c.source for c in convs}),
        conversations=len(convs),
        sessions=sum(len(c.sessions) for c in convs),
        turns=sum(len(c.turns) for c in convs),
        probes=len(probes),
        probes_by_kind={kind: kinds.get(kind, 0) for kind in PROBE_KINDS},
        probes_by_category=dict(sorted(Counter(p.category for p in probes).items())),
        corrected_probes=sum(p.corrected for p in probes),
        gold_facts=len(facts),
        gold_facts_by_category=dict(sorted(Counter(f.category for f in facts).items())),
        traps=len(traps),
        traps_by_kind={kind: trap_kinds.get(kind, 0) for kind in TRAP_KINDS},
        loader_counts=dict(dataset.metadata.get("counts", {})),
    )


def _listed_categories(counts: dict[int, int]) -> list[int]:
    """The category rows to print: every one of LoCoMo's, so an empty one shows.

    A set of LongMemEval question types only lists those (1 to 6 never occur in it).
    """
    shown = set(counts)
    only_longmemeval = shown and shown <= set(LONGMEMEVAL_CATEGORIES)
    if not only_longmemeval:
        shown |= set(CATEGORIES)
    return sorted(shown)


def _n(value: int) -> str:
    return f"{value:,}"


def render_stats(stats: DatasetStats) -> Group:
    """Rich tables of the counts, with the category-number mapping printed."""
    overview = Table(title=f"Dataset {stats.name}", show_header=False)
    overview.add_column("what")
    overview.add_column("count", justify="right")
    rows = [
        ("source", ", ".join(stats.sources)),
        ("content hash", stats.content_hash[:16]),
        ("conversations", _n(stats.conversations)),
        ("sessions", _n(stats.sessions)),
        ("turns", _n(stats.turns)),
        ("probes", _n(stats.probes)),
        ("probes with audit correction", _n(stats.corrected_probes)),
        ("gold facts", _n(stats.gold_facts)),
        ("traps", _n(stats.traps)),
    ]
    for label, value in rows:
        overview.add_row(label, value)

    kinds = Table(title="Probes per kind")
    kinds.add_column("kind")
    kinds.add_column("probes", justify="right")
    for kind, count in stats.probes_by_kind.items():
        kinds.add_row(kind, _n(count))

    categories = Table(title="Probes per category (numbers as in LoCoMo's code)")
    categories.add_column("category", justify="right")
    categories.add_column("name")
    categories.add_column("kind")
    categories.add_column("probes", justify="right")
    for number in _listed_categories(stats.probes_by_category):
        count = stats.probes_by_category.get(number, 0)
        known = CATEGORIES.get(number) or LONGMEMEVAL_CATEGORIES.get(number)
        kind = known.kind if known else "?"
        categories.add_row(str(number), category_name(number), kind, _n(count))

    facts = Table(title="Gold facts per category")
    facts.add_column("category")
    facts.add_column("facts", justify="right")
    for category, count in stats.gold_facts_by_category.items():
        facts.add_row(category, _n(count))

    traps = Table(title="Traps per kind")
    traps.add_column("kind")
    traps.add_column("traps", justify="right")
    for kind, count in stats.traps_by_kind.items():
        traps.add_row(kind, _n(count))

    parts: list[Table] = [overview, kinds, categories, facts, traps]
    if stats.loader_counts:
        loader = Table(title="Loader counts: selection, repairs and audit")
        loader.add_column("what")
        loader.add_column("count", justify="right")
        for key, value in stats.loader_counts.items():
            loader.add_row(key.replace("_", " "), _n(value))
        parts.append(loader)
    return Group(*parts)
