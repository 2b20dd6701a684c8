"""Checks a message must pass before anything is stored.

Each check fails with a named reason.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_lab.config import LimitsConfig
from memory_lab.errors import InvalidMessageError, require_tenant
from memory_lab.types import Message


def validate_message(message: Message, limits: LimitsConfig) -> None:
    """Raise InvalidMessageError naming the message and the problem.

    Empty or whitespace-only text, text past the size limit, NUL bytes and
    unpaired surrogates (not encodable as UTF-8) are rejected.
    """
    require_tenant(message.tenant)
    label = f"message {message.id!r}"
    if not message.id.strip():
        raise InvalidMessageError("a message has an empty id")
    if not message.content.strip():
        raise InvalidMessageError(f"{label} is empty")
    if len(message.content) > limits.max_message_chars:
        raise InvalidMessageError(
            f"{label} has {len(message.content):,} characters; the limit is "
            f"{limits.max_message_chars:,} (set limits.max_message_chars to change it)"
        )
    if "\x00" in message.content:
        raise InvalidMessageError(f"{label} contains a NUL byte")
    try:
        message.content.encode("utf-8")
    except UnicodeEncodeError as err:
        raise InvalidMessageError(
            f"{label} contains an invalid character at position {err.start} "
            "(unpaired surrogate)"
        ) from None


def validate_batch(
    tenant: str, messages: Sequence[Message], limits: LimitsConfig
) -> None:
    """Validate every message of a batch before any of it is stored."""
    require_tenant(tenant)
    for m in messages:
        if m.tenant != tenant:
            raise InvalidMessageError(
                f"message {m.id!r} belongs to tenant {m.tenant!r}, not {tenant!r}"
            )
        validate_message(m, limits)
