"""Prompt: propose facts the user's turns state, each citing its turn.

The model is shown the active facts about the people in the turns, so a changed
value is proposed under the key it is stored under and supersedes it, instead of
starting a second, drifting key beside it.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from memory_lab.prompts._render import (
    chat,
    data_rule,
    format_instructions,
    render_turns,
    wrap_data,
)
from memory_lab.prompts.versioning import module_version
from memory_lab.types import Fact, Message

NAME = "extract"


class ExtractedFact(BaseModel):
    """One proposed fact; the brain checks it against the cited turn."""

    model_config = ConfigDict(extra="forbid")

    category: str = Field(description="One of the categories named in the prompt.")
    key: str = Field(
        description="Short lower-case attribute name, dots for groups, e.g. "
        "home_city or preference.drink; a known fact's key when updating it."
    )
    value: str = Field(description="The value, copied word for word from the turn.")
    subject: str = Field(description="Who the fact is about: 'user' or a name.")
    confidence: float = Field(description="0 to 1: how clearly the turn states it.")
    importance: float = Field(description="0 to 1: how much it matters later.")
    evidence: str = Field(description="The exact span of the turn that states it.")
    turn_id: str = Field(description="The id attribute of the turn that states it.")


class ExtractionResponse(BaseModel):
    """All facts proposed for the span; [] when the turns state none."""

    model_config = ConfigDict(extra="forbid")

    facts: list[ExtractedFact]


def render_known(facts: Sequence[Fact]) -> str:
    """One `subject | category | key = value` line per stored fact."""
    if not facts:
        return "(none)"
    return "\n".join(f"{f.subject} | {f.category} | {f.key} = {f.value}" for f in facts)


def build(
    messages: Sequence[Message],
    *,
    categories: Iterable[str],
    known: Sequence[Fact] = (),
) -> list[dict[str, str]]:
    """Messages asking for the facts `messages` state, in the given categories.

    Args:
        messages: The turns to read; the brain passes only what people said.
        categories: The fact vocabulary.
        known: Stored active facts about the subjects in play.
    """
    system = "\n\n".join(
        [
            "You extract durable facts from chat turns for a memory store. Record "
            "only what a turn states outright: the user's identity, preferences, "
            "constraints, standing instructions, decisions, open items and other "
            "knowledge worth remembering. Copy each value word for word from the "
            "turn that states it and give that turn's id. Do not infer, guess or "
            "combine. If no turn states a fact, return an empty list.",
            "Facts already stored are listed in <known_facts>. When a turn changes "
            "or repeats one of them, use the same subject, category and key, so "
            "the new value replaces the old one. Do not propose a known fact the "
            "turns do not mention.",
            "Allowed categories: " + ", ".join(categories) + ".",
            data_rule("turns", "known_facts"),
            format_instructions(ExtractionResponse),
        ]
    )
    user = "\n\n".join(
        [
            wrap_data("known_facts", render_known(known)),
            f"Extract facts from these turns.\n\n{render_turns(messages)}",
        ]
    )
    return chat(system, user)


VERSION = module_version(sys.modules[__name__], NAME)
"""Name and digest of this module's text and schemas (see `versioning`)."""
