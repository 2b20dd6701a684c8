"""What a unit writes down: each probe as a system answered it, and its whole run.

Kept apart from the loop that feeds the turns (`runner.run_unit`), so what a
record holds is read in one place: the exact context, its cost, the gold truth
beside it, and the moment the probe was asked.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from datetime import datetime

from memlab_datasets.types import Conversation, Probe

from memlab_evals.running.log import ConversationRun, ProbeRecord, TriggerTrace
from memlab_evals.systems import RunHealth


def probe_record(
    system_name: str,
    conv: Conversation,
    probe: Probe,
    system,
    asked_at: datetime,
    history_tokens: int,
) -> ProbeRecord:
    """One probe asked of the system now: its context, timed, and what it holds."""
    t0 = time.perf_counter()
    ctx = system.context(probe.question)
    retrieve_ms = (time.perf_counter() - t0) * 1000
    # Not timed: a second assembly a responder would never ask for.
    summary_only = _summary_only(system, probe.question)
    return ProbeRecord(
        system=system_name,
        conversation=conv.id,
        probe_id=probe.id,
        category=probe.category,
        kind=probe.kind,
        question=probe.question,
        answer=probe.answer,
        stale_answers=list(probe.stale_answers),
        adversarial_answer=probe.adversarial_answer,
        evidence=list(probe.evidence),
        evidence_texts=evidence_texts(conv, probe.evidence),
        evidence_sessions=session_texts(conv, probe),
        after_turn=probe.after_turn,
        context=ctx.text,
        context_tokens=ctx.tokens,
        history_tokens=history_tokens,
        # What a window baseline holds depends on its budget: read it per budget.
        stored_tokens=system.stored_tokens(),
        retrieve_ms=retrieve_ms,
        context_items=list(ctx.items),
        context_tiers=dict(ctx.tiers or {}),
        summary_only_context=summary_only,
        asked_at=asked_at.isoformat(),
        error=ctx.error,
    )


def asked_time(probe: Probe, turn_time: datetime) -> datetime:
    """When a probe is asked: its own `asked_at`, never before the turn it follows."""
    return max(probe.asked_at or turn_time, turn_time)


def evidence_texts(conv: Conversation, evidence: Sequence[str]) -> list[str]:
    """Text of each evidence turn that exists; LoCoMo has a few dangling ids."""
    return [conv.turn(t).content for t in evidence if t in conv.positions]


def session_texts(conv: Conversation, probe: Probe) -> dict[str, list[str]]:
    """Each answer session's turns up to the probe, as text; {} when none is named.

    What `session_recall` reads: it needs a session's turns as a unit, and the
    log's turn texts carry no session.
    """
    if not probe.evidence_sessions:
        return {}
    upto = conv.positions[probe.after_turn]
    wanted = set(probe.evidence_sessions)
    texts: dict[str, list[str]] = {s: [] for s in probe.evidence_sessions}
    for turn in conv.turns[: upto + 1]:
        if turn.session in wanted:
            texts[turn.session].append(turn.content)
    return texts


def _summary_only(system, question: str) -> str | None:
    """The context without excerpts, for systems that can build one."""
    build = getattr(system, "summary_only_context", None)
    return build(question) if callable(build) else None


def _trace(system) -> TriggerTrace | None:
    """What a memory recipe's triggers did; None for the other systems."""
    trace = getattr(system, "trigger_trace", None)
    return trace() if callable(trace) else None


def health(system) -> RunHealth:
    """A system's health; peers and memory recipes report one, the rest are fine."""
    report = getattr(system, "health", None)
    return report() if callable(report) else RunHealth()


def conversation_run(
    system_name: str, conv: Conversation, ingest_ms: list[float], system
) -> ConversationRun:
    """What the system did over the whole conversation (None: it never ran)."""
    cost = system.cost() if system is not None else None
    state = health(system) if system is not None else RunHealth()
    return ConversationRun(
        system=system_name,
        conversation=conv.id,
        turns=len(conv.turns),
        ingest_ms=ingest_ms,
        brain=cost.brain if cost else "",
        brain_calls=cost.calls if cost else 0,
        brain_tokens=cost.tokens if cost else 0,
        brain_usage=dict(cost.usage) if cost else {},
        compressions=cost.compressions if cost else 0,
        stored_facts=system.stored_facts() if system is not None else [],
        gold_facts=[g.model_dump(mode="json") for g in conv.gold_facts],
        traps=[t.model_dump(mode="json") for t in conv.traps],
        turn_texts={m.id: m.content for m in conv.turns},
        turn_speakers={m.id: m.who for m in conv.turns},
        episodes=system.episode_stats() if system is not None else [],
        trigger=_trace(system) if system is not None else None,
        status=state.status,
        errors=dict(state.errors),
        events=list(state.events),
    )
