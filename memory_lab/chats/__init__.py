"""A tenant's chats: the catalog of its threads, with titles, search and a trash."""

from memory_lab.chats.catalog import (
    Chat,
    ChatCatalog,
    ChatError,
    SearchHit,
    UnknownChatError,
)

__all__ = ["Chat", "ChatCatalog", "ChatError", "SearchHit", "UnknownChatError"]
