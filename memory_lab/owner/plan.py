"""A purge's selection resolved to ids, once, before the first delete.

The ids are fixed up front because the selection cannot be resolved again once
deleting began: a chat's turns gone from the transcript no longer say which
episodes and facts came from them. The plan holds ids and seqs only, never
text, so it can sit in the tombstone while the purge runs.

What a selection reaches:

- turns: those selected (a chat's, an episode's, those before a date, the
  turns a fact and its history were read from, or all);
- facts: those selected, and every row read from a purged turn (a fact is
  never kept without the turns it came from);
- episodes: removed when all their turns are purged, marked lost when some are;
- daily and weekly summaries: removed when any of their turns is purged.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from memory_lab.jobs.ledger import JobLedger
from memory_lab.owner.selection import Selection
from memory_lab.stores.base import EpisodeStore
from memory_lab.stores.sql_facts import SqlFactStore
from memory_lab.stores.sql_transcript import SqlTranscriptStore
from memory_lab.types import Episode, Fact, Message


@dataclass(frozen=True)
class PurgePlan:
    """The ids one purge removes or rewrites."""

    everything: bool = False
    turns: list[str] = field(default_factory=list)
    seqs: list[int] = field(default_factory=list)
    """The purged turns' seqs: which jobs' error texts may quote them."""
    facts: list[str] = field(default_factory=list)
    episodes: list[str] = field(default_factory=list)
    """Episodes whose turns are all purged (or that the ledger never committed)."""
    lost: list[str] = field(default_factory=list)
    """Episodes some of whose turns are purged: kept, their summary removed."""
    periods: list[str] = field(default_factory=list)
    threads: list[str] = field(default_factory=list)
    """Threads whose running summary is rebuilt from the episodes left."""

    def to_json(self) -> dict[str, Any]:
        """Plain data for the tombstone's plan column."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> PurgePlan:
        """The plan `to_json` recorded."""
        return cls(**data)


def make_plan(
    tenant: str,
    selection: Selection,
    *,
    transcript: SqlTranscriptStore,
    facts: SqlFactStore,
    ledger: JobLedger,
    index: EpisodeStore | None,
    periods: EpisodeStore | None,
) -> PurgePlan:
    """Resolve the selection against what the stores hold now."""
    held_turns = transcript.messages(tenant)
    rows = facts.rows(tenant)
    in_thread = (
        {m.id for m in transcript.messages(tenant, selection.chat)}
        if selection.chat is not None
        else set()
    )
    committed = ledger.episodes(tenant)
    if selection.episode is not None:
        # An episode is the turns it summarised: it goes whole with them.
        in_thread = {
            t for e in committed if e.id == selection.episode for t in e.turn_ids
        }
    seeds, turns = _seeds(selection, held_turns, rows, in_thread)
    turn_ids = {m.id for m in turns}
    fact_ids = set(seeds) | {f.id for f in rows if turn_ids & set(f.turn_ids)}
    # The index may hold episodes of a crashed job the ledger never committed.
    indexed = index.get(tenant) if index is not None else []
    whole, lost = [], []
    for ep in _unique([*committed, *indexed]):
        hit = turn_ids & set(ep.turn_ids)
        if selection.everything or hit == set(ep.turn_ids):
            whole.append(ep)
        elif hit:
            lost.append(ep)
    summaries = periods.get(tenant) if periods is not None else []
    touched = {e.id for e in whole} | {e.id for e in lost}
    return PurgePlan(
        everything=selection.everything,
        turns=[m.id for m in turns],
        seqs=[m.seq for m in turns],
        facts=[f.id for f in rows if f.id in fact_ids],
        episodes=[e.id for e in whole],
        lost=[e.id for e in lost],
        periods=[
            p.id
            for p in summaries
            if selection.everything or turn_ids & set(p.turn_ids)
        ],
        threads=sorted({e.thread for e in committed if e.id in touched}),
    )


def _seeds(
    selection: Selection,
    turns: Sequence[Message],
    rows: Sequence[Fact],
    in_thread: set[str],
) -> tuple[list[str], list[Message]]:
    """The facts the selection names itself, and the turns it reaches.

    A chat is a session id or a thread id (`in_thread`: the ids of that
    thread's turns): an app chat is both, a replayed conversation keeps its
    own sessions inside the thread it was replayed into. For an episode,
    `in_thread` holds the ids of the turns it summarised.
    """
    if selection.episode is not None:
        return [], [m for m in turns if m.id in in_thread]
    if selection.fact is not None:
        family = fact_history(selection.fact, rows)
        sources = {t for f in rows if f.id in family for t in f.turn_ids}
        return sorted(family), [m for m in turns if m.id in sources]
    if selection.chat is not None:
        chat = selection.chat
        return (
            [f.id for f in rows if f.session == chat],
            [m for m in turns if m.session == chat or m.id in in_thread],
        )
    if selection.before is not None:
        before = selection.before
        return (
            [f.id for f in rows if not f.turn_ids and f.created_at < before],
            [m for m in turns if m.timestamp < before],
        )
    return [f.id for f in rows], list(turns)


def fact_history(fact_id: str, rows: Sequence[Fact]) -> set[str]:
    """The fact's whole history: its key's rows and every row linked to them.

    A key's rows are its values over time (superseded, forgotten, re-added);
    links (`superseded_by`, `conflicts_with`) reach rows a correction or a
    consolidation moved under another key.
    """
    by_id = {f.id: f for f in rows}
    start = by_id[fact_id]
    key = (start.subject, start.category, start.key)
    family = {f.id for f in rows if (f.subject, f.category, f.key) == key}
    links: dict[str, set[str]] = {f.id: set() for f in rows}
    for f in rows:
        for other in (f.superseded_by, f.conflicts_with):
            if other in links:
                links[f.id].add(other)
                links[other].add(f.id)
    todo = list(family)
    while todo:
        for other in links[todo.pop()] - family:
            family.add(other)
            todo.append(other)
    return family


def _unique(episodes: Sequence[Episode]) -> list[Episode]:
    seen: dict[str, Episode] = {}
    for ep in episodes:
        seen.setdefault(ep.id, ep)
    return list(seen.values())
