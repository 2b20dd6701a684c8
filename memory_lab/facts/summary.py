"""A fact's one-line summary: what a list of facts shows of it.

The summary is derived from the key and value alone, so two rows with the same
key and value always read the same, and it is capped so one long value cannot
take a list's room. The fuller text stays in the row (`Fact.detail`).
"""

from __future__ import annotations

from functools import lru_cache

from memory_lab.text import truncate_to_tokens
from memory_lab.tokens import TokenCounter, default_counter
from memory_lab.types import Fact

SUMMARY_TOKENS = 24
"""Cap on a summary line, in tokens: a key and a short value fit whole."""

CUT = " ..."
"""Marks a summary whose value was cut to the cap."""


@lru_cache(maxsize=1)
def _counter() -> TokenCounter:
    return default_counter()


def fact_summary(
    fact: Fact,
    *,
    counter: TokenCounter | None = None,
    max_tokens: int = SUMMARY_TOKENS,
) -> str:
    """'key: value' on one line (whitespace folded), cut to `max_tokens`.

    Args:
        fact: The row to summarise.
        counter: Measures the cap; the default tokenizer when None.
        max_tokens: The cap; at least the key is kept whatever it costs.
    """
    key = " ".join(fact.key.replace("_", " ").split())
    line = f"{key}: {' '.join(fact.value.split())}"
    cut = truncate_to_tokens(line, max_tokens, counter or _counter(), marker=CUT)
    return cut or f"{key}:{CUT}"
