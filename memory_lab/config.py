"""Frozen configuration: every number that changes what the memory keeps or shows.

Named recipes and the spec grammar live in `memory_lab.recipes`. Numbers that
change results are fields here, not module constants, so a run log records them
and a sweep can vary them. Invalid values fail at construction and name the
field. Settings from the environment are read only at the edges (CLI, app), by
`memlab_cli.settings`.

`MemoryConfig` and the smaller sections are here; the recipe (`triggers.recipe`),
the fact vocabulary (`fact_config`) and the endpoint settings (`llm_settings`)
have modules of their own, and every name is importable from here as before.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pydantic import Field, field_validator, model_validator

from memory_lab.fact_block_config import (
    FactGroup,
    GatherConfig,
    check_shares,
    default_groups,
    plain_header,
)
from memory_lab.fact_config import (
    DEFAULT_EXTRACTOR,
    EXTRACTORS,
    FACT_CATEGORIES,
    CategoryPolicy,
    Extractor,
    FactCategory,
    FactConfig,
)
from memory_lab.frozen import Frozen
from memory_lab.llm_settings import (
    STRUCTURED_OUTPUT_MODES,
    LLMSettings,
    StructuredOutput,
)
from memory_lab.triggers.recipe import Recipe, TriggerUse

__all__ = [
    "DEFAULT_EXTRACTOR",
    "EXTRACTORS",
    "FACT_CATEGORIES",
    "STRUCTURED_OUTPUT_MODES",
    "AssemblyConfig",
    "BudgetConfig",
    "CategoryPolicy",
    "Extractor",
    "FactCategory",
    "FactConfig",
    "FactGroup",
    "Frozen",
    "GatherConfig",
    "LLMSettings",
    "LimitsConfig",
    "MemoryConfig",
    "Recipe",
    "RetentionConfig",
    "RetrievalConfig",
    "SessionConfig",
    "StructuredOutput",
    "TriggerUse",
    "WindowConfig",
    "check_shares",
    "default_groups",
    "plain_header",
]


class WindowConfig(Frozen):
    """Session window: the running summary's budget and the episode summary sizes."""

    summary_budget_tokens: int = Field(default=300, ge=20)
    episode_summary_ratio: float = Field(
        default=0.4,
        gt=0.0,
        le=1.0,
        description="Episode summary length / source length.",
    )
    episode_summary_min_tokens: int = Field(default=40, ge=5)
    episode_summary_max_tokens: int = Field(default=220, ge=10)
    extract_every: int = Field(
        default=1,
        ge=1,
        description="Extract facts once this many turns are unextracted.",
    )


class BudgetConfig(Frozen):
    """Hard token budgets per block and in total for assembled context."""

    total: int = Field(default=1500, ge=50)
    facts: int = Field(default=250, ge=0)
    episodes: int = Field(default=850, ge=0)
    summary: int = Field(default=120, ge=0)
    window: int = Field(default=250, ge=0)

    def scaled(self, total: int) -> BudgetConfig:
        """The same shares at another total."""
        share = total / self.total
        return BudgetConfig(
            total=total,
            facts=int(self.facts * share),
            episodes=int(self.episodes * share),
            summary=int(self.summary * share),
            window=int(self.window * share),
        )


class AssemblyConfig(Frozen):
    """How assembly scans candidate lines into the budgeted blocks."""

    max_fact_lines: int = Field(
        default=300,
        ge=1,
        description="Ranked facts rendered for the facts block; far more than any "
        "budget holds, and the number of candidates fact memory is asked for.",
    )
    min_line_tokens: int = Field(
        default=6,
        ge=1,
        description="No line is shorter than this, so a smaller remainder of a "
        "block's budget ends the scan.",
    )
    max_misses: int = Field(
        default=25,
        ge=1,
        description="Lines in a row that may fail to fit before the scan gives up.",
    )


class RetrievalConfig(Frozen):
    """Episodic search parameters."""

    top_k: int = Field(default=16, ge=1)
    max_distance: float = Field(
        default=1.2, gt=0.0, le=2.0, description="Cosine distance cutoff (0..2)."
    )
    expand_turns: bool = Field(
        default=True,
        description="Expand retrieved episodes to their source turns that best match "
        "the query (verbatim excerpts beside the summaries).",
    )
    verbatim_share: float | None = Field(
        default=0.10,
        description=(
            "Share of the whole context budget the newest window turns fill "
            "verbatim, newest first and whole turns, so a chat keeps its last "
            "exchanges at any budget; the rest of the window competes with older "
            "turns by relevance to the question, and room the tail leaves unused "
            "goes to them. None: the window block's own budget. Without "
            "`expand_turns` the window fills its own budget, uncapped: turns it "
            "leaves out could not be reached."
        ),
    )
    verbatim_turns: int | None = Field(
        default=None,
        ge=0,
        description=(
            "At most this many newest window turns verbatim, whatever room "
            "`verbatim_share` gives (None: no cap beyond the share)."
        ),
    )
    excerpt_share: float = Field(
        default=0.9,
        ge=0.0,
        le=1.0,
        description=(
            "Share of the episode budget first offered to source-turn excerpts."
        ),
    )
    lexical_weight: float = Field(
        default=0.35,
        ge=0.0,
        description="Weight of the query's content-word overlap against cosine "
        "similarity when episodes are re-ranked (0..1 each): names, numbers and rare "
        "words are where embeddings are weakest.",
    )
    dense_bonus: float = Field(
        default=0.3,
        ge=0.0,
        description="Added to a source turn's normalised BM25 score when its "
        "episode was also found by meaning.",
    )

    @field_validator("verbatim_share")
    @classmethod
    def _a_share(cls, share: float | None) -> float | None:
        """A share of the budget: above 0, and below 1 so the notice fits."""
        if share is not None and not 0.0 < share < 1.0:
            raise ValueError(
                f"verbatim_share is a share of the context budget, above 0 and "
                f"below 1 (got {share}); to show no verbatim tail set "
                "verbatim_turns=0, and for the window block's budget set None"
            )
        return share


