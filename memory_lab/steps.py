"""What one graph step did, read back from the graph's output state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime

from memory_lab.clock import Clock, ManualClock
from memory_lab.types import ContextBundle, MemoryEvent, Message, TriggerDecision


@dataclass
class StepResult:
    """What one graph step did."""

    decision: TriggerDecision | None
    events: list[MemoryEvent]
    reply: str | None = None
    context: ContextBundle | None = None
    window_size: int = 0
    state: dict = field(default_factory=dict, repr=False)

    @property
    def compressed(self) -> bool:
        """Whether a trigger fired (its compression runs in the background)."""
        return bool(self.decision and self.decision.fire)


def step_result(out: dict) -> StepResult:
    """The typed result of a step whose graph run returned the state `out`."""
    decision = out.get("decision")
    context = out.get("context")
    return StepResult(
        decision=TriggerDecision.model_validate(decision) if decision else None,
        events=[MemoryEvent.model_validate(e) for e in out.get("step_events", [])],
        reply=out.get("reply"),
        context=ContextBundle.model_validate(context) if context else None,
        window_size=len(out.get("window", [])),
        state=out,
    )


def user_turn(
    state: dict,
    tenant: str,
    thread: str,
    text: str,
    now: datetime,
    session: str | None = None,
    message_id: str | None = None,
) -> Message:
    """A chatted user message, after the thread's newest turn in `state`.

    Without an id it is named by thread, seq and time, so a chat replayed at
    other times never collides; without a session it stays in the thread's.
    """
    seq = state.get("last_seq", -1) + 1
    return Message(
        id=message_id or f"{thread}:{seq}:{now.strftime('%Y%m%dT%H%M%S%f')}",
        tenant=tenant,
        session=session or state.get("session") or "s1",
        role="user",
        content=text,
        timestamp=now,
    )


def follow_clock(clock: Clock, messages: Sequence[Message]) -> None:
    """A manual clock follows replayed turns, so triggers see their time."""
    if isinstance(clock, ManualClock) and messages:
        clock.set(max(m.timestamp for m in messages))
