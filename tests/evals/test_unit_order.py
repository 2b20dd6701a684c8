"""Units run recipes first, system by system, so workers never share a conversation.

Two workers that start the same conversation both parse and embed its turns; one
system at a time, each turn is made once and later systems read it kept.
"""

from __future__ import annotations

from memlab_datasets import load_dataset
from memlab_evals.running.runner import Unit, _heaviest_first

SYSTEMS = ["A", "B", "rag-hybrid", "C"]


def _order() -> list[Unit]:
    data = load_dataset("synthetic:conversations=3,sessions=2,turns-per-session=6")
    # Conversations of different lengths, so "longest first" is tested.
    conversations = [
        c.model_copy(update={"turns": c.turns[: len(c.turns) - 2 * i]})
        for i, c in enumerate(data.conversations)
    ]
    units = [
        Unit(ci, si, conv, name, (600,))
        for ci, conv in enumerate(conversations)
        for si, name in enumerate(SYSTEMS)
    ]
    return sorted(units, key=_heaviest_first)


def test_recipes_run_system_by_system_before_the_baselines():
    order = _order()
    assert [u.system for u in order] == ["A"] * 3 + ["B"] * 3 + ["C"] * 3 + [
        "rag-hybrid"
    ] * 3
    for start in range(0, len(order), 3):
        lengths = [len(u.conversation.turns) for u in order[start : start + 3]]
        assert lengths == sorted(lengths, reverse=True)


def test_neighbouring_units_read_different_conversations():
    order = _order()
    recipes = [u for u in order if u.system != "rag-hybrid"]
    for first, second in zip(recipes, recipes[1:], strict=False):
        assert first.conversation.id != second.conversation.id
