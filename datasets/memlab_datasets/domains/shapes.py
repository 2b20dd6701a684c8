"""What a domain is made of: the slots a user fills, open items, chatter."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from memory_lab.config import FactCategory

DomainName = Literal["bookkeeping", "finance", "coding", "companion"]
DOMAINS: tuple[DomainName, ...] = ("bookkeeping", "finance", "coding", "companion")


@dataclass(frozen=True)
class Slot:
    """One thing a user can tell the assistant about themselves.

    Attributes:
        key: Stable fact key, e.g. 'accounting_framework'.
        category: The engine's fact category.
        values: Candidate values; updates move between them.
        state: First statements; each contains `{v}`.
        question: The recall question.
        topic: Noun phrase from the user's side ('our accounting framework'); it
            reads after 'if' in hypotheticals and in temporal questions.
        update: Statements of a changed value; empty means the slot never changes.
        confirm: Re-confirmations of the current value.
        lead_in: First halves of a statement spread over two turns (no value).
        follow: Second halves; each contains `{v}`.
        third: Third-party statements with `{who}` and `{alt}`.
    """

    key: str
    category: FactCategory
    values: tuple[str, ...]
    state: tuple[str, ...]
    question: str
    topic: str
    update: tuple[str, ...] = ()
    confirm: tuple[str, ...] = ()
    lead_in: tuple[str, ...] = ()
    follow: tuple[str, ...] = ()
    third: tuple[str, ...] = ()

    @property
    def updatable(self) -> bool:
        """Whether the slot's value can change during a conversation."""
        return bool(self.update) and len(self.values) > 1


@dataclass(frozen=True)
class OpenItems:
    """Open items ('unresolved' facts): a fixed list plus numbered ones for scale."""

    tasks: tuple[str, ...]
    numbered: str = field(metadata={"doc": "Task with `{n}` for unlimited items."})
    state: tuple[str, ...] = (
        "I still need to {v}.",
        "Open item: I have to {v} at some point.",
        "Remind me that I haven't managed to {v} yet.",
        "Note to self, I must {v} soon.",
    )
    resolve: tuple[str, ...] = (
        "I finally got to {v}, so that's off the list.",
        "Done: I managed to {v} yesterday.",
        "Good news, I was able to {v} this morning.",
    )


@dataclass(frozen=True)
class Domain:
    """A setting: the assistant's persona, the user's slots and neutral chatter."""

    name: DomainName
    persona: str
    slots: tuple[Slot, ...]
    open_items: OpenItems
    chatter: tuple[str, ...]
    chatter_replies: tuple[str, ...]

    def __post_init__(self) -> None:
        # Replies answer the chatter line at the same index.
        if len(self.chatter) != len(self.chatter_replies):
            raise ValueError(f"domain {self.name!r}: chatter and replies differ")
