"""Prompt: propose facts stated in a span of turns, each citing its turn."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage
from pydantic import BaseModel, ConfigDict, Field

from memory_lab.prompts._render import data_rule, format_instructions, render_turns
from memory_lab.types import Message

NAME = "extract"
VERSION = "extract/1"


class ExtractedFact(BaseModel):
    """One proposed fact; the brain checks it against the cited turn."""

    model_config = ConfigDict(extra="forbid")

    category: str = Field(description="One of the categories named in the prompt.")
    key: str = Field(description="Short snake_case attribute name, e.g. home_city.")
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


def build(
    messages: Sequence[Message], *, categories: Iterable[str]
) -> list[BaseMessage]:
    """Messages asking for the facts `messages` state, in the given categories."""
    system = "\n\n".join(
        [
            "You extract durable facts from chat turns for a memory store. Record "
            "only what a turn states outright: the user's identity, preferences, "
            "constraints, standing instructions, decisions, open items and other "
            "knowledge worth remembering. Copy each value word for word from the "
            "turn that states it and give that turn's id. Do not infer, guess or "
            "combine. If no turn states a fact, return an empty list.",
            "Allowed categories: " + ", ".join(categories) + ".",
            data_rule("turns"),
            format_instructions(ExtractionResponse),
        ]
    )
    return [
        SystemMessage(content=system),
        HumanMessage(
            content=f"Extract facts from these turns.\n\n{render_turns(messages)}"
        ),
    ]
