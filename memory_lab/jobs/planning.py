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

They decide before the step takes the engine's lock, too (`decide_ahead`): over
the thread's unplanned turns and the step's incoming ones, numbered as the
transcript will number them. The step's planning takes that decision only if
the marks and the turns it reads itself are those, field for field, so it is
the decision the triggers would make there; when another step or process
stored or planned in between, the triggers decide again inside the step.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memory_lab.config import MemoryConfig
from memory_lab.errors import TriggerError
from memory_lab.events import make_event
from memory_lab.jobs import phases
from memory_lab.jobs.ledger import JobKind, ThreadMarks
from memory_lab.triggers.running import decide
from memory_lab.types import MemoryEvent, Message, TriggerDecision

if TYPE_CHECKING:
    from pydantic.main import IncEx

    from memory_lab.jobs.parts import PlanningParts
    from memory_lab.stores.base import TranscriptStore


@dataclass(frozen=True)
class TurnPlan:
    """What one step decided and recorded."""

    decision: TriggerDecision
    jobs: list[tuple[JobKind, int, int, str]]
    marks: ThreadMarks
    events: list[MemoryEvent]


@dataclass(frozen=True)
class DecidedAhead:
    """The triggers' decision made before the step's lock, and what it was made over."""

    marks: tuple[int, int, int, str]
    """The planning marks it read."""
    turns: tuple[str, ...]
    """The turns it decided over, each as its JSON."""
    now: datetime
    decision: TriggerDecision | None
    refusal: TriggerError | None
    """A trigger's refusal, raised when the step plans: its turns are stored then."""

    def holds(self, marks: ThreadMarks, unplanned: Sequence[Message]) -> bool:
        """Whether the step reads what this decision was made over."""
        return self.marks == _planning_marks(marks) and self.turns == _as_read(
            unplanned
        )

    def result(self) -> TriggerDecision:
        """The decision, or the refusal raised."""
        if self.refusal is not None:
            raise self.refusal
        assert self.decision is not None
        return self.decision


def decide_ahead(
    deps: PlanningParts,
    tenant: str,
    thread: str,
    update: dict[str, Any],
    now: datetime,
) -> DecidedAhead:
    """Decide over the thread's unplanned turns and the step's `incoming` ones.

    `update` is the step's input (its `incoming` turns as dicts); they are
    numbered after the tenant's newest turn, as the transcript will number them.
    """
    incoming = [Message.model_validate(m) for m in update.get("incoming", [])]
    with deps.jobs.db.read():
        marks = deps.jobs.marks(tenant, thread)
        unplanned = deps.transcript.messages(
            tenant, thread, first_seq=marks.planned_upto + 1
        )
        known = unplanned[-1].seq if unplanned else marks.decided_upto
        first = _next_seq(deps.transcript, tenant, known)
    turns = [
        *unplanned,
        *(m.model_copy(update={"seq": first + i}) for i, m in enumerate(incoming)),
    ]
    try:
        decision, refusal = _decide(deps, turns, now), None
    except TriggerError as exc:
        decision, refusal = None, exc
    return DecidedAhead(_planning_marks(marks), _as_read(turns), now, decision, refusal)


def _next_seq(transcript: TranscriptStore, tenant: str, known: int) -> int:
    """The seq the tenant's next stored turn gets: one past its newest.

    `known` is a seq the thread holds; only turns after it (or after the
    count, which the newest is never below) are read.
    """
    held = transcript.count(tenant)
    later = transcript.messages(tenant, first_seq=max(held - 1, known + 1, 0))
    return later[-1].seq + 1 if later else max(known + 1, held)


def _as_read(turns: Sequence[Message]) -> tuple[str, ...]:
    return tuple(m.model_dump_json() for m in turns)


def _decide(
    deps: PlanningParts, turns: Sequence[Message], now: datetime
) -> TriggerDecision:
    return decide(
        turns, now, deps.config.recipe, deps.counter, embed=deps.excerpts.window_vectors
    )


def plan_memory_work(
    deps: PlanningParts,
    tenant: str,
    thread: str,
    now: datetime,
    *,
    close_session: bool = False,
    ahead: DecidedAhead | None = None,
) -> TurnPlan:
    """Decide the triggers over the not-yet-planned turns and record the jobs.

    The triggers see the turns past the last planned compression (what the window
    will be once pending work is done), so a compression in flight is not asked
    for twice. A decision made `ahead` of the step is taken, with its time, when
    the step reads what it was made over.
    """
    while True:
        if ahead is None:
            with deps.jobs.db.read():
                marks = deps.jobs.marks(tenant, thread)
                unplanned = deps.transcript.messages(
                    tenant, thread, first_seq=marks.planned_upto + 1
                )
            decision = _decide(deps, unplanned, now)
        with deps.jobs.db.write():
            current = deps.jobs.marks(tenant, thread)
            if ahead is not None:
                # Checked where it is recorded: no read of its own per step.
                marks, taken, ahead = current, ahead, None
                unplanned = deps.transcript.messages(
                    tenant, thread, first_seq=marks.planned_upto + 1
                )
                if not taken.holds(marks, unplanned):
                    continue  # another step or process stored or planned since
                decision, now = taken.result(), taken.now
            elif _planning_marks(current) != _planning_marks(marks):
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
