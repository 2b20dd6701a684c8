"""Systems under test: memory recipes and the baselines they must beat.

Every system sees the same turns in the same order and answers one question: what
context would the responder be shown for this question now? Baselines work on raw
turns, so a recipe's numbers can be read against a known floor (`none`), a known
ceiling (`full`) and the usual cheap alternatives (`window`, `rag-bm25`,
`rag-embed`, and `rag-hybrid`, which fuses the two). All but `full` get the same
token budget.

A system is named by a short stable string, because names go into run logs:
``A``, ``B+C``, ``A(a_max_messages=30)``, ``full``, ``window``, ``rag-bm25``,
``rag-embed``, ``rag-hybrid``, ``none``, and the peer libraries ``mem0`` and
``langmem`` (`memlab_evals.peers`, loaded only when named). A recipe with the
suffix ``+tools`` (``A+tools``, ``B+C+tools``) is the recipe with agentic memory:
the replying model manages memory with the memory tools too; it needs a model.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Protocol, runtime_checkable

from pydantic import ValidationError

from memlab_evals.baselines import (
    BM25Retrieval,
    EmbeddingRetrieval,
    FullHistory,
    NoMemory,
    RecentWindow,
)
from memlab_evals.log import EpisodeStat, StoredFact, TriggerTrace
from memlab_evals.system_types import BuildCost, Context
from memlab_evals.trigger_meter import TriggerMeter, episode_coherence
from memory_lab.clock import ManualClock
from memory_lab.config import (
    DEFAULT_EXTRACTOR,
    BudgetConfig,
    Extractor,
    LLMSettings,
    MemoryConfig,
    Recipe,
)
from memory_lab.context.tiers import context_tiers
from memory_lab.recipes import recipe, recipe_parts, split_spec, split_specs
from memory_lab.stores.locations import StoreSpec
from memory_lab.tokens import TokenCounter, default_counter
from memory_lab.triggers import trigger_names
from memory_lab.types import Message

BASELINES: tuple[str, ...] = (
    "full",
    "window",
    "rag-bm25",
    "rag-embed",
    "rag-hybrid",
    "none",
)
RETRIEVAL_BASELINES: tuple[str, ...] = ("rag-bm25", "rag-embed", "rag-hybrid")
"""Retrieval over raw turns: the best of these is what a memory recipe must beat."""
PEERS: tuple[str, ...] = ("mem0", "langmem")
"""Other memory libraries run as systems (`memlab_evals.peers`); they need an LLM."""
TOOLS_SUFFIX = "+tools"
"""A recipe named with it runs with agentic memory (`AgenticMemorySystem`)."""


@runtime_checkable
class System(Protocol):
    """One system under test, fed one conversation turn by turn."""

    name: str

    def ingest(self, msg: Message) -> None:
        """Take the next turn."""
        ...

    def settle(self) -> None:
        """Finish the work earlier turns left owed, before a probe.

        The runner does not time it: background memory work is not retrieval
        latency, and a probe must see the same memory whatever the worker's pace.
        """
        ...

    def context(self, question: str) -> Context:
        """The context the responder would get for `question` now."""
        ...

    def stored_tokens(self) -> int:
        """Tokens the system holds now (what a compression ratio divides)."""
        ...

    def stored_facts(self) -> list[StoredFact]:
        """Fact rows it stored (memory recipes only)."""
        ...

    def episode_stats(self) -> list[EpisodeStat]:
        """Per-episode source and summary sizes (memory recipes only)."""
        ...

    def cost(self) -> BuildCost:
        """Brain calls, tokens and compressions spent so far."""
        ...

    def close(self) -> None:
        """Release files and handles."""
        ...


# --- memory recipes ----------------------------------------------------------------


class MemorySystem:
    """A recipe over the real engine: SQLite facts, Chroma episodes, the graph."""

    def __init__(
        self,
        name: str,
        rec: Recipe,
        budget: int,
        tenant: str,
        start: datetime,
        data_dir: Path | None,
        llm: LLMSettings | None = None,
        stores: StoreSpec | None = None,
        extractor: Extractor = DEFAULT_EXTRACTOR,
    ) -> None:
        from memory_lab.engine import MemoryEngine

        self.name = name
        self.tenant = tenant
        self.budget = budget
        """Context tokens; set it to assemble the same memory under another budget."""
        config = memory_config(rec, budget, llm, extractor)
        self.engine = MemoryEngine(
            data_dir, config=config, clock=ManualClock(start), stores=stores
        )
        self._compressions = 0
        self._meter = TriggerMeter(self.engine, tenant)

    def ingest(self, msg: Message) -> None:
        """Feed one turn through the graph (triggers, compression, extraction)."""
        step = self.engine.ingest(self.tenant, [msg])
        if step.compressed:
            self._compressions += 1
        self._meter.after_turn(msg, step.decision)

    def settle(self) -> None:
        """Wait for the background worker to finish the jobs owed so far."""
        self.engine.flush()

    def context(self, question: str) -> Context:
        """The responder's context: the engine's own assembly, not a copy of it.

        Memory work still owed is finished first (a no-op after `settle`), so a
        probe sees the same memory whatever the background worker's timing.
        """
        self.engine.flush()
        bundle = self.engine.assemble(
            self.tenant, question, budget=_budget_config(self.budget)
        )
        items = [item for block in bundle.blocks for item in block.items]
        return Context(
            bundle.text, bundle.total_tokens, items, tiers=context_tiers(bundle)
        )

    def summary_only_context(self, question: str) -> str:
        """The context without verbatim excerpts: what compression itself kept."""
        self.engine.flush()
        return self.engine.assemble(
            self.tenant, question, excerpts=False, budget=_budget_config(self.budget)
        ).text

    def trigger_trace(self) -> TriggerTrace:
        """What the triggers did over the conversation so far."""
        self.engine.flush()
        return self._meter.trace()

    def stored_tokens(self) -> int:
        """Window turns, running summary, episode summaries and active facts."""
        self.engine.flush()
        count = self.engine.counter.count
        state = self.engine.state(self.tenant)
        total = sum(count(m["content"]) for m in state.get("window", []))
        total += count(state.get("summary", ""))
        total += sum(ep.summary_tokens for ep in self.engine.episodes.get(self.tenant))
        now = self.engine.clock.now()
        total += sum(
            count(f"{f.key}: {f.value}")
            for f in self.engine.facts.active(self.tenant, now=now)
        )
        return total

    def stored_facts(self) -> list[StoredFact]:
        """Every fact row, with its status as seen at the clock's now."""
        self.engine.flush()
        now = self.engine.clock.now()
        return [
            StoredFact(
                id=row.id,
                subject=row.subject,
                category=row.category,
                key=row.key,
                value=row.value,
                status=row.state_at(now),
                source=row.source,
                turn_ids=list(row.turn_ids),
                evidence=row.evidence,
            )
            for row in self.engine.facts.rows(self.tenant)
        ]

    def episode_stats(self) -> list[EpisodeStat]:
        """Source and summary tokens of each episode, ordered by position."""
        self.engine.flush()
        episodes = sorted(
            self.engine.episodes.get(self.tenant), key=lambda e: (e.first_seq, e.id)
        )
        coherence = episode_coherence(self.engine, self.tenant, episodes)
        return [
            EpisodeStat(
                id=ep.id,
                original_tokens=ep.original_tokens,
                summary_tokens=ep.summary_tokens,
                original_message_count=ep.original_message_count,
                coherence=coherence.get(ep.id),
            )
            for ep in episodes
        ]

    def cost(self) -> BuildCost:
        """The brain's own counters: requests, tokens, cache hits, facts refused."""
        brain = self.engine.brain
        usage = brain_usage(brain)
        return BuildCost(
            brain=getattr(brain, "name", type(brain).__name__),
            calls=usage.get("calls", 0),
            tokens=usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0),
            compressions=self._compressions,
            usage=usage,
        )

    def close(self) -> None:
        """Close the engine's SQLite handles."""
        self.engine.close()


