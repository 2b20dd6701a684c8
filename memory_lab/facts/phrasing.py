"""A fact as the sentence a person would write: "You live in a flat near the harbour".

Fact lines used to be the key and the value ("live in.flat = flat near the
harbour"), which a reader, and the offline brain's replies, turned into English
badly ("Your live in flat is flat near the harbour"). A sentence is built from
the fact's subject ("you", "Melanie", "your sister"), the relation its key
names and its value, in the shapes the extractors key by:

- a verb and its object, `adopt.puppy`: "You adopted a puppy";
- a verb or an adjective with a preposition, `live_in.flat`, `allergic_to.x`:
  "Melanie lives in a flat ...", "You are allergic to peanuts";
- what someone is, `is.nurse`: "You are a nurse";
- a liking or a use, `likes.x`, `speaks.x`: "You like hiking";
- a slot or something owned, `home_city`, `budget.rent`, `sister.employer`:
  "Your home city is Oslo", "Your rent budget is 900", "Your sister's employer
  is IKEA"; a name, `sister.emma`: "Emma is your sister";
- the rules' open items, plans and instructions, `todo.x`, `plan.x`:
  "You need to review the October transactions";
- a statement kept whole, `note.x`: the user's words in the second person.

The key's object word is never said beside the value: the value holds it ("a
flat near the harbour", never "flat is flat ..."). Tense and article come from
the sentence the fact was read from (`evidence`), the value always from the row,
so a value is on its line word for word (only a user's "my" inside it becomes
"your"). A key of no known shape is shown as "key words: value"
("project/deadline: Friday").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from memory_lab.brains.offline.parse.lexicon import PREFERENCE_VERBS, RELATION_NOUNS
from memory_lab.facts.evidence import determiner, follows_be, verb_group, word_before
from memory_lab.facts.inflection import (
    agree,
    is_plural,
    is_verb,
    is_verb_form,
    present,
    stems,
    tense,
    verb_lemma,
    verb_tags,
)
from memory_lab.facts.person import (
    Who,
    capitalised,
    has_first_person,
    second_person,
    who,
)
from memory_lab.types import Fact

PREPOSITIONS = frozenset(
    """to in at for of on with from into about by over under near as onto off
    outside inside around across through behind beside between above below
    without within along past toward towards after before during until upon
    via like""".split()
)
ATTRIBUTES = frozenset(
    "name age birthday hometown home_city employer job_title work_city".split()
)
"""Slots a person has: `brother.home_city` is the brother's home city."""
_KEY = re.compile(r"[a-z][a-z0-9]*(?:[_.][a-z0-9]+)*")
_WORD = re.compile(r"[a-z0-9]+")
_CALENDAR = frozenset(
    """january february march april may june july august september october november
    december jan feb mar apr jun jul aug sep sept oct nov dec monday tuesday
    wednesday thursday friday saturday sunday""".split()
)
_TIME_NOUNS = frozenset("date day year time month week".split())
"""A slot that is itself a date takes no "on": "your birth date is 4 May"."""
_LEADING = frozenset("a an the my our your his her their this that some".split())


@dataclass(frozen=True)
class Phrase:
    """A fact's sentence in parts, so a cut can keep what comes before the value."""

    lead: str
    """The words before the value ("You live in a "), or "" when it opens it."""
    value: str
    tail: str = ""
    """The words after it (" is your sister"), if any."""
    sentence: bool = True
    """False for the fallback, "key words: value", shown as it is."""

    @property
    def text(self) -> str:
        """The whole line, a sentence's first letter upper-cased."""
        said = f"{self.lead}{self.value}{self.tail}"
        return capitalised(said) if self.sentence else said


@dataclass(frozen=True)
class _Parts:
    who: Who
    head: str
    rest: tuple[str, ...]
    value: str
    evidence: str
    key: str
    subject: str

    @property
    def user(self) -> bool:
        return self.who.name == "You"


def fact_sentence(fact: Fact) -> str:
    """A row's sentence, without a full stop (a line may add a date after it)."""
    return phrase(fact.subject, fact.key, fact.value, fact.evidence).text


