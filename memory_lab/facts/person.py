"""Whom a fact is about, as a sentence names them, and the user's words turned to "you".

Facts are shown to the assistant, which speaks to the user: the user is "you",
a named person is their name ("Melanie"), and a person known only by their tie
to the user is "your sister". A statement the user made about themselves ("my
locker code is 4512") reads the same way once its first person is turned into
the second ("your locker code is 4512").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory_lab.facts.inflection import is_plural

USER = "user"


@dataclass(frozen=True)
class Who:
    """A fact's subject as a sentence says it."""

    name: str
    """As a sentence's subject: "You", "Your sister", "Melanie"."""
    owner: str
    """As an owner inside a sentence: "your", "your sister's", "Melanie's"."""
    third: bool
    """Takes "is", "has", "lives" (one person other than "you")."""
    user_side: bool
    """The user's own words speak for it: "my" in its evidence means "your"."""

    @property
    def owner_first(self) -> str:
        """The owner at the start of a sentence: "Your", "Melanie's"."""
        return capitalised(self.owner)


def capitalised(text: str) -> str:
    """The text with its first letter upper-cased, the rest as it was."""
    return text[:1].upper() + text[1:]


def _named(text: str) -> str:
    return " ".join(capitalised(word) for word in text.split())


def _owning(name: str, plural: bool) -> str:
    """The owner form of a name: "your sister's", and "your parents'" for many."""
    return f"{name}'" if plural and name.endswith("s") else f"{name}'s"


def who(subject: str) -> Who:
    """The sentence form of a stored subject ("user", "user's sister", "melanie")."""
    said = " ".join(subject.strip().split())
    lowered = said.lower()
    if lowered in {USER, ""}:
        return Who("You", "your", third=False, user_side=True)
    owner, sep, relation = said.partition("'s ")
    if sep and relation:
        plural = is_plural(relation.split()[-1])
        if owner.lower() == USER:
            mine = f"your {relation}"
            return Who(
                capitalised(mine), _owning(mine, plural), not plural, user_side=True
            )
        named = f"{_named(owner)}'s {relation}"
        return Who(named, _owning(named, plural), not plural, user_side=False)
    named = _named(said)
    return Who(named, f"{named}'s", third=True, user_side=False)


_FIRST_PERSON = {
    "i": "you",
    "me": "you",
    "my": "your",
    "mine": "yours",
    "myself": "yourself",
    "we": "you",
    "us": "you",
    "our": "your",
    "ours": "yours",
    "ourselves": "yourselves",
}
_CONTRACTED = {"'m": "'re", "'re": "'re", "'ve": "'ve", "'d": "'d", "'ll": "'ll"}
_AFTER_I = {"am": "are", "was": "were", "wasn't": "weren't"}
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


def _turned(word: str, first: bool) -> str | None:
    """The second-person form of a first-person word, None if it is not one.

    Only "I" and lower-case words count, and a capital at the very start: "My Fair
    Lady" or "Us" inside a title stays.
    """
    head, sep, tail = word.partition("'")
    if (
        head == "I"
        or head == head.lower()
        or (first and head == capitalised(head.lower()))
    ):
        base = _FIRST_PERSON.get(head.lower())
        if base is None or (sep and f"'{tail}" not in _CONTRACTED):
            return None
        turned = base + (_CONTRACTED[f"'{tail}"] if sep else "")
        return capitalised(turned) if first and head[:1].isupper() else turned
    return None


def has_first_person(text: str) -> bool:
    """Whether the text speaks as "I" or "we" anywhere."""
    plain = text.replace("\u2019", "'")
    return any(
        _turned(m.group(), m.start() == 0) is not None for m in _WORD.finditer(plain)
    )


def second_person(text: str) -> str | None:
    """The user's words said back to them: "I'm vegan" -> "you're vegan".

    None when a word cannot be turned safely (an "am" with no "I" before it),
    so the caller shows the words as they are.
    """
    plain = text.replace("\u2019", "'")
    out: list[str] = []
    last, previous = 0, ""
    for match in _WORD.finditer(plain):
        word = match.group()
        turned = _turned(word, match.start() == 0)
        if turned is None and word.lower() in _AFTER_I:
            if previous not in {"i", "we"}:
                return None
            turned = _AFTER_I[word.lower()]
        out += [plain[last : match.start()], word if turned is None else turned]
        last, previous = match.end(), word.lower()
    return "".join(out) + plain[last:]
