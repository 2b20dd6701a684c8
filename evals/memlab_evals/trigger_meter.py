"""Watching a memory recipe's triggers while a conversation is fed to it.

Recall barely separates the triggers, because the excerpt index keeps every
compressed turn findable whatever the trigger did. What a trigger does change is
measured here, turn by turn: when each turn was chosen for compression (how long
it waited in the window), whether the part of the context that does not depend
on the question changed (each change invalidates a provider's prompt cache),
and what the memory gave its brain to read (the bill a model brain sends).
"""

from __future__ import annotations

import hashlib
from collections import deque
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from memlab_evals.log import TriggerTrace
from memory_lab.facts.ranking import in_core
from memory_lab.types import Episode, Message, TriggerDecision

if TYPE_CHECKING:
    from memory_lab.engine import MemoryEngine

THREAD = "main"


class TriggerMeter:
    """Per-turn bookkeeping beside one engine and tenant."""

    def __init__(self, engine: MemoryEngine, tenant: str) -> None:
        self.engine = engine
        self.tenant = tenant
        self._pending: deque[tuple[int, Message]] = deque()
        self._turns = 0
        self._wait_turns: list[int] = []
        self._wait_minutes: list[float] = []
        self._prefix = self._prefix_digest()
        self._prefix_changes = 0

    def after_turn(self, msg: Message, decision: TriggerDecision | None) -> None:
        """Record the turn, what its decision chose, and whether the prefix moved.

        The worker is waited for first, so the prefix compared is the memory as
        an instant worker would leave it: the count does not depend on timing.
        """
        self._turns += 1
        self._pending.append((self._turns, msg))
        if decision is not None and decision.fire:
            for _ in range(min(decision.compress_count, len(self._pending))):
                index, turn = self._pending.popleft()
                self._wait_turns.append(self._turns - index + 1)
                minutes = (msg.timestamp - turn.timestamp).total_seconds() / 60
                self._wait_minutes.append(round(minutes, 3))
        self.engine.flush()
        digest = self._prefix_digest()
        if digest != self._prefix:
            self._prefix_changes += 1
            self._prefix = digest

    def _prefix_digest(self) -> str:
        """The running summary and the core facts: what comes before any question."""
        engine = self.engine
        summary = engine.jobs.marks(self.tenant, THREAD).summary
        now = engine.clock.now()
        core = sorted(
            f"{f.category}|{f.key}|{f.value}"
            for f in engine.facts.active(self.tenant, now=now)
            if in_core(f, engine.config.facts)
        )
        text = "\n".join([summary, *core])
        return hashlib.sha1(text.encode()).hexdigest()

    def trace(self) -> TriggerTrace:
        """Everything recorded so far."""
        reads = self.engine.brain_reads()
        return TriggerTrace(
            wait_turns=list(self._wait_turns),
            wait_minutes=list(self._wait_minutes),
            prefix_changes=self._prefix_changes,
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
