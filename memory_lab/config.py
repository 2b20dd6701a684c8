"""Frozen configuration: every number that changes what the memory keeps or shows.

Named recipes and the spec grammar live in `memory_lab.recipes`. Numbers that
change results are fields here, not module constants, so a run log records them
and a sweep can vary them. Invalid values fail at construction and name the
field. Settings from the environment are read only at the edges (CLI, app), by
`memlab_cli.settings`.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any, Literal, get_args

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    field_validator,
    model_validator,
)

from memory_lab.fact_block_config import (
    FactGroup,
    GatherConfig,
    check_shares,
    default_groups,
    plain_header,
)

StructuredOutput = Literal["json_schema", "json_object_schema", "json_object", "none"]
"""How an endpoint can be asked for JSON; servers differ. The modes are in
order of the strength of their guarantee: the order an endpoint is probed in."""
STRUCTURED_OUTPUT_MODES: tuple[StructuredOutput, ...] = get_args(StructuredOutput)


class Frozen(BaseModel):
    """Base for immutable, strict configuration models."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class TriggerUse(Frozen):
    """One trigger of a recipe: its registered name and its full parameters."""

    name: str = Field(description="A name in `memory_lab.triggers` (A, B, C, D...).")
    params: dict[str, Any] = Field(
        default_factory=dict,
        description="Every parameter, defaults filled in, as the trigger's model "
        "dumps them (so the run log shows what ran, not only what was changed).",
    )


class Recipe(Frozen):
    """A named combination of triggers; any one firing compresses (any-of).

    Triggers are looked up in `memory_lab.triggers` when the recipe is made, so a
    recipe naming an unknown trigger or a bad parameter fails at once.
    """

    name: str
    triggers: tuple[TriggerUse, ...]
    episode_max_messages: int = Field(
        default=12, ge=1, description="Long spans are split into episodes this size."
    )
    decision_seconds: float = Field(
        default=30.0,
        gt=0,
        description="How long the recipe's triggers may take to decide, together, "
        "before the one still deciding is refused.",
    )

    @model_validator(mode="after")
    def _known_triggers(self) -> Recipe:
        if not self.triggers:
            raise ValueError(f"recipe {self.name!r} has no trigger")
        names = [t.name for t in self.triggers]
        if len(set(names)) != len(names):
            raise ValueError(f"recipe {self.name!r} names a trigger twice")
        return self

    @field_validator("triggers", mode="after")
    @classmethod
    def _full_params(cls, uses: tuple[TriggerUse, ...]) -> tuple[TriggerUse, ...]:
        """Each trigger registered and its parameters valid, defaults filled in."""
        from memory_lab.triggers.registry import get_trigger

        full = []
        for use in uses:
            trigger = get_trigger(use.name)
            if trigger is None:
                raise ValueError(f"unknown trigger {use.name!r}")
            params = trigger.params.model_validate(use.params)
            full.append(
                TriggerUse(name=trigger.name, params=params.model_dump(mode="json"))
            )
        return tuple(full)

    def params_of(self, name: str) -> Any:
        """The typed parameters of one of the recipe's triggers; None if absent."""
        from memory_lab.triggers.registry import get_trigger

        for use in self.triggers:
            if use.name == name.upper():
                trigger = get_trigger(use.name)
                return trigger.params.model_validate(use.params) if trigger else None
        return None

    def with_params(self, **params: object) -> Recipe:
        """A copy with parameters overridden.

        A trigger's parameter is named with its trigger's prefix (``a_max_messages``)
        or, when only one of the recipe's triggers has it, alone (``threshold``);
        recipe-level fields (``episode_max_messages``) by their names.

        Raises:
            ValueError: naming a parameter no trigger of the recipe takes.
        """
        from memory_lab.triggers.registry import get_trigger

        data = self.model_dump()
        uses = {u["name"]: u for u in data["triggers"]}
        fields: dict[str, set[str]] = {}
        for name in uses:
            trigger = get_trigger(name)
            assert trigger is not None  # checked when the recipe was made
            fields[name] = set(trigger.params.model_fields)
        for key, value in params.items():
            if key in data and key not in ("name", "triggers"):
                data[key] = value
                continue
            target = None
            for name in uses:
                prefix = name.lower() + "_"
                if key.startswith(prefix) and key[len(prefix) :] in fields[name]:
                    target = (name, key[len(prefix) :])
            if target is None:
                owners = [name for name in uses if key in fields[name]]
                if len(owners) == 1:
                    target = (owners[0], key)
                elif len(owners) > 1:
                    raise ValueError(
                        f"parameter {key!r} is taken by triggers {', '.join(owners)} "
                        f"of recipe {self.name!r}: prefix it, e.g. "
                        f"{owners[0].lower()}_{key}"
                    )
            if target is None:
                known = sorted(
                    f"{name.lower()}_{field}" for name in uses for field in fields[name]
                )
                raise ValueError(
                    f"unknown recipe parameter {key!r} for {self.name!r}; "
                    f"known: {', '.join(known + ['episode_max_messages'])}"
                )
            name, field = target
            uses[name]["params"][field] = value
        return Recipe.model_validate(data)


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


