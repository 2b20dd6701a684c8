"""The facts block under category headers: order, budget, purity, config errors."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from memory_lab.config import (
    AssemblyConfig,
    BudgetConfig,
    CategoryPolicy,
    FactConfig,
    FactGroup,
)
from memory_lab.context.assembly import AssemblyInput, _enforce_total, assemble
from memory_lab.context.fact_groups import FactRow, choose, header_cost
from memory_lab.facts.reconciliation import reconcile
from memory_lab.text import escape_data
from memory_lab.tokens import default_counter
from tests.helpers import T0, cand, msg

COUNTER = default_counter()
CFG = FactConfig(
    categories={
        **FactConfig().categories,
        "hobby": CategoryPolicy(priority=7, importance=0.5),
    }
)
ROOMY = BudgetConfig(total=1500, facts=600, episodes=300, summary=100, window=100)


def _fact(key, value, category, turn="m1"):
    return reconcile(
        "t", cand(key, value, category=category, turn=turn), None, T0, CFG
    ).fact


FACTS = [
    _fact("city", "Oslo", "identity", "m1"),
    _fact("diet", "vegan", "preference", "m2"),
    _fact("laptop", "chose the ThinkPad", "decision", "m3"),
    _fact("vat_return", "not filed yet", "unresolved", "m4"),
    _fact("garden", "tomatoes", "knowledge", "m5"),
    _fact("climbing", "bouldering", "hobby", "m6"),
    _fact("reply_language", "Swedish", "instruction", "m7"),
]


def _bundle(facts, budget=ROOMY, config=CFG, query="hello there"):
    data = AssemblyInput(
        query=query,
        now=T0 + timedelta(hours=1),
        facts=list(facts),
        episodes=[],
        summary="",
        window=[msg(0, "hi")],
    )
    return assemble(data, budget, config, COUNTER)


def _body(bundle):
    return bundle.block("facts").text.split("\n")[1:-1]


def _key_of(line):
    """The key of the fact a line says: each line holds its fact's value."""
    [key] = [f.key for f in FACTS if f" {f.value} (since" in line]
    return key


def test_headers_in_config_order_each_fact_under_its_own():
    body = _body(_bundle(FACTS))
    headers = [line for line in body if not line.startswith("- ")]
    assert headers == [
        "Preferences:",
        "Decisions:",
        "Knowledge:",
        "Open items:",
        "Other:",
    ]
    under, current = {}, None
    for line in body:
        if line.startswith("- "):
            under[_key_of(line)] = current
        else:
            current = line
    assert under == {
        "reply_language": "Preferences:",
        "diet": "Preferences:",
        "laptop": "Decisions:",
        "city": "Knowledge:",
        "garden": "Knowledge:",
        "vat_return": "Open items:",
        "climbing": "Other:",
    }


def test_facts_keep_their_rank_order_under_a_header():
    # Instructions rank before preferences; identity before knowledge.
    body = _body(_bundle(FACTS))
    assert body.index("- Replies should be in Swedish (since 2025-03-03)") < (
        body.index("- Your diet is vegan (since 2025-03-03)")
    )
    assert body.index("- Your city is Oslo (since 2025-03-03)") < body.index(
        "- Your garden is tomatoes (since 2025-03-03)"
    )


def test_lines_drop_the_category_tag_and_items_follow_the_shown_order():
    block = _bundle(FACTS).block("facts")
    fact_lines = [line for line in _body(_bundle(FACTS)) if line.startswith("- ")]
    assert not any(line.startswith("- [") for line in fact_lines)
    by_id = {f.id: f for f in FACTS}
    assert [by_id[i].key for i in block.items] == [_key_of(x) for x in fact_lines]


def test_a_header_is_shown_only_with_facts_under_it():
    body = _body(_bundle([FACTS[0], FACTS[4]]))  # identity and knowledge only
    assert [line for line in body if not line.startswith("- ")] == ["Knowledge:"]
    assert _bundle([]).block("facts").text == ""


