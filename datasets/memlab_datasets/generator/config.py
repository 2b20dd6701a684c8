"""The generator's knobs, and the fixed points every conversation shares."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

EPOCH = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
"""Day 0 of every synthetic conversation (a Monday)."""

GENERATOR_VERSION = 1
"""Bumped whenever the same knobs would produce different text."""

USER_SPEAKER = "User"
"""The user's speaker label: neutral, so the planted name is not given away."""


class GeneratorConfig(BaseModel):
    """Knobs of the synthetic generator; the field descriptions are the CLI help."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int = Field(default=0, description="Same seed and knobs, same bytes.")
    conversations: int = Field(default=4, ge=1, description="How many tenants.")
    sessions: int = Field(default=6, ge=1, description="Sessions per conversation.")
    turns_per_session: int = Field(
        default=16, ge=2, description="Turns (user and assistant) per session."
    )
    fact_density: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="Share of non-small-talk exchanges that state, update, confirm "
        "or resolve a fact.",
    )
    update_rate: float = Field(
        default=0.3,
        ge=0.0,
        le=1.0,
        description="Share of fact moves that change a value.",
    )
    distractor_ratio: float = Field(
        default=0.25,
        ge=0.0,
        lt=1.0,
        description="Share of exchanges that are small talk.",
    )
    trap_rate: float = Field(
        default=0.2,
        ge=0.0,
        le=1.0,
        description="Share of non-small-talk exchanges that set a trap.",
    )
    long_message_rate: float = Field(
        default=0.05, ge=0.0, le=1.0, description="Share of user turns made very long."
    )
    span_days: int = Field(
        default=28, ge=1, description="Days the sessions spread over."
    )
    domain: Literal["mixed", "bookkeeping", "finance", "coding", "companion"] = Field(
        default="mixed", description="One domain, or 'mixed' to rotate through all."
    )
    probes_per_kind: int = Field(
        default=4, ge=0, description="At most this many probes of each kind per tenant."
    )

    @model_validator(mode="after")
    def _shares_fit(self) -> GeneratorConfig:
        if self.fact_density + self.trap_rate > 1.0:
            raise ValueError("fact_density + trap_rate must not exceed 1")
        return self

    def spec(self) -> str:
        """The `synthetic:...` spec that reproduces this config (defaults omitted)."""
        defaults = GeneratorConfig()
        parts = [
            f"{name}={value}"
            for name, value in self.model_dump().items()
            if value != getattr(defaults, name)
        ]
        return "synthetic" + (":" + ",".join(parts) if parts else "")
