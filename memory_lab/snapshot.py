"""One read model of a memory's state: `MemorySnapshot`.

The CLI's `replay --json`, the app and eval logs all read it. It is built from the
stores (`SnapshotSources`, which the graph's `Deps` satisfies) and the thread's
state (`MemoryEngine.state`), not from the engine facade, so the engine can use it
without the two importing each other.
Its JSON keys are a contract: readers index `window`, `episodes`, `facts`,
`events` and the rest by name.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import TYPE_CHECKING, Any, Protocol

from pydantic import AwareDatetime, BaseModel, ConfigDict

from memory_lab.facts.suggestions import Suggestion, suggest
from memory_lab.types import Episode, Fact, MemoryEvent, Message

if TYPE_CHECKING:
    from memory_lab.brains.base import Brain
    from memory_lab.clock import Clock
    from memory_lab.config import MemoryConfig
    from memory_lab.episodes.periods import PeriodSummaries
    from memory_lab.facts.memory import FactMemory
    from memory_lab.jobs.committed import CommittedEpisodeStore
    from memory_lab.sessions.store import SessionStore
    from memory_lab.stores.base import EventLog, TranscriptStore
    from memory_lab.tokens import TokenCounter


class SnapshotSources(Protocol):
    """The parts a snapshot reads; nothing here writes."""

    @property
    def clock(self) -> Clock:
        """The snapshot's instant: fact status and decay are read at it."""

    @property
    def config(self) -> MemoryConfig:
        """The recipe shown, and the facts policy for suggestions."""

    @property
    def brain(self) -> Brain:
        """Named in the snapshot."""

    @property
    def counter(self) -> TokenCounter:
        """The window's and the summary's token counts."""

    @property
    def transcript(self) -> TranscriptStore:
        """How many turns the thread has stored."""

    @property
    def episodes(self) -> CommittedEpisodeStore:
        """The committed episodes."""

    @property
    def facts(self) -> FactMemory:
        """Every fact row, with confidence after decay."""

    @property
    def events(self) -> EventLog:
        """The newest events."""

    @property
    def periods(self) -> PeriodSummaries | None:
        """Daily and weekly summaries, when kept."""

    @property
    def sessions(self) -> SessionStore | None:
        """The thread's session state, when tracked."""


class SnapshotWindow(BaseModel):
    """The session window: verbatim turns, the running summary, the watermarks."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    messages: list[Message]
    tokens: int
    summary: str
    summary_tokens: int
    last_seq: int
    extracted_upto: int


class FactView(Fact):
    """A fact row as seen at the snapshot's time.

    `status` reads `expired` for an active row past its TTL; confidence is shown
    after decay.
    """

    effective_confidence: float
    recorded_at: AwareDatetime
    """Record time start (when memory learned the fact): `created_at` by the name
    the two time axes are explained with."""


class PeriodView(BaseModel):
    """A daily summary or weekly roll-up: what was decided, learned, left open."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    period: str
    """`day` or `week`."""
    start: str
    end: str
    """First day after the period (ISO dates, UTC)."""
    summary: str
    decided: list[str]
    learned: list[str]
    open: list[str]
    messages: int
    turn_ids: list[str]
    brain: str

    @classmethod
    def of(cls, record: Episode) -> PeriodView:
        """The view of a stored period record."""
        return cls(
            id=record.id,
            period=record.thread,
            start=record.start.date().isoformat(),
            end=record.end.date().isoformat(),
            summary=record.summary,
            decided=list(record.decisions),
            learned=list(record.key_facts),
            open=list(record.open_questions),
            messages=record.original_message_count,
            turn_ids=list(record.turn_ids),
            brain=record.brain,
        )


class SessionView(BaseModel):
    """The thread's session as of its last step (`memory_lab.sessions`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    session: str
    state: str
    """`open`, `idle`, `closed` or `resumed`."""
    since: AwareDatetime
    opened_at: AwareDatetime
    last_turn_at: AwareDatetime
    closed_at: AwareDatetime | None
    reason: str


class MemorySnapshot(BaseModel):
    """The whole memory of one thread at one moment, as plain data."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tenant: str
    thread: str
    now: str
    recipe: dict[str, Any]
    brain: str
    window: SnapshotWindow
    episodes: list[dict[str, Any]]
    """Episode records plus `share_removed`, `timespan` and `compression_ratio` (the
    same number as `share_removed`, under the key existing readers use)."""
    facts: list[FactView]
    daily_summaries: list[PeriodView]
    weekly_summaries: list[PeriodView]
    events: list[MemoryEvent]
    suggestions: list[Suggestion]
    transcript_messages: int
    session: SessionView | None = None
    """None before the thread's first turn, or where no lifecycle is kept."""

    def to_json(self) -> dict[str, Any]:
        """The snapshot as JSON-ready data (what `replay --json` prints)."""
        return self.model_dump(mode="json")


def episode_view(ep: Episode) -> dict[str, Any]:
    """An episode's record with the derived numbers a reader wants beside it."""
    item = ep.model_dump(mode="json")
    item["compression_ratio"] = round(ep.share_removed, 4)
    item["timespan"] = ep.timespan
    item["share_removed"] = round(ep.share_removed, 4)
    return item


def take_snapshot(
    deps: SnapshotSources,
    state: dict,
    tenant: str,
    thread: str,
    *,
    events_limit: int = 200,
) -> MemorySnapshot:
    """The memory's state from its stores and the thread's graph state.

    Window, summary, episodes, facts (every row, with status at now), daily and
    weekly summaries, events and suggestions.
    """
    now = deps.clock.now()
    window = [Message.model_validate(m) for m in state.get("window", [])]
    summary = state.get("summary", "")
    facts = [
        FactView(
            **row.model_dump(),
            effective_confidence=round(deps.facts.confidence(row, now), 4),
            recorded_at=row.created_at,
        ).model_copy(update={"status": row.state_at(now)})
        for row in deps.facts.rows(tenant)
    ]
    return MemorySnapshot(
        tenant=tenant,
        thread=thread,
        now=now.isoformat(),
        recipe=deps.config.recipe.model_dump(mode="json"),
        brain=deps.brain.name,
        window=SnapshotWindow(
            messages=window,
            tokens=sum(deps.counter.count(m.content) for m in window),
            summary=summary,
            summary_tokens=deps.counter.count(summary),
            last_seq=state.get("last_seq", -1),
            extracted_upto=state.get("extracted_upto", -1),
        ),
        episodes=[episode_view(ep) for ep in deps.episodes.get(tenant)],
        facts=facts,
        daily_summaries=_periods(deps, tenant, "day"),
        weekly_summaries=_periods(deps, tenant, "week"),
        events=deps.events.events(tenant, limit=events_limit),
        suggestions=suggest(deps.facts.active(tenant, now=now), now, deps.config.facts),
        transcript_messages=deps.transcript.count(tenant, thread),
        session=_session(deps, tenant, thread),
    )


def _periods(deps: SnapshotSources, tenant: str, kind: str) -> list[PeriodView]:
    if deps.periods is None:
        return []
    return [PeriodView.of(r) for r in deps.periods.records(tenant, kind)]


def _session(deps: SnapshotSources, tenant: str, thread: str) -> SessionView | None:
    record = None if deps.sessions is None else deps.sessions.get(tenant, thread)
    return None if record is None else SessionView(**asdict(record))
