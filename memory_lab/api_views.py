"""What `Memory` offers an app that shows memory at work, beside the basics in `api`.

- `Step`: what one step did (a turn taken, the clock checked, a chat closed),
  with the reply and its context when the step answered.
- `MemoryViews`: the methods `Memory` takes from here: chatting step by step,
  the snapshot and the transcript, facts to review, links, and the sub-objects
  `chats`, `trash` and `live`. It is a base of `Memory`, kept apart so each
  module stays short; use it through `Memory`.
- `Chats` and `Trash`: a tenant's chat list, and the restorable trash for facts
  and episodes, both on the memory's own clock.
- `fact_summary` and `adds_nothing`: the two helpers a display needs (a fact's
  one-line label; whether a reply only restated memory). `LINK_TYPES`: the
  links a person can ask for. `warm_up`: load the shared models early.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from datetime import timedelta
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from memory_lab.brains.status import ModelStatus, brain_status
from memory_lab.chats import Chat, ChatError, SearchHit
from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.facts.links import STORED_TYPES
from memory_lab.facts.summary import fact_summary
from memory_lab.owner.trash_bin import TrashedItem, TrashKind
from memory_lab.restatement import adds_nothing
from memory_lab.snapshot import MemorySnapshot
from memory_lab.types import (
    ContextBundle,
    Episode,
    Fact,
    FactLink,
    MemoryEvent,
    Message,
    TriggerDecision,
)

if TYPE_CHECKING:
    from memory_lab.brains.base import Brain
    from memory_lab.chats import ChatCatalog
    from memory_lab.clock import Clock
    from memory_lab.config import MemoryConfig
    from memory_lab.context.live import LiveSources
    from memory_lab.engine import MemoryEngine, StepResult
    from memory_lab.owner.trash_bin import TrashBin

__all__ = [
    "LINK_TYPES",
    "Chats",
    "MemoryViews",
    "Step",
    "Trash",
    "adds_nothing",
    "fact_summary",
    "warm_up",
]

LINK_TYPES: tuple[str, ...] = STORED_TYPES
"""The links `Memory.link` makes; "supersedes" links come from corrections."""


class Step(BaseModel):
    """What one step of memory did: a turn taken, the clock checked, a chat closed.

    Compression and extraction run behind the step, on the memory's worker: a
    step says that a trigger fired, not what the compression wrote.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    events: list[MemoryEvent]
    """The step's own events: trigger firings, session changes, a brain falling
    back, the replying model's memory tool calls."""
    decision: TriggerDecision | None = None
    """What the triggers decided; None when the step asked them nothing."""
    reply: str | None = None
    """The answer, for a step that answered (`Memory.chat`)."""
    context: ContextBundle | None = None
    """The context the answer was given."""

    @property
    def compressed(self) -> bool:
        """Whether a trigger fired (its compression runs in the background)."""
        return bool(self.decision and self.decision.fire)

    @classmethod
    def of(cls, result: StepResult) -> Step:
        """The public record of an engine step."""
        return cls(
            events=list(result.events),
            decision=result.decision,
            reply=result.reply,
            context=result.context,
        )


class Chats:
    """A tenant's chats: the list, titles, search, and a trash with a restore window.

    Memory belongs to the tenant, not to a chat: what is said in one chat is
    recalled in every other. `Memory.chat` lists a chat on its first turn,
    titled by its first question. A trashed chat is restorable for
    `Memory.trash.keep`, then purged for real when the memory is next opened.
    """

    def __init__(self, catalog: ChatCatalog, clock: Clock, brain: Brain) -> None:
        self._catalog = catalog
        self._clock = clock
        self._brain = brain

    def all(self, tenant: str, *, trashed: bool = False) -> list[Chat]:
        """The tenant's chats, newest first (those in the trash with `trashed`)."""
        return self._catalog.chats(tenant, trashed=trashed)

    def get(self, tenant: str, thread: str) -> Chat:
        """One chat, in the trash or not.

        Raises:
            UnknownChatError: for a chat the tenant does not have.
        """
        return self._catalog.get(tenant, thread)

    def create(self, tenant: str, title: str | None = None) -> Chat:
        """A new, empty chat (titled from its first question, unless named)."""
        return self._catalog.create(tenant, self._clock.now(), title)

    def rename(self, tenant: str, thread: str, title: str) -> Chat:
        """Give a chat a title of the user's; a model never replaces it.

        Raises:
            ChatError: for a blank or overlong title, or an unknown chat.
        """
        return self._catalog.rename(tenant, thread, title)

    def name_by_model(
        self, tenant: str, thread: str, first_message: str
    ) -> Chat | None:
        """Let the model title a chat after its first message, if it can.

        Returns:
            The chat, or None when no usable title came (the offline brain
            gives none; a failing endpoint or an empty or overlong answer
            changes nothing). A title the user gave is kept.
        """
        name = getattr(self._brain, "title", None)
        title = name(first_message) if callable(name) else None
        if not title:
            return None
        try:
            return self._catalog.name_by_model(tenant, thread, title)
        except ChatError:
            return None

    def search(self, tenant: str, query: str) -> list[SearchHit]:
        """Turns of every chat holding all of the query's words.

        Raises:
            ChatError: for an empty or overlong query.
        """
        return self._catalog.search(tenant, query)

    def trash(self, tenant: str, thread: str) -> Chat:
        """Move a chat to the trash; what memory learned from it stays until purged.

        Raises:
            UnknownChatError: for a chat the tenant does not have.
        """
        return self._catalog.trash(tenant, thread, self._clock.now())

    def restore(self, tenant: str, thread: str) -> Chat:
        """Bring a chat back from the trash.

        Raises:
            ChatError: when the chat is not in the trash, or unknown.
        """
        return self._catalog.restore(tenant, thread)


