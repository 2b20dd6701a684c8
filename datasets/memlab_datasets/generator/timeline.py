"""One conversation while it is being written: its turns and what they stated.

The moves (facts, traps, small talk) write through `Timeline.say`, which now
and then buries a user turn in a long ramble, and record what they planted
here, so the gold facts and the probes can be read off it afterwards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Literal

from memlab_datasets.domains import ABSENT_SLOTS, LONG_FILLER, Domain, Slot
from memlab_datasets.generator.config import EPOCH, USER_SPEAKER, GeneratorConfig
from memlab_datasets.types import Session, Trap
from memory_lab.config import FACT_CATEGORIES, FactConfig
from memory_lab.types import Message


@dataclass
class Statement:
    """One time the user stated a slot's value."""

    value: str
    pos: int
    turn_ids: list[str]
    session: int
    confirmations: list[str] = field(default_factory=list)

    @property
    def turn_id(self) -> str:
        """The turn that completed the statement (the last of a two-turn one)."""
        return self.turn_ids[-1]


@dataclass
class OpenItemAt:
    """An open item the user raised, and the turn that resolved it, if any."""

    key: str
    value: str
    pos: int
    turn_id: str
    at: datetime
    resolved_turn: str | None = None


@dataclass
class TrapAt:
    """A trap and the position of the turn that set it."""

    trap: Trap
    pos: int


class Timeline:
    """The turns written so far and every statement, open item and trap in them."""

    def __init__(
        self, config: GeneratorConfig, index: int, domain: Domain, rng: random.Random
    ) -> None:
        self.config = config
        self.domain = domain
        self.rng = rng
        self.tenant = f"syn-{config.seed}-{index:03d}"
        self.turns: list[Message] = []
        self.sessions: list[Session] = []
        self.history: dict[str, list[Statement]] = {}
        self.open_items: list[OpenItemAt] = []
        self.traps: list[TrapAt] = []
        self.pending: tuple[Slot, str, list[str]] | None = None
        self.pending_rejection = False
        self.session_no = 0
        self.turn_no = 0
        self.session_turn_ids: list[str] = []
        self.now = EPOCH
        self.open_ttl = FactConfig().ttl("unresolved") or timedelta(days=30)
        self.planted, self.absent = self._choose_slots()
        self.unstated: list[Slot | None] = self._statement_order()
        self.optional = len(self.unstated) - len(FACT_CATEGORIES)

    def _choose_slots(self) -> tuple[list[Slot], list[Slot]]:
        """Plant most slots; hold back one whose category stays covered."""
        slots = list(self.domain.slots)
        per_category: dict[str, int] = {}
        for slot in slots:
            per_category[slot.category] = per_category.get(slot.category, 0) + 1
        spare = [s for s in slots if s.key != "name" and per_category[s.category] > 1]
        held = [self.rng.choice(spare)] if spare else []
        planted = [s for s in slots if s not in held]
        return planted, held + list(ABSENT_SLOTS)

    def _statement_order(self) -> list[Slot | None]:
        """One slot per category first, so short conversations still cover all.

        `None` stands for the first open item (the 'unresolved' category).
        """
        first: dict[str, Slot] = {}
        rest: list[Slot] = []
        shuffled = list(self.planted)
        self.rng.shuffle(shuffled)
        for slot in shuffled:
            if slot.category in first:
                rest.append(slot)
            else:
                first[slot.category] = slot
        head: list[Slot | None] = [*first.values(), None]
        self.rng.shuffle(head)
        return head + rest

    def say(self, role: Literal["user", "assistant"], text: str) -> int:
        """Append one turn a few minutes after the last; returns its position."""
        if role == "user":
            text = self._lengthen(text)
        self.turn_no += 1
        turn_id = f"D{self.session_no}:{self.turn_no}"
        gap = self.rng.randint(1, 4) + (5 if len(text) > 1000 else 0)
        self.now = self.now + timedelta(minutes=gap)
        speaker = USER_SPEAKER if role == "user" else self.domain.persona
        self.turns.append(
            Message(
                id=turn_id,
                tenant=self.tenant,
                session=f"session_{self.session_no}",
                role=role,
                content=text,
                timestamp=self.now,
                speaker=speaker,
            )
        )
        self.session_turn_ids.append(turn_id)
        return len(self.turns) - 1

    def _lengthen(self, text: str) -> str:
        """Sometimes bury the text inside a very long message."""
        if self.rng.random() >= self.config.long_message_rate:
            return text
        before = [self.rng.choice(LONG_FILLER) for _ in range(self.rng.randint(8, 16))]
        after = [self.rng.choice(LONG_FILLER) for _ in range(self.rng.randint(8, 16))]
        return " ".join([*before, text, *after])

    def exchange(self, user: str, reply: str) -> int:
        """A user turn and the assistant's reply; returns the user turn's position."""
        pos = self.say("user", user)
        self.say("assistant", reply)
        return pos

    def pick(self, options: tuple[str, ...]) -> str:
        """One of `options`, drawn from the conversation's own random stream."""
        return self.rng.choice(options)

    def record(self, slot: Slot, value: str, pos: int, turn_ids: list[str]) -> None:
        """Note that the turns `turn_ids` stated `value` for `slot`."""
        self.history.setdefault(slot.key, []).append(
            Statement(value, pos, turn_ids, self.session_no)
        )
