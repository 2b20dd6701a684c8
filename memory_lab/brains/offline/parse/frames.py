"""Readings of common frames the verb and copula readers leave out.

- "I'm into bouldering": the copula with "into" is a liking.
- Ages: "I'm 34", "I'm 41 years old", "my son turned seven".
- A role at a place of work in one clause: "I'm a line cook at Marrow" gives
  the role (read by the copula reader) and the employer.
- Adjectives of belonging: "I'm vegetarian", "we're both Catalan", a class
  the person is in rather than a mood ("I'm tired" stays out).
- What a person is on: "I'm on sertraline", "she's on 20mg of citalopram"
  (a medicine or a regimen), keyed by what is taken so a new dose replaces
  the old.
- Names given by a verb: "my daughter is called Ines", "we named the dog
  Biscuit", "my cat's name is Miso" are the speaker's relation fact, valued by
  the name, as "my daughter Ines" is.

Each is read from the parse's structure; the small model's entity types are
unreliable for names ("Marrow" tagged a date), so a proper noun is a name.
"""

from __future__ import annotations

from collections.abc import Iterator

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.aims import aim_readings
from memory_lab.brains.offline.parse.clauses import (
    Statement,
    is_question,
    supposed,
    unrealised,
)
from memory_lab.brains.offline.parse.conditions import condition_readings
from memory_lab.brains.offline.parse.facts import Reading, key_word, slug, value_span
from memory_lab.brains.offline.parse.keys import nominal
from memory_lab.brains.offline.parse.lexicon import (
    MEASURE_NOUNS,
    RELATION_NOUNS,
    TIME_NOUNS,
)
from memory_lab.brains.offline.parse.statuses import status_readings
from memory_lab.brains.offline.rules.vocabulary import value_class

AGE_VERBS = frozenset({"turn", "be"})
OLDEST_AGE = 120
"""A larger number after "I'm" is a score or a count ("I'm about 1400 on
lichess"), not an age."""
NAMING_VERBS = frozenset({"call", "name"})
_FEELING_SUFFIXES = ("ed", "ing", "ful", "ous", "y")
"""Gradable adjectives of mood or manner ("tired", "boring", "hopeful",
"nervous", "sleepy"): not a class a person belongs to."""
_CLASS_SUFFIXES = ("ic", "iac")
"""Adjectives of a lasting class ("epileptic", "dyslexic", "coeliac")."""
_EVALUATIVE_IC = frozenset(
    """ecstatic enthusiastic optimistic pessimistic sarcastic frantic dramatic
    romantic energetic sympathetic apologetic nostalgic realistic idealistic
    hectic chaotic fantastic terrific iconic basic classic epic tragic magic
    heroic ironic poetic pathetic emphatic artistic athletic academic specific
    generic public organic electric automatic historic scientific strategic
    diplomatic pragmatic problematic traumatic toxic manic""".split()
)
"""The "-ic" adjectives that say how someone feels or seems, not what they are."""


def _classifying(word: str) -> bool:
    return word.endswith(_CLASS_SUFFIXES) and word not in _EVALUATIVE_IC


_PETS = frozenset("dog cat puppy kitten pet rabbit hamster horse parrot".split())
_PEOPLE = frozenset(
    "person people man woman guy girl boy lady bloke chap dude fella someone".split()
)
"""Nouns for a person met: "met a girl at work, she's called Amy" names no pet."""
_ANIMAL_PRONOUNS = frozenset({"him", "her", "it", "his", "its", "he", "she"})


def age_readings(statement: Statement) -> Iterator[Reading]:
    """A person's age: a bare number after "be", "N years old", "turned N"."""
    verb = statement.verb
    if statement.owner_noun is not None or verb.lemma_.lower() not in AGE_VERBS:
        return
    for child in verb.children:
        if child.dep_ in {"attr", "dobj", "acomp"} and child.like_num:
            if any(c.dep_ == "det" for c in child.children):
                return  # "the only one" counts no years
            if child.text.isdigit() and int(child.text) > OLDEST_AGE:
                return
            yield Reading("identity", "age", verb.doc[child.i : child.i + 1])
            return
        if child.dep_ == "acomp" and child.lower_ == "old":
            for years in child.children:
                numbers = [n for n in years.children if n.like_num]
                if years.lemma_.lower() == "year" and numbers:
                    yield Reading(
                        "identity", "age", verb.doc[numbers[0].i : numbers[0].i + 1]
                    )
                    return


def liking_readings(statement: Statement) -> Iterator[Reading]:
    """A liking: "I'm (really, more) into X"."""
    verb = statement.verb
    if statement.owner_noun is not None or verb.lemma_ != "be":
        return
    for prep in verb.children:
        if prep.dep_ != "prep" or prep.lower_ != "into":
            continue
        for obj in prep.children:
            if obj.dep_ == "pobj" and obj.pos_ in {"NOUN", "PROPN", "VERB"}:
                span = value_span(obj)
                if span is not None:
                    yield Reading("preference", f"likes.{slug(key_word(obj))}", span)


