"""Records that cross module boundaries: messages, episodes, facts, events, context.

Every record is a frozen pydantic model so it can be logged, checkpointed and
compared byte for byte. Timestamps are always timezone-aware.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator

Role = Literal["user", "assistant", "system"]
SourceTier = Literal["explicit", "extracted"]
FactStatus = Literal["active", "superseded", "expired", "forgotten", "contradiction"]
BlockKind = Literal[
    "instructions", "live", "facts", "episodes", "summary", "window", "query"
]


class Record(BaseModel):
    """Base for immutable records."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Message(Record):
    """One chat turn as it was said; the transcript stores these append-only."""

    id: str = Field(description="Stable id, unique within the tenant (e.g. 'D1:3').")
    tenant: str
    session: str = Field(description="Chat session the turn belongs to.")
    role: Role
    content: str
    timestamp: AwareDatetime
    speaker: str = Field(
        default="", description="Who said it, when the role alone is not enough."
    )
    seq: int = Field(
        default=-1, description="Position in the tenant's transcript; set on append."
    )
    restated: list[tuple[int, int]] = Field(
        default_factory=list,
        description="Character spans [start, end) of `content` that restate the "
        "memory a reply was given (and the responder's framing of it), in order. "
        "The transcript keeps them; what memory is built from leaves them out.",
    )

    @model_validator(mode="after")
    def _spans_inside_content(self) -> Message:
        end = 0
        for start, stop in self.restated:
            if not end <= start < stop <= len(self.content):
                raise ValueError(
                    f"restated span ({start}, {stop}) is not an ordered, "
                    f"non-overlapping span of the {len(self.content)}-character content"
                )
            end = stop
        return self

    @property
    def who(self) -> str:
        """Name used when a turn is rendered: the speaker, else the role."""
        return self.speaker or self.role

    @property
    def memory_text(self) -> str:
        """The turn as memory reads it: `content` without its restated spans.

        A reply that reads memory back is not a new source of it; left in, every
        reply would copy memory into memory and a corrected value could outlive
        its correction through the copy. Removed spans become line breaks, so
        no sentence is glued across them and what is left is still verbatim.
        An unmarked turn is its content, unchanged.
        """
        if not self.restated:
            return self.content
        kept, at = [], 0
        for start, stop in [*self.restated, (len(self.content), len(self.content))]:
            piece = self.content[at:start].strip()
            if piece:
                kept.append(piece)
            at = stop
        return "\n".join(kept)


class EpisodeDraft(Record):
    """What a brain returns for a span of turns: the episode's content fields."""

    summary: str
    intent: str = ""
    key_facts: list[str] = Field(default_factory=list)
    decisions: list[str] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)


class Episode(Record):
    """The compressed record of a span of turns, searchable by meaning."""

    id: str
    tenant: str
    session: str
    thread: str
    first_seq: int
    last_seq: int
    turn_ids: list[str]
    start: AwareDatetime
    end: AwareDatetime
    original_message_count: int
    compressed_message_count: int = 1
    original_tokens: int
    summary_tokens: int
    summary: str
    intent: str = ""
    key_facts: list[str] = Field(default_factory=list)
    decisions: list[str] = Field(default_factory=list)
    open_questions: list[str] = Field(default_factory=list)
    created_at: AwareDatetime
    brain: str = Field(description="Which brain made it, e.g. 'rule-based'.")
    trigger: str = Field(default="", description="Which trigger fired, e.g. 'A'.")

    @property
    def share_removed(self) -> float:
        """Share of the source's tokens the summary removed: 1 - summary / source.

        Not the evals' `compression_ratio`, which is source / summary.
        """
        if self.original_tokens <= 0:
            return 0.0
        return 1.0 - self.summary_tokens / self.original_tokens

    @property
    def timespan(self) -> str:
        """Human-readable span, e.g. '2023-05-08 13:56-14:30'."""
        fmt = "%Y-%m-%d %H:%M"
        if self.start.date() == self.end.date():
            return f"{self.start.strftime(fmt)}-{self.end.strftime('%H:%M')}"
        return f"{self.start.strftime(fmt)} - {self.end.strftime(fmt)}"

    def render(self) -> str:
        """Text that is embedded and injected: summary plus the structured lists."""
        parts = [self.summary]
        for label, items in (
            ("Decisions", self.decisions),
            ("Open", self.open_questions),
        ):
            if items:
                parts.append(f"{label}: " + "; ".join(items))
        return "\n".join(p for p in parts if p)


