"""Lower layers do not import the graph that drives them.

Planning, the jobs, the window view, context building and the snapshot declare the
parts they use as protocols (`jobs.parts`, `window.view`, `context.build`,
`snapshot`), so each can be read, tested and reused without the LangGraph state
machine. An import of `memory_lab.graph` from any of them, even one only for type
checking, undoes that.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from memory_lab.graph.deps import Deps
from memory_lab.jobs.parts import JobParts, PlanningParts
from memory_lab.snapshot import SnapshotSources
from memory_lab.window.view import WindowSources

ROOT = Path(__file__).resolve().parents[2] / "memory_lab"
BELOW_THE_GRAPH = [
    *sorted((ROOT / "jobs").glob("*.py")),
    *sorted((ROOT / "window").glob("*.py")),
    *sorted((ROOT / "context").glob("*.py")),
    *sorted((ROOT / "episodes").glob("*.py")),
    ROOT / "snapshot.py",
]


def _imported(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("path", BELOW_THE_GRAPH, ids=lambda p: p.name)
def test_no_module_below_the_graph_imports_it(path):
    graph = {n for n in _imported(path) if n.split(".")[:2] == ["memory_lab", "graph"]}
    assert not graph, f"{path.relative_to(ROOT.parent)} imports {sorted(graph)}"


@pytest.mark.parametrize(
    "protocol", [PlanningParts, JobParts, WindowSources, SnapshotSources]
)
def test_the_graphs_context_offers_every_part_a_protocol_names(protocol):
    members = {
        name
        for klass in protocol.__mro__
        if klass.__module__.startswith("memory_lab")
        for name, value in vars(klass).items()
        if isinstance(value, property)
    }
    assert members, protocol
    assert members <= set(Deps.__dataclass_fields__), members - set(
        Deps.__dataclass_fields__
    )
