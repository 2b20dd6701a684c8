"""The one reader of MEMORY_LAB_* variables, and how flags resolve over it."""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

import pytest
from memlab_evals.judging.endpoints import Endpoint

from memlab_cli.llm_flags import add_brain_flags, add_model_pass_flags, resolve
from memlab_cli.settings import Settings, llm_settings
from memory_lab.errors import MemoryLabError

ROOT = Path(__file__).resolve().parents[2]
URL = "http://127.0.0.1:9/v1"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch):
    import os

    for name in list(os.environ):
        if name.startswith("MEMORY_LAB_"):
            monkeypatch.delenv(name)


def parse(*argv: str) -> argparse.Namespace:
    p = argparse.ArgumentParser()
    add_brain_flags(p)
    add_model_pass_flags(p)
    return p.parse_args(list(argv))


def test_a_base_url_in_the_environment_alone_selects_the_llm_brain(monkeypatch):
    monkeypatch.setenv("MEMORY_LAB_LLM_BASE_URL", URL)
    monkeypatch.setenv("MEMORY_LAB_LLM_MODEL", "smol")
    models = resolve(parse())
    assert models.brain is not None and models.brain.model == "smol"
    assert models.llm is not None and models.llm.base_url == URL


def test_without_an_endpoint_the_brain_is_rule_based():
    models = resolve(parse())
    assert models.brain is None and models.llm is None
    assert not models.plan.calls_models


def test_flags_override_the_environment(monkeypatch):
    monkeypatch.setenv("MEMORY_LAB_LLM_BASE_URL", URL)
    monkeypatch.setenv("MEMORY_LAB_LLM_MODEL", "smol")
    assert resolve(parse("--brain", "rule")).brain is None
    other = resolve(parse("--llm-base-url", "http://10.0.0.1/v1", "--llm-model", "x"))
    assert other.brain.base_url == "http://10.0.0.1/v1" and other.brain.model == "x"


def test_an_llm_brain_without_endpoint_or_model_is_refused_by_name(monkeypatch):
    with pytest.raises(MemoryLabError, match="--llm-base-url"):
        resolve(parse("--brain", "llm"))
    monkeypatch.setenv("MEMORY_LAB_LLM_BASE_URL", URL)
    with pytest.raises(MemoryLabError, match="--llm-model"):
        resolve(parse())


def test_the_answer_model_defaults_to_the_brains_and_the_judge_is_separate(
    monkeypatch,
):
    monkeypatch.setenv("MEMORY_LAB_JUDGE_BASE_URL", "http://judge/v1")
    monkeypatch.setenv("MEMORY_LAB_JUDGE_MODEL", "big")
    plan = resolve(parse("--llm-base-url", URL, "--llm-model", "smol", "--answer")).plan
    assert plan.answerer.base_url == URL and plan.answerer.model == "smol"
    assert plan.judge.model == "big" and not plan.judge_contexts
    answer_only = resolve(
        parse("--answer", "--answer-base-url", URL, "--answer-model", "a")
    ).plan
    assert answer_only.answerer.model == "a"


def test_answers_need_a_model_from_somewhere():
    with pytest.raises(MemoryLabError, match="answer model"):
        resolve(parse("--answer"))


def test_a_judge_without_answers_grades_contexts_as_before(monkeypatch):
    plan = resolve(parse("--judge-base-url", URL, "--judge-model", "j")).plan
    assert plan.judge_contexts and plan.answerer is None and plan.calls_models


def test_cache_and_connection_flags_reach_the_plan(monkeypatch, tmp_path):
    monkeypatch.setenv("MEMORY_LAB_LLM_CACHE", str(tmp_path / "c.sqlite"))
    monkeypatch.setenv("MEMORY_LAB_LLM_MAX_CONNECTIONS", "3")
    options = resolve(parse()).plan.options
    assert options.max_connections == 3
    assert options.cache_path == tmp_path / "c.sqlite" and options.use_cache
    options = resolve(parse("--no-cache", "--max-connections", "8")).plan.options
    assert options.max_connections == 8 and not options.use_cache
    with pytest.raises(MemoryLabError, match="--max-connections"):
        resolve(parse("--max-connections", "0"))


