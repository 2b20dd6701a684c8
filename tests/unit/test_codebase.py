"""Checks on the code base itself: lint is clean and imports point one way."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
OTHERS = (
    "memlab_cli",
    "memlab_evals",
    "memlab_datasets",
    "memlab_bench",
    "app_ui",
    "streamlit",
)


def test_ruff_reports_nothing():
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "ruff",
            "check",
            "memory_lab",
            "memlab_cli",
            "evals",
            "datasets/memlab_datasets",
            "benchmarks",
            "app.py",
            "app_ui",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.slow
def test_mypy_reports_nothing():
    """The library type-checks at mypy's default strictness ([tool.mypy])."""
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout[-3000:]


def test_library_imports_none_of_the_packages_built_on_it():
    offenders = []
    for path in sorted((ROOT / "memory_lab").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [
                f"{path.relative_to(ROOT)}: {n}"
                for n in names
                if n.split(".")[0] in OTHERS
            ]
    assert offenders == []


def test_every_package_is_found_for_installation():
    """A package the wheel leaves out installs fine editable, then fails from PyPI.

    The fast half of the check: setuptools' own discovery, run on pyproject's
    `[tool.setuptools.packages.find]`, finds every folder with an __init__.py
    under the five roots (tests/unit/test_packaging.py builds the wheel too).
    """
    import tomllib

    from setuptools import find_packages

    find = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
        "packages"
    ]["find"]
    discovered = {
        package
        for where in find["where"]
        for package in find_packages(where=str(ROOT / where), include=find["include"])
    }
    roots = {"memory_lab": ROOT / "memory_lab", "memlab_cli": ROOT / "memlab_cli",
             "memlab_evals": ROOT / "evals" / "memlab_evals",
             "memlab_bench": ROOT / "benchmarks" / "memlab_bench",
             "memlab_datasets": ROOT / "datasets" / "memlab_datasets"}
    found = {
        ".".join([name, *init.parent.relative_to(path).parts])
        for name, path in roots.items()
        for init in path.rglob("__init__.py")
    }
    assert found - discovered == set()