def employer_readings(statement: Statement) -> Iterator[Reading]:
    """The employer in "I'm a nurse at St Luke's" / "a developer for Finch"."""
    verb = statement.verb
    if statement.owner_noun is not None or verb.lemma_ != "be":
        return
    for role in verb.children:
        if role.dep_ != "attr" or not nominal(role) or role.pos_ == "PROPN":
            continue
        for prep in role.children:
            if prep.dep_ != "prep" or prep.lower_ not in {"at", "for", "with"}:
                continue
            for obj in prep.children:
                if obj.dep_ == "pobj" and obj.pos_ == "PROPN":
                    span = value_span(obj)
                    if span is not None:
                        yield Reading("identity", "employer", span)


def class_readings(statement: Statement) -> Iterator[Reading]:
    """A class the person is in: "I'm vegetarian", "we're Catalan", "he's diabetic"."""
    verb = statement.verb
    if statement.owner_noun is not None or verb.lemma_ != "be":
        return
    for child in verb.children:
        if child.dep_ not in {"acomp", "attr"} or any(
            c.dep_ in {"prep", "xcomp", "advmod", "npadvmod"} for c in child.children
        ):
            continue
        word = child.lower_
        belongs = child.ent_type_ == "NORP" or (
            child.pos_ == "ADJ"
            and child.tag_ == "JJ"
            and not word.endswith(_FEELING_SUFFIXES)
            and (value_class(word) == "diet" or _classifying(word))
        )
        # "I'm vegan": a class noun said bare, as an adjective is.
        belongs = belongs or (
            child.pos_ == "NOUN"
            and value_class(word) == "diet"
            and not any(c.dep_ in {"det", "poss"} for c in child.children)
        )
        if not belongs:
            continue
        key = "diet" if value_class(word) == "diet" else f"is.{slug(word)}"
        yield Reading("identity", key, verb.doc[child.i : child.i + 1])


_PASSING_STATES = frozenset(
    """holiday leave call board time track fire strike duty break shift way top
    hold""".split()
)
"""Nouns that make "on X" a passing state or an idiom ("on holiday", "on call",
"on track"), not something a person takes."""


def _taken(obj: Token) -> Token | None:
    """What "on `obj`" says is taken: the drug of a dose ("10mg of X"), else `obj`."""
    if any(c.dep_ == "nummod" for c in obj.children):
        for prep in obj.children:
            if prep.dep_ == "prep" and prep.lower_ == "of":
                for drug in prep.children:
                    if drug.dep_ == "pobj":
                        return drug
        return None  # "on 10 hours a week" names no thing taken
    return obj


def taken_readings(statement: Statement) -> Iterator[Reading]:
    """What a person is on: "I'm on sertraline", "on 10mg of citalopram".

    Only a bare name or noun counts: "on the train" and "on my way" have a
    determiner, and dates, times and units are never taken.
    """
    verb = statement.verb
    if statement.owner_noun is not None or verb.lemma_ != "be":
        return
    yield from _on_readings(verb)


PLACING_VERBS = frozenset("put start keep switch move".split())
"""Verbs that place their object on something: "the doctor put me on statins"."""


def placed_readings(sentence: Span) -> Iterator[Reading]:
    """What the speaker was put on: "the GP started me on insulin".

    The one placed is the object, so the reading is the speaker's whoever the
    subject is; a clause about anyone else ("put him on antibiotics"), a denial
    or a supposition ("if they put me on statins") is not.
    """
    if is_question(sentence):
        return
    for verb in sentence:
        if verb.pos_ != "VERB" or verb.lemma_.lower() not in PLACING_VERBS:
            continue
        if not any(
            c.dep_ == "dobj" and c.lower_ in {"me", "us"} for c in verb.children
        ):
            continue
        if _denied(verb) or supposed(verb) or unrealised(verb):
            continue
        yield from _on_readings(verb)


def made_readings(sentence: Span) -> Iterator[Reading]:
    """What a fact makes the speaker: "that makes me a pescatarian now".

    "make" with "me" and a noun after it is a small clause, "I am a
    pescatarian"; "that doesn't make me a bad person" denies it.
    """
    if is_question(sentence):
        return
    for verb in sentence:
        if verb.pos_ != "VERB" or verb.lemma_.lower() != "make" or _denied(verb):
            continue
        if supposed(verb) or unrealised(verb):
            continue
        for kind in verb.children:
            if kind.dep_ not in {"ccomp", "oprd", "xcomp"} or not nominal(kind):
                continue
            me = [c for c in kind.children if c.dep_ == "nsubj" and c.lower_ == "me"]
            article = [c for c in kind.children if c.lower_ in {"a", "an"}]
            if not me or not article:
                continue
            span = value_span(kind)
            if span is None:
                continue
            span = kind.doc[article[0].i + 1 : span.end]
            word = kind.lower_
            key = "diet" if value_class(word) == "diet" else f"is.{slug(word)}"
            yield Reading("identity", key, span)


def _denied(verb: Token) -> bool:
    heads = [verb, *(c for c in verb.children if c.dep_ in {"aux", "auxpass"})]
    return any(c.dep_ == "neg" for h in heads for c in h.children)


