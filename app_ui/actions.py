"""Everything the app does to memory, as plain functions over a `Memory`.

The functions know nothing about widgets, so the AppTest and unit tests can drive
them directly; the widgets call them and turn a `MemoryLabError` into a visible
one-line error while the chat and the stored memory carry on.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta

from app_ui.clock import OffsetClock
from memlab_cli.conversation_io import Replayable, load_replayable
from memory_lab.api import Memory
from memory_lab.api_views import Step
from memory_lab.errors import InvalidMessageError, MemoryLabError
from memory_lab.types import ContextBundle, MemoryEvent, Message

# Writes that get a muted status line under the reply, with Undo.
WRITE_KINDS = frozenset(
    {
        "fact_added",
        "fact_superseded",
        "fact_confirmed",
        "contradiction",
        "fact_forgotten",
        "fact_restored",
        "facts_consolidated",
    }
)
# The replying model's memory tool calls, listed under its reply.
TOOL_KINDS = frozenset({"tool_called", "tool_failed"})
# Events the trigger timeline lists, with the reason each fired.
TIMELINE_KINDS = frozenset({"trigger_fired", "compressed", "brain_fallback"})


def send(memory: Memory, tenant: str, text: str, thread: str = "main") -> Step:
    """Chat one user message into a chat (its session is the chat's id).

    Raises:
        InvalidMessageError: for an empty, oversized or unencodable message; nothing
            is stored then.
    """
    if text is None or not text.strip():
        # The memory would say the same, but naming an internal message id.
        raise InvalidMessageError("The message is empty: type something to send")
    return memory.chat(tenant, text, thread=thread)


def title_by_model(memory: Memory, tenant: str, thread: str, text: str) -> None:
    """Let the brain name a chat after its first message, if it can.

    Offline the chat keeps its first question as its title; a model that gives
    no usable title (a failing endpoint, an empty or overlong answer) changes
    nothing, and a title the user gave is never replaced.
    """
    memory.chats.name_by_model(tenant, thread, text)


def reply_without_memory(memory: Memory, tenant: str, text: str) -> str:
    """What the same brain answers to `text` from an empty memory; nothing is stored.

    The context holds no fact, episode, summary or earlier turn, so the
    difference from the stored reply is what memory added.
    """
    return memory.answer_without_memory(tenant, text)


def recalled_from(
    memory: Memory, tenant: str, thread: str, context: ContextBundle | None
) -> list[str]:
    """Titles of the tenant's other chats that the reply's context drew on.

    A fact names the chat (session) it was said in, an episode its thread and a
    turn its session; only ids of catalogued chats other than this one count.
    """
    if context is None:
        return []
    items = {i for b in context.blocks for i in b.items}
    chats = {c.thread: c.title for c in memory.chats.all(tenant)}
    seen: set[str] = set()
    for fact_id in items:
        fact = memory.fact(tenant, fact_id)
        if fact is not None:
            seen.add(fact.session)
    for episode in memory.episodes(tenant, sorted(items)):
        seen.add(episode.thread)
    seen |= {m.session for m in memory.turns(tenant) if m.id in items}
    return [chats[t] for t in sorted(seen) if t in chats and t != thread]


def fallbacks(step: Step) -> list[MemoryEvent]:
    """The brain fallbacks of a step (an unreachable LLM server, for one)."""
    return [e for e in step.events if e.kind == "brain_fallback"]


def advance_clock(
    memory: Memory,
    clock: OffsetClock,
    tenant: str,
    step: timedelta,
    thread: str = "main",
) -> Step:
    """Move the tenant's clock forward and let triggers C and idle close fire."""
    clock.advance(step)
    return memory.tick(tenant, thread=thread)


def undo(memory: Memory, tenant: str, event: dict | MemoryEvent) -> MemoryEvent:
    """Revert one memory write shown in a status line.

    Raises:
        MemoryLabError: when the event cannot be undone or is not this tenant's.
    """
    record = (
        event if isinstance(event, MemoryEvent) else MemoryEvent.model_validate(event)
    )
    return memory.undo(tenant, record)


def _known_fact(
    call: Callable[[str, str], MemoryEvent], tenant: str, fact_id: str
) -> MemoryEvent:
    # `Memory` refuses an unknown fact (one another tab just purged) with a
    # KeyError; the widgets show refusals that are MemoryLabErrors.
    try:
        return call(tenant, fact_id)
    except KeyError as err:
        raise MemoryLabError(err.args[0] if err.args else str(err)) from None


def forget_fact(memory: Memory, tenant: str, fact_id: str) -> MemoryEvent:
    """Stop using a fact: it is end-dated and kept, never deleted."""
    return _known_fact(memory.forget, tenant, fact_id)


def confirm_fact(memory: Memory, tenant: str, fact_id: str) -> MemoryEvent:
    """Re-confirm a fact: confidence up, TTL renewed, a review flag cleared."""
    return _known_fact(memory.confirm, tenant, fact_id)


def restore_fact(memory: Memory, tenant: str, fact_id: str) -> MemoryEvent:
    """Make a forgotten, replaced or flagged value the current one again."""
    return memory.restore(tenant, fact_id)


def resolve_flag(
    memory: Memory, tenant: str, fact_id: str, *, accept: bool
) -> MemoryEvent:
    """Settle a flagged fact.

    A flagged contradiction (a value that was not taken) is taken when accepted
    and forgotten when rejected; an unconfirmed replacement is confirmed when
    accepted, and the value it replaced comes back when rejected.

    Raises:
        MemoryLabError: when the fact is not this tenant's or not flagged.
    """
    flagged = {f.id: f for f in memory.flagged(tenant)}
    if fact_id not in flagged:
        raise MemoryLabError(f"fact {fact_id!r} is not flagged for review")
    fact = flagged[fact_id]
    if fact.status == "contradiction":
        if accept:
            return memory.restore(tenant, fact_id)
        return forget_fact(memory, tenant, fact_id)
    if accept:
        return confirm_fact(memory, tenant, fact_id)
    return memory.restore(tenant, fact.conflicts_with)


def datasets() -> dict[str, Replayable]:
    """Conversations the app can replay.

    The built-in one always; the synthetic set too when the dataset package offers it.
    """
    found = {r.name: r for r in load_replayable("builtin")}
    try:
        from memlab_datasets import load_dataset  # type: ignore[attr-defined]
    except ImportError:
        return found
    try:
        for conv in list(load_dataset("synthetic"))[:5]:
            messages = list(
                getattr(conv, "messages", None) or getattr(conv, "turns", [])
            )
            if messages and all(isinstance(m, Message) for m in messages):
                name = str(
                    getattr(conv, "name", None) or getattr(conv, "id", "synthetic")
                )
                found[f"synthetic: {name}"] = Replayable(
                    name, messages[0].tenant, messages
                )
    except (MemoryLabError, ValueError, TypeError, OSError):
        # The synthetic set is optional; the built-in conversation always works.
        pass
    return found


@dataclass
class ReplayCursor:
    """How far a dataset conversation was replayed into a tenant's memory.

    `run` makes message ids unique, so replaying the same conversation twice into
    one tenant never collides with turns already in its transcript.
    """

    dataset: str
    run: str
    position: int = 0
    steps: list[Step] = field(default_factory=list, repr=False)


def replay(
    memory: Memory,
    clock: OffsetClock,
    tenant: str,
    conv: Replayable,
    cursor: ReplayCursor,
    upto: int,
    thread: str = "main",
) -> list[Step]:
    """Add turns `cursor.position .. upto-1` of `conv` to `tenant`'s memory.

    The app clock moves by the gaps between the conversation's turns, and each turn
    is stamped with the app clock, so a replay crossing days fires trigger C just as
    the original conversation would have.
    """
    upto = max(0, min(upto, len(conv.messages)))
    results = []
    while cursor.position < upto:
        i = cursor.position
        source = conv.messages[i]
        if i > 0:
            gap = source.timestamp - conv.messages[i - 1].timestamp
            if gap > timedelta(0):
                clock.advance(gap)
        msg = source.model_copy(
            update={
                "tenant": tenant,
                "id": f"replay:{cursor.run}:{source.id}",
                "timestamp": clock.now(),
                "seq": -1,
            }
        )
        results.extend(memory.replay(tenant, [msg], thread=thread))
        cursor.position += 1
    return results


def tool_calls(step: Step) -> list[tuple[str, bool]]:
    """The memory tools the model called for this reply: (call and result, ok)."""
    return [
        (e.detail, e.kind == "tool_called") for e in step.events if e.kind in TOOL_KINDS
    ]
