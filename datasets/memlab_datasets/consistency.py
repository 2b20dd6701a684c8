"""Checks that a conversation's ground truth agrees with its own transcript.

A probe whose evidence comes after it, or an update whose stale value was never
said, would silently reward or punish a memory for the wrong reason; these
checks catch that before a number is reported. They hold for every source,
except value-in-turn, which only synthetic data promises (LoCoMo's observations
paraphrase their turns).
"""

from __future__ import annotations

from memlab_datasets.categories import (
    CATEGORIES,
    KIND_CATEGORY,
    LONGMEMEVAL_CATEGORIES,
)
from memlab_datasets.types import Conversation, Dataset


def dataset_problems(dataset: Dataset) -> list[str]:
    """Every problem in every conversation, each prefixed by the conversation id."""
    return [
        f"{conversation.id}: {problem}"
        for conversation in dataset.conversations
        for problem in conversation_problems(conversation)
    ]


def conversation_problems(conv: Conversation) -> list[str]:
    """Problems in one conversation; an empty list means consistent."""
    return [
        *_turn_problems(conv),
        *_probe_problems(conv),
        *_fact_problems(conv),
        *_trap_problems(conv),
    ]


def _turn_problems(conv: Conversation) -> list[str]:
    problems: list[str] = []
    if len(conv.positions) != len(conv.turns):
        problems.append("turn ids are not unique")
    listed = [turn_id for session in conv.sessions for turn_id in session.turn_ids]
    if listed != [t.id for t in conv.turns]:
        problems.append("sessions do not list the turns in order")
    for before, after in zip(conv.turns, conv.turns[1:], strict=False):
        if after.timestamp < before.timestamp:
            problems.append(f"turn {after.id} is earlier than {before.id}")
    for turn in conv.turns:
        if turn.tenant != conv.tenant:
            problems.append(f"turn {turn.id} belongs to tenant {turn.tenant!r}")
    return problems


def _probe_problems(conv: Conversation) -> list[str]:
    problems: list[str] = []
    pos = conv.positions
    for probe in conv.probes:
        label = f"probe {probe.id}"
        if probe.after_turn not in pos:
            problems.append(f"{label}: after_turn {probe.after_turn} does not exist")
            continue
        asked = pos[probe.after_turn]
        for turn_id in probe.evidence:
            if turn_id not in pos:
                problems.append(f"{label}: evidence {turn_id} does not exist")
            elif pos[turn_id] > asked:
                problems.append(f"{label}: evidence {turn_id} comes after the probe")
        category = CATEGORIES.get(probe.category)
        lme = LONGMEMEVAL_CATEGORIES.get(probe.category)
        if not (
            (category is not None and category.kind == probe.kind)
            # LongMemEval's abstention questions keep their type's number.
            or (lme is not None and probe.kind in (lme.kind, "abstention"))
        ):
            problems.append(f"{label}: category {probe.category} is not {probe.kind}")
        if conv.source == "synthetic" and KIND_CATEGORY[probe.kind] != probe.category:
            problems.append(f"{label}: synthetic category does not match its kind")
        if probe.asked_at is not None and probe.asked_at < conv.turns[asked].timestamp:
            problems.append(f"{label}: asked_at is before its after_turn")
        if probe.kind == "update":
            problems.extend(_stale_problems(conv, probe.id, probe.stale_answers, asked))
    return problems


def _stale_problems(
    conv: Conversation, label: str, stale: list[str], asked: int
) -> list[str]:
    # Only the generator promises the older value; a public set may not name it.
    if not stale:
        if conv.source != "synthetic":
            return []
        return [f"probe {label}: update probe without a stale value"]
    said = [t.content for t in conv.turns[: asked + 1] if t.role == "user"]
    return [
        f"probe {label}: stale value {value!r} was never stated before it"
        for value in stale
        if not any(value in text for text in said)
    ]


def _fact_problems(conv: Conversation) -> list[str]:
    problems: list[str] = []
    pos = conv.positions
    for fact in conv.gold_facts:
        label = f"fact {fact.key}={fact.value!r}"
        if fact.turn_id not in pos:
            problems.append(f"{label}: turn {fact.turn_id} does not exist")
            continue
        missing = [t for t in fact.turn_ids if t not in pos]
        if missing:
            problems.append(f"{label}: turns {missing} do not exist")
        if (
            conv.source == "synthetic"
            and fact.value not in conv.turn(fact.turn_id).content
        ):
            problems.append(f"{label}: value not in turn {fact.turn_id}")
        if fact.replaced_by_turn is not None and (
            fact.replaced_by_turn not in pos
            or pos[fact.replaced_by_turn] <= pos[fact.turn_id]
        ):
            problems.append(f"{label}: replaced_by_turn is not a later turn")
    return problems


def _trap_problems(conv: Conversation) -> list[str]:
    problems: list[str] = []
    for trap in conv.traps:
        if trap.turn_id not in conv.positions:
            problems.append(f"trap at {trap.turn_id}: turn does not exist")
        elif trap.text not in conv.turn(trap.turn_id).content:
            problems.append(f"trap at {trap.turn_id}: text not in the turn")
    return problems