Extractor = Literal["parse", "rules", "none"]
"""How the offline brain reads facts from turns; `none` reads none (an ablation)."""

EXTRACTORS: tuple[Extractor, ...] = get_args(Extractor)
DEFAULT_EXTRACTOR: Extractor = "parse"
"""The one place the default is set; every entry point's default reads it."""

FactCategory = Literal[
    "instruction",
    "constraint",
    "identity",
    "preference",
    "unresolved",
    "decision",
    "knowledge",
]
"""The fact vocabulary: what the brains extract, the datasets plant and evals score."""
FACT_CATEGORIES: tuple[FactCategory, ...] = get_args(FactCategory)


class CategoryPolicy(Frozen):
    """Lifecycle and weight of one fact category.

    Standing rules and constraints matter on every turn and never fade; open
    items and knowledge go stale, so they expire and their confidence decays.
    """

    priority: int = Field(description="Lower is injected first.")
    standing: bool = Field(
        default=False,
        description="Describes how to treat the user: injected before relevance "
        "ranking, and kept even when the question shares no word with it.",
    )
    importance: float = Field(
        default=0.5, ge=0.0, le=1.0, description="Importance of an extracted fact."
    )
    ttl_days: float | None = Field(default=None, description="None never expires.")
    half_life_days: float | None = Field(
        default=None, description="Decay of extracted confidence; None never decays."
    )


def _default_categories() -> dict[str, CategoryPolicy]:
    policies = {
        "instruction": CategoryPolicy(priority=0, standing=True, importance=0.9),
        "constraint": CategoryPolicy(priority=1, standing=True, importance=0.9),
        "identity": CategoryPolicy(priority=2, standing=True, importance=0.85),
        "preference": CategoryPolicy(priority=3, importance=0.7, half_life_days=365),
        "unresolved": CategoryPolicy(
            priority=4, importance=0.6, ttl_days=30, half_life_days=30
        ),
        "decision": CategoryPolicy(priority=5, importance=0.75, half_life_days=730),
        "knowledge": CategoryPolicy(
            priority=6, importance=0.55, ttl_days=182, half_life_days=120
        ),
    }
    return policies


