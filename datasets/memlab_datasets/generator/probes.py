"""Probes placed on a finished timeline, each where its answer is settled.

Every probe is asked after its evidence and before anything replaces it, so
its gold answer is the one a perfect memory would give at that moment.
"""

from __future__ import annotations

import bisect
from datetime import datetime

from memlab_datasets.categories import ABSTENTION_ANSWER, KIND_CATEGORY, ProbeKind
from memlab_datasets.generator.timeline import Statement, Timeline
from memlab_datasets.types import Probe


class ProbePlanner:
    """Places probes where their answers are settled, after their evidence."""

    def __init__(self, timeline: Timeline) -> None:
        self.timeline = timeline
        self.rng = timeline.rng
        self.turns = timeline.turns
        self.slots = {s.key: s for s in timeline.planted}
        # Probes are asked at the end of an exchange, after the assistant replied.
        self.ends = [i for i, t in enumerate(self.turns) if t.role == "assistant"]
        self.ends = self.ends or [len(self.turns) - 1]

    def plan(self) -> list[Probe]:
        """Up to `probes_per_kind` probes of each kind, ordered by when asked."""
        limit = self.timeline.config.probes_per_kind
        drafts: list[tuple[int, Probe]] = []
        for maker in (self._recall_and_update, self._temporal, self._abstention):
            for candidates in maker().values():
                drafts.extend(self._sample(candidates, limit))
        drafts.extend(self._multi_hop(limit))
        drafts.sort(key=lambda pair: (pair[0], pair[1].kind, pair[1].question))
        return [
            probe.model_copy(update={"id": f"{self.timeline.tenant}:p{n}"})
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
        for trap_at in reversed(self.timeline.traps):
            trap = trap_at.trap
            if trap_at.pos <= pos and trap.key == key and trap.value != answer:
                return trap.value
        return None

    def _stale(self, statements: list[Statement], current: str) -> list[str]:
        stale: list[str] = []
        for st in statements:
            if st.value != current and st.value not in stale:
                stale.append(st.value)
        return stale

    def _recall_and_update(self) -> dict[str, list[tuple[int, Probe]]]:
        out: dict[str, list[tuple[int, Probe]]] = {"recall": [], "update": []}
        for key, statements in self.timeline.history.items():
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
        for key, statements in self.timeline.history.items():
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
                started = self.timeline.sessions[st.session - 1].started_at
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
        for slot in self.timeline.absent:
            traps = [t for t in self.timeline.traps if t.trap.key == slot.key]
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
        limit = self.timeline.config.probes_per_kind
        chosen = self._sample(primed, limit)
        chosen += self._sample(plain, limit - len(chosen))
        return {"abstention": chosen}

    def _multi_hop(self, limit: int) -> list[tuple[int, Probe]]:
        keys = sorted(self.timeline.history)
        if len(keys) < 2 or limit <= 0:
            return []
        out: list[tuple[int, Probe]] = []
        pairs = [(a, b) for i, a in enumerate(keys) for b in keys[i + 1 :]]
        for a, b in self._pick_pairs(pairs, limit):
            ha, hb = self.timeline.history[a], self.timeline.history[b]
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
