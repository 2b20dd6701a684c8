"""The fact vocabulary and the lifecycle of structured facts (`FactConfig`).

`memory_lab.config` holds it in `MemoryConfig.facts` and re-exports every name.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Literal, get_args

from pydantic import Field, field_validator, model_validator

from memory_lab.fact_block_config import (
    FactGroup,
    GatherConfig,
    check_shares,
    default_groups,
    plain_header,
)
from memory_lab.frozen import Frozen

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
