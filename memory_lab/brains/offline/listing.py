"""What assembled memory holds, listed plainly: the reply when no model answers.

Used by the rule-based brain as its whole reply and by the LLM brain when its
endpoint fails, each with a preamble that says which of the two happened.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from memory_lab.text import unescape_data
from memory_lab.types import ContextBlock, ContextBundle

_FACT_WORDS = 45
_EPISODE_WORDS = 35
_FACT_ITEM_WORDS = 14
_EPISODE_ITEM_WORDS = 18
# Block framing lines (delimiters, headers) are not memory items.
_FRAME = re.compile(r"^(?:\[.*\]|<[^>]*>|#+\s.*|```.*|[^:]{1,40}:|-{3,}|={3,})$")
_BULLET = re.compile(r"^(?:[-*•]|\d+[.)])\s+")


def memory_listing(context: ContextBundle) -> str:
    """`Facts used: ... Episodes used: ...` for the assembled `context`."""
    facts = _listing(
        _items(context.block("facts")),
        item_words=_FACT_ITEM_WORDS,
        total_words=_FACT_WORDS,
    )
    episodes = _listing(
        _items(context.block("episodes")),
        item_words=_EPISODE_ITEM_WORDS,
        total_words=_EPISODE_WORDS,
    )
    return f"Facts used: {_stop(facts)} Episodes used: {_stop(episodes)}"


def _items(block: ContextBlock | None) -> list[str]:
    """The memory items a context block lists, without framing or markup escapes.

    When the block uses bullets, unbulleted lines continue the item above (an
    episode's summary spans several lines); otherwise every line is an item.
    """
    if block is None:
        return []
    lines = [unescape_data(raw.strip()) for raw in block.text.splitlines()]
    lines = [line for line in lines if line and not _FRAME.match(line)]
    bulleted = any(_BULLET.match(line) for line in lines)
    out: list[str] = []
    for line in lines:
        if bulleted and out and not _BULLET.match(line):
            out[-1] += " " + line
        else:
            out.append(_BULLET.sub("", line))
    return out


def _listing(items: Sequence[str], *, item_words: int, total_words: int) -> str:
    """Items shortened and joined until the word allowance is spent."""
    shown: list[str] = []
    used = 0
    for item in items:
        words = item.split()
        short = " ".join(words[:item_words]) + (
            " ..." if len(words) > item_words else ""
        )
        cost = min(len(words), item_words)
        if shown and used + cost > total_words:
            break
        shown.append(short)
        used += cost
    if not shown:
        return "none"
    hidden = len(items) - len(shown)
    more = f" (+{hidden} more)" if hidden else ""
    return "; ".join(shown) + more


def _stop(text: str) -> str:
    """End a listing with one full stop, not two."""
    return text if text.endswith((".", "!", "?")) else text + "."
