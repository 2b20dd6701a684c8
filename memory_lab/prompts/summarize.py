"""Prompt: compress a span of turns into one episode record."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from memory_lab.prompts._render import (
    chat,
    data_rule,
    format_instructions,
    render_turns,
)
from memory_lab.prompts.versioning import module_version
from memory_lab.types import Message

NAME = "summarize"


class SummaryResponse(BaseModel):
    """What the model returns for a span of turns.

    Every field is required (lists may be empty): strict structured-output
    endpoints demand it, and a reply missing a field is then a wrong shape the
    brain re-asks instead of a silently empty record.
    """

    model_config = ConfigDict(extra="forbid")

    summary: str = Field(description="What happened in the turns, in a few sentences.")
    intent: str = Field(description="The user's main goal in these turns; '' if none.")
    key_facts: list[str] = Field(description="Two or three facts stated in the turns.")
    decisions: list[str] = Field(description="Decisions reached; [] if none.")
    open_questions: list[str] = Field(description="Questions left open; [] if none.")


def build(messages: Sequence[Message], *, max_tokens: int) -> list[dict[str, str]]:
    """Messages asking for a summary of `messages` within `max_tokens`."""
    words = max(1, int(max_tokens * 0.75))
    system = "\n\n".join(
        [
            "You compress chat transcripts into memory records. Read the turns and "
            "write what a later conversation would need: the user's intent, the "
            "facts stated, the decisions made and the questions left open. Use "
            "only what the turns say; never add facts of your own.",
            f"Keep the summary under {max_tokens} tokens (about {words} words).",
            data_rule("turns"),
            format_instructions(SummaryResponse),
        ]
    )
    return chat(system, f"Summarize these turns.\n\n{render_turns(messages)}")


VERSION = module_version(sys.modules[__name__], NAME)
"""Name and digest of this module's text and schemas (see `versioning`)."""
