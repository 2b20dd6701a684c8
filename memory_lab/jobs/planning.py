"""The turn's share of memory work: decide the triggers and record the jobs.

This is all a turn does for memory beyond storing its messages. The job rows
and the thread's new watermarks are one transaction, so a crash leaves either
all of them or none; a turn stored but not yet decided (a crash between the two)
is decided in the thread's next step, from the transcript.

The triggers decide before that transaction opens, over a read of the thread:
a trigger may be a plug-in, and plug-in code never runs while the database is
held for writing. The transaction records the decision only if the marks it was
made over still stand; otherwise another writer planned meanwhile and the
triggers decide again over what it left.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING

from memory_lab.config import MemoryConfig
from memory_lab.events import make_event
from memory_lab.jobs import phases
from memory_lab.jobs.ledger import JobKind, ThreadMarks
from memory_lab.triggers.running import decide
from memory_lab.types import MemoryEvent, Message, TriggerDecision

if TYPE_CHECKING:
    from pydantic.main import IncEx

    from memory_lab.jobs.parts import PlanningParts


@dataclass(frozen=True)
class TurnPlan:
    """What one step decided and recorded."""

    decision: TriggerDecision
    jobs: list[tuple[JobKind, int, int, str]]
    marks: ThreadMarks
    events: list[MemoryEvent]


def plan_memory_work(
    deps: PlanningParts,
    tenant: str,
    thread: str,
    now: datetime,
    *,
    close_session: bool = False,
) -> TurnPlan:
    """Decide the triggers over the not-yet-planned turns and record the jobs.

    The triggers see the turns past the last planned compression (what the window
    will be once pending work is done), so a compression in flight is not asked
    for twice.
    """
    while True:
        with deps.jobs.db.read():
            marks = deps.jobs.marks(tenant, thread)
            unplanned = deps.transcript.messages(
                tenant, thread, first_seq=marks.planned_upto + 1
            )
        decision = decide(
            unplanned,
            now,
            deps.config.recipe,
            deps.counter,
            embed=deps.excerpts.window_vectors,
        )
        with deps.jobs.db.write():
            current = deps.jobs.marks(tenant, thread)
            if _planning_marks(current) != _planning_marks(marks):
                continue  # another writer planned meanwhile: it made progress
            plan = _plan(
                deps, tenant, thread, now, current, unplanned, decision, close_session
            )
            phases.reached("trigger_decision")
            deps.jobs.add_jobs(tenant, thread, plan.jobs, now, owner=owner_of(deps))
            deps.jobs.save_marks(tenant, thread, plan.marks)
            if plan.events:
                deps.events.append(tenant, plan.events)
        phases.reached("job_handover")
        return plan


def _planning_marks(marks: ThreadMarks) -> tuple[int, int, int, str]:
    """The marks a plan is made from; the worker's own marks may move meanwhile."""
    return (
        marks.decided_upto,
        marks.planned_upto,
        marks.extract_planned_upto,
        marks.session,
    )


def _plan(
    deps: PlanningParts,
    tenant: str,
    thread: str,
    now: datetime,
    marks: ThreadMarks,
    unplanned: list[Message],
    decision: TriggerDecision,
    close_session: bool,
) -> TurnPlan:
    """The jobs, marks and events a decision over `unplanned` calls for."""
    new = [m for m in unplanned if m.seq > marks.decided_upto]
    jobs: list[tuple[JobKind, int, int, str]] = []
    events: list[MemoryEvent] = []
    planned_upto = marks.planned_upto
    last = max([marks.decided_upto, *(m.seq for m in new)])
    if decision.fire:
        span = unplanned[: decision.compress_count]
        trigger = "+".join(decision.triggers)
        jobs.append(("compress", span[0].seq, span[-1].seq, trigger))
        planned_upto = span[-1].seq
        events.append(
            make_event(
                tenant,
                "trigger_fired",
                now,
                " | ".join(decision.reasons),
                [thread, str(last)],
            )
        )
    session_changed = bool(marks.session) and any(
        m.session != marks.session for m in new
    )
    extract_upto = marks.extract_planned_upto
    if last > extract_upto and (
        last - extract_upto >= deps.config.window.extract_every
        or close_session
        or session_changed
    ):
        jobs.append(("extract", extract_upto + 1, last, ""))
        extract_upto = last
    marks = replace(
        marks,
        decided_upto=last,
        planned_upto=planned_upto,
        extract_planned_upto=extract_upto,
        session=new[-1].session if new else marks.session,
    )
    retention = deps.config.retention
    if retention.active:
        # One per period: a repeat of the period's job is ignored.
        period = retention.period(now)
        jobs.append(("retention", period, period, "retention"))
    return TurnPlan(decision, jobs, marks, events)


def owner_of(deps: PlanningParts) -> str:
    """The configuration's fingerprint: whose worker may run the jobs it records."""
    return config_fingerprint(deps.config)


#: Settings that change how replies are made, or when a session closes, and never
#: how a job's work is done: changing them must not leave the jobs already
#: recorded to no one.
_NOT_JOB_WORK: dict[str, IncEx | bool] = {
    "llm": {"agentic_memory", "tool_rounds"},
    "sessions": True,
}


def config_fingerprint(config: MemoryConfig) -> str:
    """A short digest of a whole configuration (recipe, budgets, facts, brain).

    Reply-only settings (agentic memory) and session timing are left out, so
    the digest is the one the same configuration had before they existed.
    """
    dumped = config.model_dump_json(exclude=_NOT_JOB_WORK)
    return hashlib.sha1(dumped.encode()).hexdigest()[:16]
