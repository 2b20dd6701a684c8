"""Prompt: a short title for a chat, from the message that opened it."""

from __future__ import annotations

import sys

from memory_lab.prompts._render import chat
from memory_lab.prompts.versioning import module_version

NAME = "chat_title"
MAX_WORDS = 6


def build(first_message: str) -> list[dict[str, str]]:
    """Messages asking for a title of at most `MAX_WORDS` words, as plain text."""
    system = (
        "You name chats for a list of conversations. Reply with a title of at "
        f"most {MAX_WORDS} words that says what the chat is about, taken from the "
        "user's first message. Reply with the title alone: no quotes, no full "
        "stop, no explanation. Do not answer the message."
    )
    return chat(system, first_message)


VERSION = module_version(sys.modules[__name__], NAME)
"""Name and digest of this module's text (see `versioning`)."""