class Trash:
    """Facts and episodes their owner deleted, restorable for `keep`.

    A deleted item leaves every read at once; past `keep` it is purged for real
    (text, vectors and what was read from it) when the memory is next opened.
    Chats have their trash in `Memory.chats`, with the same `keep`.
    """

    def __init__(self, bin_: TrashBin, keep: timedelta) -> None:
        self._bin = bin_
        self.keep = keep
        """How long a deleted fact, episode or chat can be restored."""

    def items(self, tenant: str) -> list[TrashedItem]:
        """The tenant's trash, most recently deleted first."""
        return self._bin.items(tenant)

    def delete_fact(self, tenant: str, fact_id: str) -> MemoryEvent:
        """Move an active fact to the trash; the event says so and can undo it.

        Raises:
            TrashError: when the tenant holds no active fact with this id.
        """
        return self._bin.trash_fact(tenant, fact_id)

    def delete_episode(self, tenant: str, episode_id: str) -> MemoryEvent:
        """Move an episode to the trash, with the turns it summarised.

        Raises:
            TrashError: when the tenant holds no such episode, or it is trashed.
        """
        return self._bin.trash_episode(tenant, episode_id)

    def restore(self, tenant: str, kind: TrashKind, item: str) -> MemoryEvent:
        """Bring a fact or an episode back as it was.

        Raises:
            TrashError: when the item is not in the tenant's trash.
        """
        return self._bin.restore(tenant, kind, item)


