"""Every rule of the extraction table against its own examples and counter-examples.

A rule's examples live beside its pattern, so this one test is the whole check:
each rule must read each example (alone, and through the full extractor) and must
read none of its counter-examples. A rule without an example fails, so no rule
enters the table unproven.
"""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.rules import RULES, Rule, extract_candidates
from tests.helpers import msg


@pytest.mark.parametrize("rule", RULES, ids=[r.name for r in RULES])
def test_rule_reads_its_examples_and_none_of_its_counter_examples(rule: Rule) -> None:
    assert rule.examples, f"rule {rule.name!r} has no example it fires on"
    assert rule.counter_examples, f"rule {rule.name!r} has no counter-example"
    for example in rule.examples:
        assert (example.key, example.value) in rule.hits(example.text), example
        found = extract_candidates([msg(1, example.text)])
        stored = {(c.category, c.key, c.value) for c in found}
        assert (rule.category, example.key, example.value) in stored, example
    for text in rule.counter_examples:
        assert rule.hits(text) == [], text


def test_rule_names_are_unique() -> None:
    names = [r.name for r in RULES]
    assert len(names) == len(set(names))
