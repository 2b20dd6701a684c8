"""Mem0's open-source `Memory` as a peer backend (mem0ai, the `peers` extra)."""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path

from memlab_evals.peers.metering import ErrorLogCounter, UsageMeter, local_embeddings
from memlab_evals.peers.system import (
    EMBEDDING_DIMS,
    MAX_TOKENS,
    PeerMemory,
)
from memory_lab.config import LLMSettings
from memory_lab.types import Message


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
        self._log_counter = ErrorLogCounter(self.meter)
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
