"""Seeded synthetic conversations whose every fact, update and trap is known.

Determinism is the point: the same knobs give byte-identical output, so a result
can be reproduced from its dataset name alone. Each conversation draws from its
own `random.Random` seeded by (seed, index), so conversation 3 is the same whether
two or twenty conversations are generated. Time comes from a fixed epoch plus
seeded offsets, never from the wall clock.

A conversation is built in two passes: a timeline of exchanges (user turn plus
assistant reply) that records every statement, update and trap as it is emitted,
then probes placed on that timeline, each at a moment when its answer is settled.
"""

from __future__ import annotations

import bisect
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from memlab_datasets.categories import ABSTENTION_ANSWER, KIND_CATEGORY, ProbeKind
from memlab_datasets.domains import (
    ABSENT_SLOTS,
    ACKS,
    CONFIRM_ACKS,
    DOMAIN_TABLE,
    DOMAINS,
    LEAD_IN_REPLIES,
    LONG_FILLER,
    OPEN_ITEM_ACKS,
    REJECTION_REPLIES,
    REJECTIONS,
    RESOLVED_ACKS,
    SIGN_OFFS,
    SMALL_TALK,
    SMALL_TALK_REPLIES,
    SUGGEST_ASKS,
    SUGGESTIONS,
    THIRD_PARTIES,
    TRAP_REPLIES,
    TRAP_TEMPLATES,
    UPDATE_ACKS,
    Domain,
    Slot,
)
from memlab_datasets.types import (
    TRAP_KINDS,
    Conversation,
    Dataset,
    GoldFact,
    Probe,
    Session,
    Trap,
    TrapKind,
)
from memory_lab.config import FACT_CATEGORIES, FactConfig
from memory_lab.types import Message

EPOCH = datetime(2025, 1, 6, 9, 0, tzinfo=UTC)
"""Day 0 of every synthetic conversation (a Monday)."""

GENERATOR_VERSION = 1
"""Bumped whenever the same knobs would produce different text."""

USER_SPEAKER = "User"
"""The user's speaker label: neutral, so the planted name is not given away."""

_OPEN_ITEM = "open_item"
_OPINION_CATEGORIES = ("decision", "preference", "knowledge")


class GeneratorConfig(BaseModel):
    """Knobs of the synthetic generator; the field descriptions are the CLI help."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seed: int = Field(default=0, description="Same seed and knobs, same bytes.")
    conversations: int = Field(default=4, ge=1, description="How many tenants.")
    sessions: int = Field(default=6, ge=1, description="Sessions per conversation.")
    turns_per_session: int = Field(
        default=16, ge=2, description="Turns (user and assistant) per session."
    )
    fact_density: float = Field(
        default=0.5,
        ge=0.0,
        le=1.0,
        description="Share of non-small-talk exchanges that state, update, confirm "
        "or resolve a fact.",
    )
    update_rate: float = Field(
        default=0.3,
        ge=0.0,
        le=1.0,
        description="Share of fact moves that change a value.",
    )
    distractor_ratio: float = Field(
        default=0.25,
        ge=0.0,
        lt=1.0,
        description="Share of exchanges that are small talk.",
    )
    trap_rate: float = Field(
        default=0.2,
        ge=0.0,
        le=1.0,
        description="Share of non-small-talk exchanges that set a trap.",
    )
    long_message_rate: float = Field(
        default=0.05, ge=0.0, le=1.0, description="Share of user turns made very long."
    )
    span_days: int = Field(
        default=28, ge=1, description="Days the sessions spread over."
    )
    domain: Literal["mixed", "bookkeeping", "finance", "coding", "companion"] = Field(
        default="mixed", description="One domain, or 'mixed' to rotate through all."
    )
    probes_per_kind: int = Field(
        default=4, ge=0, description="At most this many probes of each kind per tenant."
    )

    @model_validator(mode="after")
    def _shares_fit(self) -> GeneratorConfig:
        if self.fact_density + self.trap_rate > 1.0:
            raise ValueError("fact_density + trap_rate must not exceed 1")
        return self

    def spec(self) -> str:
        """The `synthetic:...` spec that reproduces this config (defaults omitted)."""
        defaults = GeneratorConfig()
        parts = [
            f"{name}={value}"
            for name, value in self.model_dump().items()
            if value != getattr(defaults, name)
        ]
        return "synthetic" + (":" + ",".join(parts) if parts else "")


@dataclass
class _Statement:
    """One time the user stated a slot's value."""

    value: str
    pos: int
    turn_ids: list[str]
    session: int
    confirmations: list[str] = field(default_factory=list)

    @property
    def turn_id(self) -> str:
        return self.turn_ids[-1]


