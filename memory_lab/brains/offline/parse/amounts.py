"""Sums of money the speaker states, keyed by what they are for.

Chat states money without the possessive the clause readings need: "rent's
£1,150 a month", "car insurance came in at 840 for the year", "we spend about
200 a month on swimming", "I'm on 42k a year". An amount is a number marked as
money: a currency sign or word, a "k" for thousands, or a rate ("a month",
"per week"). What it is for is read from the parse, in this order: the noun it
is "on" or "for", the thing kept under it or paid off, the subject noun of its
clause, or else the verb and preposition that hold it ("be_on": "I'm on 42k").

It is the speaker's when the clause is theirs (I, we, a subject left out) and
the thing is theirs or nobody's in particular: "my rent", "rent", "the food
shop" we keep under 90. "Her rent", a person ("my brother earns 80k"), a
pronoun ("anything over 800"), a target ("want to get to 4k") and an amount
under "if" or a wish are not read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.clauses import supposed, unrealised
from memory_lab.brains.offline.parse.keys import Reading, key_word, noun_key, slug
from memory_lab.brains.offline.parse.lexicon import PLAN_VERBS, RELATION_NOUNS

CURRENCY_SIGNS = frozenset("£ $ € ¥ ₹".split())
CURRENCY_WORDS = frozenset(
    """quid pounds pound euros euro dollars dollar bucks grand pence cents rupees
    yen francs kronor krona""".split()
)
RATE_NOUNS = frozenset("day week fortnight month year annum hour night".split())
_RATE_WORDS = frozenset({"a", "an", "per", "every", "for"})
_THOUSANDS = re.compile(r"^\d+(?:\.\d+)?k$", re.IGNORECASE)
_FIRST_PERSON = frozenset({"i", "we", "me", "us"})
_OWN = frozenset({"my", "our"})
_FOR_PREPS = frozenset({"on", "for"})
_HOLDING_PREPS = frozenset({"at", "under", "around", "about", "over", "on", "of"})
_HEDGES = frozenset({"if", "unless", "whether"})
_AIMED = PLAN_VERBS - {"try", "decide"}
"""A sum under "want to", "hope to", "aim to" is a target, not yet had."""


def _number(token: Token) -> bool:
    return token.like_num or bool(_THOUSANDS.match(token.text))


def _rate(number: Token) -> Token | None:
    """The "a month", "per year" or "for the year" right after an amount."""
    doc = number.doc
    i = number.i + 1
    if i < len(doc) and doc[i].lower_ in CURRENCY_WORDS:
        i += 1
    if i < len(doc) and doc[i].lower_ in _RATE_WORDS:
        i += 1 + (doc[i].lower_ == "for" and doc[i + 1 : i + 2].text.lower() == "the")
        if i < len(doc) and doc[i].lemma_.lower() in RATE_NOUNS:
            return doc[i]
    return None


def is_amount(token: Token) -> bool:
    """A number the turn marks as money: a sign, a currency word, "k" or a rate.

    A time or a year is no sum ("at 4:30 a day", "2019 a year on") unless a
    sign, a currency word or a "k" says otherwise.
    """
    if not _number(token):
        return False
    doc = token.doc
    before = doc[token.i - 1] if token.i > 0 else None
    after = doc[token.i + 1] if token.i + 1 < len(doc) else None
    money = bool(
        token.ent_type_ == "MONEY"
        or (before is not None and before.text in CURRENCY_SIGNS)
        or (after is not None and after.lower_ in CURRENCY_WORDS)
        or _THOUSANDS.match(token.text)
    )
    if money:
        return True
    # The tagger often calls "900 a month" a date; a year or a clock time is not.
    year = len(token.text) == 4 and token.text[:2] in {"19", "20"}
    return token.ent_type_ != "TIME" and not year and _rate(token) is not None


def _amount_span(number: Token) -> Span:
    """The amount as said: its sign, the number, its currency word and its rate."""
    doc = number.doc
    start, end = number.i, number.i + 1
    if start > 0 and doc[start - 1].text in CURRENCY_SIGNS:
        start -= 1
    if end < len(doc) and doc[end].lower_ in CURRENCY_WORDS:
        end += 1
    rate = _rate(number)
    if rate is not None:
        end = rate.i + 1
    return doc[start:end]


def _clause_verb(token: Token) -> Token | None:
    """The verb (or copula) whose clause holds `token`."""
    node = token
    while node.head.i != node.i:
        node = node.head
        if node.pos_ in {"VERB", "AUX"}:
            return node
    return node if node.pos_ in {"VERB", "AUX"} else None


def _subject(verb: Token) -> Token | None:
    return next((c for c in verb.children if c.dep_ in {"nsubj", "nsubjpass"}), None)


def _speakers_clause(verb: Token) -> bool:
    """Said of the speaker: I or we, or a subject left out ("still paying off ...")."""
    node = verb
    while True:
        subject = _subject(node)
        if subject is not None:
            return subject.lower_ in _FIRST_PERSON
        if node.dep_ not in {"xcomp", "advcl", "conj"} or node.head.i == node.i:
            return node.dep_ == "ROOT" or node.dep_ == "advcl"
        node = node.head


def _owned_by_speaker(noun: Token) -> bool | None:
    """True for "my rent", None for a bare "rent" or "the food shop", False else."""
    for child in noun.children:
        if child.dep_ == "poss":
            return child.lower_ in _OWN
    return None


def _thing(number: Token, verb: Token) -> Token | None:
    """The noun the amount is for, read from the parse (see the module's order)."""
    subject = _subject(verb)
    candidates = [] if subject is None or subject.lower_ in _FIRST_PERSON else [subject]
    # "rent's £1,150": the parser hangs the noun on the number as a possessor.
    candidates += [c for c in number.children if c.dep_ == "poss"]
    for holder, preps in ((number, _FOR_PREPS), (verb, {"on"})):
        for prep in holder.children:
            if prep.dep_ == "prep" and prep.lower_ in preps:
                candidates += [c for c in prep.children if c.dep_ == "pobj"]
    candidates += [c for c in verb.children if c.dep_ == "dobj"]
    for noun in candidates:
        if noun.i == number.i or number.i in {t.i for t in noun.subtree}:
            continue
        if noun.pos_ in {"NOUN", "PROPN"} and noun.lemma_.lower() not in RATE_NOUNS:
            return noun
        if noun.pos_ == "PRON":
            return noun  # "anything over 800": about no noun at all
    return None


def _holder_key(number: Token, verb: Token) -> str:
    """With no noun to name it: the verb and the preposition that hold the amount."""
    prep = number.head if number.dep_ == "pobj" else None
    parts = [key_word(verb)]
    if prep is not None and prep.lower_ in _HOLDING_PREPS:
        parts.append(prep.lower_)
    return "amount." + "_".join(slug(p) for p in parts if slug(p))


def amount_readings(sentence: Span) -> Iterator[Reading]:
    """Each amount of money the speaker states as theirs, with what it is for.

    A number with no mark of money counts only when said of something the
    speaker calls theirs and too big to be an age or a count of days ("my
    take-home is around 2,600", "6,000 on my credit card").
    """
    for token in sentence:
        if not _number(token):
            continue
        verb = _clause_verb(token)
        if verb is None or unrealised(verb) or supposed(verb) or _hedged(verb):
            continue
        if verb.dep_ == "xcomp" and verb.head.lemma_.lower() in _AIMED:
            continue
        thing = _thing(token, verb)
        if thing is not None and (thing.pos_ == "PRON" or _person(thing)):
            continue
        own = None if thing is None else _owned_by_speaker(thing)
        if not is_amount(token) and not (own and _large(token)):
            continue
        if not (_speakers_clause(verb) or own or (thing is not None and own is None)):
            continue
        key = noun_key(thing) if thing is not None else _holder_key(token, verb)
        yield Reading("knowledge", key, _amount_span(token))


def _person(noun: Token) -> bool:
    """Someone, not something: the sum is theirs ("my brother earns 80k").

    A name that does something ("Mark earns 60k") is taken for a person; a
    name that only is something ("Netflix is £11 a month") need not be.
    """
    if noun.lemma_.lower() in RELATION_NOUNS or noun.ent_type_ == "PERSON":
        return True
    return noun.pos_ == "PROPN" and noun.dep_ == "nsubj" and noun.head.lemma_ != "be"


def _large(number: Token) -> bool:
    """Three digits or more: "2,600", "840"; not "7" or "92"."""
    return sum(ch.isdigit() for ch in number.text) >= 3


def _hedged(verb: Token) -> bool:
    """Under "if" or "unless": a sum imagined, not had."""
    node = verb
    while True:
        if any(c.dep_ == "mark" and c.lower_ in _HEDGES for c in node.children):
            return True
        if node.head.i == node.i:
            return False
        node = node.head
