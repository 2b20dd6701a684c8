"""One spec grammar; one category policy; one list of event kinds."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from memory_lab.config import FACT_CATEGORIES, FactConfig, MemoryConfig
from memory_lab.events import EVENT_KINDS
from memory_lab.recipes import parse_spec, recipe, split_spec, split_specs

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("spec", "name", "params"),
    [
        ("A", "A", {}),
        ("A+B(a_max_messages=30, b_high_water=900)", "A+B", {
            "a_max_messages": "30", "b_high_water": "900"}),
        ("synthetic:seed=7,turns-per-session=40", "synthetic", {
            "seed": "7", "turns_per_session": "40"}),
        ("synthetic", "synthetic", {}),
    ],
)  # fmt: skip
def test_one_grammar_for_every_spec(spec, name, params):
    assert parse_spec(spec) == (name, params)


def test_split_spec_keeps_a_path_argument_whole():
    assert split_spec("locomo:../data/x.json") == ("locomo", "../data/x.json")
    with pytest.raises(ValueError, match="unbalanced"):
        split_spec("A(a_max_messages=30")
    with pytest.raises(ValueError, match="key=value"):
        parse_spec("synthetic:seed")


def test_spec_lists_keep_commas_inside_parentheses():
    assert split_specs("A, B(b_high_water=800,b_low_water=400),full") == [
        "A",
        "B(b_high_water=800,b_low_water=400)",
        "full",
    ]


def test_recipe_specs_apply_their_parameters_and_the_default_is_a():
    rec = recipe("b+a(a_max_messages=30)")
    assert rec.name == "A+B" and rec.params_of("A").max_messages == 30
    assert recipe("C:c_idle_gap_minutes=60").params_of("C").idle_gap_minutes == 60
    assert MemoryConfig().recipe == recipe("A")


def test_the_category_policy_covers_the_vocabulary_in_priority_order():
    config = FactConfig()
    assert tuple(config.categories) == FACT_CATEGORIES
    priorities = [config.priority(c) for c in FACT_CATEGORIES]
    assert priorities == sorted(priorities)
    assert [c for c in FACT_CATEGORIES if config.standing(c)] == [
        "instruction",
        "constraint",
        "identity",
    ]
    assert config.priority("made_up") == 99 and not config.standing("made_up")
    assert all(0 < config.importance(c) <= 1 for c in FACT_CATEGORIES)


def test_every_event_kind_the_code_emits_is_listed():
    # Kinds appear as the literal after the tenant in make_event/_record calls,
    # or first in the (kind, detail) pairs fact memory describes outcomes with.
    pattern = re.compile(
        r"(?:make_event|_record)\(\s*\w+,\s*\"([a-z_]+)\"|return\s+\(?\s*\"([a-z_]+)\",\s"
    )
    emitted = set()
    for path in (ROOT / "memory_lab").rglob("*.py"):
        if "offline" in path.parts:
            continue  # its (category, key) pairs look alike and emit no events
        for found in pattern.findall(path.read_text(encoding="utf-8")):
            emitted |= {k for k in found if k}
    assert len(emitted) >= 10, emitted
    assert emitted <= set(EVENT_KINDS)
