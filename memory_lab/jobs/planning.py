"""The turn's share of memory work: decide the triggers and record the jobs.

This is all a turn does for memory beyond storing its messages. The decision,
the job rows and the thread's new watermarks are one transaction, so a crash
leaves either all of them or none; a turn stored but not yet decided (a crash
between the two) is decided in the thread's next step, from the transcript.
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
from memory_lab.types import MemoryEvent, TriggerDecision

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
    with deps.jobs.db.write():
        marks = deps.jobs.marks(tenant, thread)
        unplanned = deps.transcript.messages(
            tenant, thread, first_seq=marks.planned_upto + 1
        )
        new = [m for m in unplanned if m.seq > marks.decided_upto]
        decision = decide(
            unplanned,
            now,
            deps.config.recipe,
            deps.counter,
            embed=deps.excerpts.window_vectors,
        )
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
        phases.reached("trigger_decision")
        deps.jobs.add_jobs(tenant, thread, jobs, now, owner=owner_of(deps))
        deps.jobs.save_marks(tenant, thread, marks)
        if events:
            deps.events.append(tenant, events)
    phases.reached("job_handover")
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
