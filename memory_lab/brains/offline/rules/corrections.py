"""Corrections and changes of tool, resolved against the facts already known.

"Not K2 anymore, K3", "we moved the repos to GitLab", "switch to French, please":
each names only the new value, so the slot it lands on has to be found from what
is known. A correction only helps if it lands on the slot it corrects.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from memory_lab.brains.offline.rules.filters import (
    CONFIDENCE_CORRECTION,
    confidence,
    negated_before,
)
from memory_lab.brains.offline.rules.keys import np_slot
from memory_lab.brains.offline.rules.patterns import (
    ADV,
    APOS,
    END,
    I_OR_WE,
    LEAD,
    NEW,
    OLD,
    RETRACTION,
    regex,
)
from memory_lab.brains.offline.rules.rule import Hit, trim_value, usable
from memory_lab.brains.offline.rules.vocabulary import (
    CLASS_CATEGORY,
    KEY_NOISE,
    LANGUAGES,
    STATE_WORDS,
    slug,
    value_class,
    value_key,
)


class FactLike(Protocol):
    """What a correction needs from an earlier fact: its slot and value."""

    # Read-only, so frozen records (`Fact`, `Prior`) are fact-likes too.
    @property
    def subject(self) -> str:
        """Who stated it."""
        ...

    @property
    def category(self) -> str:
        """Its slot's category."""
        ...

    @property
    def key(self) -> str:
        """Its slot's key."""
        ...

    @property
    def value(self) -> str:
        """What it holds."""
        ...


def facts_of(subject: str, facts: Sequence[FactLike]) -> list[FactLike]:
    """The facts one speaker stated, oldest first: a correction is never another's."""
    return [f for f in facts if f.subject == subject]


def fact_with_value(old: str, mine: Sequence[FactLike]) -> FactLike | None:
    """The latest fact whose value is `old`, or holds it as a word ("K2 format")."""
    for fact in reversed(mine):
        if fact.value.casefold() == old.casefold() or (
            old.casefold() in fact.value.casefold().split()
        ):
            return fact
    return None


# "we moved to K3", "I moved my main account to Chase", "we rewrote the API in
# Django": a change of what is used, whose slot is found from what is known.
SWITCH = regex(
    rf"{I_OR_WE}(?:{APOS}ve|\s+have)?{ADV}(?:\s+(?:finally|eventually|recently|since))?"
    r"\s+(?P<verb>switched|changed|migrated|converted|moved|upgraded|downgraded"
    r"|transferred|ported|rewrote|rewritten|rebuilt|gone\s+over|went\s+over)"
    r"(?:\s+(?:over|back))?(?:\s+(?P<obj>(?:all\s+)?(?:my|our|the)\s+[a-z][\w-]*"
    r"(?:\s+[a-z][\w-]*){0,2}?))?"
    rf"(?:\s+from\s+{OLD})?\s+(?:to|into|onto|in)\s+{NEW}{END}"
)
# "switch to French instead, please", "let's do Dutch from here on": a request
# that changes a standing instruction.
SWITCH_IMPERATIVE = regex(
    r"^(?:(?:actually|ok|okay|so|and|no|now|then|oh)[,\s]+)*(?:please\s+)?"
    r"(?:(?:switch|change|go)(?:\s+(?:back|over))?\s+to|let['’]?s\s+(?:do|use|switch"
    rf"\s+to|speak|write\s+in|talk\s+in))\s+{NEW}{END}"
)
CORRECTION_RULES: tuple[re.Pattern[str], ...] = (
    regex(rf"\bnot\s+{OLD}\s+any\s?more\b[\s,;:.!-]*{LEAD}{NEW}{END}"),
    regex(rf"\bno\s+longer\s+{OLD}[\s,;:.!-]+{LEAD}{NEW}{END}"),
    regex(
        rf"^(?:(?:no|nope|actually|correction|update|sorry|wait)\b[\s,:!-]*)+"
        rf"(?:it{APOS}s|it\s+is|that{APOS}s|that\s+is)\s+(?:actually\s+)?{NEW}{END}"
    ),
    regex(rf"\b(?:it{APOS}s|it\s+is)\s+{NEW}\s+now\b"),
    # "Scratch that, the accountant convinced us to use K1": a retraction, then
    # the new choice; the old value is never named, so its kind finds the slot.
    regex(
        rf"^{RETRACTION}[\s,;:!-]+(?:[^.;!?\n]*?\s)?"
        rf"(?:use|using|go\s+with|going\s+with|pick|picked|choose|chose"
        rf"|settle\s+on|settled\s+on|switch\s+to|take)\s+{NEW}"
        rf"(?:\s+(?:instead|after\s+all))?{END}"
    ),
)


