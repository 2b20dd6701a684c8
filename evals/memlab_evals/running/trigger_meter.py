"""Watching a memory recipe's triggers while a conversation is fed to it.

Recall barely separates the triggers, because the excerpt index keeps every
compressed turn findable whatever the trigger did. What a trigger does change is
measured here, turn by turn: when each turn was chosen for compression (how long
it waited in the window), how often the part of the context that does not depend
on the question changed (each change invalidates a provider's prompt cache),
and what the memory gave its brain to read (the bill a model brain sends).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from memlab_evals.running.log import TriggerTrace
from memory_lab.facts.ranking import in_core
from memory_lab.types import Episode, Message, TriggerDecision
from memory_lab.window.view import one_instant

if TYPE_CHECKING:
    from memory_lab.engine import MemoryEngine

PREFIX_FACT_KINDS = frozenset(
    {
        "fact_added",
        "fact_superseded",
        "fact_forgotten",
        "facts_consolidated",
        "fact_restored",
        "undone",
    }
)
"""Fact events that can change the core facts every context starts with."""


class TriggerMeter:
    """Per-turn bookkeeping beside one engine and tenant.

    It only watches: it never waits for the worker or reads memory while turns
    arrive, so a recipe measured is a recipe that behaves as it does unmeasured.
    """

    def __init__(self, engine: MemoryEngine, tenant: str) -> None:
        self.engine = engine
        self.tenant = tenant
        self._pending: deque[tuple[int, Message]] = deque()
        self._turns = 0
        self._wait_turns: list[int] = []
        self._wait_minutes: list[float] = []

    def after_turn(self, msg: Message, decision: TriggerDecision | None) -> None:
        """Record the turn and which waiting turns its decision chose."""
        self._turns += 1
        self._pending.append((self._turns, msg))
        if decision is not None and decision.fire:
            for _ in range(min(decision.compress_count, len(self._pending))):
                index, turn = self._pending.popleft()
                self._wait_turns.append(self._turns - index + 1)
                minutes = (msg.timestamp - turn.timestamp).total_seconds() / 60
                self._wait_minutes.append(round(minutes, 3))

    def prefix_changes(self) -> int:
        """Turns whose memory work changed the running summary or the core facts.

        Work runs at the time of the turn that asked for it, and its events carry
        that time: every compression rewrites the running summary, and a fact
        event on a core fact rewrites the core. Read from the event log once the
        work is done, so the count does not depend on the worker's pace.
        """
        engine = self.engine
        core = {
            row.id
            for row in engine.facts.rows(self.tenant)
            if in_core(row, engine.config.facts)
        }
        changed = {
            event.at
            for event in engine.events.events(self.tenant)
            if event.kind == "compressed"
            or (event.kind in PREFIX_FACT_KINDS and core.intersection(event.refs))
        }
        return len(changed)

    def trace(self) -> TriggerTrace:
        """Everything recorded so far (call once the worker is done)."""
        reads = self.engine.brain_reads()
        return TriggerTrace(
            wait_turns=list(self._wait_turns),
            wait_minutes=list(self._wait_minutes),
            prefix_changes=self.prefix_changes(),
            brain_reads={k: v for k, v in reads.items() if not k.startswith("respond")},
        )


def episode_coherence(
    engine: MemoryEngine, tenant: str, episodes: Sequence[Episode]
) -> dict[str, float]:
    """Per episode of two or more turns: mean cosine of its turns to their centroid.

    The vectors are the turn index's own (MiniLM over each turn's speaker and
    words), so no turn is embedded again. An episode that holds one topic
    scores high; one that runs from one subject into the next scores lower.
    """
    spans = [ep for ep in episodes if len(ep.turn_ids) >= 2]
    if not spans:
        return {}
    # The index loads from the stores under its lock: read them first, as a
    # question does, or this deadlocks with one.
    with one_instant(engine.deps):
        vectors = engine.deps.excerpts.turn_vectors(
            engine.transcript, engine.episodes, tenant
        )
    scores = {}
    for ep in spans:
        found = [vectors[t] for t in ep.turn_ids if t in vectors]
        if len(found) < 2:
            continue
        rows = np.stack(found)
        centroid = rows.mean(axis=0)
        norm = float(np.linalg.norm(centroid))
        if norm:
            scores[ep.id] = round(float((rows @ (centroid / norm)).mean()), 4)
    return scores
