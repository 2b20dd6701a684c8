"""The memory work an engine's background worker runs, one ledger job at a time.

A job (compression, extraction, retention) is one run of the maintenance graph.
After it, on the same worker, the day and week summaries that ended by the
job's time are written, and after a drain the turns and facts the next question
would read are embedded, so no turn's latency pays for either.
"""

from __future__ import annotations

from typing import Any

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.events import make_event
from memory_lab.graph.deps import Deps
from memory_lab.jobs.ledger import Job
from memory_lab.types import MemoryEvent
from memory_lab.window.view import one_instant, window_of

FACTS_WARMED = 256
"""Newest active facts whose texts the worker embeds after a drain (see
`MemoryWork.warm_turn_vectors`): more than any extraction reads between two
questions, and few enough that a tenant with many facts costs look-ups only."""


class MemoryWork:
    """Runs the ledger's jobs on one engine's stores and keeps its vectors warm."""

    def __init__(self, deps: Deps, maintenance: Any) -> None:
        """Work on `deps` with the compiled `maintenance` graph."""
        self.deps = deps
        self._maintenance = maintenance
        self._unwarmed: set[tuple[str, str]] = set()
        self._unwarmed_lock = named_lock("engine.unwarmed")  # guards `_unwarmed`

    def took_turns(self, tenant: str, thread: str) -> None:
        """Note a thread whose new turns the worker should embed after its drain."""
        with self._unwarmed_lock:
            self._unwarmed.add((tenant, thread))

    def run(self, job: Job) -> list[MemoryEvent]:
        """Run one job; the events it made."""
        deps = self.deps
        out = self._maintenance.invoke({"job": job}, context=deps)
        events = [MemoryEvent.model_validate(e) for e in out.get("events", [])]
        if job.kind == "retention" or deps.periods is None:
            return events
        # Days and weeks that ended by the job's time are summarised here, on the
        # worker: they read the transcript, and the brain never runs on a turn.
        # The job is committed by now, so a failure here is logged, not retried
        # as the job's; the next job tries the summaries again.
        try:
            return events + deps.periods.update(
                job.tenant, job.thread, now=job.asked_at
            )
        except Exception as exc:  # noqa: BLE001 - the job itself succeeded
            failed = make_event(
                job.tenant,
                "job_failed",
                job.asked_at,
                f"day and week summaries after job {job.id} failed: {exc!r}",
                [str(job.id)],
            )
            deps.events.append(job.tenant, [failed])
            return [*events, failed]

    def failed(self, job: Job, error: BaseException, gave_up: bool) -> None:
        """Log a failed attempt as a `job_failed` event (retried unless given up)."""
        what = (
            f"retention (period {job.first_seq})"
            if job.kind == "retention"
            else f"{job.kind} of turns {job.first_seq}..{job.last_seq}"
        )
        detail = f"{what} failed{' for good' if gave_up else ', will retry'}: {error!r}"
        event = make_event(
            job.tenant,
            "job_failed",
            self.deps.clock.now(),
            detail,
            [str(job.id), f"attempt {job.attempts + 1}"],
        )
        self.deps.events.append(job.tenant, [event])

    def warm_turn_vectors(self) -> None:
        """On the worker, after a drain: embed what the next question would.

        A question ranks every turn not shown verbatim, and the facts it reads,
        by their embeddings; the turns taken and facts read since the last
        question were embedded by it: on the synthetic set, 17 of 20 questions
        embedded about 7 texts each, 38 ms of a 45 ms p50. The worker embeds
        them once their memory work is done, so `flush` (and an eval's settle)
        covers them too. Of the facts, the newest `FACTS_WARMED` are enough:
        the ones read since the last question are among them.
        """
        deps = self.deps
        if not deps.config.retrieval.expand_turns:
            return
        with self._unwarmed_lock:
            todo, self._unwarmed = self._unwarmed, set()
        excerpts = deps.excerpts
        for tenant in sorted({tenant for tenant, _ in todo}):
            facts = sorted(
                deps.facts.active(tenant), key=lambda f: (f.created_at, f.id)
            )
            excerpts.warm_facts(facts[-FACTS_WARMED:])
        for tenant, thread in sorted(todo):
            # A question's lock order: the stores' read, then the index's lock.
            with one_instant(deps):
                marks = deps.jobs.marks(tenant, thread)
                window = window_of(deps, tenant, thread, marks)
                unsearched = excerpts.warm_index(
                    deps.transcript, deps.episodes, tenant, window
                )
            excerpts.warm_window(unsearched)
