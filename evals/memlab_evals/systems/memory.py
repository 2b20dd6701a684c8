"""Memory recipes as systems under test: the real engine, and its agentic variant.

A recipe's name is a spec over the trigger registry (``A``, ``B+C``,
``A(a_max_messages=30)``), so recipes are built here from the spec rather than
listed in the registry (`memlab_evals.systems.specs` resolves the name).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from memlab_evals.running.log import EpisodeStat, StoredFact, TriggerTrace
from memlab_evals.running.trigger_meter import TriggerMeter, episode_coherence
from memlab_evals.systems.registry import BuildArgs
from memlab_evals.systems.types import BuildCost, Context, RunHealth, System
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
from memory_lab.recipes import recipe
from memory_lab.stores.locations import StoreSpec
from memory_lab.types import Message


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

    def wait_until(self, when: datetime) -> None:
        """Let time pass to `when` with no new turn, as before a dated question.

        The clock moves there and the triggers and session timeouts are checked
        at that time, as a live memory would be by then.
        """
        self.engine.clock.set(when)
        if self.engine.tick(self.tenant).compressed:
            self._compressions += 1

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

    def health(self) -> RunHealth:
        """'errors' when memory jobs failed for good: the memory lacks their work.

        Each given-up job is one event (its time and what it said), so the log
        and the report tell a broken extraction from a memory that forgot.
        """
        self.engine.flush()
        failed = self.engine.failures(self.tenant)
        if not failed:
            return RunHealth()
        return RunHealth(
            status="errors",
            errors={"job_failed": len(failed)},
            events=[
                {"at": e.at.isoformat(), "stage": "memory job", "error": e.detail}
                for e in failed
            ],
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


def build_recipe(name: str, base: str, tools: bool) -> Callable[[BuildArgs], System]:
    """The builder of recipe `base` under the name `name`; `tools` adds agentic memory.

    The name is checked by the caller, and so is the model `tools` needs.
    """

    def build(args: BuildArgs) -> System:
        if not tools:
            return MemorySystem(
                name,
                recipe(base),
                args.budget,
                args.tenant,
                args.start,
                args.data_dir,
                llm=args.llm,
                stores=args.stores,
                extractor=args.extractor,
            )
        assert args.llm is not None
        return AgenticMemorySystem(
            name,
            recipe(base),
            args.budget,
            args.tenant,
            args.start,
            args.data_dir,
            llm=args.llm.model_copy(update={"agentic_memory": True}),
            stores=args.stores,
            extractor=args.extractor,
        )

    return build
