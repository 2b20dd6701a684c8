"""The README's graph diagram is the one the compiled graph prints."""

from __future__ import annotations

import re
from pathlib import Path

from memory_lab.graph import mermaid

README = Path(__file__).resolve().parents[2] / "README.md"


def _normalise(text: str) -> str:
    return " ".join(text.split())


def test_readme_diagram_matches_the_compiled_graph():
    blocks = re.findall(
        r"```mermaid\n(.*?)```", README.read_text(encoding="utf-8"), re.S
    )
    assert blocks, "README.md has no mermaid block"
    assert _normalise(mermaid()) in [_normalise(b) for b in blocks], (
        "README.md's graph is out of date: paste the output of `memory-lab graph`"
    )
