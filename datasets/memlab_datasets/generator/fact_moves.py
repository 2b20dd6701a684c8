"""Fact moves: the user states, updates, confirms, opens or resolves something.

Each move writes its exchange on the timeline and records what it planted, so
every gold fact names the turns that state it.
"""

from __future__ import annotations

from memlab_datasets.domains import (
    ACKS,
    CONFIRM_ACKS,
    LEAD_IN_REPLIES,
    OPEN_ITEM_ACKS,
    RESOLVED_ACKS,
    UPDATE_ACKS,
    Slot,
)
from memlab_datasets.generator.timeline import OpenItemAt, Timeline

OPEN_ITEM = "open_item"
"""Key prefix of open items, numbered in the order they are raised."""


def make_fact_move(timeline: Timeline, room: int) -> None:
    """Choose and write one fact move; `room` is how many more fit the session."""
    t = timeline
    updatable = [s for s in t.planted if s.key in t.history and s.updatable]
    confirmable = [s for s in t.planted if s.key in t.history]
    open_now = [o for o in t.open_items if o.resolved_turn is None]
    fresh = 1.0 - t.config.update_rate
    moves = {
        "new": fresh * 0.8 if t.unstated else 0.0,
        "open": fresh * 0.2,
        "update": t.config.update_rate if updatable else 0.0,
        "confirm": 0.1 if confirmable else 0.0,
        "resolve": 0.1 if open_now else 0.0,
    }
    if t.unstated and len(t.unstated) > t.optional:
        # Users introduce one thing of each category first, so every
        # conversation with enough fact moves covers the whole vocabulary.
        moves = {"new": 1.0}
    if sum(moves.values()) <= 0:
        moves["open"] = 1.0
    move = t.rng.choices(list(moves), weights=list(moves.values()))[0]
    if move == "new":
        slot = t.unstated.pop(0)
        if slot is None:
            open_item(t)
        else:
            state(t, slot, room)
    elif move == "open":
        open_item(t)
    elif move == "update":
        update(t, t.rng.choice(updatable))
    elif move == "confirm":
        confirm(t, t.rng.choice(confirmable))
    else:
        resolve(t, t.rng.choice(open_now))


def state(timeline: Timeline, slot: Slot, room: int) -> None:
    """State a slot's first value, sometimes as a lead-in finished next time."""
    t = timeline
    value = t.rng.choice(slot.values)
    if slot.lead_in and room > 0 and t.rng.random() < 0.3:
        pos = t.exchange(t.pick(slot.lead_in), t.pick(LEAD_IN_REPLIES))
        t.pending = (slot, value, [t.turns[pos].id])
        return
    text = t.pick(slot.state).format(v=value)
    pos = t.exchange(text, t.pick(ACKS))
    t.record(slot, value, pos, [t.turns[pos].id])


def follow_up(timeline: Timeline) -> None:
    """Finish the statement a lead-in started; both turns are its evidence."""
    t = timeline
    assert t.pending is not None
    slot, value, lead_ids = t.pending
    t.pending = None
    text = t.pick(slot.follow).format(v=value)
    pos = t.exchange(text, t.pick(ACKS))
    t.record(slot, value, pos, [*lead_ids, t.turns[pos].id])


def update(timeline: Timeline, slot: Slot) -> None:
    """Change a stated slot to another of its values."""
    t = timeline
    current = t.history[slot.key][-1].value
    value = t.rng.choice([v for v in slot.values if v != current])
    pos = t.exchange(t.pick(slot.update).format(v=value), t.pick(UPDATE_ACKS))
    t.record(slot, value, pos, [t.turns[pos].id])


def confirm(timeline: Timeline, slot: Slot) -> None:
    """Say a stated slot's value again; the value and its start do not change."""
    t = timeline
    latest = t.history[slot.key][-1]
    templates = slot.confirm or ("Just confirming, {topic} is still {v}.",)
    text = t.pick(templates).format(v=latest.value, topic=slot.topic)
    pos = t.exchange(text, t.pick(CONFIRM_ACKS))
    latest.confirmations.append(t.turns[pos].id)


def open_item(timeline: Timeline) -> None:
    """Raise a task the user still has to do."""
    t = timeline
    items = t.domain.open_items
    used = {o.value for o in t.open_items}
    unused = [task for task in items.tasks if task not in used]
    if unused:
        task = t.rng.choice(unused)
    else:
        task = items.numbered.format(n=1000 + len(t.open_items))
    pos = t.exchange(t.pick(items.state).format(v=task), t.pick(OPEN_ITEM_ACKS))
    key = f"{OPEN_ITEM}:{len(t.open_items) + 1}"
    turn = t.turns[pos]
    t.open_items.append(OpenItemAt(key, task, pos, turn.id, turn.timestamp))


def resolve(timeline: Timeline, item: OpenItemAt) -> None:
    """Say an open item is done."""
    t = timeline
    text = t.pick(t.domain.open_items.resolve).format(v=item.value)
    pos = t.exchange(text, t.pick(RESOLVED_ACKS))
    item.resolved_turn = t.turns[pos].id