class FactCandidate(Record):
    """A fact a brain or a tool proposes; reconciliation decides what happens."""

    category: str
    key: str
    value: str
    subject: str = "user"
    confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    importance: float = Field(default=0.5, ge=0.0, le=1.0)
    source: SourceTier = "extracted"
    session: str = ""
    turn_ids: list[str] = Field(default_factory=list)
    evidence: str = Field(
        default="", description="The span of the cited turn that supports the value."
    )
    body: str = Field(
        default="",
        description="Longer detail behind the value, when there is more to keep "
        "than the one-line summary shows ('' when the evidence says it all).",
    )
    valid_from: AwareDatetime | None = Field(
        default=None,
        description="When the fact began to hold in the world, if the statement "
        "says so ('since March'); else the time of the message that stated it.",
    )
    ends: bool = Field(
        default=False,
        description="The statement ends the stored fact of this subject and key "
        "('I quit the choir', 'finished at the café'): that fact's validity closes "
        "when the statement says so, and no new value holds.",
    )
    past: bool = Field(
        default=False,
        description="The statement says the fact held only in the past ('I used "
        "to live in Rotterdam'): it is stored already ended, and ends a stored "
        "fact of the same value.",
    )
    changes: bool = Field(
        default=False,
        description="The statement says a value changed ('it's $50 now', 'I "
        "switched to X', 'more into X lately'): when its key holds nothing yet, it "
        "updates the subject's stored value of the same kind under another key.",
    )
    event: bool = Field(
        default=False,
        description="The statement reports something that happened ('we went to "
        "the beach', 'I signed up for a pottery class'), not a state that holds: "
        "it adds to the record, and never replaces another value, however alike.",
    )


class Fact(Record):
    """A stored fact row. Rows are never deleted; status changes end-date them.

    Two time axes (bitemporal): valid time, `valid_from` to `valid_until`, is when
    the fact held in the world; record time, `created_at` (recorded) to `ended_at`,
    is when memory believed the row. A correction ends the old value's valid time
    where the new one starts and its record time when memory learned of it.
    """

    id: str
    tenant: str
    subject: str
    category: str
    key: str
    value: str
    confidence: float
    importance: float
    source: SourceTier
    session: str
    turn_ids: list[str]
    evidence: str = ""
    body: str = Field(
        default="",
        description="Longer detail behind the value: the fuller statement or notes. "
        "'' (every row from before bodies existed) means the evidence is the detail.",
    )
    valid_from: AwareDatetime = Field(
        description="Valid time start: when the fact began to hold in the world."
    )
    valid_until: AwareDatetime | None = Field(
        default=None, description="Valid time end: when it stopped holding."
    )
    superseded_by: str | None = None
    expires_at: AwareDatetime | None = None
    last_confirmed_at: AwareDatetime
    created_at: AwareDatetime = Field(
        description="Record time start: when memory learned the fact (recorded_at)."
    )
    ended_at: AwareDatetime | None = Field(
        default=None,
        description="Record time end: when memory stopped believing the row "
        "(superseded, forgotten, expired or consolidated).",
    )
    status: FactStatus = "active"
    conflicts_with: str | None = Field(
        default=None,
        description="For a flagged contradiction: the active row it disputes; for "
        "an active row that replaced an extracted value: the row it replaced, until "
        "a confirmation settles it (flagged for review).",
    )

    @property
    def detail(self) -> str:
        """The longer text behind the one-line summary: the body, else the evidence.

        The summary itself is derived by `memory_lab.facts.summary.fact_summary`.
        """
        return self.body or self.evidence

    def is_active(self, now: datetime) -> bool:
        """Active means not end-dated, not superseded and not past its TTL."""
        if self.status != "active" or self.superseded_by is not None:
            return False
        if self.valid_until is not None and self.valid_until <= now:
            return False
        return not (self.expires_at is not None and self.expires_at <= now)

    def current_at(self, when: datetime) -> bool:
        """Whether the row was in memory's current view at record time `when`.

        The view `is_active` reads at the clock's time, rebuilt for an earlier
        instant from the record-time axis: a row learned after `when` is out, one
        superseded, forgotten or expired after `when` is in, and an end of
        validity learned after `when` was not yet known. Values dated to begin
        after `when` are in, as they are in today's view. A row rewritten in
        place since (a confirmation renews its TTL) is read as it stands.
        """
        if self.status == "contradiction" or self.created_at > when:
            return False
        if self.ended_at is not None and self.ended_at <= when:
            return False
        if self.status != "active" and self.ended_at is None:
            return False
        if self.expires_at is not None and self.expires_at <= when:
            return False
        until = self.valid_until if self.ended_at is None else None
        return until is None or until > when

    def believed_at(self, when: datetime) -> bool:
        """Whether memory held this row as true at record time `when`.

        A superseded row stays believed (memory still knows the old value held
        until the new one began); a forgotten, expired or folded-in row stops
        being believed when it was ended, and a flagged contradiction never was.
        """
        if self.status == "contradiction" or self.created_at > when:
            return False
        if self.status in ("active", "expired") and self.expires_at is not None:
            if self.expires_at <= when:
                return False
        retracted = self.status in ("forgotten", "expired") or (
            self.status == "superseded" and self.valid_until is None
        )
        return not (retracted and self.ended_at is not None and self.ended_at <= when)

    def holds_at(self, when: datetime, *, believed_at: datetime | None = None) -> bool:
        """Whether the fact held in the world at valid time `when`.

        Args:
            when: Valid time asked about.
            believed_at: Record time of the answer: an end of validity that memory
                learned later (a correction) is not yet known then.
        """
        if self.valid_from > when:
            return False
        until = self.valid_until
        if believed_at is not None and self.ended_at is not None:
            if self.ended_at > believed_at:
                until = None
        return until is None or until > when

    def state_at(self, now: datetime) -> FactStatus:
        """Status as seen at `now`: an active row past its TTL reads as expired."""
        if self.status == "active" and self.expires_at is not None:
            if self.expires_at <= now:
                return "expired"
        return self.status


