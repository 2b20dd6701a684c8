"""The offline reply to a question about the present leads with the value in force.

The context marks what the question reached in an older form
(`ContextBundle.replaced`, set only when the question is not about the past).
A line with a sentence that quotes an old value without its replacement is no
answer to "where do I live now?", however many words it shares with it ("I moved
from Uppsala to Lyon" states both, and stays): it leaves the reply, and
when it was among the lines the reply would say, the line stating the current
value leads, a fact first, even when that line shares no word with the
question ("home city = Lyon" for "where do I live now?"). Lines are matched by
their content words (`text.quotes_value`), as the context withholds them.

A turn that stated the old value beside something else ("I live in Uppsala
with our dog Rex") leaves the reply whole, and a present-tense question about
the other thing then hears the current value first: the reply cannot tell which
part of a line a question reached. The context still holds the turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

from memory_lab.text import content_words, quotes_value, split_sentences
from memory_lab.types import Replaced


class MemoryLine(Protocol):
    """What is read of a line: its kind and the words it is matched on."""

    @property
    def kind(self) -> str:
        """`fact`, `turn` or `episode`: a fact states a successor best."""
        ...

    @property
    def matched(self) -> str:
        """The words it is matched on."""
        ...


L = TypeVar("L", bound=MemoryLine)


def current_first(
    ranked: Sequence[L],
    lines: Sequence[L],
    replaced: Sequence[Replaced],
    *,
    shown: int,
) -> list[L]:
    """`ranked` led by the successors of the replaced values its first lines state.

    A line stating a replaced value among the first `shown` (what the reply
    would say) gives its place to the line stating the value in force, ahead
    of the rest: a question about the present that reached an old value asks
    what it is now. Lines stating a replaced value leave the ranking. `lines`
    are every line of the context, where a successor is looked for when
    `ranked` does not hold it.
    """
    pairs = [
        (old, new)
        for r in replaced
        if (old := frozenset(content_words(r.old)))
        and (new := frozenset(content_words(r.current)))
    ]
    if not pairs:
        return list(ranked)

    def outdated(line: L) -> list[int]:
        said = [content_words(s) for s in split_sentences(line.matched)]
        return [
            i
            for i, (old, new) in enumerate(pairs)
            if any(quotes_value(w, old) and not quotes_value(w, new) for w in said)
        ]

    def successor(i: int) -> L | None:
        new = pairs[i][1]
        stating = [
            line
            for line in (*ranked, *lines)
            if quotes_value(content_words(line.matched), new) and not outdated(line)
        ]
        facts = [line for line in stating if line.kind == "fact"]
        return next(iter(facts or stating), None)

    lead: list[L] = []
    rest: list[L] = []
    for rank, line in enumerate(ranked):
        gone = outdated(line)
        if not gone:
            rest.append(line)
        elif rank < shown:
            lead.extend(found for i in gone if (found := successor(i)) is not None)
    out: list[L] = []
    for line in (*lead, *rest):
        if line not in out:
            out.append(line)
    return out