@lru_cache(maxsize=8192)
def phrase(subject: str, key: str, value: str, evidence: str = "") -> Phrase:
    """The sentence for a subject, key and value, read with its evidence sentence.

    Args:
        subject: Whom it is about: "user", "user's sister", a name.
        key: The fact's key; its shape says the relation.
        value: The stored value, said word for word.
        evidence: The sentence the fact was read from, for the verb's tense and
            the article before the value; "" when there is none.
    """
    said = " ".join(value.split())
    key = _without_own_value(key, said)
    if not said or not _KEY.fullmatch(key) or key.count(".") > 2:
        return _fallback(subject, key, said)
    head, *rest = key.split(".")
    parts = _Parts(who(subject), head, tuple(rest), said, evidence, key, subject)
    for shape in _SHAPES:
        found = shape(parts)
        if found is not None:
            return found
    return _fallback(subject, key, said)


def _without_own_value(key: str, value: str) -> str:
    """The key without a last part that only spells its value again.

    An event's key ends with its own value after its relation's key
    ("adopt.kitten.two_kittens"), so that events never share a key; that part
    says nothing the value does not. A two-part key ("likes.pottery") is a
    relation and its object, and is read as it is.
    """
    head, _, last = key.rpartition(".")
    own = re.sub(r"[^a-z0-9]+", "_", value.lower()).strip("_")
    if key.count(".") < 2 or not own or last != own[: len(last)]:
        return key
    return head


def _fallback(subject: str, key: str, value: str) -> Phrase:
    """The key's words and the value; someone other than the user is named first."""
    words = " ".join(key.replace("_", " ").replace(".", " ").split())
    if subject.strip().lower() in {"", "user"}:
        return Phrase(f"{words}: ", value, sentence=False)
    return Phrase(f"{who(subject).name}: {words}: ", value, sentence=False)


def _join(*words: str) -> str:
    """Words with single spaces and one after them, empty ones left out."""
    return " ".join(w for w in words if w) + " "


def _value(p: _Parts) -> str:
    """The value as said to the user: a "my" inside it becomes "your"."""
    if p.user and has_first_person(p.value):
        return second_person(p.value) or p.value
    return p.value


def _article(p: _Parts, value: str) -> str:
    """The article the evidence put before the value, unless the value has one."""
    first = value.split()[0].lower()
    if first in _LEADING:
        return ""
    return determiner(p.evidence, p.value, p.who.user_side)


def _verb(p: _Parts, lemmas: list[str], fallback: str) -> str:
    """The verb as the evidence said it, agreeing with the subject."""
    group = verb_group(p.evidence, lemmas, p.value) if p.evidence else None
    if group is None:
        return present(fallback, p.who.third)
    return " ".join(agree(group, p.who.third))


def _words(part: str) -> str:
    return part.replace("_", " ")


def _holds(value: str, words: list[str]) -> bool:
    """Whether a key's object word is in the value ("flat" in "flat near ...").

    A word counts when it is one of the value's words or their dictionary forms
    ("agency" in "agencies"), or begins one ("swim" in "swimming", "math" in
    "maths").
    """
    said = [stem for w in _WORD.findall(value.lower()) for stem in stems(w)]
    return any(
        len(w) >= 3 and any(s == w or s.startswith(w) for s in said) for w in words
    )


# --- the shapes, tried in order ------------------------------------------------


def _kept_whole(p: _Parts) -> Phrase | None:
    """A note the user asked to keep, or an instruction: already a sentence."""
    if p.head == "note":
        said = second_person(p.value) if p.user else None
        return Phrase("", said or p.value)
    if p.head in {"always", "never"} and not p.rest[1:]:
        return Phrase("", p.value)
    return None


