"""Peer memory libraries as systems under test: `mem0` and `langmem`.

Each peer runs its own pipeline (its extraction and update prompts, its store) on
our embeddings and the same OpenAI-compatible endpoint as the LLM brain, and at a
probe returns its memories for the question, cut to the same token budget as every
other system. Nothing else in the project imports this module; `make_system` loads
it only for these names, and the libraries come with the ``peers`` extra.

Ingestion follows the libraries' own usage: turns go in pairs (a new session
starts a new pair), as Mem0's LoCoMo runs add them, with the session time beside
them. A pair still open when a probe arrives is added before the search, so every
system sees the same turns; that add's time lands in retrieval latency.

A peer needs a model: without one it is skipped, and its row says so instead of
scoring zero. A peer whose calls fail keeps going; each failure is counted by kind
and logged as an event, and every probe answered from incomplete memory is marked.
"""

from __future__ import annotations

import logging
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from memlab_evals.log import EpisodeStat, StoredFact
from memlab_evals.system_types import BuildCost, Context, RunHealth
from memory_lab.config import LLMSettings
from memory_lab.text import turn_line
from memory_lab.tokens import TokenCounter
from memory_lab.types import Message

PEERS: tuple[str, ...] = ("mem0", "langmem")
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


# --- the system the runner sees ------------------------------------------------------


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

    def close(self) -> None:
        """Close the backend; a failing close must not hide the results."""
        try:
            self.backend.close()
        except Exception as exc:
            self._record("close", "", exc)


class SkippedPeer:
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

    def stored_facts(self) -> list[StoredFact]:
        """Nothing stored."""
        return []

    def episode_stats(self) -> list[EpisodeStat]:
        """No episodes."""
        return []

    def cost(self) -> BuildCost:
        """Nothing spent."""
        return BuildCost()

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


# --- shared pieces: embeddings, usage ------------------------------------------------


def local_embeddings():
    """Our local MiniLM embedder as LangChain `Embeddings` (both peers take those)."""
    from langchain_core.embeddings import Embeddings

    from memory_lab.embeddings import default_embedder

    class LocalEmbeddings(Embeddings):
        """`memory_lab.embeddings.default_embedder()` behind LangChain's interface."""

        def __init__(self) -> None:
            self.embedder = default_embedder()

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            """One unit vector per text."""
            if not texts:
                return []
            return [[float(x) for x in row] for row in self.embedder.embed(texts)]

        def embed_query(self, text: str) -> list[float]:
            """The query's unit vector."""
            return self.embed_documents([text])[0]

    return LocalEmbeddings()


