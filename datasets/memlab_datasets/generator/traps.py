"""Traps: turns that name a value the user does not hold.

A hypothetical, a question, a joke, another person's fact or a suggestion the
user turns down; a memory that stores the value from any of them is wrong.
"""

from __future__ import annotations

from memlab_datasets.domains import (
    REJECTION_REPLIES,
    REJECTIONS,
    SUGGEST_ASKS,
    SUGGESTIONS,
    THIRD_PARTIES,
    TRAP_REPLIES,
    TRAP_TEMPLATES,
)
from memlab_datasets.generator.timeline import Timeline, TrapAt
from memlab_datasets.types import TRAP_KINDS, Trap, TrapKind

OPINION_CATEGORIES = ("decision", "preference", "knowledge")
"""Categories whose values read naturally in 'Is X any good?'."""


def set_trap(timeline: Timeline, room: int) -> None:
    """Write one trap; a rejected suggestion needs `room` for the rejection."""
    t = timeline
    kinds: list[TrapKind] = list(TRAP_KINDS)
    if room < 1:
        kinds.remove("rejected_suggestion")
    kind = t.rng.choice(kinds)
    pool = t.planted + t.absent
    if kind == "third_party":
        # Half of them prime an abstention probe on a never-stated slot.
        absent = [s for s in t.absent if s.third]
        pool = absent if absent and t.rng.random() < 0.5 else pool
        pool = [s for s in pool if s.third]
    if kind == "rejected_suggestion":
        # Suggesting someone's name or allergy makes no sense; suggest choices.
        pool = [s for s in pool if s.category in ("decision", "preference")]
    elif kind == "question":
        # "Is Fortnox any good?" reads naturally; "Is Jonas any good?" does not.
        pool = [s for s in pool if s.category in OPINION_CATEGORIES]
    slot = t.rng.choice(pool)
    stated = {s.value for s in t.history.get(slot.key, [])}
    alts = [v for v in slot.values if v not in stated] or list(slot.values)
    alt = t.rng.choice(alts)
    if kind == "rejected_suggestion":
        t.say("user", t.pick(SUGGEST_ASKS).format(topic=slot.topic))
        text = t.pick(SUGGESTIONS).format(alt=alt)
        pos = t.say("assistant", text)
        t.pending_rejection = True
    else:
        if kind == "third_party":
            who = t.rng.choice(THIRD_PARTIES)
            text = t.pick(slot.third).format(who=who, alt=alt)
        else:
            text = t.pick(TRAP_TEMPLATES[kind]).format(topic=slot.topic, alt=alt)
        pos = t.exchange(text, t.pick(TRAP_REPLIES[kind]))
    trap = Trap(kind=kind, turn_id=t.turns[pos].id, text=text, key=slot.key, value=alt)
    t.traps.append(TrapAt(trap, pos))


def reject_suggestion(timeline: Timeline) -> None:
    """The user turns down the suggestion the assistant just made."""
    timeline.pending_rejection = False
    timeline.exchange(timeline.pick(REJECTIONS), timeline.pick(REJECTION_REPLIES))
