"""Building the responder's context: retrieve from every tier, then assemble.

The one domain operation both the graph's `assemble_context` node and
`MemoryEngine.assemble` (what evals and tools call) run, so what is measured is
what the responder is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

from memory_lab.clock import Clock
from memory_lab.config import MemoryConfig
from memory_lab.context.assembly import AssemblyInput, assemble
from memory_lab.context.current import HEAD as CURRENT_HEAD
from memory_lab.context.current import prefer_current, replaced_values
from memory_lab.context.gathered import gathered_for
from memory_lab.context.live import LiveReading, budget_without, live_block, with_live
from memory_lab.context.shown_turns import ShownTurns
from memory_lab.context.withheld import Withheld, withheld_for
from memory_lab.episodes.periods import PeriodSummaries, period_hits
from memory_lab.episodes.search import search_episodes
from memory_lab.episodes.turn_index import TurnIndex
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.base import EpisodeStore, TranscriptStore
from memory_lab.tokens import TokenCounter
from memory_lab.types import ContextBundle, Episode, Fact, Message, Replaced


class Sources(Protocol):
    """What building a context reads; the graph's `Deps` is one.

    A protocol rather than `Deps` itself, so this domain operation does not
    depend on the graph that calls it.
    """

    @property
    def transcript(self) -> TranscriptStore:
        """The turns that excerpts quote."""

    @property
    def episodes(self) -> EpisodeStore:
        """Episodes found by meaning."""

    @property
    def facts(self) -> FactMemory:
        """Facts, read by subject and word."""

    @property
    def excerpts(self) -> TurnIndex:
        """Turn excerpts ranked for the question."""

    @property
    def clock(self) -> Clock:
        """The instant facts and dates are read at."""

    @property
    def config(self) -> MemoryConfig:
        """Budgets and the recipe's context settings."""

    @property
    def counter(self) -> TokenCounter:
        """What the budget is counted in."""

    @property
    def periods(self) -> PeriodSummaries | None:
        """Daily and weekly summaries, when kept."""


@dataclass(frozen=True)
class Ranked:
    """A question's candidate facts and its turns and facts on one fused scale."""

    facts: list[Fact]
    turns: Sequence[tuple[Message, float]]
    """Best first, each turn as a context may show it (`withheld`)."""
    fact_scores: dict[str, float]
    current: frozenset[str] = frozenset()
    """Values in force the question reached through a turn stating an older one."""
    replaced: list[Replaced] = field(default_factory=list)
    """Those older values with the ones in force (see `current`)."""


def rank_turns_and_facts(
    deps: Sources,
    tenant: str,
    query: str,
    window: Sequence[Message],
    hits: Sequence[tuple[Episode, float]],
    facts: list[Fact],
    *,
    now: datetime,
    limit: int,
    withheld: Withheld,
    gather: bool = False,
) -> Ranked:
    """The candidate facts, and the turns and facts ranked on one fused scale.

    Facts about someone the question names join the candidates whatever their
    words (the entity index), and with `gather` their gathered lines
    (`context.gathered`); the one ranking decides which of them, and of the
    turns, a budget shows. The whole window is offered: turns the window block
    has no room for are ranked with the compressed ones, so none is unreachable.
    A question about the present puts the values in force ahead of turns that
    stated older ones (`current`); what forgotten facts withhold is left out.
    """
    seen = {f.id for f in facts}
    about = deps.facts.about(tenant, query, now=now, limit=limit)
    facts = facts + [f for f in about if f.id not in seen]
    if gather:
        facts += gathered_for(
            deps.facts, deps.excerpts.embedder, deps.counter, deps.config,
            tenant, query, about, now=now,
        )  # fmt: skip
    turns, fact_scores = deps.excerpts.rank_with_facts(
        deps.transcript, deps.episodes, tenant, query, hits, extra=window, facts=facts
    )
    chains = replaced_values(deps.facts, tenant)
    now_first = prefer_current(query, facts, turns, fact_scores, chains, now=now)
    shown = ShownTurns(turns, withheld.message, now_first.rescored, head=CURRENT_HEAD)
    return Ranked(
        now_first.facts,
        shown,
        now_first.fact_scores,
        now_first.current,
        now_first.replaced,
    )


def build_context(
    deps: Sources,
    tenant: str,
    query: str,
    window: list[Message],
    summary: str,
    live: LiveReading | None = None,
) -> ContextBundle:
    """Retrieve (facts, then episodes and their excerpts) and assemble under budget.

    `live` (read beforehand by `context.live.read_live`) leads the context and
    replaces the remembered facts of the keys it answers, within the budget.
    What forgotten facts withhold (`withheld`) is read once and left out of
    every block.
    """
    now = deps.clock.now()
    config = deps.config
    retrieval = config.retrieval
    withheld = withheld_for(deps.facts, tenant, window, query, now=now)
    hits = search_episodes(deps.episodes, tenant, query, retrieval)
    limit = config.assembly.max_fact_lines
    facts = deps.facts.candidates(tenant, query, now=now, limit=limit)
    ranked = Ranked(facts, [], {})
    if retrieval.expand_turns:
        ranked = rank_turns_and_facts(
            deps,
            tenant,
            query,
            window,
            hits,
            facts,
            now=now,
            limit=limit,
            withheld=withheld,
            gather=True,
        )
    facts = withheld.held(ranked.facts)
    block = live_block(live, config.budget.total, deps.counter)
    if live is not None and block is not None:
        facts = live.without_outranked(facts, shown=block.items)
    data = AssemblyInput(
        query=query,
        now=now,
        facts=facts,
        fact_scores=ranked.fact_scores,
        current_facts=ranked.current,
        episodes=withheld.episodes(hits),
        # The days or week a question names lead, whatever their words.
        periods=withheld.episodes(period_hits(deps.periods, tenant, query, now)),
        summary=withheld.text(summary),
        window=withheld.messages(window),
        excerpts=ranked.turns,
        excerpt_share=retrieval.excerpt_share,
        # Without excerpts, turns the tail leaves out could not be reached: the
        # window then fills its own budget, uncapped.
        verbatim_share=retrieval.verbatim_share if retrieval.expand_turns else None,
        verbatim_turns=retrieval.verbatim_turns if retrieval.expand_turns else None,
        question_led=retrieval.expand_turns,
    )
    budget = budget_without(config.budget, block)
    bundle = assemble(data, budget, config.facts, deps.counter, config.assembly)
    bundle = with_live(bundle, block, deps.counter, config.budget.total)
    return bundle.model_copy(update={"replaced": ranked.replaced})
