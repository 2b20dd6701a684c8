"""What the peers share: our embeddings behind LangChain's interface, usage counts."""

from __future__ import annotations

import logging


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


class ErrorLogCounter(logging.Handler):
    """Counts the errors a library logs and swallows (Mem0's bad-JSON replies)."""

    def __init__(self, meter: UsageMeter) -> None:
        super().__init__(level=logging.ERROR)
        self.meter = meter

    def emit(self, record: logging.LogRecord) -> None:
        """Count it; the library already decided to carry on."""
        self.meter.add("reply_errors")
