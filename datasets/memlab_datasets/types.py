"""Conversations with known truth: one set of records for every source.

The synthetic generator and the LoCoMo loader both produce these, so evals,
notebooks and the app never care where a conversation came from. Turns are the
engine's own `Message` records, so a conversation can be ingested as it stands.
"""

from __future__ import annotations

import hashlib
from functools import cached_property
from typing import Any, Literal

from pydantic import (
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from memlab_datasets.categories import ProbeKind
from memory_lab.types import Message

SOURCE_PATTERN = r"^[a-z][a-z0-9_-]*$"
"""A conversation's source: a short name, as a registered data set's is."""
TrapKind = Literal[
    "hypothetical", "question", "joke", "third_party", "rejected_suggestion"
]
TRAP_KINDS: tuple[TrapKind, ...] = (
    "hypothetical",
    "question",
    "joke",
    "third_party",
    "rejected_suggestion",
)


class Record(BaseModel):
    """Base for immutable dataset records; unknown fields are a format error."""

    model_config = ConfigDict(frozen=True, extra="forbid")


class Session(Record):
    """One sitting of a conversation; its turns are listed by id, in order."""

    id: str = Field(description="e.g. 'session_3'.")
    started_at: AwareDatetime
    turn_ids: list[str]
    summary: str = Field(default="", description="Reference summary, when known.")


class AuditNote(Record):
    """A published correction of one answer key entry, kept whether applied or not.

    Keeping both versions lets a scorer report a number with and without the
    correction from one loaded dataset.
    """

    error_type: str
    original_answer: str
    original_evidence: list[str]
    correct_answer: str
    correct_evidence: list[str]
    reasoning: str = ""


class Probe(Record):
    """A question with a known answer, asked at a known moment."""

    id: str
    question: str
    answer: str = Field(description="Gold answer; 'not known' for abstention.")
    evidence: list[str] = Field(description="Turn ids that support the answer.")
    after_turn: str = Field(description="The probe is asked after this turn.")
    category: int = Field(description="Category number; see categories.CATEGORIES.")
    kind: ProbeKind
    stale_answers: list[str] = Field(
        default_factory=list,
        description="Older values an update replaced: answering one is wrong.",
    )
    adversarial_answer: str | None = Field(
        default=None, description="A plausible wrong answer the question invites."
    )
    fact_keys: list[str] = Field(
        default_factory=list, description="Keys of the gold facts the probe asks."
    )
    corrected: bool = Field(
        default=False, description="Whether answer/evidence hold the audit's fix."
    )
    audit: AuditNote | None = None
    evidence_sessions: list[str] = Field(
        default_factory=list,
        description="Session ids that hold the answer, when the source names them "
        "(LongMemEval's answer_session_ids).",
    )
    asked_at: AwareDatetime | None = Field(
        default=None,
        description="When the question is asked, if later than `after_turn` "
        "(LongMemEval's question_date); None: at that turn's time.",
    )

    @model_serializer(mode="wrap")
    def _leave_out_unset_additions(
        self, handler: SerializerFunctionWrapHandler
    ) -> dict[str, Any]:
        # Fields added after files were first written are left out while unset,
        # so those files' lines, and the content hashes of every older dataset,
        # stay byte for byte what they were.
        data = handler(self)
        for name in PROBE_ADDED:
            if name in data and not data[name]:
                del data[name]
        return data


PROBE_ADDED: tuple[str, ...] = ("evidence_sessions", "asked_at")
"""Probe fields added later, with empty defaults; dumped only when set."""


class GoldFact(Record):
    """A fact the conversation really establishes, with the turn that states it."""

    subject: str = Field(description="Whom it is about: 'user' or a speaker name.")
    category: str = Field(description="identity, preference, ... or 'observation'.")
    key: str
    value: str
    turn_id: str = Field(description="The turn that states the value.")
    turn_ids: list[str] = Field(
        default_factory=list,
        description="Every turn the statement spans, the stating turn included.",
    )
    confirmed_turn_ids: list[str] = Field(
        default_factory=list, description="Later turns that re-confirm the value."
    )
    replaced_by_turn: str | None = Field(
        default=None, description="Turn of the update or resolution that ends it."
    )
    expires: AwareDatetime | None = Field(
        default=None, description="When an open item stops being worth keeping."
    )


class Trap(Record):
    """A turn a good memory must not store as a fact about the user."""

    kind: TrapKind
    turn_id: str
    text: str = Field(description="The part of the turn that sets the trap.")
    key: str = Field(default="", description="The fact key it could be mistaken for.")
    value: str = Field(default="", description="The value that must not be stored.")


class Conversation(Record):
    """One tenant's multi-session conversation plus everything known to be true."""

    id: str
    tenant: str
    source: str = Field(
        pattern=SOURCE_PATTERN,
        description="Where it comes from: 'synthetic', 'locomo', 'longmemeval' "
        "or a plug-in data set's own name.",
    )
    speakers: dict[str, str] = Field(description="Role -> speaker name.")
    sessions: list[Session]
    turns: list[Message] = Field(description="Every turn, flat, in order.")
    probes: list[Probe] = Field(default_factory=list)
    gold_facts: list[GoldFact] = Field(default_factory=list)
    traps: list[Trap] = Field(default_factory=list)
    metadata: dict[str, Any] = Field(default_factory=dict)

    @cached_property
    def positions(self) -> dict[str, int]:
        """Turn id -> position in `turns`; the order every check relies on."""
        return {turn.id: i for i, turn in enumerate(self.turns)}

    def turn(self, turn_id: str) -> Message:
        """The turn with this id.

        Raises:
            KeyError: when the conversation has no such turn.
        """
        return self.turns[self.positions[turn_id]]

    def turns_until(self, turn_id: str) -> list[Message]:
        """Turns up to and including `turn_id`: what a probe's memory has seen."""
        return self.turns[: self.positions[turn_id] + 1]


class Dataset(Record):
    """A named set of conversations and a hash of their serialized content."""

    name: str
    conversations: list[Conversation]
    content_hash: str = Field(description="sha256 of the JSONL serialization.")
    metadata: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def build(
        cls,
        name: str,
        conversations: list[Conversation],
        metadata: dict[str, Any] | None = None,
    ) -> Dataset:
        """A dataset whose hash is computed here, so it always matches the content."""
        return cls(
            name=name,
            conversations=conversations,
            content_hash=content_hash(conversations),
            metadata=metadata or {},
        )


def conversation_line(conversation: Conversation) -> str:
    """A conversation's JSONL line; the hash and the files both use exactly this."""
    return conversation.model_dump_json()


def content_hash(conversations: list[Conversation]) -> str:
    """sha256 of the conversations' JSONL lines, equal before and after a save."""
    digest = hashlib.sha256()
    for conversation in conversations:
        digest.update(conversation_line(conversation).encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()
