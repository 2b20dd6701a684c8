"""Prompt: answer the user with the assembled memory context.

Plain chat, no structured output: the reply is text for the user.
"""

from __future__ import annotations

from langchain_core.messages import BaseMessage, HumanMessage, SystemMessage

from memory_lab.prompts._render import data_rule, wrap_data
from memory_lab.types import ContextBundle, Message

NAME = "respond"
VERSION = "respond/1"


def build(question: Message, context: ContextBundle) -> list[BaseMessage]:
    """The memory as a delimited system message, then the user's question.

    The question is the user speaking now, so it goes in as the user's turn;
    only remembered material is fenced off as data.
    """
    system = "\n\n".join(
        [
            "You are a helpful assistant with long-term memory. The memory below "
            "holds facts, summaries of earlier conversations and recent turns. Use "
            "it when it helps answer the user. If the memory does not contain "
            "what is asked, say you do not know rather than guessing. If memory "
            "items conflict or are marked uncertain, say so.",
            data_rule("memory"),
            wrap_data("memory", context.text),
        ]
    )
    return [SystemMessage(content=system), HumanMessage(content=question.content)]
