"""The facts block's lines under category headers, chosen in rank order.

Each fact is one line, its sentence (`facts.phrasing`: "You live in a flat near
the harbour") with "(unsure)" when it is hedged and the date it holds from.

Which facts show is decided by rank (instructions, then what the question asks,
then the core), as before; only their display is grouped: headers in the order
`FactConfig.groups` gives, the facts whose category no group lists under
`FactConfig.other_header` last, and facts in rank order within a header. A
header is a line of the block, so it is paid for out of the block's budget, and
only by the first of its facts that fits: a header is never shown alone.
Pure: identical inputs give identical lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime, timedelta
from typing import NamedTuple

from memory_lab.config import AssemblyConfig, FactConfig
from memory_lab.facts.gathering import gathered_sentence, is_gathered
from memory_lab.facts.phrasing import fact_sentence
from memory_lab.text import escape_data
from memory_lab.tokens import TokenCounter
from memory_lab.types import Fact

FACT_MARK = "- "
"""Every fact line starts with it and no header does (`plain_header`)."""

HISTORICAL_AFTER = timedelta(days=365)
"""A decision older than this is shown as historical: it may no longer stand."""


class FactRow(NamedTuple):
    """One fact as the block shows it: its line, its id and its header."""

    line: str
    fact_id: str
    header: str


def fact_line(fact: Fact, hedged: bool, now: datetime) -> str:
    """`- <sentence> (since DATE)`, without its category: the header says it.

    A `[category]` tag on every line cost 3-4 tokens, a fifth of a typical fact
    line; the header costs as much once for all the facts under it. The date is
    when the fact holds from, the statement's own date when it gave one.
    """
    mark = " (unsure)" if hedged else ""
    if is_gathered(fact.id):  # each of its values carries its own date
        return f"{FACT_MARK}{gathered_sentence(fact)}{mark}"
    since = fact.valid_from.date().isoformat()
    old = now - fact.valid_from > HISTORICAL_AFTER
    historical = fact.category == "decision" and old
    when = f"historical, decided {since}" if historical else f"since {since}"
    return f"{FACT_MARK}{fact_sentence(fact)}{mark} ({when})"


def header_line(header: str) -> str:
    """A header as its line of the block."""
    return f"{header}:"


def is_header(line: str) -> bool:
    """Whether a line of a facts block is a header rather than a fact."""
    return not line.startswith(FACT_MARK)


def header_cost(header: str, counter: TokenCounter) -> int:
    """Tokens a header line adds to the block, its line break included."""
    return counter.count(escape_data(header_line(header))) + 1


def choose(
    rows: Sequence[FactRow],
    budget: int,
    counter: TokenCounter,
    scan: AssemblyConfig,
    shares: Mapping[str, float] | None = None,
) -> list[int]:
    """Indices of the rows that fit in `budget` with their headers, in rank order.

    Like the other blocks' fill: a row that does not fit is skipped so a shorter
    one after it may still fit, and the scan stops once the budget is nearly
    spent or many rows in a row missed. A row whose header is not yet shown also
    pays for the header.

    With `shares` (`FactConfig.shares`: header -> share of the block), no header
    crowds out the others: forty preferences must not keep the one open item
    out. A first pass takes each header's rows only up to its share of `budget`;
    a second gives the room the others left to the rows still waiting, in rank
    order. So a header over its share yields room to the others, room they do
    not use is not wasted, and the block never exceeds `budget`.
    """
    shares = shares or {}
    costs = [counter.count(escape_data(row.line)) + 1 for row in rows]
    chosen: set[int] = set()
    opened: set[str] = set()
    spent: dict[str, int] = {}
    used = 0

    def fill(order: Iterable[int], capped: bool) -> list[int]:
        nonlocal used
        waiting, misses = [], 0
        for i in order:
            if budget - used < scan.min_line_tokens or misses >= scan.max_misses:
                break
            header = rows[i].header
            cost = costs[i]
            if header not in opened:
                cost += header_cost(header, counter)
            share = shares.get(header) if capped else None
            if share is not None and spent.get(header, 0) + cost > share * budget:
                waiting.append(i)  # over its share: waits for what others leave
                continue
            if used + cost <= budget:
                chosen.add(i)
                opened.add(header)
                spent[header] = spent.get(header, 0) + cost
                used += cost
                misses = 0
            else:
                misses += 1
        return waiting

    waiting = fill(range(len(rows)), capped=True)
    if waiting:
        fill((i for i in range(waiting[0], len(rows)) if i not in chosen), False)
    return sorted(chosen)


def grouped(
    rows: Iterable[FactRow], config: FactConfig
) -> list[tuple[str, str | None]]:
    """The block's lines: each header that has facts, then its facts in order.

    Returned as (line, fact id) pairs, None for a header, as blocks take them.
    """
    order = [g.header for g in config.groups] + [config.other_header]
    by_header: dict[str, list[FactRow]] = {}
    for row in rows:
        by_header.setdefault(row.header, []).append(row)
    out: list[tuple[str, str | None]] = []
    for header in order:
        if by_header.get(header):
            out.append((header_line(header), None))
            out += [(row.line, row.fact_id) for row in by_header[header]]
    return out
