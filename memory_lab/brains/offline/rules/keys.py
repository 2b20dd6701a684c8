"""Key functions: how a rule's match becomes a slot, or is rejected.

A key is a short slot (`name`, `home_city`, `allergy.peanuts`) so that a later
statement of the same slot, above all a correction, supersedes the earlier one.
A key function returns None to reject a match whose value is not what the rule
means ("I'm from here", "we host on Fridays").
"""

from __future__ import annotations

import re

from memory_lab.brains.offline.rules.filters import negated_before
from memory_lab.brains.offline.rules.patterns import (
    REL_SINGLE,
    RELATION_WORD,
    REPLY_VERB,
)
from memory_lab.brains.offline.rules.rule import KeyFn
from memory_lab.brains.offline.rules.vocabulary import (
    CANNOT_IGNORED,
    COUNT_IGNORED,
    END_VERBS,
    LANGUAGES,
    NOT_NAMES,
    NOT_PLACES,
    NP_BLOCKED_ALONE,
    NP_BLOCKED_FIRST,
    NP_STOP,
    OBLIGATION_IGNORED,
    SPELLING,
    START_VERBS,
    VAGUE,
    WE_VERB_SLOTS,
    slug,
    value_class,
    value_key,
)


def const_key(key: str) -> KeyFn:
    """The same slot whatever the value: there is only one name, one age."""
    return lambda _m, _v: key


def slot_key(prefix: str) -> KeyFn:
    """A slot per value under `prefix`: each allergy or dislike is its own fact."""

    def key(_m: re.Match[str], value: str) -> str | None:
        s = slug(value)
        return f"{prefix}.{s}" if s else None

    return key


def classed_key(prefix: str) -> KeyFn:
    """Key by value class when known ('K2' -> accounting_standard), else a slot."""

    def key(m: re.Match[str], value: str) -> str | None:
        return value_key(value, "language") or slot_key(prefix)(m, value)

    return key


def choice_key(m: re.Match[str], value: str) -> str | None:
    """The slot of a choice; "K2 over K3" and "K3 over K2" share it.

    Sharing the key lets the later choice supersede the earlier one.
    """
    other = m.groupdict().get("o") or ""
    known = value_key(value, "language") or value_key(other, "language")
    if known:
        return known
    a, b = slug(value), slug(other)
    if not a:
        return None
    return "choice." + ("_or_".join(sorted([a, b])) if b else a)


def it_is_key(m: re.Match[str], value: str) -> str | None:
    """A choice settled with "X it is"; "Yes it is!" agrees, it chooses nothing."""
    first = value.split()[0].lower()
    if (first in NOT_NAMES and first not in LANGUAGES) or first in VAGUE:
        return None
    return choice_key(m, value)


def relation_key(m: re.Match[str], _value: str, attribute: str) -> str:
    """A slot of a relation's attribute: "wife.name", "brother.home_city"."""
    rel = re.sub(r"\s+", "_", m.group("rel").lower()).replace("-", "")
    return f"{SPELLING.get(rel, rel)}.{attribute}"


def relation_name_key(m: re.Match[str], value: str) -> str | None:
    """The name slot of a relation; several sisters each get their own."""
    if value.split()[0].lower() in NOT_NAMES:
        return None
    rel = m.group("rel").lower()
    if re.fullmatch(REL_SINGLE, rel, re.I):
        return relation_key(m, value, "name")
    return relation_key(m, value, slug(value) or "name")


def name_key(_m: re.Match[str], value: str) -> str | None:
    """The user's name, unless the word is not a name ("I'm tired")."""
    return None if value.split()[0].lower() in NOT_NAMES else "name"


def place_key(key: str) -> KeyFn:
    """A place slot, unless the value is a day, a month or a known tool."""

    def fn(_m: re.Match[str], value: str) -> str | None:
        if value.split()[0].lower() in NOT_PLACES or value_class(value):
            return None
        return key

    return fn


def age_key(_m: re.Match[str], value: str) -> str | None:
    """The age, only when it is a plausible one."""
    return "age" if 0 < int(value) <= 120 else None


def born_key(_m: re.Match[str], value: str) -> str:
    """A bare year is a birth year; anything longer is a birth date."""
    if re.fullmatch(r"\d{4}", value):
        return "birth_year"
    return "birth_date"


def work_in_key(_m: re.Match[str], value: str) -> str | None:
    """A city for "work in Berlin", a field for "work in finance"."""
    first = value.split()[0]
    if value.isupper() or not first[0].isupper() or first.lower() in NOT_PLACES:
        return "work_field"
    return "work_city"


def employer_key(m: re.Match[str], value: str) -> str | None:
    """The employer, unless the value says when or where, not for whom."""
    bad = {"home", "night", "nights", "weekends", "noon", "midnight", "a living"}
    return None if value.lower() in bad else "employer"


def count_key(m: re.Match[str], _value: str) -> str | None:
    """A count slot named by the counted noun ("2 employees" -> employee_count)."""
    noun = m.group("noun").lower()
    if noun in COUNT_IGNORED:
        return None
    singular = {"children": "child", "people": "person", "kids": "child"}.get(noun)
    singular = singular or re.sub(r"(?<=[^s])s$", "", noun)
    return f"{singular}_count"


def cannot_key(m: re.Match[str], value: str) -> str | None:
    """Something the user cannot do, but not "can't wait" or "can't believe".

    "Can't spend more than $250 on X" is a spending limit, which its own rule keys
    by what it is for, so that "the limit for X is $400 now" supersedes it.
    """
    first = value.split()[0].lower()
    if first in CANNOT_IGNORED or re.match(
        r"spend\s+(?:more\s+than|over)\s+\D{0,2}\d", value, re.I
    ):
        return None
    return slot_key("cannot")(m, value)


