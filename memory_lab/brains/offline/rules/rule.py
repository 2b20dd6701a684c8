"""One rule of the table: a phrasing, the slot it fills, and its own examples."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from memory_lab.brains.offline.rules.filters import negated_before
from memory_lab.brains.offline.rules.vocabulary import FILLER_OBJECTS, VAGUE

KeyFn = Callable[[re.Match[str], str], "str | None"]

MAX_VALUE_WORDS = 8


@dataclass
class Hit:
    """A fact one sentence states, before it becomes a candidate of its turn."""

    category: str
    key: str
    value: str
    confidence: float


class Example(NamedTuple):
    """A sentence a rule must fire on, with the key and value it must give."""

    text: str
    key: str
    value: str


def trim_value(value: str) -> str:
    """Drop time words at either end and an article, cap length; stays a substring."""
    value = value.strip(" \t'’\"-")
    value = re.sub(
        r"(?:\s+(?:now|anymore|too|also|as\s+well|a\s+lot|so\s+much|very\s+much|lately"
        r"|these\s+days|nowadays|at\s+the\s+moment|right\s+now|for\s+now|instead"
        r"|already|though|anyway|really|lol|haha|today|again|yet|soon|later"
        r"|after\s+all|at\s+some\s+point|from\s+(?:now|here)\s+on|please))+$",
        "",
        value,
        flags=re.I,
    )
    value = re.sub(
        r"(?<=\S)\s+(?:to|of|in|on|at|with|for|about|from|into|by|and|or)$",
        "",
        value,
        flags=re.I,
    )
    # "my bank is still Nordea" confirms Nordea; "still" is not part of the value
    # (lower case only: "Still Game" is a title)
    value = re.sub(r"^(?:still|currently)\s+(?=\S)", "", value)
    value = re.sub(r"^(?:an?|some)\s+(?=\S)", "", value, flags=re.I)
    words = re.match(rf"\S+(?:\s+\S+){{0,{MAX_VALUE_WORDS - 1}}}", value)
    return words.group() if words else ""


def split_items(value: str) -> list[str]:
    """The short items of a listed value: "hiking, skiing and chess" -> three."""
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*", value)
    return [p for p in parts if p and len(p.split()) <= 4]


def usable(value: str) -> bool:
    """False for values that point elsewhere ("that", "your idea") or say nothing."""
    if not value:
        return False
    words = value.lower().replace("’", "'").split()
    # "making this" points back at something said before as much as "this" does
    pointer = len(words) <= 3 and words[-1] in {"this", "that", "it", "them"}
    return words[0] not in VAGUE and not pointer and not FILLER_OBJECTS.match(value)


@dataclass(frozen=True)
class Rule:
    """One phrasing that states a fact; `key` names the slot or rejects it.

    Each rule carries its own examples (sentences it must read, with the slot and
    value) and counter-examples (sentences it must not read), so the rule and the
    evidence for it are edited together; one test runs them all.
    """

    name: str
    category: str
    pattern: re.Pattern[str]
    key: KeyFn
    request_ok: bool = False
    """May fire inside a polite request ("can you remind me to ...?")."""
    open_item: bool = False
    """States uncertainty itself, so uncertainty markers must not block it."""
    multi: bool = False
    """The value may list several objects, each its own fact."""
    to_assistant: bool = False
    """Only a user talking to the assistant means it as a standing instruction;
    between two people ("don't give up!") it is encouragement."""
    examples: tuple[Example, ...] = ()
    """Sentences this rule must read, with the key and value it must give."""
    counter_examples: tuple[str, ...] = ()
    """Sentences that look like this rule's phrasing but state no such fact."""

    def hits(self, text: str) -> list[tuple[str, str]]:
        """The (key, value) pairs this rule reads from one sentence, in order.

        Sentence-level filters (questions, hypotheticals, jokes) are the caller's;
        a negation earlier in the clause is this rule's, except for instructions,
        which are often negative ("don't use jargon").
        """
        found: list[tuple[str, str]] = []
        for match in self.pattern.finditer(text):
            if self.category != "instruction" and negated_before(text, match.start()):
                continue
            raw = match.group("v") or match.groupdict().get("v2") or ""
            for item in split_items(raw) if self.multi else [raw]:
                value = trim_value(item)
                key = self.key(match, value) if usable(value) else None
                if key:
                    found.append((key, value))
        return found
