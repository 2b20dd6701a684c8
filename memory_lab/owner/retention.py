"""Retention: each tier keeps what it holds only as long as the policy says.

The maintenance graph runs a `retention` job at most once per
`RetentionConfig.every_hours` (recorded by the turn that finds the period new,
like any memory work). The job works out, at the job's own time, what is past
its age, and removes it with the purge's own tiers (`owner.tiers`), tier by
tier, without a purge's cascade: raw turns can go while the episodes that
summarise them stay, and a fact goes by its category's age, not because a turn
it was read from went.

- raw turns: summarised ones (an episode covers them) stamped before
  `now - raw_turns_days`; a turn no episode covers yet is kept (compression
  summarises, retention does not drop), and so is the tenant's newest turn
  (turn numbers are never given twice);
- episodes: those that ended before `now - episodes_days`, with the turns they
  summarised and the day and week summaries that ended before then; the running
  summary is rebuilt from the episodes left;
- facts: rows of a category named in `facts_days` recorded before its age;
- the LLM response cache: entries stored before `now - cache_days`;
- events: run-log events older than `events_days`; an event that names or
  quotes a removed record goes with it, whatever its age (it would keep the
  text the policy removed).

The job runs in the process that holds the stores, so the records are gone from
every read at once; the file rewrite that makes them unreadable on disk (the
purge's `disk` tier) needs the folder closed, and is done by the next process
that opens it, which finishes the job's tombstone (left `running` until then).
A store without files (Postgres) has no such tier to wait for.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from memory_lab.events import make_event
from memory_lab.owner.empty_trash import empty_held_trash
from memory_lab.owner.held import purge_held
from memory_lab.owner.plan import PurgePlan
from memory_lab.stores import sql_erase as erase
from memory_lab.types import MemoryEvent

if TYPE_CHECKING:
    from memory_lab.jobs.ledger import Job
    from memory_lab.owner.open_stores import OpenStores

REQUESTED_BY = "retention policy"


def due_plan(deps: OpenStores, tenant: str, now: datetime) -> PurgePlan:
    """What the policy says is past its age for `tenant` at `now` (ids only)."""
    policy = deps.config.retention
    ledger, transcript = deps.jobs, deps.transcript
    with ledger.db.read() as conn:
        threads = erase.threads(conn, tenant)
    held = transcript.messages(tenant)
    newest = max((m.seq for m in held), default=-1)
    turns: dict[str, int] = {}
    if policy.raw_turns_days:
        cutoff = now - timedelta(days=policy.raw_turns_days)
        for thread in threads:
            upto = ledger.marks(tenant, thread).compressed_upto
            for m in transcript.messages(tenant, thread, last_seq=upto):
                if m.timestamp < cutoff:
                    turns[m.id] = m.seq
    episodes, periods, rebuilt = [], [], set()
    if policy.episodes_days:
        cutoff = now - timedelta(days=policy.episodes_days)
        by_id = {m.id: m.seq for m in held}
        for ep in ledger.episodes(tenant):
            if ep.end < cutoff:
                episodes.append(ep.id)
                rebuilt.add(ep.thread)
                turns.update((t, by_id[t]) for t in ep.turn_ids if t in by_id)
        if deps.periods is not None:
            periods = [p.id for p in deps.periods.store.get(tenant) if p.end < cutoff]
    turns = {t: s for t, s in turns.items() if s != newest}
    ages = {c: timedelta(days=d) for c, d in policy.facts_days.items()}
    facts = (
        [
            f.id
            for f in deps.facts.store.rows(tenant)
            if f.category in ages and f.created_at < now - ages[f.category]
        ]
        if ages
        else []
    )
    return PurgePlan(
        turns=sorted(turns, key=turns.__getitem__),
        seqs=sorted(turns.values()),
        facts=facts,
        episodes=episodes,
        periods=periods,
        threads=sorted(rebuilt),
    )


def apply_retention(
    deps: OpenStores, job: Job, data_dir: Path | None, trash_keep: timedelta
) -> list[MemoryEvent]:
    """Remove what is past its age for the job's tenant; the run-log events.

    The tenant's trash past `trash_keep` is emptied here too.

    A job with nothing due leaves no tombstone and one event saying so.
    """
    tenant, now = job.tenant, job.asked_at
    if not deps.jobs.claim(job):
        return []  # another process on the folder did it
    plan = due_plan(deps, tenant, now)
    counts: dict[str, dict[str, int]] = {}
    stone = None
    if plan.turns or plan.facts or plan.episodes or plan.periods:
        stone = purge_held(
            deps,
            data_dir,
            tenant,
            {"retention": deps.config.retention.period(now)},
            plan,
            requested_by=REQUESTED_BY,
            at=now,
        )
        counts = stone.counts
    events_removed = _expire_events(deps, tenant, now)
    cached = _expire_cache(deps, now)
    emptied = empty_held_trash(deps, data_dir, tenant, now, trash_keep)
    removed = {
        ("turn", "turns"): len(plan.turns),
        ("episode", "episodes"): len(plan.episodes),
        ("day or week summary", "day and week summaries"): len(plan.periods),
        ("fact", "facts"): counts.get("facts", {}).get("rows", 0),
        ("event", "events"): events_removed + counts.get("events", {}).get("events", 0),
        ("cached response", "cached responses"): cached,
        ("item from the trash", "items from the trash"): emptied,
    }
    said = (
        ", ".join(
            f"{n} {one if n == 1 else many}" for (one, many), n in removed.items() if n
        )
        or "nothing"
    )
    where = (
        ""
        if stone is None or stone.status == "done"
        else "; the files are rewritten when the folder is next opened"
    )
    event = make_event(
        tenant,
        "retention_applied",
        now,
        f"Retention removed {said}{where}",
        [str(stone.id)] if stone is not None else [],
    )
    with deps.jobs.db.write():
        deps.events.append(tenant, [event])
        deps.jobs.finish(job)
    return [event]


def _expire_events(deps: OpenStores, tenant: str, now: datetime) -> int:
    days = deps.config.retention.events_days
    if not days:
        return 0
    cutoff = now - timedelta(days=days)
    old = [e.id for e in deps.events.events(tenant) if e.at < cutoff]
    with deps.jobs.db.write() as conn:
        return erase.delete_rows(conn, "events", tenant, old)


def _expire_cache(deps: OpenStores, now: datetime) -> int:
    days, llm = deps.config.retention.cache_days, deps.config.llm
    if not days or llm is None or not llm.use_cache:
        return 0
    from memory_lab.llm_client.response_cache import ResponseCache, default_cache_path

    path = Path(llm.cache_path) if llm.cache_path else default_cache_path()
    if not path.is_file():
        return 0
    return ResponseCache(path).delete_older_than(now - timedelta(days=days))
