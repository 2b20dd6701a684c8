"""Trigger D: compress a topic once the conversation has moved on from it.

A, B and C cut where a count or the calendar says, so one episode often holds the
end of one subject and the start of the next, and its summary blurs both. D cuts
where the meaning moves: when the newest few turns, taken together, sit far (in
sentence-embedding space) from the centroid of the window's turns before them,
the turns before that point are one topic, and they are compressed together.
None of the anchor designs cuts this way; it is the text-tiling idea (a topic
boundary is a dip in similarity between adjacent blocks) run online.

Without any shift the window would grow for ever, so at `max_messages` the older
half goes anyway (like A); combine D with B to bound tokens instead.

The default threshold, 0.4, was chosen on the LoCoMo development split and the
synthetic set so that D compresses about as often as A's defaults on LoCoMo
(about 100 times per 1,000 turns, spans of about 10 turns); synthetic chats
change subject more often and D cuts them about every 6 turns.
"""

from __future__ import annotations

import numpy as np
from pydantic import Field, model_validator

from memory_lab.triggers.base import Compress, TriggerParams, WindowView
from memory_lab.triggers.registry import register


class TopicShiftTrigger(TriggerParams):
    """Compress the span before the point where the recent turns leave its centroid."""

    threshold: float = Field(
        default=0.4,
        gt=0.0,
        lt=2.0,
        description="Cosine distance between the recent turns' mean and the "
        "centroid of the turns before them that counts as a new topic.",
    )
    recent: int = Field(
        default=3,
        ge=1,
        description="Turns averaged on the new side, so one off-topic line is "
        "not a shift.",
    )
    min_span: int = Field(
        default=4, ge=1, description="Fewest turns a topic holds before it is cut."
    )
    max_messages: int | None = Field(
        default=40,
        ge=2,
        description="With no shift, compress the older half at this many turns "
        "(None: never).",
    )

    @model_validator(mode="after")
    def _room_for_a_shift(self) -> TopicShiftTrigger:
        if self.max_messages is not None and (
            self.min_span + self.recent > self.max_messages
        ):
            raise ValueError("min_span + recent must not exceed max_messages")
        return self


def distances(vectors: np.ndarray, p: TopicShiftTrigger) -> list[tuple[int, float]]:
    """Each possible cut k with its distance, in order.

    Distance at k: 1 - cosine(mean of turns [0, k), mean of turns [k, k+recent)).
    """
    n = len(vectors)
    if n < p.min_span + p.recent:
        return []
    sums = np.cumsum(np.asarray(vectors, dtype=np.float64), axis=0)
    out = []
    for k in range(p.min_span, n - p.recent + 1):
        before = sums[k - 1]
        after = sums[k + p.recent - 1] - sums[k - 1]
        norm = float(np.linalg.norm(before) * np.linalg.norm(after))
        out.append((k, 1.0 - float(before @ after) / norm if norm else 0.0))
    return out


def shift_points(vectors: np.ndarray, p: TopicShiftTrigger) -> list[tuple[int, float]]:
    """The confirmed shifts: cuts past the threshold that are a peak of distance.

    The first off-topic line already pulls the recent block away from the
    centroid, so the cut one or two turns early also passes the threshold. The
    true cut is where the recent block has wholly left: the distance peaks
    there, so a cut counts once the next cut's distance is known and lower.
    That costs one turn of delay and cuts where the topic changed.
    """
    scored = distances(vectors, p)
    found = []
    for i, (k, distance) in enumerate(scored):
        if distance <= p.threshold or i + 1 >= len(scored):
            continue
        rising = i == 0 or distance >= scored[i - 1][1]
        if rising and distance > scored[i + 1][1]:
            found.append((k, distance))
    return found


@register("D", TopicShiftTrigger, time_limited=False)
def topic_shift(view: WindowView, p: TopicShiftTrigger) -> Compress | None:
    """D: compress a topic's turns once the newest turns have left its meaning."""
    points = (
        shift_points(view.vectors(), p) if len(view) >= p.min_span + p.recent else []
    )
    if points:
        k, distance = points[0]
        return Compress(
            k,
            f"D: turns {k + 1}-{k + p.recent} are {distance:.2f} from the centroid "
            f"of the {k} before them (> {p.threshold:g})",
        )
    if p.max_messages is not None and len(view) >= p.max_messages:
        keep = p.max_messages // 2
        return Compress(
            len(view) - keep,
            f"D: no topic shift in {len(view)} messages; keep last {keep}",
        )
    return None
