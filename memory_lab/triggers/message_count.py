"""Trigger A: compress when the window holds a number of messages."""

from __future__ import annotations

from pydantic import Field, model_validator

from memory_lab.triggers.base import Compress, TriggerParams, WindowView
from memory_lab.triggers.registry import register


class MessageCountTrigger(TriggerParams):
    """At `max_messages` in the window, compress all but the last `keep_last`."""

    max_messages: int = Field(
        default=20, ge=2, description="Window size that fires the trigger."
    )
    keep_last: int = Field(
        default=10, ge=0, description="Newest messages left in the window."
    )

    @model_validator(mode="after")
    def _keep_below_max(self) -> MessageCountTrigger:
        if self.keep_last >= self.max_messages:
            raise ValueError("keep_last must be below max_messages")
        return self


@register("A", MessageCountTrigger, time_limited=False)
def message_count(view: WindowView, p: MessageCountTrigger) -> Compress | None:
    """A: at a message count, compress all but the newest few."""
    if len(view) < p.max_messages:
        return None
    return Compress(
        len(view) - p.keep_last,
        f"A: {len(view)} messages >= {p.max_messages}; keep last {p.keep_last}",
    )
