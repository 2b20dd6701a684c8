"""What the runner sees of a peer: a system that ingests, answers probes and counts.

A peer backend (Mem0, LangMem, or a scripted one in tests) only adds turns and
searches; everything the runner needs besides (pairing turns as the libraries'
own LoCoMo runs do, the budget cut, failure counts, marked probes, cost) is here,
once for every peer.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from memlab_evals.running.log import EpisodeStat, StoredFact
from memlab_evals.systems.types import BuildCost, Context, KeepsNoMemory, RunHealth
from memory_lab.tokens import TokenCounter
from memory_lab.types import Message

NEEDS_LLM = "skipped: needs an LLM (run with --brain llm)"
MAX_TOKENS = 256
"""Reply cap per peer request: their replies are short JSON or tool calls, and a
small model that loops would otherwise run to the server's limit."""
SEARCH_LIMIT = 30
"""Memories asked for per probe, before the budget cut (Mem0's LoCoMo runs use 30)."""
MAX_CONSECUTIVE_FAILURES = 3
"""Adds that may fail in a row before a peer stops calling its endpoint."""
EMBEDDING_DIMS = 384


@dataclass(frozen=True)
class PeerMemory:
    """One memory a peer holds: its own id, its text, and whose it is."""

    id: str
    text: str
    subject: str = "user"


class PeerBackend(Protocol):
    """A peer library behind the few calls the eval makes."""

    def add(self, turns: list[Message]) -> list[PeerMemory]:
        """Give the library some turns; return the memories it wrote or changed."""
        ...

    def search(self, question: str, limit: int) -> list[PeerMemory]:
        """Its memories for a question, best first."""
        ...

    def memories(self) -> list[PeerMemory]:
        """Every memory it holds now."""
        ...

    def usage(self) -> dict[str, int]:
        """Requests, tokens and failed replies so far."""
        ...

    def close(self) -> None:
        """Release clients and stores."""
        ...