def spend_limit_key(m: re.Match[str], _value: str) -> str | None:
    """One limit per thing it is for: 'extras' -> spend_limit.extras."""
    groups = m.groupdict()
    thing = slug(groups.get("thing") or groups.get("thing2") or "", words=2)
    return f"spend_limit.{thing}" if thing and thing not in VAGUE else None


def answer_length_key(_m: re.Match[str], value: str) -> str:
    """Length wishes and style wishes are separate instructions."""
    return (
        "answer_length"
        if re.search(r"short|brief|concise", value, re.I)
        else ("answer_style")
    )


def plan_key(m: re.Match[str], value: str) -> str | None:
    """A plan, but not "I'm going to be honest" or "going to say"."""
    if re.match(r"(?:be\s+honest|say|tell\s+you|ask)\b", value, re.I):
        return None
    return slot_key("plan")(m, value)


def prefer_key(m: re.Match[str], value: str) -> str | None:
    """A preference slot shared by both orders of a comparison."""
    key = choice_key(m, value)
    return key.replace("choice.", "prefers.", 1) if key else None


REPLY_IN = re.compile(rf"^{REPLY_VERB}\b.*\bin\s+(?P<language>\w+)$", re.I)


def reply_language_key(match: re.Match[str], value: str) -> str | None:
    """The one reply-language slot, unless the clause forbids that language.

    "Never answer in French" is a never-instruction, not French as the language.
    """
    if value.lower() not in LANGUAGES or negated_before(match.string, match.start()):
        return None
    return "reply_language"


def always_never_key(_m: re.Match[str], value: str) -> str | None:
    """Instructions that start with always or never, one slot for each wording.

    "Always answer in French" is left to the reply-language slot, so a later
    "answer in German" supersedes it instead of standing beside it.
    """
    word, _, rest = value.partition(" ")
    said_in = REPLY_IN.match(rest)
    if word.lower() == "always" and said_in:
        if said_in.group("language").lower() in LANGUAGES:
            return None
    return f"{word.lower()}.{slug(rest)}" if slug(rest) else None


def dont_key(_m: re.Match[str], value: str) -> str | None:
    """A "don't X" instruction, keyed as the same slot as "never X"."""
    rest = re.sub(r"^(?:don\S?t|do\s+not)\s+(?:ever\s+)?", "", value, flags=re.I)
    return f"never.{slug(rest)}" if slug(rest) else None


def names_something(value: str) -> bool:
    """Whether a value names something: a proper noun, a number or a known class.

    Possessive statements are common in chat ("my day was long"), but only the ones
    that end in a name or a number are facts worth remembering.
    """
    words = value.split()
    if not words or len(words) > 5:
        return False
    first = words[1] if words[0].lower() == "the" and len(words) > 1 else words[0]
    if first in {"I", "I'm", "I’m"} or first.lower() in VAGUE:
        return False
    return first[0].isupper() or first[0].isdigit() or value_class(first) is not None


# Lone nouns that other rules own or that are too vague to be a slot ("my day is
# Monday-shaped"); with a modifier they can be ("financial year", "business account").


def np_slot(np: str) -> str | None:
    """A slot named after a possessed noun phrase: 'main bank account' -> key.

    The phrase is the user's own name for the thing, so it is the most stable key a
    rule can derive without a domain table; relations and vague heads are refused.
    """
    np = re.sub(r"\s+of\s+choice$", "", np.strip(), flags=re.I)
    words = [w.lower() for w in np.split()]
    if not words or words[0] in NP_BLOCKED_FIRST:
        return None
    if len(words) == 1 and words[0] in NP_BLOCKED_ALONE:
        return None
    if any(w in NP_STOP or RELATION_WORD.match(w) for w in words):
        return None
    return slug(np) or None


def possessive_key(m: re.Match[str], value: str) -> str | None:
    """A slot named after what "my"/"our" owns, when the value names it."""
    if not names_something(value):
        return None
    np = m.group("np")
    key = np_slot(np)
    if key is None:
        return None
    verb = (m.groupdict().get("verb") or "").lower()
    if verb in START_VERBS:
        key += "_start"
    elif verb in END_VERBS:
        key += "_end"
    return value_key(value, np) or key


def we_verb_key(m: re.Match[str], value: str) -> str | None:
    """Where things are deployed, hosted, banked or kept."""
    # "we host on Fridays" says when, not where
    if not names_something(value) or value.split()[0].lower().rstrip("s") in NOT_PLACES:
        return None
    groups = m.groupdict()
    verb = (groups.get("verb") or groups.get("verb2") or "").lower()
    obj = groups.get("obj") or groups.get("obj2") or ""
    owned = re.match(r"(?:my|our|the)\s+(.+)", obj, re.I)
    fallback = (np_slot(owned.group(1)) if owned else None) or WE_VERB_SLOTS.get(verb)
    return value_key(value) or fallback


def runs_on_key(_m: re.Match[str], value: str) -> str | None:
    """A platform requirement, keyed by its kind when known."""
    return (value_key(value) or "runs_on") if names_something(value) else None


def obligation_key(m: re.Match[str], value: str) -> str | None:
    """An open task, but not "I have to say" and other turns of phrase."""
    if value.split()[0].lower() in OBLIGATION_IGNORED:
        return None
    return slot_key("todo")(m, value)


def rather_key(m: re.Match[str], value: str) -> str | None:
    """A preference, but not "I'd rather not"."""
    return None if value.split()[0].lower() == "not" else prefer_key(m, value)


def favorite_of_key(m: re.Match[str], _value: str) -> str | None:
    """The favourite slot named after its kind ("food"); bare "favourite" if none."""
    kind = slug(m.group("k") or "", words=2)
    return f"favorite_{kind}" if kind else "favorite"