def test_keys_never_show_in_reprs(monkeypatch):
    secret = "sk-very-secret-123"
    for role in ("LLM", "ANSWER", "JUDGE", "EXTRACT"):
        monkeypatch.setenv(f"MEMORY_LAB_{role}_API_KEY", secret)
    monkeypatch.setenv("MEMORY_LAB_LLM_BASE_URL", URL)
    monkeypatch.setenv("MEMORY_LAB_LLM_MODEL", "smol")
    monkeypatch.setenv("MEMORY_LAB_JUDGE_BASE_URL", URL)
    monkeypatch.setenv("MEMORY_LAB_JUDGE_MODEL", "j")
    settings = Settings()
    models = resolve(parse("--answer"), settings)
    shown = " ".join(
        repr(x)
        for x in (settings, models, models.brain, models.plan, models.plan.judge)
    )
    assert secret not in shown
    assert models.brain.key == secret  # ... yet the client still gets it


def test_bad_numbers_in_the_environment_fail_naming_the_variable(monkeypatch):
    monkeypatch.setenv("MEMORY_LAB_LLM_MAX_CONNECTIONS", "many")
    with pytest.raises(ValueError, match="llm_max_connections"):
        Settings()


@pytest.mark.slow
def test_no_other_module_reads_memory_lab_variables():
    """Only memlab_cli/settings.py reads a MEMORY_LAB_ variable from the environment.

    One exception: the lock-order check, a test instrument, must be chosen before
    the first lock exists (locks are made when modules are imported, long before
    any Settings), and must reach the processes tests start; it reads its
    variable where the locks are made.
    """
    instruments = {"memory_lab/concurrency/lock_order.py: MEMORY_LAB_LOCK_ORDER"}
    folders = ("memory_lab", "memlab_cli", "evals", "benchmarks", "app_ui")
    files = [p for f in folders for p in (ROOT / f).rglob("*.py")] + [ROOT / "app.py"]
    offenders = [
        f"{path.relative_to(ROOT)}: {name}"
        for path in files
        if path != ROOT / "memlab_cli" / "settings.py"
        for name in _env_reads(ast.parse(path.read_text(encoding="utf-8")))
        if name.startswith("MEMORY_LAB_")
    ]
    assert sorted(set(offenders) - instruments) == []


def _env_reads(tree: ast.AST) -> list[str]:
    """Keys read through os.environ[...], os.environ.get(...) or os.getenv(...)."""
    consts = {
        t.id: n.value.value
        for n in ast.walk(tree)
        if isinstance(n, ast.Assign) and isinstance(n.value, ast.Constant)
        for t in n.targets
        if isinstance(t, ast.Name) and isinstance(n.value.value, str)
    }

    def key(node: ast.AST) -> str:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value
        if isinstance(node, ast.Name):
            return consts.get(node.id, "")
        return ""

    def is_environ(node: ast.AST) -> bool:
        return isinstance(node, ast.Attribute) and node.attr == "environ"

    keys = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and is_environ(node.value):
            keys.append(key(node.slice))
        elif isinstance(node, ast.Call) and node.args:
            func = node.func
            if isinstance(func, ast.Attribute) and (
                func.attr == "getenv" or is_environ(func.value)
            ):
                keys.append(key(node.args[0]))
    return keys


def test_store_urls_come_from_flags_over_the_environment(monkeypatch):
    from memlab_cli.main import build_parser
    from memory_lab.stores.locations import StoreSpec

    assert Settings().stores() == StoreSpec()
    monkeypatch.setenv("MEMORY_LAB_STORE", "postgresql://db/memory")
    monkeypatch.setenv("MEMORY_LAB_EPISODES_STORE", "http://chroma:8000")
    settings = Settings()
    assert settings.stores() == StoreSpec(
        "postgresql://db/memory", "http://chroma:8000"
    )
    spec = settings.stores(episodes="http://other:9000")
    assert spec.store == "postgresql://db/memory"
    assert spec.episodes == "http://other:9000"
    for command in ("replay", "eval", "app"):
        argv = [
            command,
            "--store",
            "postgresql://x/y",
            "--episodes-store",
            "http://h:1",
        ]
        if command == "eval":
            argv += ["--out", "o"]
        args = build_parser().parse_args(argv)
        assert (args.store, args.episodes_store) == ("postgresql://x/y", "http://h:1")


def test_a_store_url_of_an_unknown_scheme_is_refused_naming_it(monkeypatch):
    monkeypatch.setenv("MEMORY_LAB_STORE", "mysql://db/memory")
    with pytest.raises(MemoryLabError, match="mysql"):
        Settings().stores()


def test_an_llm_setting_out_of_range_fails_in_one_line_naming_it():
    with pytest.raises(MemoryLabError) as err:
        llm_settings(Endpoint(URL, "smol"), timeout_s=-1.0)
    assert str(err.value) == (
        "LLM setting timeout_s: Input should be greater than 0 (got -1.0)"
    )