def _on_readings(verb: Token) -> Iterator[Reading]:
    for prep in verb.children:
        if prep.dep_ != "prep" or prep.lower_ != "on":
            continue
        for obj in prep.children:
            if (
                obj.dep_ != "pobj"
                or obj.pos_ not in {"NOUN", "PROPN"}
                or obj.ent_type_ in {"DATE", "TIME"}
                or any(c.dep_ in {"det", "poss"} for c in obj.children)
            ):
                continue
            drug = _taken(obj)
            if drug is None or any(c.dep_ in {"det", "poss"} for c in drug.children):
                continue
            if drug.lemma_.lower() in _PASSING_STATES | TIME_NOUNS | MEASURE_NOUNS:
                continue
            span = value_span(obj)
            if span is None:
                continue
            if drug is not obj:
                span = obj.doc[span.start : max(span.end, drug.i + 1)]
            yield Reading("constraint", slug(key_word(drug)), span)


def frame_readings(statement: Statement) -> list[Reading]:
    """Every reading of this module's frames for one asserted clause."""
    return [
        *age_readings(statement),
        *liking_readings(statement),
        *employer_readings(statement),
        *class_readings(statement),
        *taken_readings(statement),
        *condition_readings(statement),
        *aim_readings(statement),
        *status_readings(statement),
    ]


def _relation_of(noun: Token, holder: Token | None = None) -> str | None:
    """The relation or pet a possessed noun names ("my daughter", "our dog").

    The possessive may hang on `holder` instead: the model reads "our puppy
    Pickle" as a name with "our" and "puppy" both under it.
    """
    lemma = noun.lemma_.lower()
    if lemma not in RELATION_NOUNS | _PETS:
        return None
    owners = [*noun.children, *(holder.children if holder is not None else ())]
    owned = any(
        (c.dep_ == "poss" and c.lower_ in {"my", "our"})
        or (c.dep_ == "det" and c.lower_ == "the")
        for c in owners
    )
    return lemma if owned else None


def _names_subject(verb: Token) -> bool:
    """A "be" whose subject is a name: "her name is ..."."""
    return verb.lemma_ == "be" and any(
        c.dep_ == "nsubj" and c.lemma_.lower() == "name" for c in verb.children
    )


def _referred(pronoun: Token) -> str | None:
    """The animal "him", "her" or "it" stands for: the last thing the speaker got.

    "we adopted a greyhound, her name's Pepper", "got the kids a hamster, they
    named him Nugget": the name goes to the last direct object before it in the
    turn, unless that is a person, who would be named as one.
    """
    if pronoun.lower_ not in _ANIMAL_PRONOUNS:
        return None
    before = [t for t in pronoun.doc[: pronoun.i] if t.dep_ == "dobj"]
    if not before or before[-1].pos_ != "NOUN":
        return None
    lemma = before[-1].lemma_.lower()
    return None if lemma in RELATION_NOUNS | _PEOPLE else lemma


def named_by_verb(sentence: Span) -> Iterator[tuple[str, Span]]:
    """(relation, name) for a name given by a verb or by "name is".

    "my daughter is called Ines", "we named the dog Biscuit", "my cat's name
    is Miso". The relation is the speaker's fact, as in "my daughter Ines".
    """
    for verb in sentence:
        lemma = verb.lemma_.lower()
        names = [
            c
            for c in verb.children
            if c.pos_ == "PROPN"
            and (
                c.dep_ in {"oprd", "attr"}
                or (c.dep_ == "dobj" and lemma in NAMING_VERBS)
            )
        ]
        if not names and (lemma in NAMING_VERBS or _names_subject(verb)):
            # "calling her Juniper", "named it Dumpling", "his name is Bramble":
            # the model may take a name for a noun, a verb or an adjective.
            # A name typed in lower case after "called" is still the name
            # ("my cat is called biscuit").
            names = [
                c
                for c in verb.children
                if c.dep_ in {"dobj", "oprd", "attr", "acomp"}
                and (c.text.istitle() or (c.dep_ == "oprd" and c.is_alpha))
                and c.i > sentence.start
            ]
        if not names:
            continue
        name = names[0]
        span = sentence.doc[name.i : name.i + 1]
        if lemma in NAMING_VERBS:
            named = [
                c for c in (*verb.children, *name.children) if c.dep_ != "compound"
            ]
            for child in named:
                if child.dep_ in {"nsubjpass", "nsubj", "dobj", "poss"} and (
                    relation := _relation_of(child) or _referred(child)
                ):
                    yield relation, span
            # "we named the dog Biscuit": the model hangs the noun on the name.
            for child in name.children:
                if child.dep_ == "compound" and (relation := _relation_of(child, name)):
                    yield relation, span
        elif lemma == "be":
            subjects = [
                c
                for c in verb.children
                if c.dep_ == "nsubj" and c.lemma_.lower() == "name"
            ]
            for subject in subjects:
                for owner in subject.children:
                    if owner.dep_ == "poss" and (
                        relation := _relation_of(owner) or _referred(owner)
                    ):
                        yield relation, span
