"""The background half of memory: compression and extraction jobs.

Each job does its slow part (the brain, the embedder, the index write) outside any
transaction, then stores its result and marks itself done in one transaction. A
crash before that commit leaves the job pending and the reads unchanged; the
retry reuses whatever the index already holds, so nothing is summarised or
stored twice. Work runs at the time the turn asked for it (`Job.asked_at`), so
its result does not depend on when the worker got to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from memory_lab.episodes.compression import build_episodes, episode_id, split_span
from memory_lab.events import events_from_notes, make_event
from memory_lab.facts.commands import split_commands
from memory_lab.facts.consolidation import grounded_summariser
from memory_lab.facts.explicit import extract_with_commands
from memory_lab.facts.valid_time import date_candidates
from memory_lab.jobs import phases
from memory_lab.jobs.ledger import Job, ThreadMarks
from memory_lab.restatement import memory_view
from memory_lab.types import Episode, Fact, MemoryEvent, Message
from memory_lab.window.summary import update_running_summary

if TYPE_CHECKING:
    from memory_lab.brains.base import BrainNote
    from memory_lab.jobs.parts import JobParts


def compress_span(deps: JobParts, job: Job) -> list[MemoryEvent]:
    """Summarise the job's turns into episodes and advance the window's start."""
    tenant, thread = job.tenant, job.thread
    span = deps.transcript.messages(
        tenant, thread, first_seq=job.first_seq, last_seq=job.last_seq
    )
    index = deps.episodes.index
    _require_contiguous(deps, job)
    episodes, notes = _reuse_or_build(deps, job, span)
    marks = deps.jobs.marks(tenant, thread)
    condensed = update_running_summary(
        marks.summary,
        episodes,
        brain=deps.brain,
        counter=deps.counter,
        config=deps.config.window,
    )
    summary = condensed.value
    brain_events = events_from_notes(tenant, job.asked_at, [*notes, *condensed.notes])
    phases.reached("embedding")
    index.add(tenant, episodes)
    phases.reached("episode_write")
    source = sum(e.original_tokens for e in episodes)
    kept = sum(e.summary_tokens for e in episodes)
    events = [
        *brain_events,
        make_event(
            tenant,
            "compressed",
            job.asked_at,
            f"Compressed {len(span)} messages ({source} tokens) into "
            f"{len(episodes)} episode(s) of {kept} tokens",
            [e.id for e in episodes],
        ),
    ]
    with deps.jobs.db.write():
        if not deps.jobs.claim(job):
            return []
        current = _require_contiguous(deps, job)
        revision = deps.jobs.commit_episodes(tenant, episodes)
        deps.jobs.save_marks(
            tenant,
            thread,
            replace(
                current,
                compressed_upto=max(current.compressed_upto, job.last_seq),
                summary=summary,
            ),
        )
        deps.events.append(tenant, events)
        phases.reached("checkpoint")
        deps.jobs.finish(job)
    deps.excerpts.add(tenant, span, revision=revision)
    return events


class CompressionGapError(RuntimeError):
    """An earlier compression of the thread is missing (it failed for good)."""


def _require_contiguous(deps: JobParts, job: Job) -> ThreadMarks:
    """The thread's marks, if the job starts where the committed episodes end.

    Committing past a gap would take the gap's turns out of the window with no
    episode holding them; the job fails instead and the turns stay in the window.
    """
    marks = deps.jobs.marks(job.tenant, job.thread)
    gap = deps.transcript.messages(
        job.tenant,
        job.thread,
        first_seq=marks.compressed_upto + 1,
        last_seq=job.first_seq - 1,
    )
    if gap:
        raise CompressionGapError(
            f"turns {gap[0].seq}..{gap[-1].seq} of {job.thread!r} are not compressed"
            f" yet; job {job.id} cannot start at {job.first_seq}"
        )
    return marks


def _reuse_or_build(
    deps: JobParts, job: Job, span: list[Message]
) -> tuple[list[Episode], list[BrainNote]]:
    """Episodes for the span: those a crashed attempt indexed, the rest summarised.

    Returned with the brain's notes on the summaries it wrote.

    Chunking is deterministic, so a retry cuts the span where the crashed attempt
    did and finds its episodes by id.
    """
    tenant, thread = job.tenant, job.thread
    chunks = split_span(span, deps.config.recipe)
    ids = [episode_id(tenant, thread, c[0].seq, c[-1].seq) for c in chunks]
    stored = {e.id: e for e in deps.episodes.index.get(tenant, ids)}
    episodes: list[Episode] = []
    notes: list[BrainNote] = []
    for chunk, ep_id in zip(chunks, ids, strict=True):
        if ep_id in stored:
            episodes.append(stored[ep_id])
            continue
        built = build_episodes(
            tenant,
            thread,
            chunk,
            recipe=deps.config.recipe,
            brain=deps.brain,
            counter=deps.counter,
            now=job.asked_at,
            config=deps.config.window,
            trigger=job.trigger,
        )
        episodes += built.value
        notes += built.notes
    phases.reached("compression")
    return episodes, notes


def extract_span(deps: JobParts, job: Job) -> list[MemoryEvent]:
    """Extract facts from the job's turns and reconcile them with the stored ones.

    The fact writes, the events and the job's completion are one transaction, so
    a crash cannot leave half of a batch written or a batch written twice. A
    batch with memory commands ("remember that", "forget that") is read inside
    the transaction, since a command acts on what the turns before it wrote; a
    batch without them is read by the brain before the transaction starts.
    """
    tenant, thread = job.tenant, job.thread
    now = job.asked_at
    # Replies are read without what they restate: a fact quoted back is not
    # stated again (and a corrected value must not return through the quote).
    turns = memory_view(
        deps.transcript.messages(
            tenant, thread, first_seq=job.first_seq, last_seq=job.last_seq
        )
    )
    notes: list[BrainNote] = []

    def extract(batch: Sequence[Message], known: Sequence[Fact]) -> list:
        found = deps.brain.extract(batch, known=known)
        notes.extend(found.notes)
        return found.value

    commanded = any(split_commands(t)[0] for t in turns)
    candidates = (
        []
        if commanded or not turns
        else date_candidates(extract(turns, deps.facts.active(tenant, now=now)), turns)
    )
    phases.reached("extraction")
    # Lock order facts -> database, as every reader of facts takes it.
    with deps.facts.exclusive(), deps.jobs.db.write():
        if not deps.jobs.claim(job):
            deps.facts.refresh(tenant)
            return []
        try:
            month_turned = deps.facts.month_turned(tenant, now)
            written = (
                extract_with_commands(turns, tenant, deps.facts, extract, now=now)
                if commanded
                else deps.facts.write_many(tenant, candidates, now=now)
            )
            events = [e for e in written if e.kind != "fact_skipped"]
            # Consolidation past the size limit or once the month turns; the
            # brain writes the folded value (inside the transaction: rare).
            events += deps.facts.consolidate(
                tenant,
                now=now,
                summarise=grounded_summariser(deps.brain, deps.counter, notes),
                scheduled=month_turned,
            )
            brain_events = events_from_notes(tenant, now, notes)
            if brain_events:
                deps.events.append(tenant, brain_events)
            phases.reached("fact_writes")
            current = deps.jobs.marks(tenant, thread)
            deps.jobs.save_marks(
                tenant,
                thread,
                replace(
                    current,
                    extracted_upto=max(current.extracted_upto, job.last_seq),
                ),
            )
            deps.jobs.finish(job)
        except BaseException:
            # The transaction rolls back; cached reads must not keep its rows.
            deps.facts.refresh(tenant)
            raise
    return [*brain_events, *events]