@dataclass
class _OpenItem:
    key: str
    value: str
    pos: int
    turn_id: str
    at: datetime
    resolved_turn: str | None = None


@dataclass
class _TrapAt:
    trap: Trap
    pos: int


def generate(config: GeneratorConfig | None = None) -> Dataset:
    """A synthetic dataset for `config` (defaults: a set quick enough for evals)."""
    config = config or GeneratorConfig()
    conversations = [
        generate_conversation(config, index) for index in range(config.conversations)
    ]
    return Dataset.build(
        name=config.spec(),
        conversations=conversations,
        metadata={
            "source": "synthetic",
            "generator_version": GENERATOR_VERSION,
            "config": config.model_dump(),
        },
    )


def generate_conversation(config: GeneratorConfig, index: int) -> Conversation:
    """Conversation number `index` of the dataset `config` describes."""
    domain_name = (
        DOMAINS[index % len(DOMAINS)] if config.domain == "mixed" else config.domain
    )
    rng = random.Random(f"memlab-synthetic:{config.seed}:{index}")
    return _Builder(config, index, DOMAIN_TABLE[domain_name], rng).build()


class _Builder:
    """Builds one conversation; holds the timeline while it is being written."""

    def __init__(
        self, config: GeneratorConfig, index: int, domain: Domain, rng: random.Random
    ) -> None:
        self.config = config
        self.domain = domain
        self.rng = rng
        self.tenant = f"syn-{config.seed}-{index:03d}"
        self.turns: list[Message] = []
        self.sessions: list[Session] = []
        self.history: dict[str, list[_Statement]] = {}
        self.open_items: list[_OpenItem] = []
        self.traps: list[_TrapAt] = []
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

    # -- setup ------------------------------------------------------------------

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

    # -- emitting turns ---------------------------------------------------------

    def _say(self, role: Literal["user", "assistant"], text: str) -> int:
        if role == "user":
            text = self._maybe_long(text)
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

    def _exchange(self, user: str, reply: str) -> int:
        """A user turn and the assistant's reply; returns the user turn's position."""
        pos = self._say("user", user)
        self._say("assistant", reply)
        return pos

    def _maybe_long(self, text: str) -> str:
        """Sometimes bury the text inside a very long message."""
        if self.rng.random() >= self.config.long_message_rate:
            return text
        before = [self.rng.choice(LONG_FILLER) for _ in range(self.rng.randint(8, 16))]
        after = [self.rng.choice(LONG_FILLER) for _ in range(self.rng.randint(8, 16))]
        return " ".join([*before, text, *after])

    def _pick(self, options: tuple[str, ...]) -> str:
        return self.rng.choice(options)

    # -- the timeline -----------------------------------------------------------

    def build(self) -> Conversation:
        """Write the timeline, then place probes on it."""
        cfg = self.config
        days = self._session_days()
        for number, day in enumerate(days, start=1):
            self._session(number, day)
        gold = self._gold_facts()
        probes = _ProbePlanner(self).plan()
        return Conversation(
            id=self.tenant,
            tenant=self.tenant,
            source="synthetic",
            speakers={"user": USER_SPEAKER, "assistant": self.domain.persona},
            sessions=self.sessions,
            turns=self.turns,
            probes=probes,
            gold_facts=gold,
            traps=[t.trap for t in self.traps],
            metadata={
                "domain": self.domain.name,
                "seed": cfg.seed,
                "generator_version": GENERATOR_VERSION,
                # Knobs without the count: a conversation is the same whether
                # two or twenty were generated.
                "knobs": cfg.model_dump(exclude={"conversations"}),
            },
        )

    def _session_days(self) -> list[int]:
        span, count = self.config.span_days, self.config.sessions
        if count <= span:
            return sorted(self.rng.sample(range(span), count))
        return sorted(self.rng.randrange(span) for _ in range(count))

    def _session(self, number: int, day: int) -> None:
        planned = EPOCH + timedelta(days=day, minutes=self.rng.randrange(600))
        # A session never starts before the previous one has ended.
        start = max(planned, self.now + timedelta(minutes=30))
        self.now = start
        self.session_no, self.turn_no = number, 0
        self.session_turn_ids = []
        exchanges = self.config.turns_per_session // 2
        small = round(exchanges * self.config.distractor_ratio)
        distractors = set(self.rng.sample(range(exchanges), small))
        content_left = exchanges - small
        for e in range(exchanges):
            if e in distractors:
                self._small_talk()
                continue
            content_left -= 1
            self._content(room=content_left)
        if self.config.turns_per_session % 2:
            self._say("user", self._pick(SIGN_OFFS))
        self.sessions.append(
            Session(
                id=f"session_{number}",
                started_at=start,
                turn_ids=self.session_turn_ids,
            )
        )

    def _small_talk(self) -> None:
        self._exchange(self._pick(SMALL_TALK), self._pick(SMALL_TALK_REPLIES))

    def _content(self, room: int) -> None:
        """One non-small-talk exchange; `room` is how many more fit this session."""
        if self.pending is not None:
            self._follow_up()
            return
        if self.pending_rejection:
            self.pending_rejection = False
            self._exchange(self._pick(REJECTIONS), self._pick(REJECTION_REPLIES))
            return
        roll = self.rng.random()
        if roll < self.config.fact_density:
            self._fact_move(room)
        elif roll < self.config.fact_density + self.config.trap_rate:
            self._trap(room)
        else:
            # Chatter and its replies are parallel lists: a question gets its answer.
            i = self.rng.randrange(len(self.domain.chatter))
            self._exchange(self.domain.chatter[i], self.domain.chatter_replies[i])

    # -- fact moves -------------------------------------------------------------

    def _fact_move(self, room: int) -> None:
        updatable = [s for s in self.planted if s.key in self.history and s.updatable]
        confirmable = [s for s in self.planted if s.key in self.history]
        open_now = [o for o in self.open_items if o.resolved_turn is None]
        fresh = 1.0 - self.config.update_rate
        moves = {
            "new": fresh * 0.8 if self.unstated else 0.0,
            "open": fresh * 0.2,
            "update": self.config.update_rate if updatable else 0.0,
            "confirm": 0.1 if confirmable else 0.0,
            "resolve": 0.1 if open_now else 0.0,
        }
        if self.unstated and len(self.unstated) > self.optional:
            # Users introduce one thing of each category first, so every
            # conversation with enough fact moves covers the whole vocabulary.
            moves = {"new": 1.0}
        if sum(moves.values()) <= 0:
            moves["open"] = 1.0
        move = self.rng.choices(list(moves), weights=list(moves.values()))[0]
        if move == "new":
            slot = self.unstated.pop(0)
            if slot is None:
                self._new_open_item()
            else:
                self._state(slot, room)
        elif move == "open":
            self._new_open_item()
        elif move == "update":
            self._update(self.rng.choice(updatable))
        elif move == "confirm":
            self._confirm(self.rng.choice(confirmable))
        else:
            self._resolve(self.rng.choice(open_now))

    def _record(self, slot: Slot, value: str, pos: int, turn_ids: list[str]) -> None:
        self.history.setdefault(slot.key, []).append(
            _Statement(value, pos, turn_ids, self.session_no)
        )

    def _state(self, slot: Slot, room: int) -> None:
        value = self.rng.choice(slot.values)
        if slot.lead_in and room > 0 and self.rng.random() < 0.3:
            pos = self._exchange(self._pick(slot.lead_in), self._pick(LEAD_IN_REPLIES))
            self.pending = (slot, value, [self.turns[pos].id])
            return
        text = self._pick(slot.state).format(v=value)
        pos = self._exchange(text, self._pick(ACKS))
        self._record(slot, value, pos, [self.turns[pos].id])

    def _follow_up(self) -> None:
        assert self.pending is not None
        slot, value, lead_ids = self.pending
        self.pending = None
        text = self._pick(slot.follow).format(v=value)
        pos = self._exchange(text, self._pick(ACKS))
        self._record(slot, value, pos, [*lead_ids, self.turns[pos].id])

    def _update(self, slot: Slot) -> None:
        current = self.history[slot.key][-1].value
        value = self.rng.choice([v for v in slot.values if v != current])
        pos = self._exchange(
            self._pick(slot.update).format(v=value), self._pick(UPDATE_ACKS)
        )
        self._record(slot, value, pos, [self.turns[pos].id])

    def _confirm(self, slot: Slot) -> None:
        latest = self.history[slot.key][-1]
        templates = slot.confirm or ("Just confirming, {topic} is still {v}.",)
        text = self._pick(templates).format(v=latest.value, topic=slot.topic)
        pos = self._exchange(text, self._pick(CONFIRM_ACKS))
        latest.confirmations.append(self.turns[pos].id)

    def _new_open_item(self) -> None:
        items = self.domain.open_items
        used = {o.value for o in self.open_items}
        unused = [t for t in items.tasks if t not in used]
        if unused:
            task = self.rng.choice(unused)
        else:
            task = items.numbered.format(n=1000 + len(self.open_items))
        pos = self._exchange(
            self._pick(items.state).format(v=task), self._pick(OPEN_ITEM_ACKS)
        )
        key = f"{_OPEN_ITEM}:{len(self.open_items) + 1}"
        turn = self.turns[pos]
        self.open_items.append(_OpenItem(key, task, pos, turn.id, turn.timestamp))

    def _resolve(self, item: _OpenItem) -> None:
        text = self._pick(self.domain.open_items.resolve).format(v=item.value)
        pos = self._exchange(text, self._pick(RESOLVED_ACKS))
        item.resolved_turn = self.turns[pos].id

    # -- traps ------------------------------------------------------------------

    def _trap(self, room: int) -> None:
        kinds: list[TrapKind] = list(TRAP_KINDS)
        if room < 1:
            kinds.remove("rejected_suggestion")
        kind = self.rng.choice(kinds)
        pool = self.planted + self.absent
        if kind == "third_party":
            # Half of them prime an abstention probe on a never-stated slot.
            absent = [s for s in self.absent if s.third]
            pool = absent if absent and self.rng.random() < 0.5 else pool
            pool = [s for s in pool if s.third]
        if kind == "rejected_suggestion":
            # Suggesting someone's name or allergy makes no sense; suggest choices.
            pool = [s for s in pool if s.category in ("decision", "preference")]
        elif kind == "question":
            # "Is Fortnox any good?" reads naturally; "Is Jonas any good?" does not.
            pool = [s for s in pool if s.category in _OPINION_CATEGORIES]
        slot = self.rng.choice(pool)
        stated = {s.value for s in self.history.get(slot.key, [])}
        alts = [v for v in slot.values if v not in stated] or list(slot.values)
        alt = self.rng.choice(alts)
        if kind == "rejected_suggestion":
            self._say("user", self._pick(SUGGEST_ASKS).format(topic=slot.topic))
            text = self._pick(SUGGESTIONS).format(alt=alt)
            pos = self._say("assistant", text)
            self.pending_rejection = True
        else:
            if kind == "third_party":
                who = self.rng.choice(THIRD_PARTIES)
                text = self._pick(slot.third).format(who=who, alt=alt)
            else:
                text = self._pick(TRAP_TEMPLATES[kind]).format(
                    topic=slot.topic, alt=alt
                )
            pos = self._exchange(text, self._pick(TRAP_REPLIES[kind]))
        trap = Trap(
            kind=kind, turn_id=self.turns[pos].id, text=text, key=slot.key, value=alt
        )
        self.traps.append(_TrapAt(trap, pos))

    # -- gold facts -------------------------------------------------------------

    def _gold_facts(self) -> list[GoldFact]:
        facts: list[tuple[int, GoldFact]] = []
        by_key = {s.key: s for s in self.planted}
        for key, statements in self.history.items():
            slot = by_key[key]
            for i, st in enumerate(statements):
                nxt = statements[i + 1] if i + 1 < len(statements) else None
                facts.append(
                    (
                        st.pos,
                        GoldFact(
                            subject="user",
                            category=slot.category,
                            key=key,
                            value=st.value,
                            turn_id=st.turn_id,
                            turn_ids=st.turn_ids,
                            confirmed_turn_ids=st.confirmations,
                            replaced_by_turn=nxt.turn_id if nxt else None,
                        ),
                    )
                )
        for item in self.open_items:
            facts.append(
                (
                    item.pos,
                    GoldFact(
                        subject="user",
                        category="unresolved",
                        key=item.key,
                        value=item.value,
                        turn_id=item.turn_id,
                        turn_ids=[item.turn_id],
                        replaced_by_turn=item.resolved_turn,
                        expires=item.at + self.open_ttl,
                    ),
                )
            )
        facts.sort(key=lambda pair: (pair[0], pair[1].key))
        return [fact for _, fact in facts]


