"""Turns as callers give them (mappings of role and content) made into messages.

Each problem is named by its place in the batch (`messages[1].content`), so an
MCP client, a LangChain history and a script get the same one-line error.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from memory_lab.errors import InvalidMessageError
from memory_lab.types import Message

MESSAGE_FIELDS = {"role", "content", "timestamp", "id", "speaker", "session"}
"""What a message given as a mapping may carry."""


def to_message(
    given: Message | Mapping[str, Any],
    i: int,
    tenant: str,
    thread: str,
    now: datetime,
) -> Message:
    """Message `i` of a batch for `tenant`'s `thread`; `now` when it has no time.

    Raises:
        InvalidMessageError: naming the message and the field.
    """
    if isinstance(given, Message):
        return given
    if not isinstance(given, Mapping):
        raise InvalidMessageError(
            f"messages[{i}]: expected an object with role and content, "
            f"got {type(given).__name__}"
        )
    unknown = sorted(set(given) - MESSAGE_FIELDS)
    if unknown:
        raise InvalidMessageError(
            f"messages[{i}]: unknown field {unknown[0]!r} "
            f"(known: {', '.join(sorted(MESSAGE_FIELDS))})"
        )
    for name in ("role", "content"):
        if name not in given:
            raise InvalidMessageError(f"messages[{i}].{name}: missing")
    content = given["content"]
    if not isinstance(content, str) or not content.strip():
        raise InvalidMessageError(f"messages[{i}].content: must be non-empty text")
    fields = {
        "id": given.get("id") or f"{thread}:{uuid.uuid4().hex[:16]}",
        "tenant": tenant,
        "session": given.get("session") or thread,
        "role": given["role"],
        "content": content,
        "speaker": given.get("speaker") or "",
        "timestamp": given.get("timestamp") or now,
    }
    try:
        return Message.model_validate(fields)
    except ValueError as err:
        errors: list[Any] = getattr(err, "errors", list)()
        where = ".".join(str(p) for p in errors[0]["loc"]) if errors else "message"
        what = errors[0]["msg"] if errors else str(err)
        raise InvalidMessageError(f"messages[{i}].{where}: {what}") from None
