"""Graph nodes.

Each unpacks state, calls one domain function and returns a partial update.
"""

from __future__ import annotations

from langgraph.runtime import Runtime

from memory_lab.context.build import build_context
from memory_lab.episodes.compression import build_episodes, episode_id
from memory_lab.events import make_event
from memory_lab.facts.explicit import extract_with_commands
from memory_lab.graph.deps import Deps
from memory_lab.graph.state import MemoryState
from memory_lab.types import ContextBundle, MemoryEvent, Message
from memory_lab.window.summary import update_running_summary
from memory_lab.window.triggers import decide


def _messages(items: list[dict] | None) -> list[Message]:
    return [Message.model_validate(m) for m in items or []]


def _dump(records) -> list[dict]:
    return [r.model_dump(mode="json") for r in records]


def _log(deps: Deps, tenant: str, events: list[MemoryEvent]) -> list[dict]:
    if events:
        deps.events.append(tenant, events)
    return _dump(events)


def ingest_turn(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Append incoming turns to the transcript and the window.

    Turns the transcript holds past the thread's `last_seq` (a crash between the
    transcript write and the checkpoint) are taken into the window first, so no
    stored message is ever missing from window or episodes.
    """
    deps = runtime.context
    tenant, thread = state["tenant"], state["thread"]
    last_seq = state.get("last_seq", -1)
    window = _messages(state.get("window"))
    known = {m.id for m in window}
    recovered = deps.transcript.messages(tenant, thread, first_seq=last_seq + 1)
    stored = deps.transcript.append(tenant, thread, _messages(state.get("incoming")))
    new = [m for m in [*recovered, *stored] if m.id not in known and m.seq > last_seq]
    new = list({m.id: m for m in sorted(new, key=lambda m: m.seq)}.values())
    window.extend(new)
    session = state.get("session", "")
    changed = bool(session) and any(m.session != session for m in new)
    if new:
        session = new[-1].session
        last_seq = max(last_seq, new[-1].seq)
    return {
        "window": _dump(window),
        "last_seq": last_seq,
        "session": session,
        "session_changed": changed,
        "step_events": [],
        "decision": None,
        "context": None,
        "reply": None,
    }


def check_triggers(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Ask the recipe's triggers whether to compress now."""
    deps = runtime.context
    now = deps.clock.now()
    decision = decide(
        _messages(state.get("window")), now, deps.config.recipe, deps.counter
    )
    events = []
    if decision.fire:
        events.append(
            make_event(
                state["tenant"],
                "trigger_fired",
                now,
                " | ".join(decision.reasons),
                [state["thread"], str(state.get("last_seq", -1))],
            )
        )
    return {
        "decision": decision.model_dump(mode="json"),
        "step_events": state.get("step_events", [])
        + _log(deps, state["tenant"], events),
    }


