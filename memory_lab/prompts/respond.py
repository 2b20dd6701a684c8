"""Prompt: answer the user with the assembled memory context.

Plain chat, no structured output: the reply is text for the user. The context
arrives from assembly already delimited (`<memory type=...>` blocks) and escaped,
so it is placed as it is: escaping it again would show the model `&amp;lt;`
where the user wrote `<`.
"""

from __future__ import annotations

import sys

from memory_lab.prompts._render import chat, data_rule
from memory_lab.prompts.versioning import module_version
from memory_lab.types import ContextBundle, Message

NAME = "respond"

NO_MEMORY = '<memory type="none">\n(nothing remembered yet)\n</memory>'


def build(question: Message, context: ContextBundle) -> list[dict[str, str]]:
    """The memory in the system message, then the user's question as the user turn.

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
            context.text or NO_MEMORY,
        ]
    )
    return chat(system, question.content)


VERSION = module_version(sys.modules[__name__], NAME)
"""Name and digest of this module's text and schemas (see `versioning`)."""