_ACTION_SLOTS: dict[str, tuple[str, str]] = {
    "plan": ("plan", "to"),
    "todo": ("need", "to"),
    "decided": ("decided", "to"),
    "cannot": ("cannot", ""),
    "reminder": ("asked", "to be reminded to"),
    "remember": ("asked", "to be reminded to"),
    "undecided": ("have", "not decided"),
}
"""The rule table's slots whose value is an action: the verb before it, and
whether that verb agrees with the subject (a lemma) or is said as it is."""


def _action(p: _Parts) -> Phrase | None:
    """A plan, an open item, a decision or something one cannot do."""
    if p.head not in _ACTION_SLOTS:
        return None
    if has_first_person(p.value) and not p.user:
        return _fallback_parts(p)
    value = _value(p)
    verb, link = _ACTION_SLOTS[p.head]
    first = value.split()[0].lower()
    lemma = verb_lemma(first)
    if p.head == "todo" and lemma and tense(first, lemma) in {"past", "participle"}:
        verb, link = "have", "not"  # "I haven't filed the VAT return"
    if p.head == "undecided":
        link = "not decided whether" if first == "to" else "not decided on"
    elif link.endswith("to") and first == "to":
        link = link[: -len("to")].strip()
    said = (
        present(verb, p.who.third)
        if is_verb(verb) and verb in {"plan", "need", "have"}
        else verb
    )
    return Phrase(_join(p.who.name, said, link), value)


def _fallback_parts(p: _Parts) -> Phrase:
    return _fallback(p.subject, p.key, p.value)


def _choice(p: _Parts) -> Phrase | None:
    """A decision among options ("K2 over K3"): what was chosen."""
    if p.head != "choice":
        return None
    return Phrase(_join(p.who.name, "chose"), p.value)


def _condition(p: _Parts) -> Phrase | None:
    """The rules' health and diet slots: allergies, intolerances, foods not eaten."""
    be = present("be", p.who.third)
    if p.head == "allergy" and p.rest:
        return Phrase(_join(p.who.name, be, "allergic to"), _value(p))
    if p.head == "intolerance" and p.rest:
        return Phrase(_join(p.who.name, be, "intolerant to"), _value(p))
    if p.head == "diet" and p.rest[:1] == ("no",):
        does = present("do", p.who.third)
        return Phrase(_join(p.who.name, does, "not eat"), _value(p))
    if p.head == "spend_limit" and p.rest:
        thing = _words(" ".join(p.rest))
        return Phrase(
            _join(p.who.owner_first, "spending limit for", thing, "is"), p.value
        )
    return None


def _reply(p: _Parts) -> Phrase | None:
    """How the user wants to be answered: said as the wish it is."""
    if not p.user or p.rest:
        return None
    if p.head == "reply_language":
        return Phrase("Replies should be in ", p.value)
    if p.head in {"answer_length", "answer_style"}:
        return Phrase("Answers should be ", p.value)
    return None


def _identity(p: _Parts) -> Phrase | None:
    """What someone is: `is.nurse` -> "You are a nurse at the children's hospital"."""
    if p.head != "is" or len(p.rest) != 1:
        return None
    value = _value(p)
    article = _article(p, value)
    if not p.evidence and value[:1].islower():
        article = "an" if value[:1] in "aeiou" else "a"
    return Phrase(_join(p.who.name, _verb(p, ["be"], "be"), article), value)


def _said_verb(p: _Parts) -> Phrase | None:
    """A key led by a verb as the rules spell it: `likes.x`, `uses.x`, `speaks.x`."""
    lemma = verb_lemma(p.head)
    if not p.rest or lemma is None or lemma == p.head:
        return None
    if p.head not in verb_tags(lemma).get("VBZ", ()):
        return None
    objects = [w for part in p.rest for w in part.split("_")]
    if lemma not in PREFERENCE_VERBS and not _holds(p.value, objects):
        return None
    value = _value(p)
    verb = present(lemma, p.who.third)
    return Phrase(_join(p.who.name, verb, _article(p, value)), value)