class AgenticMemorySystem(MemorySystem):
    """A recipe whose replying model also keeps memory through the memory tools.

    After each user turn goes in, the model is shown that turn with the context
    assembled for it and the tenant's memory tools, as when it replies live; the
    calls it makes are carried out and logged as events (`tool_called`,
    `tool_failed`), and its reply is dropped, since the conversation's own next
    turn follows. Probes then read the memory the pipeline and the model built
    together. Owed memory work is finished before each such turn, so what the
    model is shown does not depend on the worker's pace. Costs one request or
    more per user turn.
    """

    def ingest(self, msg: Message) -> None:
        """Feed the turn through the graph, then let the model act on a user turn."""
        super().ingest(msg)
        if msg.role != "user":
            return
        from memory_lab.events import events_from_notes
        from memory_lab.facts.tools import memory_tools

        self.engine.flush()
        bundle = self.engine.assemble(
            self.tenant, msg.content, budget=_budget_config(self.budget)
        )
        tools = memory_tools(self.engine, self.tenant, session=msg.session)
        answered = self.engine.metered.respond_with_tools(msg, bundle, tools)
        now = self.engine.clock.now()
        events = events_from_notes(self.tenant, now, answered.notes)
        if events:
            self.engine.events.append(self.tenant, events)


def brain_usage(brain: object) -> dict[str, int]:
    """A brain's counters as plain ints: `usage()` where it has one, else `stats`."""
    usage = getattr(brain, "usage", None)
    raw = usage() if callable(usage) else getattr(brain, "stats", None)
    if not isinstance(raw, dict):
        return {}
    counts = {}
    for key, value in raw.items():
        try:
            counts[str(key)] = int(value or 0)
        except (TypeError, ValueError):
            continue
    return counts


