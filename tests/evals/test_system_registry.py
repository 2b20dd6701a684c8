"""Every consumer of system names reads the one registry, and keeps no list of its own.

A system registered once must reach the CLI's help and validation, the main job,
the report and the benchmarks; a list of names typed anywhere else is how they
drifted apart before.
"""

from __future__ import annotations

import argparse
import ast
from dataclasses import replace
from pathlib import Path

import pytest
from memlab_bench import report as bench_report
from memlab_bench.modes import FULL, MODES, Mode
from memlab_evals import cli, peers
from memlab_evals.reports import report
from memlab_evals.systems import (
    check_system,
    describe,
    entries,
    kind_of,
    lookup,
    make_system,
    names,
    register,
    split_systems,
    unregister,
)
from memlab_evals.systems.baselines import TurnBaseline, baseline

from tests.helpers import T0, msg

ROOT = Path(__file__).resolve().parents[2]
CONSUMERS = [
    ROOT / "evals" / "memlab_evals",
    ROOT / "benchmarks" / "memlab_bench",
    ROOT / "memlab_cli",
    ROOT / "app_ui",
    ROOT / "app.py",
]
REGISTRY_HOME = ROOT / "evals" / "memlab_evals" / "systems"


@pytest.fixture
def toy():
    """A baseline registered for one test: the newest turn alone."""

    @baseline("toy-newest", "the newest turn alone, for the registry's tests")
    class Newest(TurnBaseline):
        def pick(self, question: str) -> list[int]:
            return [len(self.turns) - 1]

    yield "toy-newest"
    unregister("toy-newest")


def _help() -> str:
    """The ``--systems`` help as `memory-lab eval` shows it (before wrapping)."""
    sub = argparse.ArgumentParser().add_subparsers()
    cli.register_eval(sub)
    (systems,) = [
        a for a in sub.choices["eval"]._actions if "--systems" in a.option_strings
    ]
    return systems.help


def test_every_registered_system_is_in_the_cli_help():
    shown = _help()
    for entry in entries():
        assert entry.name in shown and entry.description in shown


def test_the_main_job_runs_every_baseline_after_the_recipes():
    found = cli.main_systems([]).split(",")
    assert found == ["A", "B", "C", *names("baseline")]


def test_the_report_describes_each_system_and_every_retriever():
    lines = report.system_lines([e.name for e in entries()])
    for entry, line in zip(entries(), lines, strict=True):
        assert f"`{entry.name}` ({entry.kind})" in line and entry.description in line
    for name in names("baseline", retrieval=True):
        assert f"`{name}`" in report._retrievers()


def test_the_benchmarks_time_every_baseline_and_count_none_as_a_recipe():
    assert Mode(name="any").baselines == names("baseline")
    assert {"rag-hybrid", "none"} <= set(FULL.growth_baselines)
    for mode in MODES.values():
        assert set(mode.baselines) == set(names("baseline"))
        assert set(mode.growth_baselines) <= set(names("baseline"))
    for name in (*names("baseline"), *names("peer")):
        assert not bench_report._is_recipe(name)
    assert bench_report._is_recipe("A+B")


def test_the_peer_backends_are_the_registered_peers():
    assert set(peers.BACKENDS) == set(names("peer"))


def test_a_baseline_registered_once_reaches_every_consumer(toy):
    assert kind_of(toy) == "baseline" and toy in names("baseline")
    assert toy in _help()
    assert toy in cli.main_systems([]).split(",")
    assert describe(toy) in report.system_lines([toy])[0]
    assert toy in Mode(name="any").baselines
    assert not bench_report._is_recipe(toy)
    assert split_systems(f"A,{toy}") == ["A", toy]
    system = make_system(toy, budget=100, tenant="t", start=T0)
    for i in range(3):
        system.ingest(msg(i, f"turn number {i}"))
    assert system.context("anything").items == [msg(2, "x").id]


def test_a_name_taken_by_another_module_is_refused(toy):
    taken = lookup(toy)
    with pytest.raises(ValueError, match="already registered"):
        register(replace(taken, description="elsewhere", module="another.module"))
    assert lookup(toy) is taken
    with pytest.raises(ValueError, match="hide the recipe"):
        register(replace(taken, name="A+B"))


def test_recipes_resolve_without_being_listed():
    assert kind_of("B(b_high_water=800,b_low_water=400)") == "recipe"
    assert "A: " in describe("A+B") and "B: " in describe("A+B")
    with pytest.raises(ValueError, match="not to 'full'"):
        check_system("full+tools")


def _names_in(node: ast.AST, known: set[str]) -> list[str]:
    """Registered names a literal spells out: a tuple, list or set, or a comma list."""
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return [
            e.value
            for e in node.elts
            if isinstance(e, ast.Constant) and e.value in known
        ]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [p for p in node.value.split(",") if p.strip() in known]
    return []


def test_no_module_outside_the_registry_lists_system_names():
    known = {e.name for e in entries()}
    files = [p for c in CONSUMERS for p in ([c] if c.is_file() else c.rglob("*.py"))]
    found = []
    for path in files:
        if REGISTRY_HOME in path.parents:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            listed = _names_in(node, known)
            if len(listed) >= 2:
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {listed}")
    assert not found, "read the registry (memlab_evals.systems.names/pick):\n" + (
        "\n".join(found)
    )
