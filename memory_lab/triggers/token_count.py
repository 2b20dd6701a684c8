"""Trigger B: compress when the window's text passes a token count."""

from __future__ import annotations

from pydantic import Field, model_validator

from memory_lab.triggers.base import Compress, TriggerParams, WindowView
from memory_lab.triggers.registry import register


class TokenCountTrigger(TriggerParams):
    """Above `high_water` tokens, compress the oldest until at most `low_water`."""

    high_water: int = Field(
        default=600, ge=10, description="Window tokens that fire the trigger."
    )
    low_water: int = Field(
        default=300, ge=0, description="Window tokens left after compressing."
    )

    @model_validator(mode="after")
    def _low_below_high(self) -> TokenCountTrigger:
        if self.low_water >= self.high_water:
            raise ValueError("low_water must be below high_water")
        return self


@register("B", TokenCountTrigger, time_limited=False)
def token_count(view: WindowView, p: TokenCountTrigger) -> Compress | None:
    """B: above a high-water mark of tokens, compress the oldest to low water."""
    sizes = view.tokens()
    total = sum(sizes)
    if total <= p.high_water:
        return None
    count, remaining = 0, total
    while count < len(sizes) and remaining > p.low_water:
        remaining -= sizes[count]
        count += 1
    return Compress(
        count,
        f"B: {total} tokens > {p.high_water}; compress to {remaining} <= {p.low_water}",
    )