# --- names and the factory ---------------------------------------------------------


def _hybrid(budget: int, counter: TokenCounter) -> System:
    from memlab_evals.baselines_hybrid import HybridRetrieval

    return HybridRetrieval(budget, counter)


def split_systems(spec: str) -> list[str]:
    """System names from a comma list, keeping commas inside parentheses.

    ``"A,B(b_high_water=800,b_low_water=400),full"`` has three systems.

    Raises:
        ValueError: for an empty list, unbalanced parentheses or a repeated name.
    """
    names = split_specs(spec)
    if not names:
        raise ValueError("no systems given")
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ValueError(f"systems repeated: {', '.join(dupes)}")
    for name in names:
        check_system(name)
    return names


def split_tools(name: str) -> tuple[str, bool]:
    """A system name without its ``+tools`` suffix, and whether it had one."""
    if name.endswith(TOOLS_SUFFIX) and len(name) > len(TOOLS_SUFFIX):
        return name[: -len(TOOLS_SUFFIX)], True
    return name, False


def needs_model(name: str) -> bool:
    """Whether a system cannot run on the rule-based brain (``+tools`` recipes)."""
    return split_tools(name)[1]


def check_models(names: list[str], llm: LLMSettings | None) -> None:
    """Refuse, before anything runs, systems that need a model when none is set.

    Raises:
        ValueError: naming the systems and what to set.
    """
    missing = [n for n in names if needs_model(n)]
    if missing and llm is None:
        raise ValueError(
            f"{', '.join(missing)}: {TOOLS_SUFFIX} gives the replying model the "
            "memory tools, and no model is configured (the rule-based brain calls "
            "no tools); set --llm-base-url and --llm-model (MEMORY_LAB_LLM_BASE_URL, "
            f"MEMORY_LAB_LLM_MODEL) or drop {TOOLS_SUFFIX}"
        )


