"""What an engine answers without running the graph: state, contexts, searches.

Each read sees one committed state (`one_instant`): a compression committing
meanwhile would otherwise show its turns both in the window and in an episode.
Reads that assemble or search also take the engine's step lock, so they never
interleave with a step's graph run. The memory tools are handed these reads,
not the engine, so nothing below the engine holds the engine.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import asdict, replace

from memory_lab.brains.metered import MeteredBrain
from memory_lab.config import BudgetConfig
from memory_lab.context.build import build_context
from memory_lab.context.live import read_live
from memory_lab.context.search import search_tiers
from memory_lab.errors import require_tenant
from memory_lab.graph.deps import Deps
from memory_lab.snapshot import MemorySnapshot, take_snapshot
from memory_lab.types import ContextBundle, Hit, MemoryEvent, Message
from memory_lab.window.view import one_instant, window_of


class MemoryReads:
    """The read side of one engine's memory, over the stores its graph uses."""

    def __init__(self, deps: Deps, step_lock: AbstractContextManager) -> None:
        """Read through `deps`; `step_lock` is the lock a graph step holds."""
        self.deps = deps
        self._step_lock = step_lock

    def state(self, tenant: str, thread: str = "main") -> dict:
        """The thread's marks, window, newest seq and the tenant's owed jobs."""
        tenant = require_tenant(tenant)
        deps = self.deps
        with one_instant(deps):
            marks = deps.jobs.marks(tenant, thread)
            window = window_of(deps, tenant, thread, marks)
        return {
            **asdict(marks),
            "window": [m.model_dump(mode="json") for m in window],
            "last_seq": window[-1].seq if window else marks.compressed_upto,
            "pending_jobs": deps.jobs.count(tenant),
        }

    def window(self, tenant: str, thread: str = "main") -> list[Message]:
        """Verbatim turns currently in the window."""
        tenant = require_tenant(tenant)
        deps = self.deps
        with one_instant(deps):
            return window_of(deps, tenant, thread, deps.jobs.marks(tenant, thread))

    def thread_view(
        self, tenant: str, thread: str = "main"
    ) -> tuple[str, list[Message]]:
        """The running summary and the verbatim turns of the window, at one state."""
        tenant = require_tenant(tenant)
        deps = self.deps
        with one_instant(deps):
            marks = deps.jobs.marks(tenant, thread)
            window = window_of(deps, tenant, thread, marks)
            return deps.episodes.summary_seen(tenant, thread, marks.summary), window

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

        `excerpts=False` leaves the verbatim source turns out; `budget`
        assembles under other token budgets than the configured ones.
        """
        tenant = require_tenant(tenant)
        base = self.deps
        config = base.config
        update: dict = {}
        if not excerpts:
            update["retrieval"] = config.retrieval.model_copy(
                update={"expand_turns": False}
            )
        if budget is not None:
            update["budget"] = budget
        deps = (
            replace(base, config=config.model_copy(update=update)) if update else base
        )
        live = read_live(base.live, base.events, tenant, base.clock.now())
        with self._step_lock, one_instant(base):
            marks = base.jobs.marks(tenant, thread)
            window = window_of(base, tenant, thread, marks)
            summary = base.episodes.summary_seen(tenant, thread, marks.summary)
            return build_context(deps, tenant, query, window, summary, live)

    def search(
        self, tenant: str, query: str, *, k: int = 10, thread: str = "main"
    ) -> list[Hit]:
        """The `k` best facts, episodes and turns for `query`, across the tiers."""
        tenant = require_tenant(tenant)
        deps = self.deps
        with self._step_lock, one_instant(deps):
            marks = deps.jobs.marks(tenant, thread)
            window = window_of(deps, tenant, thread, marks)
            return search_tiers(deps, tenant, query, window, k=k)

    def expand_episode(self, tenant: str, episode_id: str) -> list[Message]:
        """The source turns of an episode, from the transcript."""
        tenant = require_tenant(tenant)
        found = self.deps.episodes.get(tenant, [episode_id])
        if not found:
            return []
        ep = found[0]
        return self.deps.transcript.messages(
            tenant, ep.thread, first_seq=ep.first_seq, last_seq=ep.last_seq
        )

    def memory_snapshot(
        self, tenant: str, *, thread: str = "main", events: int = 200
    ) -> MemorySnapshot:
        """The typed read model of the whole memory of one thread, at one state."""
        tenant = require_tenant(tenant)
        with one_instant(self.deps):
            state = self.state(tenant, thread)
            return take_snapshot(self.deps, state, tenant, thread, events_limit=events)

    def failures(self, tenant: str) -> list[MemoryEvent]:
        """The `job_failed` events of the tenant's jobs given up on, in order."""
        tenant = require_tenant(tenant)
        return [
            event
            for event in self.deps.events.events(tenant)
            if event.kind == "job_failed" and " failed for good: " in event.detail
        ]


def brain_reads(metered: MeteredBrain, periods: MeteredBrain) -> dict[str, int]:
    """Tokens given the brain to read by call kind, day and week summaries apart."""
    reads = metered.read_tokens()
    spent = periods.read_tokens()
    reads["periods_tokens"] = sum(v for k, v in spent.items() if k.endswith("_tokens"))
    reads["periods_calls"] = sum(v for k, v in spent.items() if k.endswith("_calls"))
    return reads
