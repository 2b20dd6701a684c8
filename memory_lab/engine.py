"""MemoryEngine: the one object the CLI, app, evals and notebooks drive.

It owns the stores of one data folder, turns calls such as `ingest`, `chat` and
`tick` into graph runs (one per step), and runs the memory work those steps ask
for (compression, extraction) on a background worker. Everything a thread needs
to resume after a restart is in one database: the transcript, the facts, the
events and the job ledger (window bounds, summary, owed work). That database is
a SQLite file in the data folder, or Postgres when a `StoreSpec` names one; the
episode index is a Chroma folder there, or a Chroma server. `flush()` waits for
the worker, for callers that need the work done (evals, tests, replays).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, cast

from memory_lab.brains.base import Brain
from memory_lab.brains.metered import MeteredBrain
from memory_lab.chats import ChatCatalog
from memory_lab.chats.catalog import TRASH_DAYS
from memory_lab.clock import Clock, ManualClock, SystemClock
from memory_lab.concurrency.lock_order import named_lock
from memory_lab.config import BudgetConfig, MemoryConfig
from memory_lab.context.build import build_context
from memory_lab.context.live import LiveSources, read_live
from memory_lab.context.search import search_tiers
from memory_lab.embeddings import Embedder, default_embedder
from memory_lab.episodes.periods import PeriodSummaries
from memory_lab.episodes.turn_index import TurnIndex
from memory_lab.errors import require_tenant
from memory_lab.facts.memory import FactMemory
from memory_lab.facts.tools import offered_tools
from memory_lab.graph import Deps, MemoryState, builder, maintenance_builder
from memory_lab.jobs.committed import CommittedEpisodeStore
from memory_lab.jobs.ledger import Job, JobLedger
from memory_lab.jobs.planning import config_fingerprint
from memory_lab.jobs.worker import MemoryWorker
from memory_lab.owner.empty_trash import empty_trash_apart
from memory_lab.owner.trash_bin import TrashBin
from memory_lab.sessions import (
    InMemorySessionStore,
    SessionRecord,
    SessionStore,
    SqlSessionStore,
)
from memory_lab.snapshot import MemorySnapshot, take_snapshot
from memory_lab.stores.base import (
    Database,
    EpisodeStore,
    EventLog,
    FactStore,
    TranscriptStore,
)
from memory_lab.stores.databases import open_database
from memory_lab.stores.locations import StoreSpec, namespace_key
from memory_lab.stores.sql_links import SqlFactLinkStore
from memory_lab.stores.sqlite_db import MEMORY
from memory_lab.tokens import TokenCounter, default_counter
from memory_lab.types import (
    ContextBundle,
    Hit,
    MemoryEvent,
    Message,
    TriggerDecision,
)
from memory_lab.validation import validate_batch
from memory_lab.window.view import one_instant, window_of

if TYPE_CHECKING:
    from memory_lab.owner.selection import Selection
    from memory_lab.owner.tombstones import Tombstone

FACTS_WARMED = 256
"""Newest active facts whose texts the worker embeds after a drain (see
`MemoryEngine._warm_turn_vectors`): more than any extraction reads between two
questions, and few enough that a tenant with many facts costs look-ups only."""


def make_brain(
    config: MemoryConfig,
    counter: TokenCounter,
    clock: Clock,
    embedder: Embedder | None = None,
) -> Brain:
    """The rule-based brain, wrapped by the LLM brain when an endpoint is configured."""
    from memory_lab.brains.rule_based import RuleBasedBrain

    rules = RuleBasedBrain(
        counter=counter,
        categories=config.facts,
        extractor=config.extractor,
        embed=embedder.embed if embedder is not None else None,
    )
    if config.llm is None:
        return rules
    from memory_lab.brains.llm.brain import OpenAICompatBrain

    return OpenAICompatBrain(
        config.llm,
        fallback=rules,
        counter=counter,
        facts=config.facts,
        read_facts=config.extractor != "none",
    )


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
        # Memory work goes through the meter: what it gave the brain to read is
        # the cost a trigger's choices carry (`brain_reads`).
        self.metered = MeteredBrain(self.brain, self.counter)
        # Day and week summaries read every turn whatever the trigger: their own
        # meter keeps them apart from the compression a trigger chose.
        self.metered_periods = MeteredBrain(self.brain, self.counter)
        self.data_dir = Path(data_dir) if data_dir is not None else None
        self.trash_keep = trash_keep
        # Guards the graph's runs: one step, context, search or purge at a time.
        self._lock = named_lock("engine.step", reentrant=True)
        self.stores = stores or StoreSpec()
        held_in_process = self.data_dir is None and not self.stores.remote
        self._held_in_process = held_in_process
        # The folder whose files hold the stores, when local files do.
        self._local_files = None if self.stores.remote else self.data_dir
        if held_in_process:
            from memory_lab.stores.memory import (
                InMemoryEpisodeStore,
                InMemoryEventLog,
                InMemoryFactStore,
                InMemoryTranscriptStore,
            )

            self.transcript: TranscriptStore = InMemoryTranscriptStore()
            index: EpisodeStore = InMemoryEpisodeStore(self.embedder)
            period_store: EpisodeStore = InMemoryEpisodeStore(self.embedder)
            fact_store: FactStore = InMemoryFactStore()
            self.events: EventLog = InMemoryEventLog()
            self.jobs = JobLedger(":memory:")
            sessions: SessionStore = InMemorySessionStore()
        else:
            from memory_lab.stores import (
                SqlEventLog,
                SqlFactStore,
                SqlTranscriptStore,
            )

            if self.data_dir is not None:
                self.data_dir.mkdir(parents=True, exist_ok=True)
            if self.data_dir is not None and not self.stores.remote:
                # A purge a killed process left half done is finished before
                # any store is read.
                from memory_lab.owner.resume import finish_purges_apart

                finish_purges_apart(self.data_dir, self.embedder)
                # Chats past their restore window go the same way, apart.
                empty_trash_apart(
                    self.data_dir, self.embedder, self.clock.now(), trash_keep
                )
            # One database for the transcript, facts, events and ledger, so a
            # job's results and its completion (or a turn's jobs and its
            # watermarks) commit together.
            db = self._open_database()
            self.transcript = SqlTranscriptStore(db)
            fact_store, self.events = SqlFactStore(db), SqlEventLog(db)
            self.jobs = JobLedger(db)
            sessions = SqlSessionStore(db)
            index = self._open_index("episodes")
            period_store = self._open_index("periods")
        self.chats = ChatCatalog(self.jobs.db, self.transcript)
        self.episodes = CommittedEpisodeStore(index, self.jobs)
        self.episodes.reconcile()
        self.facts = FactMemory(
            fact_store,
            self.events,
            self.clock,
            self.config.facts,
            embedder=self.embedder,
            links=SqlFactLinkStore(self.jobs.db),
        )
        self.live = LiveSources()
        """Live data sources (`live.register(name, keys, fetch)`)."""
        self.periods = PeriodSummaries(
            period_store,
            self.transcript,
            self.metered_periods,
            self.counter,
            self.clock,
            self.events,
        )
        self._sessions = sessions
        self.deps = Deps(
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
            tools=offered_tools(self),
            retention=None if held_in_process else self._apply_retention,
            sessions=sessions,
        )
        self.trash = TrashBin(
            self.jobs.db,
            self.facts,
            self.episodes,
            self.events,
            self.clock,
            on_episodes_changed=self.deps.excerpts.drop,
        )
        """Facts and episodes their owner deleted, restorable for `trash_keep`."""
        self.graph = builder().compile()
        self.maintenance = maintenance_builder().compile()
        self._unwarmed: set[tuple[str, str]] = set()
        self._unwarmed_lock = named_lock("engine.unwarmed")  # guards `_unwarmed`
        self.worker = MemoryWorker(
            self.jobs,
            self._run_job,
            on_error=self._job_failed,
            owner=config_fingerprint(self.config),
            after_drain=self._warm_turn_vectors,
        )

    def _open_database(self) -> Database:
        """The store URL's database; without one, the folder's file or memory."""
        path = MEMORY if self.data_dir is None else self.data_dir / "memory.sqlite3"
        return open_database(
            self.stores.store, path=path, namespace=self.stores.namespace
        )

    def _open_index(self, name: str) -> EpisodeStore:
        """The `name` collection ("episodes", or "periods" for days and weeks)."""
        from memory_lab.stores.chroma_episodes import ChromaEpisodeStore

        if self.stores.episodes is not None:
            collection = f"{namespace_key(self.stores.namespace)}.{name}"
            return ChromaEpisodeStore(
                self.stores.episodes, self.embedder, collection=collection
            )
        if self.data_dir is None:
            from memory_lab.stores.memory import InMemoryEpisodeStore

            return InMemoryEpisodeStore(self.embedder)
        return ChromaEpisodeStore(
            self.data_dir / "chroma", self.embedder, collection=name
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
        self._follow(messages)
        self._took_turns(tenant, thread)
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
        msg = Message(
            id=message_id
            or (
                f"{thread}:{state.get('last_seq', -1) + 1}:"
                f"{now.strftime('%Y%m%dT%H%M%S%f')}"
            ),
            tenant=tenant,
            session=session or state.get("session") or "s1",
            role="user",
            content=text,
            timestamp=now,
        )
        validate_batch(tenant, [msg], self.config.limits)
        self.chats.note_turn(tenant, thread, text, now)
        self._took_turns(tenant, thread)
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

    # --- reads -----------------------------------------------------------------

    def state(self, tenant: str, thread: str = "main") -> dict:
        """The thread's memory state, read from the ledger and the transcript.

        Keys: `window` (turns as dicts), `summary`, `session`, `last_seq` (the
        thread's newest turn), the ledger's watermarks (`compressed_upto`,
        `extracted_upto`, ...) and `pending_jobs` (the tenant's owed work).
        """
        tenant = require_tenant(tenant)
        with one_instant(self.deps):
            marks = self.jobs.marks(tenant, thread)
            window = window_of(self.deps, tenant, thread, marks)
        return {
            **asdict(marks),
            "window": [m.model_dump(mode="json") for m in window],
            "last_seq": window[-1].seq if window else marks.compressed_upto,
            "pending_jobs": self.jobs.count(tenant),
        }

    def session(self, tenant: str, thread: str = "main") -> SessionRecord | None:
        """The thread's session as of its last step (None before its first turn).

        The state is what the last turn, tick or close found; time passing with
        no step changes nothing stored.
        """
        return self._sessions.get(require_tenant(tenant), thread)

    def window(self, tenant: str, thread: str = "main") -> list[Message]:
        """Verbatim turns currently in the window."""
        tenant = require_tenant(tenant)
        with one_instant(self.deps):
            return window_of(self.deps, tenant, thread, self.jobs.marks(tenant, thread))

    def thread_view(
        self, tenant: str, thread: str = "main"
    ) -> tuple[str, list[Message]]:
        """The running summary and the verbatim turns of the window, at one state."""
        tenant = require_tenant(tenant)
        with one_instant(self.deps):
            marks = self.jobs.marks(tenant, thread)
            window = window_of(self.deps, tenant, thread, marks)
            return self.episodes.summary_seen(tenant, thread, marks.summary), window

    def _took_turns(self, tenant: str, thread: str) -> None:
        """Note a thread whose new turns the worker should embed after its drain."""
        with self._unwarmed_lock:
            self._unwarmed.add((tenant, thread))

    def _warm_turn_vectors(self) -> None:
        """On the worker, after a drain: embed what the next question would.

        A question ranks every turn not shown verbatim, and the facts it reads,
        by their embeddings; the turns taken and facts read since the last
        question were embedded by it: on the synthetic set, 17 of 20 questions
        embedded about 7 texts each, 38 ms of a 45 ms p50. The worker embeds
        them once their memory work is done, so `flush` (and an eval's settle)
        covers them too. Of the facts, the newest `FACTS_WARMED` are enough:
        the ones read since the last question are among them.
        """
        if not self.config.retrieval.expand_turns:
            return
        with self._unwarmed_lock:
            todo, self._unwarmed = self._unwarmed, set()
        excerpts = self.deps.excerpts
        for tenant in sorted({tenant for tenant, _ in todo}):
            facts = sorted(
                self.facts.active(tenant), key=lambda f: (f.created_at, f.id)
            )
            excerpts.warm_facts(facts[-FACTS_WARMED:])
        for tenant, thread in sorted(todo):
            # A question's lock order: the stores' read, then the index's lock.
            with one_instant(self.deps):
                marks = self.jobs.marks(tenant, thread)
                window = window_of(self.deps, tenant, thread, marks)
                unsearched = excerpts.warm_index(
                    self.deps.transcript, self.deps.episodes, tenant, window
                )
            excerpts.window_vectors(unsearched)

    def pending_jobs(self, tenant: str | None = None) -> int:
        """Memory jobs recorded and not yet done (of one tenant, if given)."""
        return self.jobs.count(tenant)

    def failures(self, tenant: str) -> list[MemoryEvent]:
        """The `job_failed` events of the tenant's memory jobs given up on, in order.

        A failed job is retried (up to `jobs.ledger.MAX_ATTEMPTS` tries); only
        the failure that gives it up is listed, so any entry is memory the
        turns asked for that will not be made. Replays and evals report them.
        """
        tenant = require_tenant(tenant)
        return [
            event
            for event in self.events.events(tenant)
            if event.kind == "job_failed" and " failed for good: " in event.detail
        ]

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
        """The context the responder would be shown for `query`.

        The query itself is not ingested. `excerpts=False` leaves the verbatim
        source turns out, so the context holds what the summaries, the window and
        the facts alone hold (what a trigger's compression kept). `budget`
        assembles under other token budgets than the configured ones: the
        memory does not depend on them, so one memory serves every budget.
        """
        tenant = require_tenant(tenant)
        deps = self.deps
        update: dict = {}
        if not excerpts:
            update["retrieval"] = self.config.retrieval.model_copy(
                update={"expand_turns": False}
            )
        if budget is not None:
            update["budget"] = budget
        if update:
            deps = replace(deps, config=self.config.model_copy(update=update))
        live = read_live(self.live, self.events, tenant, self.clock.now())
        with self._lock, one_instant(self.deps):
            marks = self.jobs.marks(tenant, thread)
            window = window_of(self.deps, tenant, thread, marks)
            summary = self.episodes.summary_seen(tenant, thread, marks.summary)
            return build_context(deps, tenant, query, window, summary, live)

    def search(
        self, tenant: str, query: str, *, k: int = 10, thread: str = "main"
    ) -> list[Hit]:
        """The `k` best facts, episodes and turns for `query`, across the tiers."""
        tenant = require_tenant(tenant)
        with self._lock, one_instant(self.deps):
            marks = self.jobs.marks(tenant, thread)
            window = window_of(self.deps, tenant, thread, marks)
            return search_tiers(self.deps, tenant, query, window, k=k)

    def brain_reads(self) -> dict[str, int]:
        """Tokens memory work and replies gave the brain to read, by call kind.

        Day and week summaries are counted apart, as `periods_tokens` and
        `periods_calls`.
        """
        reads = self.metered.read_tokens()
        periods = self.metered_periods.read_tokens()
        reads["periods_tokens"] = sum(
            v for k, v in periods.items() if k.endswith("_tokens")
        )
        reads["periods_calls"] = sum(
            v for k, v in periods.items() if k.endswith("_calls")
        )
        return reads

    def expand_episode(self, tenant: str, episode_id: str) -> list[Message]:
        """The source turns of an episode, from the transcript."""
        tenant = require_tenant(tenant)
        found = self.episodes.get(tenant, [episode_id])
        if not found:
            return []
        ep = found[0]
        return self.transcript.messages(
            tenant, ep.thread, first_seq=ep.first_seq, last_seq=ep.last_seq
        )

    def snapshot(self, tenant: str, *, thread: str = "main", events: int = 200) -> dict:
        """One read model of the whole memory, for `--json`, the app and eval logs.

        Plain data; `memory_snapshot` gives the typed `MemorySnapshot`.
        """
        return self.memory_snapshot(tenant, thread=thread, events=events).to_json()

    def memory_snapshot(
        self, tenant: str, *, thread: str = "main", events: int = 200
    ) -> MemorySnapshot:
        """The typed read model of the whole memory of one thread.

        Read in one instant: a compression committing meanwhile would otherwise
        show its turns both in the window and in an episode.
        """
        tenant = require_tenant(tenant)
        with one_instant(self.deps):
            state = self.state(tenant, thread)
            return take_snapshot(self.deps, state, tenant, thread, events_limit=events)

    # --- internals -------------------------------------------------------------

    def _follow(self, messages: Sequence[Message]) -> None:
        """A manual clock follows replayed turns so triggers see their time."""
        if isinstance(self.clock, ManualClock) and messages:
            self.clock.set(max(m.timestamp for m in messages))

    def _step(self, tenant: str, thread: str, update: dict) -> StepResult:
        with self._lock:
            payload = {
                "tenant": tenant,
                "thread": thread,
                "respond": False,
                "close_session": False,
                **update,
            }
            # `update` holds the step's own MemoryState keys (incoming, respond...).
            out = self.graph.invoke(cast(MemoryState, payload), context=self.deps)
        if out.get("jobs"):
            self.worker.notify()
        decision = (
            TriggerDecision.model_validate(out["decision"])
            if out.get("decision")
            else None
        )
        context = (
            ContextBundle.model_validate(out["context"]) if out.get("context") else None
        )
        return StepResult(
            decision=decision,
            events=[MemoryEvent.model_validate(e) for e in out.get("step_events", [])],
            reply=out.get("reply"),
            context=context,
            window_size=len(out.get("window", [])),
            state=out,
        )

    def purge(
        self,
        tenant: str,
        selection: Selection | None = None,
        *,
        requested_by: str,
    ) -> Tombstone:
        """Remove what `selection` names (default: all of the tenant) for real.

        A fact, chat, episode or time range, or everything ("forget me"), from
        the stores in use, Postgres and a Chroma server included.

        Owed memory work is finished first, so none of it writes afterwards.
        The records leave every read now; a data folder's files are rewritten
        by the next process that opens it (`owner.held`).

        Raises:
            PurgeRequestError: when the selection names nothing held.
            MemoryLabError: for memory held in this process only.
        """
        from memory_lab.errors import MemoryLabError
        from memory_lab.owner.held import purge_selection
        from memory_lab.owner.selection import Selection

        tenant = require_tenant(tenant)
        if self._held_in_process:
            raise MemoryLabError(
                "this memory is held in this process only: close the engine to drop it"
            )
        self.flush()
        with self._lock:
            return purge_selection(
                self.deps,
                self._local_files,
                tenant,
                selection or Selection(),
                requested_by=requested_by,
                at=self.clock.now(),
            )

    def finish_purges(self) -> list[Tombstone]:
        """Finish purges a killed process left running on these stores."""
        from memory_lab.owner.held import finish_held

        with self._lock:
            return finish_held(self.deps, self._local_files, self.clock.now())

    def _apply_retention(self, job: Job) -> list[MemoryEvent]:
        from memory_lab.owner.retention import apply_retention

        return apply_retention(self.deps, job, self._local_files, self.trash_keep)

    def _run_job(self, job: Job) -> list[MemoryEvent]:
        out = self.maintenance.invoke({"job": job}, context=self.deps)
        events = [MemoryEvent.model_validate(e) for e in out.get("events", [])]
        if job.kind == "retention":
            return events
        # Days and weeks that ended by the job's time are summarised here, on the
        # worker: they read the transcript, and the brain never runs on a turn.
        # The job is committed by now, so a failure here is logged, not retried
        # as the job's; the next job tries the summaries again.
        try:
            return events + self.periods.update(
                job.tenant, job.thread, now=job.asked_at
            )
        except Exception as exc:  # noqa: BLE001 - the job itself succeeded
            from memory_lab.events import make_event

            failed = make_event(
                job.tenant,
                "job_failed",
                job.asked_at,
                f"day and week summaries after job {job.id} failed: {exc!r}",
                [str(job.id)],
            )
            self.events.append(job.tenant, [failed])
            return [*events, failed]

    def _job_failed(self, job: Job, error: BaseException, gave_up: bool) -> None:
        from memory_lab.events import make_event

        what = (
            f"retention (period {job.first_seq})"
            if job.kind == "retention"
            else f"{job.kind} of turns {job.first_seq}..{job.last_seq}"
        )
        detail = f"{what} failed{' for good' if gave_up else ', will retry'}: {error!r}"
        event = make_event(
            job.tenant,
            "job_failed",
            self.clock.now(),
            detail,
            [str(job.id), f"attempt {job.attempts + 1}"],
        )
        self.events.append(job.tenant, [event])

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
        self.episodes.close()
        self.periods.store.close()
        self.jobs.db.close()
