"""The architecture page's graph diagrams are the ones the compiled graphs print."""

from __future__ import annotations

import re
from pathlib import Path

from memory_lab.graph import mermaid

PAGE = Path(__file__).resolve().parents[2] / "docs" / "architecture.md"


def _normalise(text: str) -> str:
    return " ".join(text.split())


def test_readme_diagrams_match_the_compiled_graphs():
    blocks = re.findall(
        r"```mermaid\n(.*?)```", PAGE.read_text(encoding="utf-8"), re.S
    )
    assert blocks, "docs/architecture.md has no mermaid block"
    for graph in ("turn", "maintenance"):
        assert _normalise(mermaid(graph)) in [_normalise(b) for b in blocks], (
            f"docs/architecture.md's {graph} graph is out of date: paste the output of "
            "`memory-lab graph`"
        )
