"""MemoryEngine: the one object the CLI, app, evals and notebooks drive.

It turns calls such as `ingest`, `chat` and `tick` into graph runs (one per
step) and hands the memory work they ask for (compression, extraction) to a
background worker (`memory_work`). Its parts come from one opener
(`memory_parts.open_parts`): one database for the transcript, facts, events and
job ledger (a SQLite file in the data folder, or Postgres), and the episode
index (Chroma in the folder or on a server, or another registered backend).
Reads go through `reads.MemoryReads`; `flush()` waits for the worker.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, cast

from memory_lab.brains.base import Brain
from memory_lab.brains.choice import make_brain
from memory_lab.brains.metered import MeteredBrain
from memory_lab.chats import ChatCatalog
from memory_lab.chats.catalog import TRASH_DAYS
from memory_lab.clock import Clock, SystemClock
from memory_lab.concurrency.lock_order import named_lock
from memory_lab.config import BudgetConfig, MemoryConfig
from memory_lab.context.live import LiveSources
from memory_lab.embeddings import Embedder, default_embedder
from memory_lab.episodes.periods import PeriodSummaries
from memory_lab.episodes.turn_index import TurnIndex
from memory_lab.errors import require_tenant
from memory_lab.facts.memory import FactMemory
from memory_lab.facts.tools import ToolParts, offered_tools
from memory_lab.graph import Deps, MemoryState, builder, maintenance_builder
from memory_lab.jobs.committed import CommittedEpisodeStore
from memory_lab.jobs.planning import config_fingerprint, decide_ahead
from memory_lab.jobs.worker import MemoryWorker
from memory_lab.memory_parts import open_parts
from memory_lab.memory_work import FACTS_WARMED, MemoryWork
from memory_lab.owner.trash_bin import TrashBin
from memory_lab.reads import MemoryReads, brain_reads
from memory_lab.sessions import SessionRecord
from memory_lab.snapshot import MemorySnapshot
from memory_lab.steps import StepResult, follow_clock, step_result, user_turn
from memory_lab.stores.locations import StoreSpec
from memory_lab.tokens import TokenCounter, default_counter
from memory_lab.types import ContextBundle, Hit, MemoryEvent, Message
from memory_lab.validation import validate_batch

if TYPE_CHECKING:
    from memory_lab.jobs.ledger import Job
    from memory_lab.owner.selection import Selection
    from memory_lab.owner.tombstones import Tombstone

__all__ = ["FACTS_WARMED", "MemoryEngine", "StepResult", "make_brain"]


class MemoryEngine:
    """Tiered memory over one data folder, servers, or in memory (for experiments).

    Without a data folder and without servers every tier is in memory. `stores`
    moves the database, the episode index or both onto servers; a part it does
    not name stays in the data folder (or in memory when there is none).
    `trash_keep` is how long a trashed chat, fact or episode can be restored; a
    local data folder purges those past it when an engine opens it.
    """

    def __init__(
        self,
        data_dir: str | Path | None = None,
        *,
        config: MemoryConfig | None = None,
        clock: Clock | None = None,
        brain: Brain | None = None,
        embedder: Embedder | None = None,
        counter: TokenCounter | None = None,
        stores: StoreSpec | None = None,
        trash_keep: timedelta = timedelta(days=TRASH_DAYS),
    ) -> None:
        self.config = config or MemoryConfig()
        self.clock = clock or SystemClock()
        self.counter = counter or default_counter()
        self.embedder = embedder or default_embedder()
        self.brain = brain or make_brain(
            self.config, self.counter, self.clock, self.embedder
        )
        # What memory work gave the brain to read is the cost a trigger's choices
        # carry; day and week summaries (read whatever the trigger) are apart.
        self.metered = MeteredBrain(self.brain, self.counter)
        self.metered_periods = MeteredBrain(self.brain, self.counter)
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self.trash_keep = trash_keep
        # Guards the graph's runs: one step, context, search or purge at a time.
        self._lock = named_lock("engine.step", reentrant=True)
        self.stores = stores or StoreSpec()
        if self.data_dir is not None and not self.stores.remote:
            from memory_lab.owner.resume import settle_folder

            settle_folder(self.data_dir, self.embedder, self.clock.now(), trash_keep)
        self.parts = parts = open_parts(self.data_dir, self.stores, self.embedder)
        assert parts.episodes is not None and parts.periods is not None
        self.transcript, self.events = parts.transcript, parts.events
        self.jobs = parts.ledger
        self.chats = ChatCatalog(parts.db, self.transcript)
        self.episodes = CommittedEpisodeStore(parts.episodes, self.jobs)
        self.episodes.reconcile()
        self.facts = FactMemory(
            parts.facts,
            self.events,
            self.clock,
            self.config.facts,
            embedder=self.embedder,
            links=parts.links,
        )
        self.live = LiveSources()
        """Live data sources (`live.register(name, keys, fetch)`)."""
        self.periods = PeriodSummaries(
            parts.periods,
            self.transcript,
            self.metered_periods,
            self.counter,
            self.clock,
            self.events,
        )
        base = Deps(
            transcript=self.transcript,
            episodes=self.episodes,
            jobs=self.jobs,
            facts=self.facts,
            events=self.events,
            brain=self.metered,
            clock=self.clock,
            config=self.config,
            counter=self.counter,
            excerpts=TurnIndex(self.embedder),
            periods=self.periods,
            live=self.live,
            sessions=parts.sessions,
        )
        self.reads = MemoryReads(base, self._lock)
        host = ToolParts(
            self.facts, self.clock, self.config, self.brain, self.reads.assemble
        )
        self.deps = replace(
            base,
            tools=offered_tools(host),
            retention=None if parts.in_process else self._apply_retention,
        )
        self.trash = TrashBin(
            parts.db,
            self.facts,
            self.episodes,
            self.events,
            self.clock,
            on_episodes_changed=self.deps.excerpts.drop,
        )
        """Facts and episodes their owner deleted, restorable for `trash_keep`."""
        self.graph = builder().compile()
        self.maintenance = maintenance_builder().compile()
        self.work = MemoryWork(self.deps, self.maintenance)
        self.worker = MemoryWorker(
            self.jobs,
            self.work.run,
            on_error=self.work.failed,
            owner=config_fingerprint(self.config),
            after_drain=self.work.warm_turn_vectors,
        )

    # --- steps -----------------------------------------------------------------

    def ingest(
        self, tenant: str, messages: Sequence[Message], *, thread: str = "main"
    ) -> StepResult:
        """Store turns and let the triggers and extraction run; nothing is answered.

        Raises:
            InvalidMessageError: before anything is stored, naming the bad message.
        """
        tenant = require_tenant(tenant)
        validate_batch(tenant, messages, self.config.limits)
        follow_clock(self.clock, messages)
        self.work.took_turns(tenant, thread)
        return self._step(
            tenant, thread, {"incoming": [m.model_dump(mode="json") for m in messages]}
        )

    def chat(
        self,
        tenant: str,
        text: str,
        *,
        thread: str = "main",
        session: str | None = None,
        message_id: str | None = None,
    ) -> StepResult:
        """Ingest a user message and answer it with the assembled memory."""
        tenant = require_tenant(tenant)
        state = self.state(tenant, thread)
        now = self.clock.now()
        msg = user_turn(state, tenant, thread, text, now, session, message_id)
        validate_batch(tenant, [msg], self.config.limits)
        self.chats.note_turn(tenant, thread, text, now)
        self.work.took_turns(tenant, thread)
        return self._step(
            tenant, thread, {"incoming": [msg.model_dump(mode="json")], "respond": True}
        )

    def tick(self, tenant: str, *, thread: str = "main") -> StepResult:
        """Re-check triggers and the session's timeouts at the clock's current time.

        A session silent past `config.sessions.idle_after` goes idle; past
        `close_after` it is closed, and its turns past the watermark extracted.
        """
        return self._step(require_tenant(tenant), thread, {"incoming": []})

    def close_session(self, tenant: str, *, thread: str = "main") -> StepResult:
        """End a chat: close its session and extract every turn past the watermark.

        A later turn resumes the same session (the engine keeps the thread's
        session label unless `chat` is given another).
        """
        return self._step(
            require_tenant(tenant), thread, {"incoming": [], "close_session": True}
        )

    # --- reads (`reads.MemoryReads`) ------------------------------------------

    def state(self, tenant: str, thread: str = "main") -> dict:
        """The thread's memory state, read from the ledger and the transcript.

        Keys: `window` (turns as dicts), `summary`, `session`, `last_seq` (the
        thread's newest turn), the ledger's watermarks (`compressed_upto`,
        `extracted_upto`, ...) and `pending_jobs` (the tenant's owed work).
        """
        return self.reads.state(tenant, thread)

    def session(self, tenant: str, thread: str = "main") -> SessionRecord | None:
        """The thread's session as of its last step (None before its first turn).

        The state is what the last turn, tick or close found; time passing with
        no step changes nothing stored.
        """
        return self.parts.sessions.get(require_tenant(tenant), thread)

    def window(self, tenant: str, thread: str = "main") -> list[Message]:
        """Verbatim turns currently in the window."""
        return self.reads.window(tenant, thread)

    def thread_view(
        self, tenant: str, thread: str = "main"
    ) -> tuple[str, list[Message]]:
        """The running summary and the verbatim turns of the window, at one state."""
        return self.reads.thread_view(tenant, thread)

    def pending_jobs(self, tenant: str | None = None) -> int:
        """Memory jobs recorded and not yet done (of one tenant, if given)."""
        return self.jobs.count(tenant)

    def failures(self, tenant: str) -> list[MemoryEvent]:
        """The `job_failed` events of the tenant's memory jobs given up on, in order.

        A failed job is retried (up to `jobs.ledger.MAX_ATTEMPTS` tries); only
        the failure that gives it up is listed, so any entry is memory the
        turns asked for that will not be made. Replays and evals report them.
        """
        return self.reads.failures(tenant)

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until the memory work asked for so far is done.

        Evals, tests and replays call this before reading memory, so what they
        see does not depend on the worker's timing. Returns False on timeout.
        """
        return self.worker.flush(timeout)

    wait_idle = flush

    def assemble(
        self,
        tenant: str,
        query: str,
        *,
        thread: str = "main",
        excerpts: bool = True,
        budget: BudgetConfig | None = None,
    ) -> ContextBundle:
        """The context the responder would be shown for `query` (not ingested).

        `excerpts=False` leaves the verbatim source turns out, so the context
        holds what a trigger's compression kept; `budget` assembles under other
        token budgets (the memory does not depend on them).
        """
        return self.reads.assemble(
            tenant, query, thread=thread, excerpts=excerpts, budget=budget
        )

    def search(
        self, tenant: str, query: str, *, k: int = 10, thread: str = "main"
    ) -> list[Hit]:
        """The `k` best facts, episodes and turns for `query`, across the tiers."""
        return self.reads.search(tenant, query, k=k, thread=thread)

    def brain_reads(self) -> dict[str, int]:
        """Tokens given the brain to read, by call kind (`periods_*` apart)."""
        return brain_reads(self.metered, self.metered_periods)

    def expand_episode(self, tenant: str, episode_id: str) -> list[Message]:
        """The source turns of an episode, from the transcript."""
        return self.reads.expand_episode(tenant, episode_id)

    def snapshot(self, tenant: str, *, thread: str = "main", events: int = 200) -> dict:
        """The whole memory as plain data (`--json`, the app, eval logs)."""
        return self.memory_snapshot(tenant, thread=thread, events=events).to_json()

    def memory_snapshot(
        self, tenant: str, *, thread: str = "main", events: int = 200
    ) -> MemorySnapshot:
        """The typed read model of the whole memory of one thread, at one state."""
        return self.reads.memory_snapshot(tenant, thread=thread, events=events)

    # --- internals -------------------------------------------------------------

    def _step(self, tenant: str, thread: str, update: dict) -> StepResult:
        # Plug-in triggers decide holding no lock; the step checks what they read.
        ahead = decide_ahead(self.deps, tenant, thread, update, self.clock.now())
        with self._lock:
            # `update` holds the step's own MemoryState keys (incoming, respond...).
            payload = {"tenant": tenant, "thread": thread, "ahead": ahead}
            payload |= {"respond": False, "close_session": False, **update}
            out = self.graph.invoke(cast(MemoryState, payload), context=self.deps)
        if out.get("jobs"):
            self.worker.notify()
        return step_result(out)

    # --- owner control (`owner.held`) -------------------------------------------

    def purge(
        self,
        tenant: str,
        selection: Selection | None = None,
        *,
        requested_by: str,
    ) -> Tombstone:
        """Remove what `selection` names (default: all of the tenant) for real.

        A fact, chat, episode or time range, or everything ("forget me"), from
        the stores in use, Postgres and a Chroma server included. Owed memory
        work is finished first; the records leave every read now, and a data
        folder's files are rewritten by the next process that opens it.

        Raises:
            PurgeRequestError: when the selection names nothing held.
            MemoryLabError: for memory held in this process only.
        """
        from memory_lab.owner.held import purge_open

        return purge_open(
            self.deps,
            self.parts,
            require_tenant(tenant),
            selection,
            requested_by=requested_by,
            at=self.clock.now(),
            settle=self.flush,
            step_lock=self._lock,
        )

    def finish_purges(self) -> list[Tombstone]:
        """Finish purges a killed process left running on these stores."""
        from memory_lab.owner.held import finish_held

        with self._lock:
            return finish_held(self.deps, self.parts.local_files, self.clock.now())

    def _apply_retention(self, job: Job) -> list[MemoryEvent]:
        from memory_lab.owner.retention import apply_retention

        return apply_retention(self.deps, job, self.parts.local_files, self.trash_keep)

    def __enter__(self) -> MemoryEngine:
        return self

    def __exit__(self, *exc: object) -> None:
        # On an error the owed work stays in the ledger for the next engine.
        self.close(wait=exc[0] is None)

    def close(self, *, wait: bool = True) -> None:
        """Stop the worker and release the stores.

        With `wait`, owed work is done first; otherwise it stays in the ledger
        and the next engine on this folder resumes it.
        """
        if wait:
            self.worker.flush()
        self.worker.stop()
        self.parts.close()
