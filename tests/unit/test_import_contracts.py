"""The import graph keeps its shape: layers hold, and no module imports itself back.

The layers of `memory_lab` and `memlab_evals`, and the order of the packages,
are declared once, in pyproject.toml's ``[tool.importlinter]``, by package: a
new module falls into its package's layer. import-linter checks them; circles
between modules are found on the same graph (grimp's, which import-linter
builds on), type-checking and function-level imports included.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "pyproject.toml"
SETTINGS = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]
PACKAGES = tuple(SETTINGS["root_packages"])


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph(*PACKAGES, cache_dir=None)


LINT = (
    "import sys; from importlinter.cli import lint_imports; "
    "sys.exit(lint_imports(config_filename=sys.argv[1], no_cache=True, no_logo=True))"
)


def test_every_layer_contract_is_kept():
    # In a process of its own: import-linter configures logging with dictConfig,
    # which disables every logger that exists, and later tests read theirs.
    run = subprocess.run(
        [sys.executable, "-c", LINT, str(CONFIG)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr


def test_both_packages_have_a_layer_contract():
    layered = {
        container
        for contract in SETTINGS["contracts"]
        if contract["type"] == "layers"
        for container in contract.get("containers", [])
    }
    assert {"memory_lab", "memlab_evals"} <= layered


def circles(graph: grimp.ImportGraph) -> list[str]:
    """Each import that a chain of imports leads back from, as that circle."""
    found = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                found.append(" -> ".join((importer, *back)))
    return found


def test_no_module_imports_itself_back(graph):
    found = circles(graph)
    assert not found, "import circles:\n" + "\n".join(found)


def test_a_circle_is_found_and_named():
    toy = grimp.ImportGraph()
    for name in ("toy.a", "toy.b", "toy.c", "toy.d"):
        toy.add_module(name)
    toy.add_import(importer="toy.a", imported="toy.b")
    toy.add_import(importer="toy.b", imported="toy.c")
    toy.add_import(importer="toy.d", imported="toy.a")
    assert circles(toy) == []
    toy.add_import(importer="toy.c", imported="toy.a")
    assert circles(toy) == [
        "toy.a -> toy.b -> toy.c -> toy.a",
        "toy.b -> toy.c -> toy.a -> toy.b",
        "toy.c -> toy.a -> toy.b -> toy.c",
    ]