def resolve_correction(
    match: re.Match[str],
    value: str,
    subject: str,
    earlier: Sequence[FactLike],
    recent: Sequence[FactLike],
) -> tuple[str, str] | None:
    """The (category, key) an updated value belongs to, or None when unknowable.

    A correction only helps if it lands on the slot it corrects, so the earlier
    fact with the old value wins; then a fact in the same value class; then, when
    nothing was named ("no, it's green now"), the subject's latest fact.
    """
    mine = facts_of(subject, earlier)
    old = (match.groupdict().get("old") or "").strip()
    named = fact_with_value(old, mine) if old else None
    if named is not None:
        return named.category, named.key
    cls = value_class(value) or (value_class(old) if old else None)
    if cls:
        for fact in reversed(mine):
            if fact.key == cls:
                return fact.category, fact.key
        return CLASS_CATEGORY.get(cls, "knowledge"), cls
    if old:
        return ("knowledge", f"uses.{slug(old)}") if slug(old) else None
    # "no, it's green now" names no slot: only trust it right after a fact of this
    # batch, and never for words that describe a state rather than a value.
    if recent and recent[-1].subject == subject and len(value.split()) <= 3:
        same_kind = value_class(recent[-1].value) in (None, value_class(value))
        if value.lower() not in STATE_WORDS and same_kind:
            return recent[-1].category, recent[-1].key
    return None


def same_kind(
    value: str, obj: str, sentence: str, mine: Sequence[FactLike]
) -> FactLike | None:
    """The known fact a new value replaces: same value kind, else named in words.

    A value of a known kind ('French', 'K3') replaces the latest fact whose value is
    of that kind; otherwise a fact whose key words appear in the object or the
    sentence ('moved my main account' -> 'main_account').
    """
    kind = value_key(value, "language")
    if kind:
        for fact in reversed(mine):
            if fact.key == kind or value_key(fact.value, "language") == kind:
                return fact
    words = {w.lower() for w in re.findall(r"[a-z]+", obj or sentence, re.I)}
    for fact in reversed(mine):
        parts = {p for p in re.split(r"[._]", fact.key) if len(p) > 2} - KEY_NOISE
        if parts and parts <= words:
            return fact
    return None


def resolve_switch(
    match: re.Match[str],
    value: str,
    sentence: str,
    subject: str,
    earlier: Sequence[FactLike],
) -> tuple[str, str] | None:
    """The (category, key) a change of what is used lands on, or None.

    The earlier fact it replaces wins, so the change supersedes it; failing that,
    the value's fixed slot, the slot named by the object ('the repos'), and only for
    verbs that mean a change of tool, 'uses.<value>'. A bare 'we moved to X' with
    nothing known is a house move, left to the place rules.
    """
    mine = facts_of(subject, earlier)
    old = (match.groupdict().get("old") or "").strip()
    named = fact_with_value(old, mine) if old else None
    if named is not None:
        return named.category, named.key
    obj = match.groupdict().get("obj") or ""
    replaced = same_kind(value, obj, sentence if obj else "", mine)
    if replaced is not None:
        return replaced.category, replaced.key
    kind = value_key(value) or (value_key(old) if old else None)
    if kind:
        return CLASS_CATEGORY.get(kind, "knowledge"), kind
    owned = re.sub(r"^(?:all\s+)?(?:my|our|the)\s+", "", obj, flags=re.I)
    owned_key = np_slot(owned) if owned else None
    if owned_key:
        return "knowledge", owned_key
    if old and slug(old):
        return "knowledge", f"uses.{slug(old)}"
    verb = match.group("verb").lower()
    if verb.startswith(("moved", "transferred")) or not slug(value):
        return None
    return "knowledge", f"uses.{slug(value)}"


def resolve_imperative_switch(
    value: str, subject: str, earlier: Sequence[FactLike]
) -> tuple[str, str] | None:
    """The slot a requested change lands on, or None when it is too vague to keep.

    It replaces the known fact of the same kind; with nothing known, only a named
    language is unambiguous (it can only mean the reply language).
    """
    mine = facts_of(subject, earlier)
    replaced = same_kind(value, "", "", mine)
    if replaced is not None:
        return replaced.category, replaced.key
    if value.split()[0].lower() in LANGUAGES:
        return "instruction", "reply_language"
    return None


def switch_hits(
    text: str, subject: str, earlier: Sequence[FactLike], *, to_assistant: bool
) -> list[Hit]:
    """Changes of what is used, stated or requested, resolved against known facts."""
    hits: list[Hit] = []
    for match in SWITCH.finditer(text):
        if negated_before(text, match.start()):
            continue
        value = trim_value(match.group("v") or "")
        slot = usable(value) and resolve_switch(match, value, text, subject, earlier)
        if slot:
            hits.append(Hit(slot[0], slot[1], value, confidence(text)))
    imperative = SWITCH_IMPERATIVE.search(text) if to_assistant else None
    if imperative:
        value = trim_value(imperative.group("v") or "")
        slot = usable(value) and resolve_imperative_switch(value, subject, earlier)
        if slot:
            hits.append(Hit(slot[0], slot[1], value, CONFIDENCE_CORRECTION))
    return hits


def correction_hits(
    text: str,
    subject: str,
    earlier: Sequence[FactLike],
    recent: Sequence[FactLike],
    sureness: float,
) -> list[Hit]:
    """Corrections that name only the new value, landed on the slot they correct."""
    hits: list[Hit] = []
    for pattern in CORRECTION_RULES:
        for match in pattern.finditer(text):
            value = trim_value(match.group("v") or "")
            slot = usable(value) and resolve_correction(
                match, value, subject, earlier, recent
            )
            if slot:
                hits.append(Hit(slot[0], slot[1], value, sureness))
    return hits