class FactConfig(Frozen):
    """Vocabulary and lifecycle of structured facts."""

    categories: dict[str, CategoryPolicy] = Field(default_factory=_default_categories)
    groups: tuple[FactGroup, ...] = Field(
        default_factory=default_groups,
        description="Headers of the facts block, in the order shown, and the "
        "categories under each; within a header, facts keep their rank order. "
        "The user's instructions are how they want to be answered (preferences); "
        "identity and constraints are what holds about them (knowledge).",
    )
    other_header: str = Field(
        default="Other",
        min_length=1,
        max_length=40,
        description="Header of the facts whose category no group lists.",
    )
    confidence_floor: float = Field(default=0.35, ge=0.0, le=1.0)
    hedge_below: float = Field(
        default=0.6, ge=0.0, le=1.0, description="Facts below this are marked hedged."
    )
    confirm_boost: float = Field(default=0.1, ge=0.0, le=1.0)
    supersede_margin: float = Field(
        default=0.15,
        ge=0.0,
        le=1.0,
        description="How much less confident a newer extracted value may be and "
        "still replace the stored one; below that it is flagged as a contradiction.",
    )
    restate_margin: float = Field(
        default=0.2,
        ge=0.0,
        le=1.0,
        description="A restatement this much less confident than the stored value "
        "is skipped instead of confirming it.",
    )
    consolidate_above: int = Field(
        default=50, ge=2, description="Active facts per subject before consolidation."
    )
    stale_open_item_days: int = Field(default=7, ge=1)
    same_meaning_threshold: float = Field(
        default=0.7,
        ge=0.0,
        le=1.0,
        description="Cosine similarity of 'key: value' embeddings above which a "
        "new fact is the same fact as a stored one of its subject and category "
        "(measured with the local MiniLM: paraphrases 0.73-0.89, distinct facts "
        "at most 0.61).",
    )
    same_quantity_threshold: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="A stated change of an amount ('it's $50 a week now') "
        "updates the stored amount of the same units and period whose 'key: "
        "value' text, numbers masked, is most alike, at or above this cosine "
        "similarity (local MiniLM: 'budget' against 'spend limit takeaways' "
        "0.72, against 'spend limit extras' 0.79; 'budget eating' against 'spend "
        "limit eating out' 0.54).",
    )
    changed_kind_threshold: float = Field(
        default=0.28,
        ge=0.0,
        le=1.0,
        description="A stated change of another value ('more into jazz lately') "
        "updates the same category's stored value most alike in meaning, at or "
        "above this cosine similarity of the values (local MiniLM: genres of "
        "music 0.29-0.48, a genre against a dish 0.16-0.21, two pastimes 0.25; "
        "a thin margin).",
    )
    changed_relation_bonus: float = Field(
        default=0.08,
        ge=0.0,
        le=1.0,
        description="Added to that similarity for a stored value listed under the "
        "same relation ('prefers.X' against 'prefers.Y'): the relation says they "
        "are one kind of thing where the bare values embed apart ('bullet points' "
        "against 'numbered lists' 0.25).",
    )
    same_slot_threshold: float = Field(
        default=0.36,
        ge=0.0,
        le=1.0,
        description="When a new fact's value equals a stored one's, cosine "
        "similarity of the two keys' words needed to call them one slot (local "
        "MiniLM: paraphrased slots 0.37-0.80, such as 'diet' and 'is vegetarian'; "
        "unrelated ones up to 0.36, such as 'city' and 'job'; a thin margin).",
    )
    related_threshold: float = Field(
        default=0.55,
        ge=0.0,
        le=1.0,
        description="Cosine of two facts' 'key: value' embeddings from which "
        "consolidation and gathered lines take them for one kind of thing "
        "(`facts.grouping.RELATED_THRESHOLD` says what was measured).",
    )
    gather: GatherConfig = Field(default_factory=GatherConfig)

    @field_validator("other_header")
    @classmethod
    def _plain_other(cls, header: str) -> str:
        return plain_header(header)

    @model_validator(mode="after")
    def _groups_partition(self) -> FactConfig:
        """Each category under at most one header, and headers told apart.

        Groups given explicitly must name known categories; the default groups
        skip the categories a reduced vocabulary leaves out.
        """
        headers = [g.header for g in self.groups] + [self.other_header]
        twice = sorted({h for h in headers if headers.count(h) > 1})
        if twice:
            raise ValueError(
                f"groups: header {twice[0]!r} is used twice (other_header included)"
            )
        seen: dict[str, str] = {}
        for group in self.groups:
            for category in group.categories:
                if category in seen:
                    raise ValueError(
                        f"groups: category {category!r} is under both "
                        f"{seen[category]!r} and {group.header!r}"
                    )
                seen[category] = group.header
        check_shares(self.groups)
        unknown = sorted(set(seen) - set(self.categories))
        if unknown and "groups" in self.model_fields_set:
            known = ", ".join(sorted(self.categories))
            raise ValueError(
                f"groups: unknown fact category {unknown[0]!r} (known: {known})"
            )
        return self

    def shares(self) -> dict[str, float]:
        """Each header's share of the facts block, for the headers given one."""
        return {g.header: g.share for g in self.groups if g.share is not None}

    def header(self, category: str) -> str:
        """The facts block header a category is listed under."""
        for group in self.groups:
            if category in group.categories:
                return group.header
        return self.other_header

    def policy(self, category: str) -> CategoryPolicy:
        """Policy of a category.

        Raises:
            ValueError: naming the category when it is not in the vocabulary.
        """
        try:
            return self.categories[category]
        except KeyError:
            known = ", ".join(sorted(self.categories))
            raise ValueError(
                f"unknown fact category {category!r} (known: {known})"
            ) from None

    def standing(self, category: str) -> bool:
        """Whether a category is injected before relevance ranking."""
        policy = self.categories.get(category)
        return policy is not None and policy.standing

    def priority(self, category: str) -> int:
        """Injection priority of a category; unknown categories come last."""
        policy = self.categories.get(category)
        return policy.priority if policy is not None else 99

    def importance(self, category: str) -> float:
        """Importance of an extracted fact of a category; 0.5 when unknown."""
        policy = self.categories.get(category)
        return policy.importance if policy is not None else 0.5

    def ttl(self, category: str) -> timedelta | None:
        """Time to live of a category, or None."""
        days = self.policy(category).ttl_days
        return None if days is None else timedelta(days=days)


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