def _is_relation(word: str) -> bool:
    """A tie to a person or pet, as the parse and the rules key it ("sister")."""
    if word in RELATION_NOUNS:
        return True
    # Imported here: the rules' package imports the offline reply, which says
    # facts with this module.
    from memory_lab.brains.offline.rules.patterns import RELATION_WORD

    return bool(RELATION_WORD.match(word.replace("_", " ")))


def _relation(p: _Parts) -> Phrase | None:
    """A slot of someone the subject knows, or the name of that someone."""
    if len(p.rest) != 1:
        return None
    slot = p.rest[0]
    if slot in ATTRIBUTES:
        owner = f"{p.who.owner_first} {_words(p.head)}'s"
        return Phrase(_join(owner, _words(slot), "is"), p.value)
    named = re.sub(r"[^a-z0-9]+", "_", p.value.lower()).strip("_")
    if _is_relation(p.head) and named.startswith(slot) and p.value[:1].isupper():
        return Phrase("", p.value, f" is {p.who.owner} {_words(p.head)}")
    return None


_VERB_PREP = re.compile(
    rf"(?P<verb>[a-z]+(?:_[a-z]+)*?)_(?P<prep>{'|'.join(PREPOSITIONS)})"
)


def _with_preposition(p: _Parts) -> Phrase | None:
    """A verb or adjective with a preposition, the value its object.

    `live_in.flat`, `allergic_to.peanuts`, and `move_to` with no object word.
    """
    shape = _VERB_PREP.fullmatch(p.head)
    if shape is None or len(p.rest) > 1:
        return None
    first, *particles = shape["verb"].split("_")
    value = _value(p)
    article = _article(p, value)
    # "I'm fond of", or a word that is never a verb ("allergic"); "live" is both.
    adjective = bool(p.evidence and follows_be(p.evidence, first)) or not is_verb(first)
    if adjective:
        verb = _verb(p, ["be"], "be")
        return Phrase(
            _join(p.who.name, verb, first, *particles, shape["prep"], article), value
        )
    verb = _verb(p, [first], first)
    return Phrase(_join(p.who.name, verb, *particles, shape["prep"], article), value)


def _verb_object(p: _Parts) -> Phrase | None:
    """`adopt.puppy`, `go.swim`: a verb whose object the value is."""
    if len(p.rest) != 1 or "_" in p.head or not is_verb(p.head):
        return None
    if not _holds(p.value, p.rest[0].split("_")):
        return None  # `budget.rent` = "900": the rent budget, not budgeting rent
    value = _value(p)
    verb = _verb(p, [p.head], p.head)
    return Phrase(_join(p.who.name, verb, _article(p, value)), value)


def _owned(p: _Parts) -> Phrase | None:
    """A slot's value: `home_city`, `budget.rent` -> "Your rent budget is 900".

    A value that opens with a verb ("chose the ThinkPad") is no thing the slot
    can be, and one the key's own words name would be said twice: both keep
    the fallback.
    """
    if is_verb_form(p.value.split()[0]):
        return _fallback_parts(p)
    if p.rest and _holds(p.value, [w for r in p.rest for w in r.split("_")]):
        return _fallback_parts(p)  # the value would be said twice
    words = [*(_words(r) for r in p.rest), _words(p.head)]
    thing = " ".join(words)
    be = "are" if is_plural(thing.split()[-1]) else "is"
    value = _value(p)
    before = word_before(p.evidence, p.value) if p.evidence else ""
    when = (
        before in {"on", "at"}
        and _calendar(value)
        and words[-1].split()[-1] not in _TIME_NOUNS
    )
    article = "" if when else _article(p, value)
    return Phrase(
        _join(p.who.owner_first, thing, be, before if when else article), value
    )


def _calendar(value: str) -> bool:
    """Whether a value says when: "12 May", "Friday", "the 1st"."""
    first = _WORD.findall(value.lower())[:1]
    return bool(first) and (first[0][0].isdigit() or first[0] in _CALENDAR)


_SHAPES = (
    _kept_whole,
    _reply,
    _action,
    _choice,
    _condition,
    _identity,
    _said_verb,
    _relation,
    _with_preposition,
    _verb_object,
    _owned,
)
