"""One read model of a memory's state.

The CLI's --json, the app and eval logs all read it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memory_lab.facts.suggestions import suggest
from memory_lab.types import Episode

if TYPE_CHECKING:
    from memory_lab.engine import MemoryEngine


def take_snapshot(
    engine: MemoryEngine, tenant: str, thread: str, *, events_limit: int = 200
) -> dict:
    """The memory's state as plain data.

    Window, summary, episodes, facts (every row, with status at now), daily and
    weekly summaries, events and suggestions.
    """
    state = engine.state(tenant, thread)
    now = engine.clock.now()
    window = state.get("window", [])
    facts = []
    for row in engine.facts.rows(tenant):
        item = row.model_dump(mode="json")
        item["status"] = row.state_at(now)
        # Record time under the name the two axes are explained with.
        item["recorded_at"] = item["created_at"]
        item["effective_confidence"] = round(engine.facts.confidence(row, now), 4)
        facts.append(item)
    episodes = []
    for ep in engine.episodes.get(tenant):
        item = ep.model_dump(mode="json")
        item["compression_ratio"] = round(ep.compression_ratio, 4)
        item["timespan"] = ep.timespan
        episodes.append(item)
    periods = {
        kind: [_period_item(record) for record in engine.periods.records(tenant, kind)]
        for kind in ("day", "week")
    }
    window_tokens = sum(engine.counter.count(m["content"]) for m in window)
    return {
        "tenant": tenant,
        "thread": thread,
        "now": now.isoformat(),
        "recipe": engine.config.recipe.model_dump(mode="json"),
        "brain": engine.brain.name,
        "window": {
            "messages": window,
            "tokens": window_tokens,
            "summary": state.get("summary", ""),
            "summary_tokens": engine.counter.count(state.get("summary", "")),
            "last_seq": state.get("last_seq", -1),
            "extracted_upto": state.get("extracted_upto", -1),
        },
        "episodes": episodes,
        "facts": facts,
        "daily_summaries": periods["day"],
        "weekly_summaries": periods["week"],
        "events": [
            e.model_dump(mode="json")
            for e in engine.events.events(tenant, limit=events_limit)
        ],
        "suggestions": [
            s.model_dump(mode="json")
            for s in suggest(
                engine.facts.active(tenant, now=now), now, engine.config.facts
            )
        ],
        "transcript_messages": engine.transcript.count(tenant, thread),
    }


def _period_item(record: Episode) -> dict:
    """A daily or weekly summary as the app and logs show it."""
    return {
        "id": record.id,
        "period": record.thread,
        "start": record.start.date().isoformat(),
        "end": record.end.date().isoformat(),
        "summary": record.summary,
        "decided": list(record.decisions),
        "learned": list(record.key_facts),
        "open": list(record.open_questions),
        "messages": record.original_message_count,
        "turn_ids": list(record.turn_ids),
        "brain": record.brain,
    }
