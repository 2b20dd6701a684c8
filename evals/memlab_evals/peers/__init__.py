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

import tempfile
from collections.abc import Callable
from pathlib import Path

from memlab_evals.peers.langmem_backend import LangMemBackend
from memlab_evals.peers.mem0_backend import Mem0Backend
from memlab_evals.peers.system import (
    MAX_CONSECUTIVE_FAILURES,
    NEEDS_LLM,
    PeerBackend,
    PeerMemory,
    PeerSystem,
    SkippedPeer,
    unbuilt_peer,
)
from memory_lab.config import LLMSettings
from memory_lab.tokens import TokenCounter

BACKENDS: dict[str, Callable[[LLMSettings, Path], PeerBackend]] = {
    "mem0": lambda llm, workdir: Mem0Backend(llm, workdir),
    "langmem": lambda llm, workdir: LangMemBackend(llm),
}
"""Peer name -> backend factory; tests put scripted backends here.

The names are the registry's peers (`memlab_evals.systems.libraries`).
"""


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
        return unbuilt_peer(name, budget, counter, exc)
    return PeerSystem(name, backend, budget, counter)


__all__ = [
    "BACKENDS",
    "MAX_CONSECUTIVE_FAILURES",
    "NEEDS_LLM",
    "LangMemBackend",
    "Mem0Backend",
    "PeerBackend",
    "PeerMemory",
    "PeerSystem",
    "SkippedPeer",
    "make_peer",
]