class _ProbePlanner:
    """Places probes where their answers are settled, after their evidence."""

    def __init__(self, builder: _Builder) -> None:
        self.b = builder
        self.rng = builder.rng
        self.turns = builder.turns
        self.slots = {s.key: s for s in builder.planted}
        # Probes are asked at the end of an exchange, after the assistant replied.
        self.ends = [i for i, t in enumerate(self.turns) if t.role == "assistant"]
        self.ends = self.ends or [len(self.turns) - 1]

    def plan(self) -> list[Probe]:
        """Up to `probes_per_kind` probes of each kind, ordered by when asked."""
        limit = self.b.config.probes_per_kind
        drafts: list[tuple[int, Probe]] = []
        for maker in (self._recall_and_update, self._temporal, self._abstention):
            for candidates in maker().values():
                drafts.extend(self._sample(candidates, limit))
        drafts.extend(self._multi_hop(limit))
        drafts.sort(key=lambda pair: (pair[0], pair[1].kind, pair[1].question))
        return [
            probe.model_copy(update={"id": f"{self.b.tenant}:p{n}"})
            for n, (_, probe) in enumerate(drafts, start=1)
        ]

    def _sample(
        self, candidates: list[tuple[int, Probe]], limit: int
    ) -> list[tuple[int, Probe]]:
        if len(candidates) <= limit:
            return candidates
        return self.rng.sample(candidates, limit)

    def _after(self, lo: int, hi: int | None = None) -> int:
        """A random exchange end in [lo, hi), or `lo` when there is none."""
        hi = len(self.turns) if hi is None else hi
        first = bisect.bisect_left(self.ends, lo)
        last = bisect.bisect_left(self.ends, hi)
        if first >= last:
            return lo
        return self.ends[self.rng.randrange(first, last)]

    def _probe(
        self, pos: int, kind: ProbeKind, question: str, answer: str, **extra: object
    ) -> tuple[int, Probe]:
        probe = Probe(
            id="draft",
            question=question,
            answer=answer,
            after_turn=self.turns[pos].id,
            category=KIND_CATEGORY[kind],
            kind=kind,
            **extra,
        )
        return pos, probe

    def _adversarial(self, key: str, pos: int, answer: str) -> str | None:
        """The latest trap on the same key before `pos` that names another value."""
        for trap_at in reversed(self.b.traps):
            trap = trap_at.trap
            if trap_at.pos <= pos and trap.key == key and trap.value != answer:
                return trap.value
        return None

    def _stale(self, statements: list[_Statement], current: str) -> list[str]:
        stale: list[str] = []
        for st in statements:
            if st.value != current and st.value not in stale:
                stale.append(st.value)
        return stale

    def _recall_and_update(self) -> dict[str, list[tuple[int, Probe]]]:
        out: dict[str, list[tuple[int, Probe]]] = {"recall": [], "update": []}
        for key, statements in self.b.history.items():
            slot = self.slots[key]
            for i, st in enumerate(statements):
                nxt = statements[i + 1].pos if i + 1 < len(statements) else None
                pos = self._after(st.pos, nxt)
                kind: ProbeKind = "recall" if i == 0 else "update"
                out[kind].append(
                    self._probe(
                        pos,
                        kind,
                        slot.question,
                        st.value,
                        evidence=[st.turn_id],
                        stale_answers=self._stale(statements[:i], st.value),
                        adversarial_answer=self._adversarial(key, pos, st.value),
                        fact_keys=[key],
                    )
                )
        return out

    def _temporal(self) -> dict[str, list[tuple[int, Probe]]]:
        out: list[tuple[int, Probe]] = []
        for key, statements in self.b.history.items():
            slot = self.slots[key]
            seen: set[str] = set()
            for st in statements:
                if st.value in seen:
                    continue
                seen.add(st.value)
                if slot.category == "decision":
                    question = f"When did we settle on {st.value} for {slot.topic}?"
                else:
                    question = (
                        f"When did I first tell you that {slot.topic} is {st.value}?"
                    )
                started = self.b.sessions[st.session - 1].started_at
                out.append(
                    self._probe(
                        self._after(st.pos),
                        "temporal",
                        question,
                        _day(started),
                        evidence=[st.turn_id],
                        fact_keys=[key],
                    )
                )
        return {"temporal": out}

    def _abstention(self) -> dict[str, list[tuple[int, Probe]]]:
        primed: list[tuple[int, Probe]] = []
        plain: list[tuple[int, Probe]] = []
        for slot in self.b.absent:
            traps = [t for t in self.b.traps if t.trap.key == slot.key]
            if traps:
                trap_at = traps[-1]
                pos = self._after(trap_at.pos)
                primed.append(
                    self._probe(
                        pos,
                        "abstention",
                        slot.question,
                        ABSTENTION_ANSWER,
                        evidence=[trap_at.trap.turn_id],
                        adversarial_answer=trap_at.trap.value,
                        fact_keys=[slot.key],
                    )
                )
            else:
                plain.append(
                    self._probe(
                        self._after(0),
                        "abstention",
                        slot.question,
                        ABSTENTION_ANSWER,
                        evidence=[],
                        fact_keys=[slot.key],
                    )
                )
        # Trap-primed ones test more, so they go first when the limit bites.
        limit = self.b.config.probes_per_kind
        chosen = self._sample(primed, limit)
        chosen += self._sample(plain, limit - len(chosen))
        return {"abstention": chosen}

    def _multi_hop(self, limit: int) -> list[tuple[int, Probe]]:
        keys = sorted(self.b.history)
        if len(keys) < 2 or limit <= 0:
            return []
        out: list[tuple[int, Probe]] = []
        pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :]]
        for a, b in self._pick_pairs(pairs, limit):
            ha, hb = self.b.history[a], self.b.history[b]
            pos = self._after(max(ha[0].pos, hb[0].pos))
            sa = [s for s in ha if s.pos <= pos][-1]
            sb = [s for s in hb if s.pos <= pos][-1]
            qa, qb = self.slots[a].question, self.slots[b].question
            stale = self._stale([s for s in ha if s.pos <= pos], sa.value)
            stale += self._stale([s for s in hb if s.pos <= pos], sb.value)
            out.append(
                self._probe(
                    pos,
                    "multi_hop",
                    f"{qa} And {qb[0].lower()}{qb[1:]}",
                    f"{sa.value} and {sb.value}",
                    evidence=[sa.turn_id, sb.turn_id],
                    stale_answers=stale,
                    fact_keys=[a, b],
                )
            )
        return out

    def _pick_pairs(
        self, pairs: list[tuple[str, str]], limit: int
    ) -> list[tuple[str, str]]:
        if len(pairs) <= limit:
            return pairs
        return self.rng.sample(pairs, limit)


def _day(moment: datetime) -> str:
    """A date as LoCoMo writes it, e.g. '8 January 2025'."""
    return f"{moment.day} {moment:%B %Y}"
