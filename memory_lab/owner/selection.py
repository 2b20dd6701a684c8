"""What a purge is asked to remove, checked before anything is opened for writing.

One fact (with its history), one chat (a session id), one episode (the turns it
summarised), every turn before a date, or everything held about the tenant. A
request the memory cannot honour (an unknown tenant, fact, chat or episode, a
date that is not one or has not come yet) is refused here, through
`stores.folder_peek`, which only reads, so it changes no byte of the folder.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memory_lab.errors import MemoryLabError
from memory_lab.stores.folder_peek import held_records


class PurgeRequestError(MemoryLabError):
    """A purge names something the memory does not hold, or no valid date."""


@dataclass(frozen=True)
class Selection:
    """At most one of `fact`, `chat`, `episode`, `before`; none means everything."""

    fact: str | None = None
    """A fact id: that fact's rows (its whole history) and the turns it came from."""
    chat: str | None = None
    """A chat (a session id, or a thread id): its turns and the facts stated in it."""
    before: datetime | None = None
    """Every turn stamped earlier than this instant."""
    episode: str | None = None
    """An episode id: the turns it summarised, and what was read from them."""

    def __post_init__(self) -> None:
        chosen = (self.fact, self.chat, self.before, self.episode)
        if sum(v is not None for v in chosen) > 1:
            raise PurgeRequestError(
                "give at most one of --fact, --chat, --episode, --before"
            )
        if self.before is not None and self.before.tzinfo is None:
            raise ValueError("naive datetimes cannot select turns")

    @property
    def everything(self) -> bool:
        """Whether the whole tenant is purged."""
        return (
            self.fact is None
            and self.chat is None
            and self.before is None
            and self.episode is None
        )

    def to_json(self) -> dict[str, Any]:
        """The selection as the tombstone records it: ids or a date, no content."""
        if self.fact is not None:
            return {"fact": self.fact}
        if self.chat is not None:
            return {"chat": self.chat}
        if self.before is not None:
            return {"before": self.before.isoformat()}
        if self.episode is not None:
            return {"episode": self.episode}
        return {"everything": True}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Selection:
        """The selection `to_json` recorded."""
        before = data.get("before")
        return cls(
            fact=data.get("fact"),
            chat=data.get("chat"),
            episode=data.get("episode"),
            before=datetime.fromisoformat(before) if before else None,
        )

    def describe(self) -> str:
        """A few words for a report line."""
        if self.fact is not None:
            return f"fact {self.fact}"
        if self.chat is not None:
            return f"chat {self.chat}"
        if self.before is not None:
            return f"turns before {self.before.isoformat()}"
        if self.episode is not None:
            return f"episode {self.episode}"
        return "everything"


def parse_before(text: str, now: datetime) -> datetime:
    """`YYYY-MM-DD` (midnight UTC) or an ISO date and time (UTC without offset).

    Raises:
        PurgeRequestError: for text that is not a date, or a date after `now`: a
            purge of "everything before next year" is a purge of everything,
            which is asked for by giving no selection.
    """
    try:
        value = datetime.fromisoformat(text.strip())
    except ValueError:
        raise PurgeRequestError(
            f"--before {text!r} is not a date (use YYYY-MM-DD or an ISO time)"
        ) from None
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    if value > now:
        raise PurgeRequestError(
            f"--before {text} is in the future; to purge everything held about "
            "the tenant, give no --fact, --chat or --before"
        )
    return value


def check_request(database: Path, tenant: str, selection: Selection) -> None:
    """Refuse a purge that selects nothing the database holds.

    Raises:
        PurgeRequestError: naming the missing folder, tenant, fact or chat, or
            the date before which nothing is held.
    """
    if not database.is_file():
        raise PurgeRequestError(
            f"{database.parent}: no memory here (no {database.name})"
        )
    with held_records(database, tenant) as held:
        if not held.any():
            raise PurgeRequestError(f"no memory is held for tenant {tenant!r}")
        if selection.fact is not None and not held.fact(selection.fact):
            raise PurgeRequestError(
                f"no fact {selection.fact!r} is held for tenant {tenant!r}"
            )
        if selection.chat is not None and not held.chat(selection.chat):
            raise PurgeRequestError(
                f"no chat {selection.chat!r} is held for tenant {tenant!r}"
            )
        if selection.episode is not None and not held.episode(selection.episode):
            raise PurgeRequestError(
                f"no episode {selection.episode!r} is held for tenant {tenant!r}"
            )
        if selection.before is not None and not held.before(selection.before):
            raise PurgeRequestError(
                f"nothing is held for tenant {tenant!r} before "
                f"{selection.before.isoformat()}"
            )
