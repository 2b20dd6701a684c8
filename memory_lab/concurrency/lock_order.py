"""Every lock in the library: its name, what it guards, and the one order to take them.

A thread may take a lock only while every lock it already holds comes earlier
in `LOCK_ORDER` (re-entering a re-entrant lock it holds is fine, whatever it
took since). Outer coordination comes first, then the database, then the
caches and indexes read inside a transaction, then the leaves that call nothing
of ours while held.

Few locks are needed because memory has one writer per kind of work: the
turn's steps are taken one at a time (`engine.step`), and everything a turn asks
for (compression, extraction, day and week summaries, warming the index) is
done by the one memory worker thread, in order. The other threads are the
trigger guard (a decision with a time limit), the parser's warm-up, the MCP
transport and the live-source fetches; what they share is below, each entry
with what it guards.

Plug-in code runs holding none of these, but in one race. A trigger decides
before the step takes `engine.step` (`jobs.planning.decide_ahead`), over the
thread's turns as the step will store them; the step takes that decision only
if it reads the same marks and turns, so the decision is the one it would make
itself. The
race: when another step or another process stored or planned in between, the
triggers decide again inside the step, under `engine.step` but outside any
write transaction. A trigger's cut between episodes runs in the worker, holding
none. A registry imports its plug-in modules outside its own lock.

Each lock is made by `named_lock(name)`. In production that is a plain
`threading.Lock` or `RLock`: the order costs nothing. With the environment
variable `MEMORY_LAB_LOCK_ORDER=check` (the test session sets it before the
library is imported), each is a `CheckedLock` that carries its name and rank,
and a thread taking two out of order fails at once with both stacks (see
`lock_checker`). The variable is read here, once, and not at the edges like
other settings, because module-level locks are made at import.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from memory_lab.concurrency.lock_checker import LockOrderChecker

LOCK_ORDER: tuple[str, ...] = (
    # MemoryEngine: one graph step, context assembly, search or purge at a time
    # (a step's triggers decide before it is taken).
    "engine.step",
    # PeriodSummaries: one pass over the finished days and weeks per memory.
    "periods.update",
    # FactMemory: fact reconciliation and its read caches; readers take it before
    # the database, so a writer holds it across its transaction.
    "facts.rows",
    # JoinedTransactions: the connection and the depth of the open transaction.
    "database",
    # ExcerptIndex: each tenant's turn index, loaded from the stores under it.
    "excerpts.index",
    # TurnIndex: the turn and fact vectors already computed.
    "excerpts.vectors",
    # EntityLabels: the named-entity labels of the turns a typed question read.
    "answer_types.labels",
    # Gathered lines: which fact memories have a subject-rows cache.
    "gathered.reads",
    # Gathered lines: one fact memory's rows per asked subject.
    "gathered.subjects",
    # ItemCache: the items of the tenants read last.
    "items.cache",
    # ChromaEpisodeStore: the client and collection of one episode index.
    "episodes.chroma",
    # The in-memory reference stores, each over its own rows.
    "memory.transcript",
    "memory.facts",
    "memory.fact_links",
    "memory.events",
    "memory.episodes",
    "memory.sessions",
    # The data set and system registries' tables (each its own) and who is
    # discovering them; their plug-in modules are imported outside it.
    "plugins.registry",
    # The trigger registry's table and who is discovering it: looked up inside a
    # step; the built-in and entry-point trigger modules are imported outside it.
    "triggers.registry",
    # LiveSources: the registered live sources and their last values.
    "live.sources",
    # OpenAICompatBrain: its counters and what it last reported.
    "llm.brain",
    # MeteredBrain: the tokens memory work gave the brain to read.
    "brain.meter",
    # ModelEndpoint: one model endpoint's state and counts.
    "llm.endpoint",
    # CircuitBreaker: one endpoint's failures and whether it is open.
    "llm.breaker",
    # ChatClient: the event loop its synchronous calls run on.
    "llm.loop",
    # LLMUsage: tokens and calls counted across a client's requests.
    "llm.usage",
    # The parser's loading, once per process.
    "parser.load",
    # The parser itself: one parse at a time, since workers share it.
    "parser.parse",
    # CachingEmbedder: the vectors already computed.
    "embedder.cache",
    # MiniLMEmbedder: the model, loaded once, one encode at a time.
    "embedder.model",
    # MemoryEngine: the threads whose new turns the worker embeds after a drain.
    "engine.unwarmed",
    # MemoryWorker: what was asked, what was served, and stopping.
    "worker.queue",
    # ManualClock: its current time.
    "clock",
)
"""The declared order, first taken first."""

CHECKER: LockOrderChecker | None = (
    LockOrderChecker(LOCK_ORDER)
    if os.environ.get("MEMORY_LAB_LOCK_ORDER") == "check"
    else None
)
"""The checker every named lock reports to; None when checking is off."""


def named_lock(name: str, *, reentrant: bool = False) -> Any:
    """The lock called `name` in `LOCK_ORDER`, re-entrant if asked.

    Raises:
        ValueError: for a name the order does not declare, checking or not.
    """
    if CHECKER is not None:
        return CHECKER.lock(name, reentrant=reentrant)
    if name not in _DECLARED:
        raise ValueError(
            f"lock {name!r} is not in the declared lock order; add it there"
        )
    return threading.RLock() if reentrant else threading.Lock()


_DECLARED = frozenset(LOCK_ORDER)


def held_locks() -> list[str]:
    """The named locks the calling thread holds, first taken first.

    For tests, and for checks a plug-in makes of where it runs: only checked
    locks know who holds them.

    Raises:
        RuntimeError: when checking is off (`MEMORY_LAB_LOCK_ORDER` is not
            `check`), since a plain lock cannot say.
    """
    if CHECKER is None:
        raise RuntimeError(
            "held_locks needs MEMORY_LAB_LOCK_ORDER=check: plain locks do not "
            "know who holds them"
        )
    return CHECKER.held()
