"""Daily summaries and weekly roll-ups (seed 000's "today" and "days 2-7" layers).

Episodes are cut by triggers and sizes; a person asks about days and weeks
("what did we do last week?"). Once a day is over (the clock has moved past
it), the brain summarises that day's turns into what was decided, learned and
left open; once an ISO week is over, its days roll up into one weekly record.
Both are stored as Episode records (thread "day" or "week") in a store of their
own, so they are searchable by meaning like episodes but never mixed with them.

Days are UTC calendar days: one tenant's turns may carry several offsets, and a
day must mean the same thing for all of them.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from datetime import UTC, date, datetime, time, timedelta

from memory_lab.brains.base import Brain, BrainNote, BrainResult
from memory_lab.clock import Clock
from memory_lab.concurrency.lock_order import named_lock
from memory_lab.episodes.compression import from_draft, summarize_turns, turn_span
from memory_lab.events import events_from_notes, make_event
from memory_lab.stores.base import EpisodeStore, EventLog, TranscriptStore
from memory_lab.tokens import TokenCounter
from memory_lab.types import Episode, MemoryEvent, Message

DAY_SUMMARY_TOKENS = 160
WEEK_SUMMARY_TOKENS = 220
MAX_ITEMS = 8
"""At most this many decided / learned / open items per summary."""

DAY, WEEK = "day", "week"


def day_of(moment: datetime) -> date:
    """The UTC calendar day of an instant."""
    return moment.astimezone(UTC).date()


def week_of(day: date) -> date:
    """The Monday of the ISO week a day falls in."""
    return day - timedelta(days=day.weekday())


def _start(day: date) -> datetime:
    return datetime.combine(day, time(), tzinfo=UTC)


def period_id(tenant: str, thread: str, kind: str, first: date) -> str:
    """Deterministic: summarising the same period twice cannot add a second row."""
    raw = f"{tenant}|{thread}|{kind}|{first.isoformat()}"
    return f"{kind}_" + hashlib.sha1(raw.encode()).hexdigest()[:16]


def _unique(items: Sequence[str]) -> list[str]:
    seen, out = set(), []
    for item in items:
        norm = re.sub(r"\s+", " ", item).strip().casefold()
        if norm and norm not in seen:
            seen.add(norm)
            out.append(item)
    return out[:MAX_ITEMS]


def summarize_day(
    tenant: str,
    thread: str,
    day: date,
    turns: Sequence[Message],
    *,
    brain: Brain,
    counter: TokenCounter,
    now: datetime,
) -> BrainResult[Episode]:
    """One day's turns as a record of what was decided, learned and left open.

    Replies are read without what they restate of memory (`summarize_turns`).
    """
    result = summarize_turns(brain, turns, max_tokens=DAY_SUMMARY_TOKENS)
    record = Episode(
        id=period_id(tenant, thread, DAY, day),
        tenant=tenant,
        session=turns[-1].session,
        thread=DAY,
        start=_start(day),
        end=_start(day + timedelta(days=1)),
        created_at=now,
        brain=brain.name,
        trigger="daily",
        **turn_span(turns, counter),
        **from_draft(result.value, counter, items=_unique),
    )
    return BrainResult(record, result.notes)


def roll_up_week(
    tenant: str,
    thread: str,
    monday: date,
    days: Sequence[Episode],
    *,
    brain: Brain,
    counter: TokenCounter,
    now: datetime,
) -> BrainResult[Episode]:
    """A week's daily summaries condensed by the brain into one record.

    Items left open on one day and not repeated later are still listed: the
    roll-up keeps the last word on each day's lists, newest day first.
    """
    days = sorted(days, key=lambda d: d.start)
    text = "\n".join(f"[{d.start.date().isoformat()}] {d.summary}" for d in days)
    condensed = brain.condense(text, max_tokens=WEEK_SUMMARY_TOKENS)
    summary = condensed.value
    newest_first = list(reversed(days))
    record = Episode(
        id=period_id(tenant, thread, WEEK, monday),
        tenant=tenant,
        session=days[-1].session,
        thread=WEEK,
        first_seq=days[0].first_seq,
        last_seq=days[-1].last_seq,
        turn_ids=[t for d in days for t in d.turn_ids],
        start=_start(monday),
        end=_start(monday + timedelta(days=7)),
        original_message_count=sum(d.original_message_count for d in days),
        compressed_message_count=len(days),
        original_tokens=sum(d.original_tokens for d in days),
        summary_tokens=counter.count(summary),
        summary=summary,
        key_facts=_unique([k for d in newest_first for k in d.key_facts]),
        decisions=_unique([k for d in newest_first for k in d.decisions]),
        open_questions=_unique([k for d in newest_first for k in d.open_questions]),
        created_at=now,
        brain=brain.name,
        trigger="weekly",
    )
    return BrainResult(record, condensed.notes)


class PeriodSummaries:
    """Keeps a tenant's finished days and weeks summarised, and finds them again.

    Runs on the memory worker after each job, at the job's time, so the brain is
    never called on a turn and a replay gives the same records whenever the
    worker gets to them. Records and their events are stamped with the end of
    their period, not the moment they were made; the event (its id is derived
    from its content) is written before the record, so a crash between the two
    leaves the record to be made again and the event's second append is a no-op.

    Args:
        store: Where the records live (a store of their own, not the episodes').
        transcript: The turns to summarise.
        brain: Who summarises.
        counter: Token counts for the records.
        clock: What "finished" is judged against when no time is given.
        events: Where the events go.
    """

    def __init__(
        self,
        store: EpisodeStore,
        transcript: TranscriptStore,
        brain: Brain,
        counter: TokenCounter,
        clock: Clock,
        events: EventLog,
    ) -> None:
        self.store = store
        self._transcript = transcript
        self._brain = brain
        self._counter = counter
        self._clock = clock
        self._events = events
        self._checked: dict[tuple[str, str], date] = {}
        self._lock = named_lock("periods.update")  # one summary pass at a time

    def update(
        self, tenant: str, thread: str, *, now: datetime | None = None
    ) -> list[MemoryEvent]:
        """Summarise every day and week finished by `now` and not yet summarised.

        Cheap when nothing finished since the last call: the transcript is read
        only when the day has moved on. Returns the events it logged.
        """
        with self._lock:
            return self._update(tenant, thread, now or self._clock.now())

    def _update(self, tenant: str, thread: str, now: datetime) -> list[MemoryEvent]:
        today = day_of(now)
        if self._checked.get((tenant, thread)) == today:
            return []
        by_day: dict[date, list[Message]] = defaultdict(list)
        for m in self._transcript.messages(tenant, thread):
            by_day[day_of(m.timestamp)].append(m)
        have = {e.id: e for e in self.store.get(tenant)}
        made: list[Episode] = []
        logged: list[MemoryEvent] = []

        def build(
            kind: str,
            start: date,
            items: list,
            summarize: Callable[..., BrainResult[Episode]],
            days: int,
        ) -> None:
            """Summarise one period unless it is stored; `days` is its length."""
            ident = period_id(tenant, thread, kind, start)
            if ident in have:
                return
            built = summarize(
                tenant,
                thread,
                start,
                items,
                brain=self._brain,
                counter=self._counter,
                now=_start(start + timedelta(days=days)),
            )
            logged.extend(self._log(tenant, built.value, built.notes))
            made.append(built.value)
            have[ident] = built.value

        for day in sorted(d for d in by_day if d < today):
            build(DAY, day, by_day[day], summarize_day, 1)
        weeks: dict[date, list[Episode]] = defaultdict(list)
        for record in (e for e in have.values() if e.thread == DAY):
            weeks[week_of(record.start.date())].append(record)
        for monday in sorted(m for m in weeks if m + timedelta(days=7) <= today):
            build(WEEK, monday, weeks[monday], roll_up_week, 7)
        if made:
            self.store.add(tenant, made)
        self._checked[(tenant, thread)] = today
        return logged

    def _log(
        self, tenant: str, record: Episode, notes: Sequence[BrainNote]
    ) -> list[MemoryEvent]:
        """Write the record's events (before the record itself: see the class)."""
        at = record.end
        events = [
            *events_from_notes(tenant, at, notes),
            make_event(
                tenant,
                "day_summarized" if record.thread == DAY else "week_summarized",
                at,
                f"Summarised the {record.thread} of "
                f"{record.start.date().isoformat()} "
                f"({record.original_message_count} messages)",
                [record.id],
            ),
        ]
        self._events.append(tenant, events)
        return events

    def records(self, tenant: str, kind: str) -> list[Episode]:
        """A tenant's daily (`"day"`) or weekly (`"week"`) records, oldest first."""
        found = [e for e in self.store.get(tenant) if e.thread == kind]
        return sorted(found, key=lambda e: e.start)

    def covering(self, tenant: str, start: datetime, end: datetime) -> list[Episode]:
        """Records that overlap [start, end): a week's roll-up before its days."""
        found = [e for e in self.store.get(tenant) if e.start < end and e.end > start]
        return sorted(found, key=lambda e: (e.thread != WEEK, e.start))


_LAST_WEEK = re.compile(r"\b(?:last|previous|past)\s+week\b", re.I)
_THIS_WEEK = re.compile(r"\bthis\s+week\b", re.I)
_YESTERDAY = re.compile(r"\byesterday\b", re.I)
_TODAY = re.compile(r"\btoday\b", re.I)
_LAST_MONTH = re.compile(r"\b(?:last|previous|past)\s+month\b", re.I)


def period_asked(query: str, now: datetime) -> tuple[datetime, datetime] | None:
    """The span of days a question asks about ("last week", "yesterday"), if any."""
    today = day_of(now)
    monday = week_of(today)
    if _LAST_WEEK.search(query):
        return _start(monday - timedelta(days=7)), _start(monday)
    if _THIS_WEEK.search(query):
        return _start(monday), _start(today + timedelta(days=1))
    if _YESTERDAY.search(query):
        return _start(today - timedelta(days=1)), _start(today)
    if _TODAY.search(query):
        return _start(today), _start(today + timedelta(days=1))
    if _LAST_MONTH.search(query):
        first = today.replace(day=1)
        previous = (first - timedelta(days=1)).replace(day=1)
        return _start(previous), _start(first)
    return None


def period_hits(
    summaries: PeriodSummaries | None, tenant: str, query: str, now: datetime
) -> list[tuple[Episode, float]]:
    """Summaries of the period a question names, as (record, distance 0) hits.

    Placed ahead of episodes found by meaning: for "what did we do last week?"
    the week itself is the answer, whatever its words.
    """
    if summaries is None:
        return []
    span = period_asked(query, now)
    if span is None:
        return []
    found = summaries.covering(tenant, *span)
    weeks = [e for e in found if e.thread == WEEK and span[0] <= e.start]
    if weeks:
        # A whole week asked for: its roll-up stands for its days.
        found = [e for e in found if e.thread == WEEK or e.start < span[0]]
    return [(e, 0.0) for e in found]
