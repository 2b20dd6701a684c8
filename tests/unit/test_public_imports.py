"""The app, the CLI and the adapters use the library through its public surface.

Public is a name in `memory_lab.__all__` (`from memory_lab import Memory`) or a
module in `memory_lab.PUBLIC_MODULES`; everything else may change without
notice, so whatever these callers need has to be made public first. A name
that is a module counts as that module: `from memory_lab import api` is public,
`from memory_lab.owner import purge` (the module `owner.purge`) is not.

Imports are read with `ast`, wherever they sit: inside functions (they run,
later) and under `if TYPE_CHECKING:` (a type from a module is still a
dependency on it). A module of the tree being checked may import its own
siblings (an adapter its helper): those are not the library's insides.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import memory_lab

ROOT = Path(__file__).resolve().parents[2]
LIBRARY = ROOT / "memory_lab"
TREES = {
    "app": [ROOT / "app.py", *sorted((ROOT / "app_ui").rglob("*.py"))],
    "memlab_cli": sorted((ROOT / "memlab_cli").rglob("*.py")),
    "adapters": sorted((LIBRARY / "adapters").rglob("*.py")),
}
OWN = {"adapters": "memory_lab.adapters"}
"""Trees inside the library, and the package whose modules are their own."""


def _package(path: Path, root: Path) -> str:
    """The dotted package a file's relative imports start from."""
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1])


def _is_module(name: str) -> bool:
    """Whether `memory_lab.x.y` is a module or package of the library."""
    base = ROOT.joinpath(*name.split("."))
    return base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()


def _imported(path: Path, root: Path) -> list[tuple[int, str, str | None]]:
    """(line, module, name) of every import in line order; no name for `import x`."""
    found: list[tuple[int, str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, None) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                base = _package(path, root).split(".")
                base = base[: len(base) - (node.level - 1)]
                module = ".".join([*base, module] if module else base)
            found += [(node.lineno, module, alias.name) for alias in node.names]
    return sorted(found, key=lambda item: item[0])


def offences(path: Path, own: str | None = None, root: Path = ROOT) -> list[str]:
    """Each import of a library module that is not public, as `file:line: why`."""
    public = set(memory_lab.PUBLIC_MODULES)
    names = set(memory_lab.__all__)
    where = path.relative_to(root)
    out = []
    for line, module, name in _imported(path, root):
        if module.split(".")[0] != "memory_lab":
            continue
        target = module
        if name is not None and _is_module(f"{module}.{name}"):
            target = f"{module}.{name}"  # `from package import submodule`
        elif module == "memory_lab" and name is not None and name not in names:
            out.append(
                f"{where}:{line}: from memory_lab import {name}: "
                "not in memory_lab.__all__"
            )
            continue
        if target in public or (own and target.startswith(own + ".")):
            continue
        out.append(
            f"{where}:{line}: imports {target}: not in memory_lab.PUBLIC_MODULES"
        )
    # `from m import a, b` is one import of m: said once.
    return list(dict.fromkeys(out))


@pytest.mark.parametrize("tree", sorted(TREES))
def test_a_tree_imports_only_public_library_modules(tree: str) -> None:
    files = TREES[tree]
    assert files, f"no files found for {tree}"
    found = [o for path in files for o in offences(path, OWN.get(tree))]
    assert not found, "\n".join(found)


def test_every_public_module_exists() -> None:
    missing = [m for m in memory_lab.PUBLIC_MODULES if not _is_module(m)]
    assert not missing, missing


def test_the_check_sees_what_it_must_refuse(tmp_path: Path) -> None:
    """Each kind of import the rule names is caught, with file, line and module."""
    probe = tmp_path / "memory_lab" / "adapters" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "import memory_lab.engine\n"
        "from memory_lab.stores import locations\n"
        "from memory_lab import MemoryLabError, graph_internals\n"
        "from memory_lab.api import Memory\n"
        "if TYPE_CHECKING:\n"
        "    from memory_lab.jobs.ledger import JobLedger\n"
        "def later():\n"
        "    from memory_lab.facts.summary import fact_summary\n"
        "from ..graph import mermaid\n"
        "from . import langchain\n",
        encoding="utf-8",
    )
    name = "memory_lab/adapters/probe.py"
    public = "not in memory_lab.PUBLIC_MODULES"
    assert offences(probe, root=tmp_path) == [
        f"{name}:2: imports memory_lab.engine: {public}",
        f"{name}:3: imports memory_lab.stores.locations: {public}",
        f"{name}:4: from memory_lab import graph_internals: not in memory_lab.__all__",
        f"{name}:7: imports memory_lab.jobs.ledger: {public}",
        f"{name}:9: imports memory_lab.facts.summary: {public}",
        f"{name}:10: imports memory_lab.graph: {public}",
    ]
    # A tree's own modules are its to import.
    own = offences(probe, own="memory_lab.stores", root=tmp_path)
    assert not any("stores.locations" in o for o in own) and len(own) == 5
