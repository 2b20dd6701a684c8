"""The README's graph diagrams are the ones the compiled graphs print."""

from __future__ import annotations

import re
from pathlib import Path

from memory_lab.graph import mermaid

README = Path(__file__).resolve().parents[2] / "README.md"


def _normalise(text: str) -> str:
    return " ".join(text.split())


def test_readme_diagrams_match_the_compiled_graphs():
    blocks = re.findall(
        r"```mermaid\n(.*?)```", README.read_text(encoding="utf-8"), re.S
    )
    assert blocks, "README.md has no mermaid block"
    for graph in ("turn", "maintenance"):
        assert _normalise(mermaid(graph)) in [_normalise(b) for b in blocks], (
            f"README.md's {graph} graph is out of date: paste the output of "
            "`memory-lab graph`"
        )