class LimitsConfig(Frozen):
    """What an ingested message may be."""

    max_message_chars: int = Field(default=200_000, ge=1)


class RetentionConfig(Frozen):
    """How long each tier keeps what it holds; None keeps it for good.

    Applied by the maintenance graph (a `retention` job at most once per
    `every`, on the engine's clock): what is past its age is removed for real,
    by the purge's own tiers, each tier on its own, so raw turns can go while
    the episodes that summarise them stay. A turn no episode summarises yet is
    never removed (compression summarises; retention does not drop), nor is a
    tenant's newest turn (turn numbers are never given twice).
    """

    raw_turns_days: float | None = Field(
        default=None,
        gt=0,
        description="Summarised transcript turns older than this are removed.",
    )
    episodes_days: float | None = Field(
        default=None,
        gt=0,
        description="Episodes, and day and week summaries, that ended longer ago.",
    )
    facts_days: dict[str, float] = Field(
        default_factory=dict,
        description="Per fact category: rows recorded longer ago are removed "
        "(active ones too). A category not named here is kept.",
    )
    events_days: float | None = Field(
        default=None, gt=0, description="Run-log events older than this."
    )
    cache_days: float | None = Field(
        default=None,
        gt=0,
        description="LLM response cache entries stored longer ago (with a model "
        "configured; the cache is shared by every tenant on the machine).",
    )
    every_hours: float = Field(
        default=24.0, gt=0, description="How often retention is applied."
    )

    @field_validator("facts_days")
    @classmethod
    def _positive_ages(cls, value: dict[str, float]) -> dict[str, float]:
        bad = sorted(k for k, days in value.items() if not days > 0)
        if bad:
            raise ValueError(f"facts_days must be > 0 for: {', '.join(bad)}")
        return value

    def period(self, now: datetime) -> int:
        """The number of the retention period `now` falls in (one job per period)."""
        return int(now.timestamp() // (self.every_hours * 3600))

    @property
    def active(self) -> bool:
        """Whether any tier has an age limit."""
        return bool(
            self.raw_turns_days
            or self.episodes_days
            or self.facts_days
            or self.events_days
            or self.cache_days
        )


class SessionConfig(Frozen):
    """When a session goes idle and when it closes, on the engine's clock.

    Both gaps count from the session's last turn. Closing extracts every turn
    past the watermark, as an explicit `close_session` does.
    """

    idle_after: timedelta = Field(
        default=timedelta(minutes=30),
        description="A session with no turn for this long is idle.",
    )
    close_after: timedelta = Field(
        default=timedelta(hours=4),
        description="A session with no turn for this long is closed (its turns "
        "extracted); at least idle_after.",
    )

    @model_validator(mode="after")
    def _gaps_in_order(self) -> SessionConfig:
        if self.idle_after <= timedelta(0):
            raise ValueError(f"idle_after must be > 0, got {self.idle_after}")
        if self.close_after < self.idle_after:
            raise ValueError(
                f"close_after ({self.close_after}) must be >= idle_after "
                f"({self.idle_after})"
            )
        return self


class MemoryConfig(Frozen):
    """Everything the engine needs besides its stores and clock."""

    recipe: Recipe = Field(
        default_factory=lambda: Recipe(name="A", triggers=(TriggerUse(name="A"),)),
        description="Which triggers compress; the default is `recipes.recipe('A')`.",
    )
    window: WindowConfig = Field(default_factory=WindowConfig)
    facts: FactConfig = Field(default_factory=FactConfig)
    budget: BudgetConfig = Field(default_factory=BudgetConfig)
    assembly: AssemblyConfig = Field(default_factory=AssemblyConfig)
    retrieval: RetrievalConfig = Field(default_factory=RetrievalConfig)
    limits: LimitsConfig = Field(default_factory=LimitsConfig)
    retention: RetentionConfig = Field(default_factory=RetentionConfig)
    sessions: SessionConfig = Field(default_factory=SessionConfig)
    llm: LLMSettings | None = None
    extractor: Extractor = Field(
        default=DEFAULT_EXTRACTOR,
        description="How the offline brain reads facts: `parse` (a dependency "
        "parse, with the rules for instructions and corrections), `rules` (the "
        "pattern table alone, for ablations) or `none` (no facts read from turns, "
        "by the offline brain or an LLM brain, so memory is turns alone; memory "
        "commands such as 'remember that ...' still store, correct and forget "
        "facts, a remembered statement kept as a note in the user's words).",
    )

    @model_validator(mode="after")
    def _retention_names_known_categories(self) -> MemoryConfig:
        known = sorted(self.facts.categories)
        unknown = sorted(set(self.retention.facts_days) - set(known))
        if unknown:
            raise ValueError(
                f"retention.facts_days names unknown fact categories: "
                f"{', '.join(unknown)} (known: {', '.join(known)})"
            )
        return self
