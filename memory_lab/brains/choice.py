"""Which brain a configuration asks for: the offline one, or an LLM over it."""

from __future__ import annotations

from memory_lab.brains.base import Brain
from memory_lab.clock import Clock
from memory_lab.config import MemoryConfig
from memory_lab.embeddings import Embedder
from memory_lab.tokens import TokenCounter


def make_brain(
    config: MemoryConfig,
    counter: TokenCounter,
    clock: Clock,
    embedder: Embedder | None = None,
) -> Brain:
    """The rule-based brain, wrapped by the LLM brain when an endpoint is configured."""
    from memory_lab.brains.offline import RuleBasedBrain

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
