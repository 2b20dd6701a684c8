"""`Memory`: the public way into memory-lab, for your own agent and for our tools.

    from memory_lab import Memory

    with Memory.open("./memory", recipe="A") as memory:
        memory.add("ada", [{"role": "user", "content": "I moved to Lyon."}])
        memory.flush()                      # only when you need the work done now
        print(memory.context("ada", "Where do I live?", budget=600).text)

A location is a folder (SQLite and a Chroma folder inside it), `":memory:"`
(nothing kept after `close`) or a `postgresql://` URL (the episode index then
lives on the Chroma server `episodes=` names, in `folder=`, else in this
process). The same
location means the same memory to every command: `replay --data`, `export`,
`purge`, the app and `memory-lab mcp`.

Adding turns stores them at once and returns their ids; compression and fact
extraction run on a background worker, as in the harness. Every method names a
tenant, and one tenant never reads another's records.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Self

from memory_lab.api_owner import OwnerControl
from memory_lab.api_turns import to_message
from memory_lab.api_views import MemoryViews, Step
from memory_lab.clock import Clock
from memory_lab.config import LLMSettings, MemoryConfig, Recipe
from memory_lab.context.withheld import shown_window
from memory_lab.engine import MemoryEngine
from memory_lab.errors import InvalidMessageError, MemoryLabError, require_tenant
from memory_lab.recipes import recipe as named_recipe
from memory_lab.stores.locations import DEFAULT_NAMESPACE, StoreSpec
from memory_lab.types import (
    ContextBundle,
    Fact,
    FactCandidate,
    Hit,
    MemoryEvent,
    Message,
)

if TYPE_CHECKING:
    from memory_lab.items import ItemStore

MEMORY = ":memory:"
"""The location of a memory held in this process only."""

__all__ = [
    "DEFAULT_NAMESPACE",
    "MEMORY",
    "LocationError",
    "Memory",
    "StoreSpec",
    "parse_location",
]


class LocationError(MemoryLabError, ValueError):
    """A location that cannot be opened as a memory."""


def parse_location(
    location: str | Path,
    *,
    episodes: str | None = None,
    folder: str | Path | None = None,
) -> tuple[Path | None, StoreSpec]:
    """The data folder and servers a location names.

    Raises:
        LocationError: for an empty location, a URL of another scheme, or a
            path that exists and is not a folder.
    """
    text = str(location).strip()
    if not text:
        raise LocationError("location is empty: give a folder, ':memory:' or a URL")
    if text == MEMORY:
        return None, StoreSpec(episodes=episodes)
    if "://" in text:
        try:
            spec = StoreSpec(store=text, episodes=episodes)
            return (Path(folder) if folder is not None else None), spec
        except ValueError as err:
            raise LocationError(f"location {text!r}: {err}") from None
    path = Path(text).expanduser()
    if path.exists() and not path.is_dir():
        raise LocationError(f"location {text!r} is a file, not a folder")
    return path, StoreSpec(episodes=episodes)


class Memory(MemoryViews, OwnerControl):
    """Tiered memory on one location: add turns, read contexts, manage facts.

    Chatting step by step, the snapshot and transcript, facts to review, links,
    and the `chats`, `trash` and `live` sub-objects come from `MemoryViews`
    (`memory_lab.api_views`). Thread-safe: one `Memory` serves every tenant and
    thread of its location.
    """

    def __init__(self, engine: MemoryEngine, location: str) -> None:
        self._engine = engine
        self.location = location
        """Where this memory lives, as it was opened."""

    @classmethod
    def open(
        cls,
        location: str | Path = MEMORY,
        *,
        recipe: str | Recipe | None = None,
        brain: LLMSettings | None = None,
        extractor: str | None = None,
        episodes: str | None = None,
        folder: str | Path | None = None,
        namespace: str | None = None,
        config: MemoryConfig | None = None,
        clock: Clock | None = None,
    ) -> Memory:
        """Open (or create) the memory at `location`.

        Args:
            location: A folder, ":memory:" or a `postgresql://` URL.
            recipe: When to compress: "A", "B", "C", "D", "A+D", ... or a
                plug-in trigger's name, or a `Recipe` with its parameters;
                None keeps the config's (A without one).
            brain: An OpenAI-compatible endpoint; None is the offline brain
                (a dependency parse plus a pattern table, no model).
            extractor: How facts are read from turns: "parse", "rules", or
                "none" (no facts but what memory commands state).
            episodes: An `http://host:port` Chroma server for the episode index.
            folder: With a URL location, the folder that keeps what no server
                holds (the episode index when `episodes` is not given).
            namespace: On a shared server, what this memory's records are
                kept apart under (default: the one every command uses).
            config: Every other setting; `recipe`, `brain` and `extractor`
                override its fields.
            clock: Injected time (tests, replays); the system clock otherwise.

        Raises:
            LocationError: when the location cannot be opened.
            MemoryLabError: when a part the configuration needs cannot be
                imported, naming what to install.
        """
        data_dir, stores = parse_location(location, episodes=episodes, folder=folder)
        if namespace is not None:
            stores = replace(stores, namespace=namespace)
        update: dict[str, Any] = {}
        if recipe is not None:
            chosen = named_recipe(recipe) if isinstance(recipe, str) else recipe
            update["recipe"] = chosen
        if brain is not None:
            update["llm"] = brain
        if extractor is not None:
            update["extractor"] = extractor
        settings = (config or MemoryConfig()).model_copy(update=update)
        settings = MemoryConfig.model_validate(settings.model_dump())
        try:
            engine = MemoryEngine(data_dir, config=settings, clock=clock, stores=stores)
        except MemoryLabError:
            raise
        except OSError as err:
            raise LocationError(f"cannot open {str(location)!r}: {err}") from err
        return cls(engine, str(location))

    # --- turns -----------------------------------------------------------------

    def add(
        self,
        tenant: str,
        messages: Iterable[Message | Mapping[str, Any]],
        *,
        thread: str = "main",
    ) -> list[str]:
        """Store turns of `tenant`'s `thread` now; their memory work runs behind.

        A message is a `Message` or a mapping with `role` ("user", "assistant"
        or "system") and `content`, and optionally `timestamp` (ISO 8601 with
        a zone, default now), `id`, `speaker` and `session`.

        Returns:
            The stored turns' ids, in order.

        Raises:
            InvalidMessageError: naming the bad message and field; nothing of
                the batch is stored.
        """
        tenant = require_tenant(tenant)
        now = self._engine.clock.now()
        batch = [to_message(m, i, tenant, thread, now) for i, m in enumerate(messages)]
        if not batch:
            raise InvalidMessageError("messages: give at least one message")
        self._engine.ingest(tenant, batch, thread=thread)
        return [m.id for m in batch]

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the memory work owed so far is done; False on timeout."""
        return self._engine.flush(timeout)

    def close_session(self, tenant: str, *, thread: str = "main") -> Step:
        """End a chat: every turn past the compression watermark is extracted.

        Returns:
            What the step did (the session closed, a trigger fired).
        """
        return Step.of(self._engine.close_session(tenant, thread=thread))

    # --- reads -----------------------------------------------------------------

    def context(
        self,
        tenant: str,
        query: str,
        *,
        budget: int | None = None,
        thread: str = "main",
    ) -> ContextBundle:
        """The context for `query` within `budget` tokens (default: the config's).

        `.text` is the whole context, delimited as data; `.blocks` its parts
        (facts, episodes, excerpts, summary, window), each with its tokens.

        Raises:
            ValueError: for a budget below 50 tokens.
        """
        scaled = None
        if budget is not None:
            if isinstance(budget, bool) or not isinstance(budget, int) or budget < 50:
                raise ValueError(
                    f"budget: must be a whole number >= 50, got {budget!r}"
                )
            scaled = self._engine.config.budget.scaled(budget)
        return self._engine.assemble(tenant, query, thread=thread, budget=scaled)

    def search(
        self, tenant: str, query: str, *, k: int = 10, thread: str = "main"
    ) -> list[Hit]:
        """The `k` best facts, episodes and turns for `query`, best first."""
        if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 100:
            raise ValueError(f"k: must be a whole number from 1 to 100, got {k!r}")
        return self._engine.search(tenant, query, k=k, thread=thread)

    def facts(self, tenant: str, *, category: str | None = None) -> list[Fact]:
        """The facts in force now, optionally of one category."""
        active = self._engine.facts.active(require_tenant(tenant))
        return [f for f in active if category is None or f.category == category]

    def fact(self, tenant: str, fact_id: str) -> Fact | None:
        """One fact row by id, in force or not; None when the tenant has none."""
        return self._engine.facts.get(require_tenant(tenant), fact_id)

    def window(
        self, tenant: str, *, thread: str = "main", as_stored: bool = False
    ) -> tuple[str, list[Message]]:
        """The session window: the running summary, then the verbatim tail.

        As a model should see it: without what forgotten facts withhold (the
        sentences that quote them, as every context leaves them out).
        `as_stored=True` gives the window as the transcript holds it, for audit.
        """
        summary, tail = self._engine.thread_view(tenant, thread)
        if as_stored:
            return summary, tail
        return shown_window(self._engine.facts, require_tenant(tenant), summary, tail)

    def threads(self, tenant: str) -> list[str]:
        """The tenant's threads, by name: each one given a turn or a close.

        A `close_session` on a thread with no turns yet records it too, so a
        conversation can move to a new thread before its first turn and be
        found there again (the LangChain history's `clear` does this).
        """
        return self._engine.jobs.threads(require_tenant(tenant))

    def stats(self, tenant: str, *, thread: str = "main") -> dict[str, int]:
        """Sizes of each tier: turns stored, episodes, active facts, owed jobs."""
        tenant = require_tenant(tenant)
        engine = self._engine
        return {
            "turns": engine.transcript.count(tenant),
            "window": len(engine.thread_view(tenant, thread)[1]),
            "episodes": engine.episodes.count(tenant),
            "facts": len(engine.facts.active(tenant)),
            "pending_jobs": engine.pending_jobs(tenant),
        }

    def count_tokens(self, text: str) -> int:
        """Tokens in `text` as budgets count them."""
        return self._engine.counter.count(text)

    @property
    def brain(self) -> str:
        """Which brain does the memory work: 'rule-based' offline, else the model."""
        return str(
            getattr(self._engine.brain, "name", type(self._engine.brain).__name__)
        )

    def brain_usage(self) -> dict[str, int]:
        """The brain's counters (calls, tokens, fallbacks) as plain ints."""
        usage = getattr(self._engine.brain, "usage", None)
        raw = usage() if callable(usage) else {}
        counts: dict[str, int] = {}
        for key, value in (raw or {}).items():
            try:
                counts[str(key)] = int(value or 0)
            except (TypeError, ValueError):
                continue
        return counts

    def events(
        self, tenant: str, *, limit: int | None = 200, since: datetime | None = None
    ) -> list[MemoryEvent]:
        """What memory did for `tenant`, newest last (writes, forgets, failures).

        The newest `limit` (all if None) of the events at or after `since`.
        """
        return self._engine.events.events(
            require_tenant(tenant), since=since, limit=limit
        )

    def failures(self, tenant: str) -> list[MemoryEvent]:
        """Memory work given up on (its turns stay in the transcript)."""
        return self._engine.failures(tenant)

    # --- facts you state -------------------------------------------------------

    def remember(
        self,
        tenant: str,
        key: str,
        value: str,
        *,
        category: str = "knowledge",
        subject: str = "user",
        importance: float = 0.7,
        detail: str = "",
        source_turn: str | None = None,
    ) -> Fact:
        """Store a fact as stated by its owner: the top trust tier.

        Extraction never overrides an explicit fact; a later `remember` of the
        same key supersedes it, and the old value stays in its history.

        Raises:
            ValueError: naming an empty key or value, or an unknown category.
        """
        tenant = require_tenant(tenant)
        for name, text in (("key", key), ("value", value), ("subject", subject)):
            if not isinstance(text, str) or not text.strip():
                raise ValueError(f"{name}: must be non-empty text")
        known = set(self._engine.config.facts.categories)
        if category not in known:
            raise ValueError(
                f"category: unknown {category!r} (known: {', '.join(sorted(known))})"
            )
        now = self._engine.clock.now()
        candidate = FactCandidate(
            category=category,
            key=key.strip(),
            value=value.strip(),
            subject=subject.strip(),
            confidence=1.0,
            importance=importance,
            source="explicit",
            session="api",
            turn_ids=[source_turn or f"api:remember:{now.isoformat()}"],
            evidence=value,
            body=detail,
        )
        event = self._engine.facts.write(tenant, candidate)
        fact = self._engine.facts.get(tenant, event.refs[0])
        assert fact is not None  # the write just stored it
        return fact

    def correct(self, tenant: str, fact_id: str, value: str) -> Fact:
        """Replace a fact's value with an explicit one; the old row is superseded.

        Raises:
            KeyError: when the tenant has no fact `fact_id`.
        """
        old = self._require(tenant, fact_id)
        return self.remember(
            tenant,
            old.key,
            value,
            category=old.category,
            subject=old.subject,
            importance=old.importance,
        )

    def forget(self, tenant: str, fact_id: str) -> MemoryEvent:
        """Stop using a fact: end-dated and kept for audit (`purge` removes it).

        Raises:
            KeyError: when the tenant has no fact `fact_id`.
        """
        self._require(tenant, fact_id)
        return self._engine.facts.forget(tenant, fact_id)

    def confirm(self, tenant: str, fact_id: str) -> MemoryEvent:
        """Re-confirm a fact: its confidence rises and its time to live renews.

        Raises:
            KeyError: when the tenant has no fact `fact_id`.
        """
        self._require(tenant, fact_id)
        return self._engine.facts.confirm(tenant, fact_id)

    def _require(self, tenant: str, fact_id: str) -> Fact:
        fact = self.fact(tenant, fact_id)
        if fact is None:
            raise KeyError(f"fact_id: no fact {fact_id!r} for tenant {tenant!r}")
        return fact

    def tools(self, tenant: str) -> list[Any]:
        """The memory tools bound to `tenant`, as LangChain tools for an agent.

        memory_save, memory_update, memory_forget, memory_confirm, memory_list,
        memory_recall, memory_link, memory_unlink and memory_links.
        """
        from memory_lab.facts.tools import memory_tools

        return memory_tools(self._engine, tenant)

    @functools.cached_property
    def items(self) -> ItemStore:
        """Key-value items any agent may keep here, searched by meaning.

        One `ItemStore` per memory, on its database and with its embedder:
        what the LangGraph store adapter (`memory_lab.adapters.langgraph`)
        reads and writes. Its methods name a tenant, like every other.
        """
        from memory_lab.items import ItemStore

        engine = self._engine
        return ItemStore(
            engine.jobs.db, engine.embedder, events=engine.events, clock=engine.clock
        )

    # --- lifetime --------------------------------------------------------------

    def close(self, *, wait: bool = True) -> None:
        """Release the stores; with `wait`, the owed memory work is done first."""
        self._engine.close(wait=wait)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close(wait=exc[0] is None)

    def __repr__(self) -> str:
        return f"Memory({self.location!r})"
