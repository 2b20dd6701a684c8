"""One background thread per engine that does the memory work turns ask for.

It drains the ledger's pending jobs oldest first, whenever a step hands it work,
on `flush`, at start (a restart resumes what a crash left pending) and every
`poll_s` (work another process recorded). Jobs of one thread run in the order
they were asked for; a job that raises stops its thread's later jobs until a
retry succeeds, so a watermark never skips a span.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.jobs.ledger import Job, JobLedger
from memory_lab.types import MemoryEvent

log = logging.getLogger(__name__)


class MemoryWorker:
    """Runs `run_job` over pending jobs on its own daemon thread."""

    def __init__(
        self,
        ledger: JobLedger,
        run_job: Callable[[Job], list[MemoryEvent]],
        *,
        on_error: Callable[[Job, BaseException, bool], None] | None = None,
        owner: str | None = None,
        poll_s: float = 1.0,
        after_drain: Callable[[], None] | None = None,
    ) -> None:
        """Start the worker thread.

        `after_drain` runs after a drain that no new work arrived during, so
        before `flush` returns: work that readers would otherwise do on their
        first read (see `MemoryEngine._warm_turn_vectors`). It may raise; the
        worker logs it.
        """
        self._ledger = ledger
        self._owner = owner
        self._run_job = run_job
        self._on_error = on_error
        self._after_drain = after_drain
        self._poll_s = poll_s
        # Guards what was asked and served, `_busy` and `_stopping`.
        self._cond = threading.Condition(named_lock("worker.queue", reentrant=True))
        self._asked = 1  # start by draining what a previous process left
        self._served = 0
        self._busy = False
        self._stopping = False
        self.jobs_done = 0
        self.busy_s = 0.0
        # Recent job durations by kind, for the app's status and the benchmarks.
        self.job_seconds: dict[str, deque[float]] = defaultdict(
            lambda: deque(maxlen=10_000)
        )
        self._thread = threading.Thread(
            target=self._loop, name="memory-worker", daemon=True
        )
        self._thread.start()

    @property
    def busy(self) -> bool:
        """Whether a drain is under way right now."""
        return self._busy

    def notify(self) -> None:
        """New work was recorded: drain soon."""
        with self._cond:
            self._asked += 1
            self._cond.notify_all()

    def flush(self, timeout: float | None = None) -> bool:
        """Wait until every job recorded before this call has been tried.

        Returns False on timeout (or when the worker has stopped). Jobs that keep
        failing stay pending or failed in the ledger; flush does not wait on them
        forever.
        """
        with self._cond:
            self._asked += 1
            target = self._asked
            self._cond.notify_all()
            return (
                self._cond.wait_for(
                    lambda: self._served >= target or not self._thread.is_alive(),
                    timeout,
                )
                and self._served >= target
            )

    def stop(self, timeout: float | None = 30.0) -> None:
        """Finish the job in hand and stop; pending jobs stay in the ledger."""
        with self._cond:
            self._stopping = True
            self._cond.notify_all()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout)

    def _loop(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(
                    lambda: self._asked > self._served or self._stopping,
                    self._poll_s,
                )
                if self._stopping:
                    self._served = self._asked
                    self._cond.notify_all()
                    return
                seen = self._asked
                self._busy = True
            try:
                self._drain()
                with self._cond:
                    idle = self._asked == seen
                if idle:  # while turns keep coming, their work goes first
                    self._prepare()
            finally:
                with self._cond:
                    self._busy = False
                    self._served = max(self._served, seen)
                    self._cond.notify_all()

    def _prepare(self) -> None:
        """`after_drain`, whose failure costs a reader time, never the worker."""
        if self._after_drain is None or self._stopping:
            return
        try:
            self._after_drain()
        except Exception:  # noqa: BLE001 - preparing reads must not kill the worker
            log.warning("preparing reads after a drain failed", exc_info=True)

    def _drain(self) -> None:
        blocked: set[tuple[str, str]] = set()
        tried: set[int] = set()
        while not self._stopping:
            jobs = [
                j
                for j in self._ledger.pending(self._owner)
                if j.id not in tried and (j.tenant, j.thread) not in blocked
            ]
            if not jobs:
                return
            for job in jobs:
                if self._stopping:
                    return
                if (job.tenant, job.thread) in blocked:
                    continue
                tried.add(job.id)
                start = time.perf_counter()
                try:
                    self._run_job(job)
                    self.jobs_done += 1
                except Exception as exc:  # noqa: BLE001 - a job must not kill the worker
                    gave_up = self._ledger.record_failure(job, repr(exc))
                    blocked.add((job.tenant, job.thread))
                    if self._on_error is not None:
                        self._on_error(job, exc, gave_up)
                finally:
                    spent = time.perf_counter() - start
                    self.busy_s += spent
                    self.job_seconds[job.kind].append(spent)
