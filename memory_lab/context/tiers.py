"""Which tier of memory each part of an assembled context came from.

An eval that finds a piece of evidence in the context wants to know who put it
there: the window, the running summary, an episode (or day/week) summary, a
verbatim excerpt of a compressed turn, or a fact. The blocks say most of it;
the episodes block holds both summaries and excerpts, told apart by how each
line is written (an excerpt line starts with ``+``, a summary with ``- [``).
"""

from __future__ import annotations

from memory_lab.types import ContextBundle

TIERS: tuple[str, ...] = ("window", "summary", "episodes", "excerpts", "facts")
EXCERPT_MARK = "  + "
SUMMARY_MARK = "- ["


def context_tiers(bundle: ContextBundle) -> dict[str, str]:
    """The context's text per tier (tiers with nothing are left out)."""
    parts: dict[str, list[str]] = {tier: [] for tier in TIERS}
    for block in bundle.blocks:
        if not block.text or block.kind not in (
            "window",
            "summary",
            "facts",
            "episodes",
        ):
            continue
        body = block.text.split("\n")[1:-1]  # inside the <memory> tags
        if block.kind != "episodes":
            parts[block.kind].extend(body)
            continue
        tier = "episodes"
        for line in body:
            if line.startswith(EXCERPT_MARK):
                tier = "excerpts"
            elif line.startswith(SUMMARY_MARK):
                tier = "episodes"
            parts[tier].append(line)
    return {tier: "\n".join(lines) for tier, lines in parts.items() if lines}
