"""Turning a span of window messages into episodes.

Each episode records one chunk of turns: a summary within a share of the source's
tokens, the user's intent, key facts, decisions and open questions, and the turn
range it covers. Compression summarises; it never drops: every compressed message
stays in the transcript and is named by its episode's turn range, so it can be
expanded back.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from memory_lab.brains.base import Brain, BrainNote, BrainResult
from memory_lab.config import Recipe, WindowConfig
from memory_lab.restatement import memory_view
from memory_lab.tokens import TokenCounter
from memory_lab.triggers.running import splits_between
from memory_lab.types import Episode, EpisodeDraft, Message


def split_span(messages: Sequence[Message], recipe: Recipe) -> list[list[Message]]:
    """Cut a span into episode-sized chunks.

    Cuts fall at session changes, wherever one of the recipe's triggers cuts (C at
    day or week boundaries), and every `episode_max_messages`. A chunk of replies
    that only restate memory joins the chunk before it (or after it, when first):
    alone it would be an episode with nothing to say.
    """
    chunks: list[list[Message]] = []
    current: list[Message] = []
    for m in messages:
        if current:
            prev = current[-1]
            new_session = m.session != prev.session
            new_period = splits_between(recipe, prev, m)
            full = len(current) >= recipe.episode_max_messages
            if new_session or new_period or full:
                chunks.append(current)
                current = []
        current.append(m)
    if current:
        chunks.append(current)
    return _join_empty(chunks)


def _join_empty(chunks: list[list[Message]]) -> list[list[Message]]:
    """Chunks with nothing for memory merged into a neighbour."""
    out: list[list[Message]] = []
    for chunk in chunks:
        if out and (not memory_view(chunk) or not memory_view(out[-1])):
            out[-1] = out[-1] + chunk
        else:
            out.append(chunk)
    return out


def summarize_turns(
    brain: Brain, turns: Sequence[Message], *, max_tokens: int
) -> BrainResult[EpisodeDraft]:
    """The brain's summary of what memory keeps of `turns` (`memory_view`).

    Turns that only restate memory leave nothing to summarise, and the brain is
    not asked about nothing.
    """
    kept = memory_view(turns)
    if not kept:
        return BrainResult(EpisodeDraft(summary=""))
    return brain.summarize(kept, max_tokens=max_tokens)


def episode_id(tenant: str, thread: str, first_seq: int, last_seq: int) -> str:
    """Deterministic: re-compressing the same span after a crash cannot duplicate it."""
    raw = f"{tenant}|{thread}|{first_seq}|{last_seq}"
    return "ep_" + hashlib.sha1(raw.encode()).hexdigest()[:16]


def summary_budget(original_tokens: int, config: WindowConfig) -> int:
    """How long an episode summary may be: a share of its source, within bounds."""
    target = int(original_tokens * config.episode_summary_ratio)
    return max(
        config.episode_summary_min_tokens,
        min(config.episode_summary_max_tokens, target),
    )


def turn_span(turns: Sequence[Message], counter: TokenCounter) -> dict[str, Any]:
    """The fields naming the turns a record covers, which make it expandable."""
    return {
        "first_seq": turns[0].seq,
        "last_seq": turns[-1].seq,
        "turn_ids": [m.id for m in turns],
        "original_message_count": len(turns),
        "original_tokens": sum(counter.count(m.content) for m in turns),
    }


def from_draft(
    draft: EpisodeDraft,
    counter: TokenCounter,
    *,
    items: Callable[[Sequence[str]], list[str]] = list,
) -> dict[str, Any]:
    """The fields a record takes from its brain's draft; `items` cleans each list."""
    return {
        "summary": draft.summary,
        "summary_tokens": counter.count(draft.summary),
        "intent": draft.intent,
        "key_facts": items(draft.key_facts),
        "decisions": items(draft.decisions),
        "open_questions": items(draft.open_questions),
    }


def build_episodes(
    tenant: str,
    thread: str,
    messages: Sequence[Message],
    *,
    recipe: Recipe,
    brain: Brain,
    counter: TokenCounter,
    now: datetime,
    config: WindowConfig,
    trigger: str,
) -> BrainResult[list[Episode]]:
    """Summarise each chunk of the span into an Episode record.

    The brain's notes (a fallback, say) come back beside the episodes so the
    caller can log them under its tenant.
    """
    episodes = []
    notes: list[BrainNote] = []
    for chunk in split_span(messages, recipe):
        span = turn_span(chunk, counter)
        kept = memory_view(chunk)
        # The budget is a share of what is summarised, not of restated lines.
        source = (
            span["original_tokens"]
            if kept == chunk
            else sum(counter.count(m.content) for m in kept)
        )
        budget = summary_budget(source, config)
        result = summarize_turns(brain, kept, max_tokens=budget)
        notes.extend(result.notes)
        episodes.append(
            Episode(
                id=episode_id(tenant, thread, chunk[0].seq, chunk[-1].seq),
                tenant=tenant,
                session=chunk[0].session,
                thread=thread,
                start=chunk[0].timestamp,
                end=chunk[-1].timestamp,
                created_at=now,
                brain=brain.name,
                trigger=trigger,
                **span,
                **from_draft(result.value, counter),
            )
        )
    return BrainResult(episodes, tuple(notes))
