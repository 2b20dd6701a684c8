"""The ``+tools`` system suffix: how it parses, and what it refuses."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from memlab_evals.systems import (
    check_models,
    check_system,
    make_system,
    split_systems,
    split_tools,
    system_params,
)

from memory_lab.config import LLMSettings

START = datetime(2025, 1, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("name", "base"),
    [("A+tools", "A"), ("B+C+tools", "B+C"), ("A(a_max_messages=30)+tools", None)],
)
def test_a_recipe_with_tools_parses_to_its_recipe(name, base) -> None:
    check_system(name)
    stripped, tools = split_tools(name)
    assert tools and stripped == (base or name.removesuffix("+tools"))
    assert system_params(name) == {**system_params(stripped), "agentic_memory": True}
    assert "agentic_memory" not in system_params(stripped)


def test_the_suffix_lists_beside_its_recipe() -> None:
    assert split_systems("A,A+tools,B+C+tools") == ["A", "A+tools", "B+C+tools"]
    assert split_tools("A") == ("A", False)


@pytest.mark.parametrize("name", ["full+tools", "rag-bm25+tools", "mem0+tools"])
def test_tools_on_a_baseline_or_peer_is_refused_by_name(name) -> None:
    with pytest.raises(ValueError, match="applies to memory recipes"):
        check_system(name)


def test_tools_on_an_unknown_recipe_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown system"):
        check_system("Q+tools")


def test_without_a_model_tools_systems_are_refused_naming_the_problem() -> None:
    with pytest.raises(ValueError, match=r"A\+tools, B\+tools: .*no model"):
        check_models(["A", "A+tools", "B+tools"], None)
    check_models(["A", "full"], None)
    with pytest.raises(ValueError, match="no model is configured"):
        make_system("A+tools", budget=600, tenant="t", start=START)


def test_with_a_model_the_system_runs_with_agentic_memory_on() -> None:
    llm = LLMSettings(base_url="http://127.0.0.1:9/v1", model="m", use_cache=False)
    system = make_system("A+tools", budget=600, tenant="t", start=START, llm=llm)
    try:
        assert system.name == "A+tools"
        assert system.engine.config.llm.agentic_memory
        assert system.engine.deps.tools is not None
    finally:
        system.close()