class MemoryViews:
    """The part of `Memory` an app shows memory at work through (see the module)."""

    _engine: MemoryEngine

    # --- conversation ----------------------------------------------------------

    def chat(self, tenant: str, text: str, *, thread: str = "main") -> Step:
        """Answer a user message with the assembled memory; both turns are stored.

        The message goes to chat `thread` (its session is the thread), which
        `chats` lists from now on.

        Raises:
            InvalidMessageError: for an empty, oversized or unencodable message;
                nothing is stored then.
        """
        return Step.of(self._engine.chat(tenant, text, thread=thread, session=thread))

    def replay(
        self, tenant: str, messages: Iterable[Message], *, thread: str = "main"
    ) -> list[Step]:
        """Add recorded turns one step each, as the conversation happened.

        Each turn is its own step, so the triggers see every turn at its own
        time (a replay that crosses days fires trigger C as the original did).

        Raises:
            InvalidMessageError: naming the first bad message; the turns
                before it are stored.
        """
        tenant = require_tenant(tenant)
        return [
            Step.of(self._engine.ingest(tenant, [m], thread=thread)) for m in messages
        ]

    def tick(self, tenant: str, *, thread: str = "main") -> Step:
        """Re-check the triggers and the session's timeouts at the clock's time.

        A session silent past `config.sessions.idle_after` goes idle; past
        `close_after` it is closed and its turns extracted.
        """
        return Step.of(self._engine.tick(tenant, thread=thread))

    def answer_without_memory(self, tenant: str, text: str) -> str:
        """What the same brain answers to `text` from an empty memory.

        Nothing is stored or read: the difference from `chat`'s reply is what
        memory added.
        """
        engine = self._engine
        question = Message(
            id="without-memory",
            tenant=require_tenant(tenant),
            session="without-memory",
            role="user",
            content=text,
            timestamp=engine.clock.now(),
        )
        empty = ContextBundle(
            blocks=[], total_tokens=0, budget=engine.config.budget.total
        )
        return engine.brain.respond(question, empty).value

    # --- reads -----------------------------------------------------------------

    @property
    def config(self) -> MemoryConfig:
        """The settings this memory runs on: budgets, recipe, retention, ..."""
        return self._engine.config

    @property
    def clock(self) -> Clock:
        """The clock this memory reads time from."""
        return self._engine.clock

    def snapshot(self, tenant: str, *, thread: str = "main") -> MemorySnapshot:
        """The memory of one thread at one moment, read at one committed state.

        The window and running summary, the episodes, every fact row with its
        status now, the newest events, day and week summaries, suggestions.
        """
        return self._engine.memory_snapshot(tenant, thread=thread)

    def turns(self, tenant: str, *, thread: str | None = None) -> list[Message]:
        """The transcript: every turn of `thread` (of all threads if None), in order."""
        return self._engine.transcript.messages(require_tenant(tenant), thread)

    def episodes(self, tenant: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """The tenant's episodes (those with these ids, if given); trashed ones not."""
        return self._engine.episodes.get(require_tenant(tenant), ids)

    def episode_turns(self, tenant: str, episode_id: str) -> list[Message]:
        """The turns an episode summarises, from the transcript ([] if unknown)."""
        return self._engine.expand_episode(tenant, episode_id)

    def nearest_episodes(
        self, tenant: str, query: str, *, k: int | None = None
    ) -> list[tuple[Episode, float]]:
        """The `k` episodes nearest `query` in meaning, with their cosine distance.

        Nearest first, whatever the distance (0 is the same meaning; retrieval
        keeps those within `config.retrieval.max_distance`). `k` defaults to
        `config.retrieval.top_k`.
        """
        top_k = k if k is not None else self._engine.config.retrieval.top_k
        # Cosine distances end at 2: this cutoff keeps every match.
        return self._engine.episodes.search(
            require_tenant(tenant), query, top_k=top_k, max_distance=2.0
        )

    def pending(self, tenant: str) -> int:
        """Memory jobs owed for `tenant` that the worker has not done yet."""
        return self._engine.pending_jobs(require_tenant(tenant))

    def model_status(self) -> ModelStatus:
        """What the brain's model is doing: each lane ready, busy or failing over."""
        return brain_status(self._engine.brain)

    # --- facts: review, history, links -----------------------------------------

    def history(
        self,
        tenant: str,
        *,
        category: str | None = None,
        key: str | None = None,
        subject: str | None = None,
    ) -> list[Fact]:
        """Every fact row ever stored, whatever its status, oldest first.

        With `category`, `key` and `subject`, one key's supersession chain.
        """
        store = self._engine.facts.store
        return store.rows(
            require_tenant(tenant), subject=subject, category=category, key=key
        )

    def flagged(self, tenant: str) -> list[Fact]:
        """Facts a person should review, oldest first.

        A contradiction (a value that disputes a stored one and was not taken),
        and an active value that replaced an extracted one unconfirmed.
        """
        return self._engine.facts.flagged(tenant)

    def restore(self, tenant: str, fact_id: str) -> MemoryEvent:
        """Make a forgotten, replaced or flagged value the current one again.

        Raises:
            MemoryLabError: when the tenant has no fact `fact_id`.
        """
        return self._engine.facts.restore(tenant, fact_id)

    def undo(self, tenant: str, event: MemoryEvent) -> MemoryEvent:
        """Revert the memory write `event` records (one whose `undo` is set).

        Nothing is deleted: a written fact is end-dated, a replaced one comes
        back, a deleted item leaves the trash.

        Raises:
            MemoryLabError: when the event cannot be undone or is not the
                tenant's.
        """
        tenant = require_tenant(tenant)
        if event.undo and event.undo.get("op") == "restore_from_trash":
            if event.tenant != tenant:
                raise MemoryLabError(f"event {event.id} is not tenant {tenant!r}'s")
            kind, item = event.undo["kind"], event.undo["item"]
            return self._engine.trash.restore(tenant, kind, item)
        return self._engine.facts.undo(tenant, event)

    def links(self, tenant: str) -> list[FactLink]:
        """The tenant's links in force: stored ones, then "supersedes" ones."""
        return self._engine.facts.links(tenant)

    def link(
        self,
        tenant: str,
        link_type: str,
        source_id: str,
        target_id: str,
        *,
        origin: str = "api",
    ) -> MemoryEvent:
        """Link two of the tenant's facts: `source_id` `link_type` `target_id`.

        `link_type` is one of `LINK_TYPES`; `origin` says who asked.

        Raises:
            LinkError: for an unknown type, a self-link, or a fact the tenant
                does not hold.
        """
        return self._engine.facts.link(
            tenant, link_type, source_id, target_id, origin=origin
        )

    def unlink(self, tenant: str, link_id: str) -> MemoryEvent:
        """End a link (kept for audit).

        Raises:
            LinkError: for a link the tenant does not hold, or a "supersedes"
                one (restore the older fact instead).
        """
        return self._engine.facts.unlink(tenant, link_id)

    # --- sub-objects -----------------------------------------------------------

    @property
    def chats(self) -> Chats:
        """The tenant chat list: create, rename, search, trash and restore chats."""
        engine = self._engine
        return Chats(engine.chats, engine.clock, engine.brain)

    @property
    def trash(self) -> Trash:
        """Deleted facts and episodes, restorable for `trash.keep`."""
        return Trash(self._engine.trash, self._engine.trash_keep)

    @property
    def live(self) -> LiveSources:
        """Live data sources: `live.register(name, keys, fetch)`, `live.names()`.

        A registered source's values for its keys lead each reply's context
        and replace what memory holds under the same keys.
        """
        return self._engine.live


def warm_up() -> threading.Thread:
    """Load the models every memory in this process shares, before a turn needs them.

    The embedding model and the token counter load now (about a second); the
    offline brain's parser loads on the returned daemon thread (seconds, tens
    of them on a busy machine). A server calls this once when it starts.
    """
    from memory_lab.brains.offline.parse.pipeline import warm_in_background
    from memory_lab.embeddings import default_embedder
    from memory_lab.tokens import default_counter

    default_counter()
    default_embedder()
    return warm_in_background()