class UsageMeter:
    """Requests, tokens and failures, whichever client counts them."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {
            "calls": 0,
            "prompt_tokens": 0,
            "completion_tokens": 0,
            "failed_requests": 0,
            "reply_errors": 0,
        }

    def add(self, key: str, n: int = 1) -> None:
        """Count `n` more of `key`."""
        self.counts[key] = self.counts.get(key, 0) + int(n or 0)

    def reply(self, prompt_tokens: int | None, completion_tokens: int | None) -> None:
        """One answered request."""
        self.add("calls")
        self.add("prompt_tokens", prompt_tokens or 0)
        self.add("completion_tokens", completion_tokens or 0)


class _ErrorLogCounter(logging.Handler):
    """Counts the errors a library logs and swallows (Mem0's bad-JSON replies)."""

    def __init__(self, meter: UsageMeter) -> None:
        super().__init__(level=logging.ERROR)
        self.meter = meter

    def emit(self, record: logging.LogRecord) -> None:
        self.meter.add("reply_errors")


# --- mem0 ----------------------------------------------------------------------------


def _quiet_mem0() -> None:
    """Telemetry off and Mem0's home folder out of ours, before Mem0 is imported."""
    os.environ["MEM0_TELEMETRY"] = "False"
    os.environ.setdefault(
        "MEM0_DIR", str(Path(tempfile.gettempdir()) / "memory-lab-mem0")
    )
    # Its disabled telemetry still builds a client per Memory, which warns.
    logging.getLogger("posthog").disabled = True


class Mem0Backend:
    """Mem0's open-source `Memory`: its add and search, in-process Qdrant.

    Its OpenAI client is swapped for one with our timeout, retries and a meter; its
    requests are otherwise its own (prompts, JSON mode, the update step).
    """

    def __init__(self, llm: LLMSettings, workdir: Path) -> None:
        _quiet_mem0()
        from mem0 import Memory
        from openai import OpenAI
        from qdrant_client import QdrantClient

        self.meter = UsageMeter()
        workdir.mkdir(parents=True, exist_ok=True)
        config = {
            "version": "v1.1",
            "llm": {
                "provider": "openai",
                "config": {
                    "model": llm.model,
                    "api_key": llm.api_key.get_secret_value(),
                    "openai_base_url": llm.base_url,
                    "temperature": 0.0,
                    "max_tokens": MAX_TOKENS,
                },
            },
            "embedder": {
                "provider": "langchain",
                "config": {
                    "model": local_embeddings(),
                    "embedding_dims": EMBEDDING_DIMS,
                },
            },
            "vector_store": {
                "provider": "qdrant",
                "config": {
                    "collection_name": "memories",
                    "embedding_model_dims": EMBEDDING_DIMS,
                    "client": QdrantClient(location=":memory:"),
                },
            },
            "history_db_path": str(workdir / "mem0-history.db"),
        }
        self.memory = Memory.from_config(config)
        client = OpenAI(
            base_url=llm.base_url,
            api_key=llm.api_key.get_secret_value(),
            timeout=llm.timeout_s,
            max_retries=llm.max_attempts - 1,
        )
        self.memory.llm.client = _MeteredOpenAI(client, self.meter)
        self._log_counter = _ErrorLogCounter(self.meter)
        logging.getLogger("mem0").addHandler(self._log_counter)
        self.subjects: list[str] = []

    def add(self, turns: list[Message]) -> list[PeerMemory]:
        """Each user speaker's view of the pair, with the session time as metadata.

        Mem0's LoCoMo runs add every pair once per speaker, that speaker as the
        user; a chat with one user is added once.
        """
        written: list[PeerMemory] = []
        when = turns[0].timestamp.isoformat()
        for subject in self._subjects(turns):
            messages = [
                {
                    "role": "user" if t.who == subject else "assistant",
                    "content": f"{t.who}: {t.content}",
                }
                for t in turns
            ]
            out = self.memory.add(
                messages, user_id=_user_id(subject), metadata={"timestamp": when}
            )
            for item in _results(out):
                if item.get("event") in ("ADD", "UPDATE") and item.get("id"):
                    written.append(
                        PeerMemory(
                            str(item["id"]), str(item.get("memory", "")), subject
                        )
                    )
        return written

    def _subjects(self, turns: list[Message]) -> list[str]:
        for t in turns:
            if t.role == "user" and t.who not in self.subjects:
                self.subjects.append(t.who)
        return list(self.subjects)

    def search(self, question: str, limit: int) -> list[PeerMemory]:
        """Every speaker's memories for the question, best score first."""
        scored: list[tuple[float, PeerMemory]] = []
        for subject in self.subjects:
            out = self.memory.search(question, user_id=_user_id(subject), limit=limit)
            for item in _results(out):
                memory = PeerMemory(str(item["id"]), str(item["memory"]), subject)
                scored.append((float(item.get("score") or 0.0), memory))
        scored.sort(key=lambda pair: -pair[0])
        return [m for _, m in scored[:limit]]

    def memories(self) -> list[PeerMemory]:
        """Every speaker's memories."""
        held: list[PeerMemory] = []
        for subject in self.subjects:
            out = self.memory.get_all(user_id=_user_id(subject), limit=10_000)
            held += [
                PeerMemory(str(i["id"]), str(i["memory"]), subject)
                for i in _results(out)
            ]
        return held

    def usage(self) -> dict[str, int]:
        """Requests, tokens, failed requests and the bad replies Mem0 logged."""
        return dict(self.meter.counts)

    def close(self) -> None:
        """Stop counting Mem0's log; close its history database."""
        logging.getLogger("mem0").removeHandler(self._log_counter)
        db = getattr(self.memory, "db", None)
        if db is not None and hasattr(db, "close"):
            db.close()


class _MeteredOpenAI:
    """An OpenAI client whose chat completions are counted: what Mem0 calls."""

    def __init__(self, client, meter: UsageMeter) -> None:
        self._client = client
        self.chat = _Chat(client.chat.completions, meter)

    def __getattr__(self, name: str):
        return getattr(self._client, name)


class _Chat:
    def __init__(self, completions, meter: UsageMeter) -> None:
        self.completions = _Completions(completions, meter)


class _Completions:
    def __init__(self, inner, meter: UsageMeter) -> None:
        self._inner = inner
        self._meter = meter

    def create(self, **params):
        try:
            response = self._inner.create(**params)
        except Exception:
            self._meter.add("failed_requests")
            raise
        usage = getattr(response, "usage", None)
        self._meter.reply(
            getattr(usage, "prompt_tokens", 0), getattr(usage, "completion_tokens", 0)
        )
        return response


def _results(out) -> list[dict]:
    if isinstance(out, dict):
        return list(out.get("results", []))
    return list(out or [])


def _user_id(subject: str) -> str:
    return subject.strip().lower().replace(" ", "_") or "user"


# --- langmem -------------------------------------------------------------------------


class LangMemBackend:
    """LangMem's memory store manager over a LangGraph `InMemoryStore`.

    The manager searches the store for related memories, asks the model (by tool
    calls, through trustcall) to insert, update or delete, and writes the result.
    """

    NAMESPACE = ("memories", "{langgraph_user_id}")

    def __init__(self, llm: LLMSettings, user: str = "user") -> None:
        from langchain_openai import ChatOpenAI
        from langgraph.store.memory import InMemoryStore
        from langmem import create_memory_store_manager

        self.meter = UsageMeter()
        self.user = user
        self.store = InMemoryStore(
            index={"dims": EMBEDDING_DIMS, "embed": local_embeddings()}
        )
        model = ChatOpenAI(
            base_url=llm.base_url,
            api_key=llm.api_key.get_secret_value(),
            model=llm.model,
            temperature=0.0,
            max_tokens=MAX_TOKENS,
            timeout=llm.timeout_s,
            max_retries=llm.max_attempts - 1,
            callbacks=[_meter_callback(self.meter)],
        )
        self.manager = create_memory_store_manager(
            model, namespace=self.NAMESPACE, store=self.store
        )
        self.config = {"configurable": {"langgraph_user_id": user}}

    def add(self, turns: list[Message]) -> list[PeerMemory]:
        """The pair as chat messages; the time in each line, as it has no field."""
        messages = [
            {
                "role": "user" if t.role == "user" else "assistant",
                "content": turn_line(t),
            }
            for t in turns
        ]
        puts = self.manager.invoke({"messages": messages}, config=self.config)
        written = []
        for put in puts or []:
            value = put.get("value") if isinstance(put, dict) else None
            if value:
                written.append(PeerMemory(str(put["key"]), _langmem_text(value)))
        return written

    def search(self, question: str, limit: int) -> list[PeerMemory]:
        """The store's semantic search over this user's memories."""
        items = self.store.search(("memories", self.user), query=question, limit=limit)
        return [PeerMemory(str(i.key), _langmem_text(i.value)) for i in items]

    def memories(self) -> list[PeerMemory]:
        """Every memory in this user's namespace."""
        items = self.store.search(("memories", self.user), limit=10_000)
        return [PeerMemory(str(i.key), _langmem_text(i.value)) for i in items]

    def usage(self) -> dict[str, int]:
        """Requests, tokens, failures and replies without the tool call asked for."""
        return dict(self.meter.counts)

    def close(self) -> None:
        """Nothing outlives the process."""


def _langmem_text(value: dict) -> str:
    content = value.get("content", value)
    if isinstance(content, dict):
        content = content.get("content", content)
    return str(content)


def _meter_callback(meter: UsageMeter):
    """A LangChain callback counting requests, tokens and tool-less replies."""
    from langchain_core.callbacks import BaseCallbackHandler

    class _Meter(BaseCallbackHandler):
        def on_llm_end(self, response, **kwargs) -> None:
            for generations in response.generations:
                for generation in generations:
                    message = getattr(generation, "message", None)
                    usage = getattr(message, "usage_metadata", None) or {}
                    meter.reply(usage.get("input_tokens"), usage.get("output_tokens"))
                    if message is not None and not getattr(message, "tool_calls", []):
                        # trustcall asks for a tool call; a reply without one is
                        # an endpoint or model that cannot do tools.
                        meter.add("reply_errors")

        def on_llm_error(self, error, **kwargs) -> None:
            meter.add("failed_requests")

    return _Meter()


# --- the factory ---------------------------------------------------------------------

BACKENDS: dict[str, Callable[[LLMSettings, Path], PeerBackend]] = {
    "mem0": lambda llm, workdir: Mem0Backend(llm, workdir),
    "langmem": lambda llm, workdir: LangMemBackend(llm),
}
"""Peer name -> backend factory; tests put scripted backends here."""


def make_peer(
    name: str,
    *,
    budget: int,
    counter: TokenCounter,
    llm: LLMSettings | None,
    data_dir: Path | None,
):
    """The peer a name describes, or a skipped one when there is no model.

    A backend that cannot even be built (the library missing, a bad config) is a
    failed system with one event, so the rest of the eval still runs.
    """
    if llm is None:
        return SkippedPeer(name)
    workdir = data_dir or Path(tempfile.mkdtemp(prefix=f"memory-lab-{name}-"))
    try:
        backend = BACKENDS[name](llm, workdir)
    except ImportError as exc:
        return SkippedPeer(
            name,
            f"skipped: {exc.name or 'a library'} not installed "
            "(pip install 'memory-lab[peers]')",
        )
    except Exception as exc:
        return _unbuilt(name, budget, counter, exc)
    return PeerSystem(name, backend, budget, counter)


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


def _unbuilt(
    name: str, budget: int, counter: TokenCounter, exc: Exception
) -> PeerSystem:
    """A peer that failed to build: marked failed, with the build error as event."""
    system = PeerSystem(name, _NoBackend(exc), budget, counter)
    system._record("build", "", exc)
    system._gave_up = True
    return system


__all__ = [
    "BACKENDS",
    "NEEDS_LLM",
    "PEERS",
    "LangMemBackend",
    "Mem0Backend",
    "PeerBackend",
    "PeerMemory",
    "PeerSystem",
    "SkippedPeer",
    "make_peer",
]