def is_baseline(name: str) -> bool:
    """Whether the name is a raw-turn baseline rather than a recipe."""
    return name in BASELINES


def is_peer(name: str) -> bool:
    """Whether the name is a peer memory library rather than one of ours."""
    return name in PEERS


def check_system(name: str) -> None:
    """Fail early, listing what exists, for a name that is no system.

    Raises:
        ValueError: for an unknown system or a bad recipe parameter.
    """
    if is_baseline(name) or is_peer(name):
        return
    full, (name, tools) = name, split_tools(name)
    if tools and (is_baseline(name) or is_peer(name)):
        raise ValueError(
            f"{full!r}: {TOOLS_SUFFIX} applies to memory recipes (A{TOOLS_SUFFIX}, "
            f"B+C{TOOLS_SUFFIX}), not to {name!r}"
        )
    known = ", ".join((*trigger_names(), "A+B", "...", *BASELINES, *PEERS))
    try:
        base, _ = split_spec(name)
    except ValueError:
        base = name
    if recipe_parts(base) is None:
        raise ValueError(f"unknown system {name!r}; known: {known}")
    try:
        recipe(name)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "recipe"
        reason = f"{where}: {first['msg']}"
        raise ValueError(f"bad recipe parameters in {name!r}: {reason}") from None
    except ValueError as exc:
        raise ValueError(f"bad recipe parameters in {name!r}: {exc}") from None


def system_params(name: str) -> dict:
    """The full parameters of a memory recipe, for the run log; {} for the others."""
    if is_baseline(name) or is_peer(name):
        return {}
    base, tools = split_tools(name)
    params = recipe(base).model_dump(mode="json")
    return {**params, "agentic_memory": True} if tools else params


def _budget_config(total: int) -> BudgetConfig:
    """The blocks' budgets at a total, as `memory_config` sets them."""
    return BudgetConfig().scaled(total)


def memory_config(
    rec: Recipe,
    budget: int,
    llm: LLMSettings | None = None,
    extractor: Extractor = DEFAULT_EXTRACTOR,
) -> MemoryConfig:
    """The engine configuration a memory system runs with at a context budget."""
    return MemoryConfig(
        recipe=rec,
        budget=_budget_config(budget),
        llm=llm,
        extractor=extractor,
    )


def memory_settings(budget: int, extractor: Extractor = DEFAULT_EXTRACTOR) -> dict:
    """Every configured number besides the recipe, for the run log.

    Lexical weight, margins, fact-line limits and the rest change results, so a
    log that did not record them could not be reproduced after a default moved.
    """
    config = memory_config(recipe("A"), budget, extractor=extractor)
    return config.model_dump(mode="json", exclude={"recipe", "llm"})


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
            ``+tools`` (agentic memory), or a baseline.
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
    counter = counter or default_counter()
    factories: dict[str, Callable[[], System]] = {
        "full": lambda: FullHistory(counter),
        "window": lambda: RecentWindow(budget, counter),
        "rag-bm25": lambda: BM25Retrieval(budget, counter),
        "rag-embed": lambda: EmbeddingRetrieval(budget, counter),
        "rag-hybrid": lambda: _hybrid(budget, counter),
        "none": lambda: NoMemory(counter),
    }
    if name in factories:
        return factories[name]()
    if is_peer(name):
        from memlab_evals.peers import make_peer

        return make_peer(
            name, budget=budget, counter=counter, llm=llm, data_dir=data_dir
        )
    check_system(name)
    base, tools = split_tools(name)
    if tools:
        check_models([name], llm)
        assert llm is not None
        return AgenticMemorySystem(
            name,
            recipe(base),
            budget,
            tenant,
            start,
            data_dir,
            llm=llm.model_copy(update={"agentic_memory": True}),
            stores=stores,
            extractor=extractor,
        )
    return MemorySystem(
        name,
        recipe(name),
        budget,
        tenant,
        start,
        data_dir,
        llm=llm,
        stores=stores,
        extractor=extractor,
    )
