"""A fact's one-line summary: what a list of facts shows of it.

The summary is the fact's sentence (`phrasing`): made from its subject, key and
value, with the verb's tense and the value's article as its evidence said them,
so two rows that say the same thing read the same. It is capped so one long
value cannot take a list's room. The fuller text stays in the row
(`Fact.detail`).
"""

from __future__ import annotations

from functools import lru_cache

from memory_lab.facts.phrasing import phrase
from memory_lab.text import truncate_to_tokens
from memory_lab.tokens import TokenCounter, default_counter
from memory_lab.types import Fact

SUMMARY_TOKENS = 24
"""Cap on a summary line, in tokens: a sentence with a short value fits whole."""

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
    """The fact's sentence on one line (whitespace folded), cut to `max_tokens`.

    Args:
        fact: The row to summarise.
        counter: Measures the cap; the default tokenizer when None.
        max_tokens: The cap; at least the words before the value are kept
            whatever they cost.
    """
    said = phrase(fact.subject, fact.key, fact.value, fact.evidence)
    cut = truncate_to_tokens(said.text, max_tokens, counter or _counter(), marker=CUT)
    lead = said.text[: len(said.lead)].strip() or said.text.split()[0]
    kept = cut.removesuffix(CUT)
    return cut if len(kept) >= len(lead) else f"{lead}{CUT}"