def test_a_header_needs_room_for_a_fact_too():
    row = FactRow("- city = Oslo (since 2025-03-03)", "f1", "Knowledge")
    line = COUNTER.count(escape_data(row.line)) + 1
    exact = line + header_cost("Knowledge", COUNTER)
    scan = AssemblyConfig(min_line_tokens=1)
    assert choose([row], exact, COUNTER, scan) == [0]
    assert choose([row], exact - 1, COUNTER, scan) == []
    # A second fact under the same header pays for its line alone.
    twin = FactRow("- town = Oslo (since 2025-03-03)", "f2", "Knowledge")
    twin_line = COUNTER.count(escape_data(twin.line)) + 1
    assert choose([row, twin], exact + twin_line, COUNTER, scan) == [0, 1]
    assert choose([row, twin], exact + twin_line - 1, COUNTER, scan) == [0]


def test_identical_inputs_give_identical_bytes_whatever_the_input_order():
    shuffled = list(FACTS)
    random.Random(7).shuffle(shuffled)
    one, two = _bundle(FACTS), _bundle(shuffled)
    assert one.text.encode() == two.text.encode()
    assert one.block("facts").items == two.block("facts").items


def test_shaving_to_the_total_never_leaves_a_header_alone():
    bundle = _bundle(FACTS)
    facts = bundle.block("facts")
    # Cut the total until only part of the facts block survives.
    for cut in range(1, facts.tokens):
        shaved = _enforce_total(
            bundle.model_copy(update={"budget": bundle.total_tokens - cut}), COUNTER
        )
        body = [
            line
            for b in shaved.blocks
            if b.kind == "facts" and b.text
            for line in b.text.split("\n")[1:-1]
        ]
        if body:
            assert body[-1].startswith("- ")
            kept = next(b for b in shaved.blocks if b.kind == "facts")
            assert len(kept.items) == sum(x.startswith("- ") for x in body)
        assert COUNTER.count(shaved.text) <= bundle.total_tokens - cut


@settings(max_examples=60, deadline=None)
@given(
    facts_budget=st.integers(0, 160),
    picks=st.lists(st.sampled_from(range(len(FACTS))), unique=True, max_size=7),
)
def test_facts_block_keeps_its_budget_and_every_header_has_facts(facts_budget, picks):
    budget = BudgetConfig(
        total=900, facts=facts_budget, episodes=300, summary=100, window=100
    )
    block = _bundle([FACTS[i] for i in picks], budget).block("facts")
    assert block.tokens <= facts_budget
    body = block.text.split("\n")[1:-1]
    for i, line in enumerate(body):
        if not line.startswith("- "):
            assert i + 1 < len(body) and body[i + 1].startswith("- ")
    assert len(block.items) == sum(line.startswith("- ") for line in body)


def test_groups_come_from_config():
    config = CFG.model_copy(
        update={
            "groups": (
                FactGroup(header="Open items", categories=("unresolved",)),
                FactGroup(header="Everything else", categories=("knowledge",)),
            ),
            "other_header": "Misc",
        }
    )
    body = _body(_bundle(FACTS, config=config))
    assert [line for line in body if not line.startswith("- ")] == [
        "Open items:",
        "Everything else:",
        "Misc:",
    ]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {
                "groups": (
                    FactGroup(header="A", categories=("decision",)),
                    FactGroup(header="B", categories=("decision",)),
                )
            },
            "category 'decision' is under both 'A' and 'B'",
        ),
        (
            {"groups": (FactGroup(header="Other", categories=("decision",)),)},
            "header 'Other' is used twice",
        ),
        (
            {"groups": (FactGroup(header="Hobbies", categories=("hobby",)),)},
            "unknown fact category 'hobby'",
        ),
        ({"other_header": "- rest"}, "must not start with '-'"),
        ({"other_header": "Two\nlines"}, "must be one line"),
    ],
)
def test_bad_groups_fail_with_a_clear_error(kwargs, message):
    with pytest.raises(ValidationError, match=message):
        FactConfig(**kwargs)


def test_default_groups_follow_a_reduced_vocabulary():
    only = FactConfig(categories={"identity": CategoryPolicy(priority=0)})
    assert only.header("identity") == "Knowledge"
    assert only.header("anything") == "Other"
