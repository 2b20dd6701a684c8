"""Graph nodes of a turn.

Each unpacks state, calls one domain function and returns a partial update. The
memory work a turn asks for (compression, extraction) is not done here: it is
recorded as jobs (`memory_lab.jobs`) that a background worker runs.
"""

from __future__ import annotations

from typing import cast

from langgraph.runtime import Runtime

from memory_lab.brains.base import ToolResponder
from memory_lab.context.build import build_context
from memory_lab.context.live import read_live
from memory_lab.events import events_from_notes, make_event
from memory_lab.graph.deps import Deps
from memory_lab.graph.state import JobState, MemoryState
from memory_lab.jobs import phases
from memory_lab.jobs.planning import plan_memory_work
from memory_lab.jobs.work import compress_span, extract_span
from memory_lab.restatement import restated_spans
from memory_lab.sessions.lifecycle import Turn
from memory_lab.sessions.tracking import record_session_step
from memory_lab.types import ContextBundle, MemoryEvent, Message
from memory_lab.window.view import one_instant, window_of


def _messages(items: list[dict] | None) -> list[Message]:
    return [Message.model_validate(m) for m in items or []]


def _dump(records) -> list[dict]:
    return [r.model_dump(mode="json") for r in records]


def _log(deps: Deps, tenant: str, events: list[MemoryEvent]) -> list[dict]:
    if events:
        deps.events.append(tenant, events)
    return _dump(events)


def ingest_turn(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Append incoming turns to the transcript; they are in the window from now on.

    The window is not stored: it is the thread's turns past the last committed
    compression, so a stored turn is in it at once and leaves it only when an
    episode holding it commits.
    """
    deps = runtime.context
    deps.transcript.append(
        state["tenant"], state["thread"], _messages(state.get("incoming"))
    )
    phases.reached("ingest")
    return {"step_events": [], "decision": None, "context": None, "reply": None}


def track_session(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Move the thread's session through its lifecycle at the clock's time.

    A session closed after the step (a timeout or a request) has every turn past
    the watermark extracted: the close is handed to `check_triggers`. So does a
    stored close whose extraction was never recorded (a crash between the two
    commits): the turn that resumes it settles it first.
    """
    deps = runtime.context
    tenant, thread = state["tenant"], state["thread"]
    asked = bool(state.get("close_session"))
    if deps.sessions is None:
        return {}
    turns = [Turn(m.session, m.timestamp) for m in _messages(state.get("incoming"))]
    with deps.jobs.db.write():
        before = deps.sessions.get(tenant, thread)
        marks = deps.jobs.marks(tenant, thread)
        step, events = record_session_step(
            deps.sessions,
            deps.events,
            tenant,
            thread,
            deps.clock.now(),
            deps.config.sessions,
            turns=turns,
            close=asked,
        )
    unsettled = (
        before is not None
        and before.state == "closed"
        and marks.extract_planned_upto < marks.decided_upto
    )
    return {
        "close_session": asked or step.closed or unsettled,
        "step_events": state.get("step_events", []) + _dump(events),
    }


def check_triggers(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Ask the recipe's triggers and record the memory work they call for.

    Compression and extraction are recorded as jobs for the background worker;
    the turn does not wait for them.
    """
    deps = runtime.context
    tenant, thread = state["tenant"], state["thread"]
    plan = plan_memory_work(
        deps,
        tenant,
        thread,
        deps.clock.now(),
        close_session=bool(state.get("close_session")),
        ahead=state.get("ahead"),
    )
    # Read after the plan: the worker may have committed work meanwhile.
    marks = deps.jobs.marks(tenant, thread)
    return {
        "decision": plan.decision.model_dump(mode="json"),
        "jobs": len(plan.jobs),
        "window": _dump(window_of(deps, tenant, thread, marks)),
        "summary": marks.summary,
        "step_events": state.get("step_events", []) + _dump(plan.events),
    }


def assemble_context(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Build what the responder is shown for the last incoming user message."""
    deps = runtime.context
    tenant, thread = state["tenant"], state["thread"]
    query = _messages(state.get("incoming"))[-1].content
    # Outside the read: a slow source holds no lock, and failures are logged.
    live = read_live(deps.live, deps.events, tenant, deps.clock.now())
    with one_instant(deps):
        marks = deps.jobs.marks(tenant, thread)
        window = window_of(deps, tenant, thread, marks)
        summary = deps.episodes.summary_seen(tenant, thread, marks.summary)
        bundle = build_context(deps, tenant, query, window, summary, live)
    return {
        "context": bundle.model_dump(mode="json"),
        "window": _dump(window),
        "summary": summary,
    }


def respond(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Answer, then store the reply as the assistant's turn.

    The reply is stored verbatim, with the spans that restate the context it
    was answered from marked, so memory is not built again from its own lines.
    With agentic memory the model is offered the tenant's memory tools; what
    it called is in the step's events (`tool_called`, `tool_failed`).
    """
    deps = runtime.context
    tenant, thread = state["tenant"], state["thread"]
    question = _messages(state.get("incoming"))[-1]
    bundle = ContextBundle.model_validate(state["context"])
    if deps.tools is not None:
        tools = deps.tools(tenant, question.session)
        # Tools are made only for a brain that takes them (`memory_tools_for`).
        # Not an isinstance check: the brain here is the engine's MeteredBrain,
        # which forwards attributes by __getattr__, and from Python 3.12 a
        # protocol isinstance check no longer sees forwarded attributes.
        responder = cast(ToolResponder, deps.brain)
        answered = responder.respond_with_tools(question, bundle, tools)
    else:
        answered = deps.brain.respond(question, bundle)
    text = answered.value
    reply = Message(
        id=f"{question.id}:reply",
        tenant=tenant,
        session=question.session,
        role="assistant",
        content=text,
        timestamp=deps.clock.now(),
        restated=restated_spans(text, bundle, given=answered.restated),
    )
    stored = deps.transcript.append(tenant, thread, [reply])
    window = _messages(state.get("window"))
    known = {m.id for m in window}
    window.extend(m for m in stored if m.id not in known)
    events = events_from_notes(tenant, reply.timestamp, answered.notes)
    return {
        "reply": text,
        "window": _dump(window),
        "step_events": state.get("step_events", []) + _log(deps, tenant, events),
    }


def compress_window(state: JobState, runtime: Runtime[Deps]) -> dict:
    """Background: summarise a job's span into episodes; the window then shrinks."""
    return {"events": _dump(compress_span(runtime.context, state["job"]))}


def extract_facts(state: JobState, runtime: Runtime[Deps]) -> dict:
    """Background: extract a job's span into facts and reconcile them."""
    return {"events": _dump(extract_span(runtime.context, state["job"]))}


def apply_retention(state: JobState, runtime: Runtime[Deps]) -> dict:
    """Background: remove what the retention policy says is past its age."""
    deps, job = runtime.context, state["job"]
    if deps.retention is None:
        event = make_event(
            job.tenant,
            "retention_applied",
            job.asked_at,
            "Retention not applied: this memory is held in this process only",
        )
        with deps.jobs.db.write():
            deps.events.append(job.tenant, [event])
            deps.jobs.finish(job)
        return {"events": _dump([event])}
    return {"events": _dump(deps.retention(job))}