class FactLink(Record):
    """A typed edge between two facts of one tenant: `source` `type` `target`.

    "relates_to" reads both ways; "caused_by" says the source holds because of
    the target. Links are end-dated, never deleted, like facts. Supersession
    ("supersedes") is not stored here: it is read from `Fact.superseded_by`.
    """

    id: str
    tenant: str
    type: str = Field(description="One of `memory_lab.facts.links.LINK_TYPES`.")
    source: str = Field(description="Id of the fact the link starts from.")
    target: str = Field(description="Id of the fact it points to.")
    origin: str = Field(
        default="api", description="Who made it: 'api', 'tool', 'app', 'derived'."
    )
    created_at: AwareDatetime
    ended_at: AwareDatetime | None = Field(
        default=None, description="When the link stopped holding; None while it does."
    )

    def touches(self, fact_id: str) -> bool:
        """Whether the link starts or ends at `fact_id`."""
        return fact_id in (self.source, self.target)


class MemoryEvent(Record):
    """Something the memory did that a UI or a log should show."""

    id: str
    tenant: str
    at: AwareDatetime
    kind: str = Field(
        description="One of `memory_lab.events.EVENT_KINDS`, e.g. fact_added, "
        "compressed, trigger_fired, brain_fallback."
    )
    detail: str
    refs: list[str] = Field(default_factory=list)
    undo: dict | None = Field(
        default=None, description="How to revert a write, when it can be reverted."
    )


class TriggerDecision(Record):
    """Whether to compress now, which window messages, and why."""

    fire: bool
    reasons: list[str] = Field(default_factory=list)
    triggers: list[str] = Field(default_factory=list)
    compress_count: int = Field(
        default=0, description="How many of the oldest window messages to compress."
    )


class ContextBlock(Record):
    """One delimited block of the assembled context."""

    kind: BlockKind
    text: str
    tokens: int
    budget: int
    items: list[str] = Field(
        default_factory=list, description="Ids of the records the block holds."
    )


class Replaced(Record):
    """A value a question reached through a turn that stated it, and its successor."""

    old: str = Field(description="The value as it stood before it changed.")
    current: str = Field(description="The value in force now (its chain's end).")


class ContextBundle(Record):
    """What the responder would be shown, block by block."""

    blocks: list[ContextBlock]
    total_tokens: int
    budget: int
    hedged_fact_ids: list[str] = Field(default_factory=list)
    replaced: list[Replaced] = Field(
        default_factory=list,
        description="For a question about the present: older values it reached "
        "and the values that replaced them, so a responder answers with the "
        "current one; empty for a question about the past.",
    )

    @property
    def text(self) -> str:
        """The whole context as one string."""
        return "\n\n".join(b.text for b in self.blocks if b.text)

    def block(self, kind: str) -> ContextBlock | None:
        """The block of a kind, if present."""
        return next((b for b in self.blocks if b.kind == kind), None)


class Hit(Record):
    """One search result from any tier, in the shape every way in returns it."""

    tier: Literal["facts", "episodes", "turns"]
    id: str = Field(description="The fact, episode or turn id.")
    text: str
    source: list[str] = Field(description="Ids of the turns it was read from.")
    date: AwareDatetime | None = Field(
        description="When it held (a fact), ended (an episode) or was said (a turn)."
    )
    score: float = Field(description="Fused rank score across the tiers; higher first.")