class PeerSystem:
    """A peer backend as a system under test: pairs in, budgeted memories out."""

    def __init__(
        self,
        name: str,
        backend: PeerBackend,
        budget: int,
        counter: TokenCounter,
        *,
        pair_size: int = 2,
    ) -> None:
        self.name = name
        self.backend = backend
        self.budget = budget
        self.counter = counter
        self.pair_size = pair_size
        self._pending: list[Message] = []
        self._sources: dict[str, list[str]] = {}
        self._errors: dict[str, int] = {}
        self._events: list[dict[str, str]] = []
        self._failures_in_row = 0
        self._gave_up = False

    # ingest

    def ingest(self, msg: Message) -> None:
        """Buffer the turn; add the pair when it is full or a new session begins."""
        if self._pending and self._pending[-1].session != msg.session:
            self._flush()
        self._pending.append(msg)
        if len(self._pending) >= self.pair_size:
            self._flush()

    def _flush(self) -> None:
        turns, self._pending = self._pending, []
        if not turns:
            return
        if self._gave_up:
            self._count("ingest_skipped_turns", len(turns))
            return
        try:
            written = self.backend.add(turns)
        except Exception as exc:  # a peer's failure is a result, not a crash
            self._failures_in_row += 1
            self._record("ingest", turns[-1].id, exc)
            if self._failures_in_row >= MAX_CONSECUTIVE_FAILURES:
                self._gave_up = True
                self._events.append(
                    {
                        "at": turns[-1].id,
                        "stage": "ingest",
                        "error": f"gave up after {self._failures_in_row} failed "
                        "adds in a row",
                    }
                )
            return
        self._failures_in_row = 0
        for memory in written:
            self._sources[memory.id] = [t.id for t in turns]

    # probes

    def context(self, question: str) -> Context:
        """Its memories for the question, best first, cut to the budget."""
        self._flush()
        try:
            found = self.backend.search(question, SEARCH_LIMIT)
        except Exception as exc:
            self._record("search", question, exc)
            return Context("", 0, [], error=f"search failed: {_describe(exc)}")
        text, tokens, items = self._render(found)
        return Context(text, tokens, items, error=self._incomplete())

    def _render(self, found: list[PeerMemory]) -> tuple[str, int, list[str]]:
        """Memory lines in rank order while they fit; the exact count is the judge."""
        taken: list[PeerMemory] = []
        used = 0
        for memory in found:
            cost = self.counter.count(_line(memory)) + (1 if taken else 0)
            if used + cost <= self.budget:
                taken.append(memory)
                used += cost
        while True:
            text = "\n".join(_line(m) for m in taken)
            tokens = self.counter.count(text)
            if tokens <= self.budget or not taken:
                return text, tokens, [m.id for m in taken]
            taken.pop()

    def _incomplete(self) -> str | None:
        failed = sum(n for k, n in self._errors.items() if k.startswith("ingest"))
        if self._gave_up:
            return f"memory incomplete: gave up after {failed} failed adds"
        if failed:
            return f"memory incomplete: {failed} failed adds before this probe"
        return None

    # bookkeeping

    def _count(self, kind: str, n: int = 1) -> None:
        self._errors[kind] = self._errors.get(kind, 0) + n

    def _record(self, stage: str, at: str, exc: Exception) -> None:
        self._count(f"{stage}:{type(exc).__name__}")
        self._events.append({"at": at, "stage": stage, "error": _describe(exc)})

    def health(self) -> RunHealth:
        """Failures by kind (the library's own bad replies included) and events."""
        errors = dict(self._errors)
        usage = self._usage()
        for kind in ("failed_requests", "reply_errors"):
            if usage.get(kind):
                errors[kind] = usage[kind]
        if self._gave_up:
            status = "failed"
        elif errors:
            status = "errors"
        else:
            status = "ok"
        return RunHealth(status, errors, list(self._events))

    def stored_tokens(self) -> int:
        """The memories it holds, as they would be rendered."""
        try:
            held = self.backend.memories()
        except Exception:
            return 0
        return sum(self.counter.count(_line(m)) for m in held)

    def stored_facts(self) -> list[StoredFact]:
        """Every memory, citing the turns of the add that last wrote it."""
        try:
            held = self.backend.memories()
        except Exception:
            return []
        return [
            StoredFact(
                id=m.id,
                subject=m.subject,
                category="memory",
                key="",
                value=m.text,
                status="active",
                source=self.name,
                turn_ids=list(self._sources.get(m.id, [])),
            )
            for m in held
        ]

    def episode_stats(self) -> list[EpisodeStat]:
        """Peers keep no episodes."""
        return []

    def cost(self) -> BuildCost:
        """Its requests and tokens, counted at its LLM client."""
        usage = self._usage()
        tokens = usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
        return BuildCost(
            brain=self.name, calls=usage.get("calls", 0), tokens=tokens, usage=usage
        )

    def _usage(self) -> dict[str, int]:
        try:
            return {k: int(v) for k, v in self.backend.usage().items()}
        except Exception:
            return {}

    def settle(self) -> None:
        """Nothing: a pair still open is added by `context`, which times it."""

    def close(self) -> None:
        """Close the backend; a failing close must not hide the results."""
        try:
            self.backend.close()
        except Exception as exc:
            self._record("close", "", exc)


class SkippedPeer(KeepsNoMemory):
    """A peer that cannot run here (no model): no probes, one clear status."""

    def __init__(self, name: str, reason: str = NEEDS_LLM) -> None:
        self.name = name
        self.reason = reason

    def ingest(self, msg: Message) -> None:
        """Nothing runs."""

    def context(self, question: str) -> Context:
        """Never scored: the runner records no probes for a skipped system."""
        return Context("", 0, [], error=self.reason)

    def stored_tokens(self) -> int:
        """Nothing stored."""
        return 0

    def health(self) -> RunHealth:
        """Skipped, and why."""
        return RunHealth(status=self.reason)

    def close(self) -> None:
        """Nothing to release."""


def _line(memory: PeerMemory) -> str:
    return f"- {memory.text}"


def _describe(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:200]}" if text else type(exc).__name__


class _NoBackend:
    """Stands in for a backend that failed to build: every call fails the same."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    def add(self, turns: list[Message]) -> list[PeerMemory]:
        raise self.exc

    def search(self, question: str, limit: int) -> list[PeerMemory]:
        raise self.exc

    def memories(self) -> list[PeerMemory]:
        return []

    def usage(self) -> dict[str, int]:
        return {}

    def close(self) -> None:
        return None


def unbuilt_peer(
    name: str, budget: int, counter: TokenCounter, exc: Exception
) -> PeerSystem:
    """A peer that failed to build: marked failed, with the build error as event."""
    system = PeerSystem(name, _NoBackend(exc), budget, counter)
    system._record("build", "", exc)
    system._gave_up = True
    return system
