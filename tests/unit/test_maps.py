"""The library's map and the architecture page's Layout name every subpackage.

Both are how a contributor finds their way; a folder missing from either is a
part nobody is told about.
"""

from __future__ import annotations

import re
from pathlib import Path

import memory_lab

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "memory_lab"


def _subpackages() -> list[str]:
    return sorted(
        p.name
        for p in PACKAGE.iterdir()
        if p.is_dir() and not p.name.startswith(("_", ".")) and any(p.glob("*.py"))
    )


def test_the_library_map_names_every_subpackage() -> None:
    named = set(re.findall(r"`(\w+)/`", memory_lab.__doc__ or ""))
    missing = [name for name in _subpackages() if name not in named]
    assert not missing, f"memory_lab/__init__.py's map lacks: {missing}"


def test_the_architecture_layout_names_every_subpackage() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layout = page.split("## Layout", 1)[1].split("```")[1]
    named = set(re.findall(r"\b(\w+)/", layout))
    missing = [name for name in _subpackages() if name not in named]
    assert not missing, f"docs/architecture.md's Layout lacks: {missing}"
