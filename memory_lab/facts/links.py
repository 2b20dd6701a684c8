"""Typed links between facts: supersedes, relates_to, caused_by.

Supersession is already recorded on the superseded row (`Fact.superseded_by`),
so "supersedes" links are derived from the fact rows, never stored twice; the
other types are rows of their own (`FactLinkStore`), made on request (the API,
the memory tools, the app) and end-dated like facts, never deleted.

Nothing here makes links from the conversation by itself. Two facts said in one
turn about one subject are most of a user's facts, so "same turn" would link
nearly everything; and "because" between two facts needs to know which clause
each fact came from, which the evidence spans do not reliably say. A wrong
causal link is worse than none, so links come only from someone who means them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import datetime
from typing import Literal, get_args

from memory_lab.errors import MemoryLabError
from memory_lab.types import Fact, FactLink

LinkType = Literal["supersedes", "relates_to", "caused_by"]
LINK_TYPES: tuple[str, ...] = get_args(LinkType)
STORED_TYPES = ("relates_to", "caused_by")
"""The types kept in the link store; "supersedes" is read from the fact rows."""
SYMMETRIC = frozenset({"relates_to"})
"""Types that read the same both ways: stored with the ends in one order."""


class LinkError(MemoryLabError, ValueError):
    """A link that cannot be made or ended; the message says why."""


def check_type(link_type: str) -> str:
    """The type if links can be made of it.

    Raises:
        LinkError: naming an unknown type, or "supersedes" (made by corrections).
    """
    if link_type not in LINK_TYPES:
        raise LinkError(
            f"unknown link type {link_type!r} (known: {', '.join(LINK_TYPES)})"
        )
    if link_type not in STORED_TYPES:
        raise LinkError(
            f"{link_type!r} links are made by corrections (a new value of the "
            "same key), not asked for; link with one of " + ", ".join(STORED_TYPES)
        )
    return link_type


def new_link(
    tenant: str,
    link_type: str,
    source: Fact,
    target: Fact,
    now: datetime,
    origin: str,
) -> FactLink:
    """The row a checked request becomes.

    Raises:
        LinkError: for a self-link, or facts of another tenant than `tenant`
            (named as missing, so a link never tells one tenant another's ids).
    """
    check_type(link_type)
    for fact in (source, target):
        if fact.tenant != tenant:
            raise LinkError(f"no fact {fact.id!r} for tenant {tenant!r}")
    if source.id == target.id:
        raise LinkError(f"a fact cannot be linked to itself ({source.id!r})")
    ends = (source.id, target.id)
    if link_type in SYMMETRIC:
        ends = (min(ends), max(ends))
    raw = "|".join([tenant, link_type, *ends, now.isoformat()])
    return FactLink(
        id="l_" + hashlib.sha1(raw.encode()).hexdigest()[:16],
        tenant=tenant,
        type=link_type,
        source=ends[0],
        target=ends[1],
        origin=origin,
        created_at=now,
    )


def same_link(a: FactLink, b: FactLink) -> bool:
    """Whether two links say the same thing (type and ends)."""
    return (a.type, a.source, a.target) == (b.type, b.source, b.target)


def superseding_links(
    rows: Iterable[Fact], fact_id: str | None = None
) -> list[FactLink]:
    """Links of type supersedes, read from fact rows: newer row -> row it replaced.

    A row restored after being superseded no longer names its successor, so
    the link ends with it; the link's time is when the old row was ended.
    """
    out = []
    for row in rows:
        if row.superseded_by is None:
            continue
        link = FactLink(
            id=f"sup:{row.id}",
            tenant=row.tenant,
            type="supersedes",
            source=row.superseded_by,
            target=row.id,
            origin="derived",
            created_at=row.ended_at or row.valid_until or row.created_at,
        )
        if fact_id is None or link.touches(fact_id):
            out.append(link)
    return out


def describe(link: FactLink) -> str:
    """One line for an event or a UI: 'f1 caused_by f2'."""
    return f"{link.source} {link.type} {link.target}"