class LLMSettings(Frozen):
    """An OpenAI-compatible endpoint; absent means the offline rule-based brain."""

    base_url: str = Field(description="The endpoint, ending in /v1.")
    model: str = Field(description="Model that summarises, condenses and answers.")
    api_key: SecretStr = Field(
        default=SecretStr("not-needed"),
        description="Bearer token; kept secret in reprs and dumps (run logs).",
    )
    extract_model: str | None = Field(
        default=None,
        description="Model for fact extraction, when it should differ (a cheaper "
        "one is common); None uses `model`.",
    )
    extract_base_url: str | None = Field(
        default=None, description="Endpoint of `extract_model`; None uses base_url."
    )
    timeout_s: float = Field(
        default=30.0,
        gt=0,
        description="Per request, for the lanes that set no timeout of their own.",
    )
    reply_timeout_s: float | None = Field(
        default=None,
        gt=0,
        description="Per reply request; None uses timeout_s. On a one-slot local "
        "server a reply may queue behind a summary, so it needs room for both.",
    )
    background_timeout_s: float | None = Field(
        default=None,
        gt=0,
        description="Per request of memory work (summaries, condensing, "
        "extraction); None uses timeout_s. A small CPU model takes tens of seconds "
        "over a long span, and no one is waiting on it.",
    )
    max_attempts: int = Field(
        default=3,
        ge=1,
        le=10,
        description="Attempts per request (the first included) on timeouts, "
        "429 and 5xx.",
    )
    backoff_s: float = Field(
        default=0.5,
        ge=0.0,
        description="First pause between attempts; doubles each time, plus jitter.",
    )
    max_backoff_s: float = Field(
        default=30.0, ge=0.0, description="Cap on any pause, Retry-After included."
    )
    structured_output: Literal["auto", StructuredOutput] = Field(
        default="auto",
        description="How the endpoint is asked for JSON; servers differ. 'auto' "
        "probes once per endpoint and model and remembers the answer in the "
        "response cache.",
    )
    output_attempts: int = Field(
        default=2,
        ge=1,
        le=5,
        description="Tries per call when the reply is unusable (bad JSON, wrong "
        "shape); each retry shows the model its reply and what was wrong.",
    )
    breaker_failures: int = Field(
        default=1,
        ge=1,
        description="Consecutive calls that exhaust their attempts before the "
        "endpoint is skipped: a failing endpoint costs one timeout budget, not "
        "one per call.",
    )
    breaker_cooldown_s: float = Field(
        default=60.0,
        ge=0.0,
        description="How long a failing endpoint is skipped before one call "
        "tries it again.",
    )
    reply_breaker_cooldown_s: float | None = Field(
        default=None,
        ge=0.0,
        description="How long replies skip a failing endpoint; None uses "
        "breaker_cooldown_s. Replies and memory work each have their own breaker, "
        "and a shorter rest gets replies back on the model sooner.",
    )
    use_cache: bool = Field(
        default=True, description="Serve repeated requests from the response cache."
    )
    cache_path: str | None = Field(
        default=None,
        description="Response cache file; None uses "
        "$XDG_CACHE_HOME/memory-lab/llm-cache.sqlite.",
    )
    max_connections: int = Field(
        default=4, ge=1, description="Concurrent requests per event loop."
    )
    extract_max_tokens: int = Field(
        default=768,
        ge=64,
        description="Cap on an extraction reply; a reply cut off here is unusable.",
    )
    respond_max_tokens: int = Field(default=400, ge=16, description="Cap on a reply.")
    agentic_memory: bool = Field(
        default=False,
        description="Offer the replying model the memory tools (save, update, "
        "forget, confirm, list, recall, link, unlink, links) for the tenant it "
        "answers; what it calls is carried out and recorded as events.",
    )
    tool_rounds: int = Field(
        default=4,
        ge=1,
        le=16,
        description="Rounds of tool calls carried out per reply with agentic "
        "memory; then the model must answer without tools.",
    )
    known_facts_shown: int = Field(
        default=30,
        ge=0,
        description="Stored facts shown to the extractor so updates reuse keys.",
    )
    extract_from_assistant: bool = Field(
        default=False,
        description="Also extract from assistant turns. Only for data where both "
        "roles are people (LoCoMo's second speaker); off, an assistant never "
        "re-learns its own replies.",
    )

    def timeout_for(self, role: Literal["reply", "background"]) -> float:
        """The per-request timeout of a lane: its own, else `timeout_s`."""
        own = self.reply_timeout_s if role == "reply" else self.background_timeout_s
        return own if own is not None else self.timeout_s

    def cooldown_for(self, role: Literal["reply", "background"]) -> float:
        """How long a lane's breaker rests: replies may rest less than memory work."""
        own = self.reply_breaker_cooldown_s if role == "reply" else None
        return own if own is not None else self.breaker_cooldown_s


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
