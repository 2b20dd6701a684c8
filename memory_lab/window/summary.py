"""The running summary: the session window's gist of everything compressed so far.

It sits between the verbatim window and the episodes: one short text the
responder always sees, grown by each compression and condensed by the brain when
it outgrows its budget.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_lab.brains.base import Brain, BrainResult
from memory_lab.config import WindowConfig
from memory_lab.tokens import TokenCounter
from memory_lab.types import Episode


def update_running_summary(
    summary: str,
    episodes: Sequence[Episode],
    *,
    brain: Brain,
    counter: TokenCounter,
    config: WindowConfig,
) -> BrainResult[str]:
    """Append the new episodes' gist.

    Re-summarises when the summary passes its budget.
    """
    lines = [summary] if summary else []
    # An episode of replies that only restated memory has nothing to add.
    for ep in (e for e in episodes if e.summary):
        lines.append(f"[{ep.start.date().isoformat()}] {ep.summary}")
    merged = "\n".join(lines)
    if counter.count(merged) <= config.summary_budget_tokens:
        return BrainResult(merged)
    return brain.condense(merged, max_tokens=config.summary_budget_tokens)
