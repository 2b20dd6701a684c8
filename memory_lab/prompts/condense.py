"""Prompt: shorten a running summary that has outgrown its budget."""

from __future__ import annotations

import sys

from pydantic import BaseModel, ConfigDict, Field

from memory_lab.prompts._render import chat, data_rule, format_instructions, wrap_data
from memory_lab.prompts.versioning import module_version

NAME = "condense"


class CondenseResponse(BaseModel):
    """The shortened summary."""

    model_config = ConfigDict(extra="forbid")

    summary: str = Field(description="The condensed summary.")


def build(text: str, *, max_tokens: int) -> list[dict[str, str]]:
    """Messages asking to condense `text` to at most `max_tokens`."""
    words = max(1, int(max_tokens * 0.75))
    system = "\n\n".join(
        [
            "You maintain a running summary of a long conversation. Rewrite the "
            "summary so it fits the budget, keeping first what matters most later: "
            "standing instructions and constraints, who the user is, preferences, "
            "decisions, then open questions. Drop detail before dropping facts. "
            "Never add anything the summary does not say.",
            f"The result must be under {max_tokens} tokens (about {words} words).",
            data_rule("memory"),
            format_instructions(CondenseResponse),
        ]
    )
    return chat(system, f"Condense this summary.\n\n{wrap_data('memory', text)}")


VERSION = module_version(sys.modules[__name__], NAME)
"""Name and digest of this module's text and schemas (see `versioning`)."""