def compress_window(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Summarise the oldest window turns into episodes and the running summary."""
    deps = runtime.context
    tenant, thread = state["tenant"], state["thread"]
    window = _messages(state.get("window"))
    decision = state["decision"]
    span, keep = (
        window[: decision["compress_count"]],
        window[decision["compress_count"] :],
    )
    now = deps.clock.now()
    stored, span = _already_compressed(deps, tenant, thread, span)
    episodes = stored + build_episodes(
        tenant,
        thread,
        span,
        recipe=deps.config.recipe,
        brain=deps.brain,
        counter=deps.counter,
        now=now,
        config=deps.config.window,
        trigger="+".join(decision["triggers"]),
    )
    deps.episodes.add(tenant, episodes)
    deps.excerpts.add(tenant, span)
    summary = update_running_summary(
        state.get("summary", ""),
        episodes,
        brain=deps.brain,
        counter=deps.counter,
        config=deps.config.window,
    )
    source = sum(e.original_tokens for e in episodes)
    kept = sum(e.summary_tokens for e in episodes)
    events = [
        *deps.brain.drain_events(),
        make_event(
            tenant,
            "compressed",
            now,
            f"Compressed {len(span)} messages ({source} tokens) into {len(episodes)} "
            f"episode(s) of {kept} tokens",
            [e.id for e in episodes],
        ),
    ]
    return {
        "window": _dump(keep),
        "summary": summary,
        "step_events": state.get("step_events", []) + _log(deps, tenant, events),
    }


def _already_compressed(
    deps: Deps, tenant: str, thread: str, span: list[Message]
) -> tuple[list, list[Message]]:
    """Episodes a crashed earlier run stored for the start of this span, and the rest.

    A kill between the episode write and the checkpoint leaves the window as it
    was; the retry must not summarise the same turns into a second, overlapping
    episode. Chunks start where the previous one ended, so probing the ids an
    episode starting at each position could have is enough (a get by ids).
    """
    found_eps, pos = [], 0
    longest = deps.config.recipe.episode_max_messages
    while pos < len(span):
        ends = span[pos : pos + longest]
        ids = [episode_id(tenant, thread, span[pos].seq, m.seq) for m in ends]
        found = deps.episodes.get(tenant, ids)
        if not found:
            break
        ep = max(found, key=lambda e: e.last_seq)
        found_eps.append(ep)
        pos += next(i for i, m in enumerate(ends) if m.seq == ep.last_seq) + 1
    return found_eps, span[pos:]


def extract_facts(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Extract facts from turns past the watermark.

    Runs when enough turns have gathered or the session closed: extraction is
    incremental, each turn read once, not the whole transcript per turn.
    """
    deps = runtime.context
    tenant, thread = state["tenant"], state["thread"]
    upto, last = state.get("extracted_upto", -1), state.get("last_seq", -1)
    due = last - upto >= deps.config.window.extract_every
    flush = state.get("close_session") or state.get("session_changed")
    if last <= upto or not (due or flush):
        return {}
    turns = deps.transcript.messages(tenant, thread, first_seq=upto + 1, last_seq=last)
    written = extract_with_commands(
        turns,
        tenant,
        deps.facts,
        lambda batch, known: deps.brain.extract(batch, known=known),
    )
    events = [e for e in written if e.kind != "fact_skipped"]
    events += deps.facts.consolidate(tenant)
    brain_events = deps.brain.drain_events()
    if brain_events:
        deps.events.append(tenant, brain_events)
    return {
        "extracted_upto": last,
        "step_events": state.get("step_events", []) + _dump([*brain_events, *events]),
    }


def assemble_context(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Build what the responder is shown for the last incoming user message."""
    deps = runtime.context
    query = _messages(state.get("incoming"))[-1].content
    bundle = build_context(
        deps,
        state["tenant"],
        query,
        _messages(state.get("window")),
        state.get("summary", ""),
    )
    return {"context": bundle.model_dump(mode="json")}


def respond(state: MemoryState, runtime: Runtime[Deps]) -> dict:
    """Answer, then store the reply as the assistant's turn."""
    deps = runtime.context
    tenant, thread = state["tenant"], state["thread"]
    question = _messages(state.get("incoming"))[-1]
    bundle = ContextBundle.model_validate(state["context"])
    text = deps.brain.respond(question, bundle)
    reply = Message(
        id=f"{question.id}:reply",
        tenant=tenant,
        session=question.session,
        role="assistant",
        content=text,
        timestamp=deps.clock.now(),
    )
    stored = deps.transcript.append(tenant, thread, [reply])
    window = _messages(state.get("window"))
    window.extend(m for m in stored if m.seq > state.get("last_seq", -1))
    events = deps.brain.drain_events()
    return {
        "reply": text,
        "window": _dump(window),
        "last_seq": max([state.get("last_seq", -1), *(m.seq for m in stored)]),
        "step_events": state.get("step_events", []) + _log(deps, tenant, events),
    }
