"""`make_system`: a fresh system for one conversation, from its name."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from memlab_evals.systems.registry import BuildArgs
from memlab_evals.systems.specs import check_models, resolve
from memlab_evals.systems.types import System
from memory_lab.config import DEFAULT_EXTRACTOR, Extractor, LLMSettings
from memory_lab.stores.locations import StoreSpec
from memory_lab.tokens import TokenCounter, default_counter


def make_system(
    name: str,
    *,
    budget: int,
    tenant: str,
    start: datetime,
    data_dir: Path | None = None,
    counter: TokenCounter | None = None,
    llm: LLMSettings | None = None,
    stores: StoreSpec | None = None,
    extractor: Extractor = DEFAULT_EXTRACTOR,
) -> System:
    """Build the system a name describes, fresh, for one conversation.

    Args:
        name: A recipe spec (``A``, ``A+B``, ``B(b_high_water=800)``), one with
            ``+tools`` (agentic memory), or a registered baseline or peer.
        budget: Context token budget; ignored by ``full``.
        tenant: The conversation's tenant (memory recipes only).
        start: Time of the first turn; the manual clock starts there.
        data_dir: A folder of its own for the engine's stores; None keeps them in
            memory.
        counter: Token counter; the default is the project's tiktoken counter.
        llm: The LLM brain's endpoint for memory recipes and peers; None keeps
            the rule-based brain and skips the peers. Baselines call no brain.
        stores: Servers for a memory recipe's stores (baselines keep none).
        extractor: How a memory recipe's offline brain reads facts.

    Raises:
        ValueError: for an unknown system, or a ``+tools`` recipe without `llm`.
    """
    entry = resolve(name)
    check_models([name], llm)
    return entry.build(
        BuildArgs(
            budget=budget,
            counter=counter or default_counter(),
            tenant=tenant,
            start=start,
            data_dir=data_dir,
            llm=llm,
            stores=stores,
            extractor=extractor,
        )
    )
