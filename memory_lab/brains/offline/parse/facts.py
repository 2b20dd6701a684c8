"""From an asserted clause to (category, key, value): the attribute from head words.

Keys are built from lemmas, so the same attribute said two ways meets on one key:
"my rent budget", "the budget for rent" and "we budget ... for rent" are all
`budget.rent`. A key names one current value ("home_city", "budget.rent",
"appointment.dentist") when the clause states a value of something (a copula
with a possessive subject, a change "to" a value, a dated event, a state frame
such as living or working somewhere), so a later statement supersedes it; an
activity or a liking keeps its object in the key (`adopt.puppy`), so many can
hold at once.

Values are spans of the turn: the object phrase without its articles, fillers,
dates and trailing clauses, so "by the way" or "on Monday" never become values.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TypeGuard

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.clauses import (
    Statement,
    names_unrealised,
    unrealised,
)
from memory_lab.brains.offline.parse.keys import (
    Reading,
    key_word,
    nominal,
    noun_key,
    slug,
)
from memory_lab.brains.offline.parse.lexicon import (
    CHANGE_VERBS,
    CHOOSING_VERBS,
    DIRECTIONS,
    ENDING_VERBS,
    FILLERS,
    GENERAL_NOUNS,
    MEASURE_NOUNS,
    PLAN_VERBS,
    PREFERENCE_VERBS,
    PRONOUN_OBJECTS,
    QUANTIFIERS,
    REACTION_VERBS,
    RELATION_NOUNS,
    REPLACE_VERBS,
    REQUEST_NOUNS,
    STATE_FRAMES,
    TIME_NOUNS,
)
from memory_lab.brains.offline.parse.titles import quoted_span
from memory_lab.brains.offline.rules.vocabulary import value_class

MAX_VALUE_TOKENS = 9
_CUT_DEPS = frozenset(
    {"relcl", "advcl", "ccomp", "punct", "cc", "conj", "appos", "parataxis", "mark"}
)
_EDGE_DEPS = frozenset(
    {"det", "poss", "punct", "cc", "case", "prep", "aux", "neg", "quantmod"}
)
_PLACE_ENTS = frozenset({"GPE", "LOC", "FAC"})
_NAMED_ENTS = frozenset(
    {"GPE", "LOC", "FAC", "ORG", "PERSON", "PRODUCT", "WORK_OF_ART", "EVENT"}
)
_TIME_ENTS = frozenset({"DATE", "TIME"})
_NOT_PLACES = frozenset({"PRODUCT", "WORK_OF_ART", "LANGUAGE", "EVENT"})
_LIGHT_VERBS = frozenset("have book schedule arrange set get make plan".split())
_VAGUE_VERBS = frozenset(
    "have make take get give do find need use see show keep put bring spend".split()
)
"""Verbs that say little on their own: their object must be specific to count."""
_HEALTH_ADJECTIVES = frozenset("allergic intolerant sensitive".split())
_FEELINGS = frozenset(
    """glad happy sad tired excited sorry sure fine good great okay ok busy proud
    thankful grateful nervous scared worried stressed bored lucky ready able sick
    afraid curious interested amazed thrilled stoked pumped blessed honored
    impressed inspired""".split()
)


def place_of(prep: Token) -> Token | None:
    """The place a "in Leeds" / "at Google" phrase names, if it names one."""
    for obj in prep.children:
        if obj.dep_ == "pobj" and obj.ent_type_ in _PLACE_ENTS | {"ORG"}:
            return obj
    return None


def _kept(token: Token, head: Token) -> bool:
    return token.ent_type_ not in _TIME_ENTS or token.i == head.i


def value_span(head: Token) -> Span | None:
    """The phrase `head` heads, as one contiguous span of the turn, trimmed."""
    doc = head.doc
    quoted = quoted_span(head)
    if quoted is not None:
        return quoted
    dropped: set[int] = set()
    for child in head.subtree:
        if child.i != head.i and child.dep_ in _CUT_DEPS:
            dropped.update(t.i for t in child.subtree)
        if child.dep_ == "prep" and child.head.i == head.i and place_of(child):
            dropped.update(t.i for t in child.subtree)
    keep = [t for t in head.subtree if t.i not in dropped and _kept(t, head)]
    if not keep:
        return None

    # Contiguous run around the head only: a cut in the middle ends the span.
    start = end = head.i
    indices = {t.i for t in keep}
    while start - 1 in indices:
        start -= 1
    while end + 1 in indices:
        end += 1
    while start < end and (
        doc[start].dep_ in _EDGE_DEPS or doc[start].lower_ in FILLERS
    ):
        start += 1
    while end > start and (
        doc[end].dep_ in _EDGE_DEPS
        or doc[end].lower_ in FILLERS
        or (doc[end].lower_ in DIRECTIONS and doc[end].pos_ in {"ADV", "ADP"})
        or doc[end].is_punct
        or doc[end].ent_type_ in _TIME_ENTS
    ):
        end -= 1
    if end - start + 1 > MAX_VALUE_TOKENS:
        end = max(head.i, start + MAX_VALUE_TOKENS - 1)
    span = doc[start : end + 1]
    if not any(t.is_alpha or t.like_num for t in span):
        return None
    return span


_PLACE_SLOTS = frozenset({"home_city", "hometown", "birthplace"})


def with_place(head: Token, span: Span) -> Span:
    """`span` with the named place after it that `value_span` cut off.

    "a tiny village outside Cork", "a place at Juilliard": where a common
    noun is belongs to the value when the noun alone names nowhere.
    """
    for prep in head.children:
        if prep.dep_ == "prep" and prep.i >= span.end and place_of(prep):
            end = max(t.i for t in prep.subtree) + 1
            if end - span.start <= MAX_VALUE_TOKENS:
                span = head.doc[span.start : end]
    return span


def _thing(span: Span | None) -> TypeGuard[Span]:
    """Whether a value names something (not "it", "that", a feeling)."""
    if span is None:
        return False
    if _measures(span) and span.root.ent_type_ not in _NAMED_ENTS:
        return False
    if span.root.lemma_.lower() in GENERAL_NOUNS and not _narrowed(span):
        return False
    if span.root.lemma_.lower() in REQUEST_NOUNS:
        return False
    words = [t for t in span if not t.is_punct and not t.is_stop]
    if not words:
        return span.root.like_num or (
            span.root.pos_ == "PROPN" and span.root.lower_ not in PRONOUN_OBJECTS
        )
    return not all(t.lower_ in PRONOUN_OBJECTS for t in words)


def _measures(span: Span) -> bool:
    """Whether a value only says when or how much: "20 minutes", "10 miles", "loads".

    A time, a unit or a quantifier with nothing in the value that says what it
    measures or which it is ("a year of travel", "a nursing degree") names no
    thing.
    """
    root = span.root
    lemma = root.lemma_.lower()
    if lemma not in TIME_NOUNS | MEASURE_NOUNS and root.lower_ not in QUANTIFIERS:
        return False
    return not any(
        c.dep_ in {"prep", "compound"} and span.start <= c.i < span.end
        for c in root.children
    )


def _narrowed(span: Span) -> bool:
    """Whether a general noun is made specific: "love for horses", "part of a team"."""
    root = span.root
    return any(t.pos_ in {"PROPN", "NUM"} for t in span) or any(
        c.dep_ in {"prep", "compound", "acl"} and span.start <= c.i < span.end
        for c in root.children
    )


def _specific(token: Token) -> bool:
    """A named thing, a number, or a noun with a modifier that narrows it."""
    if token.pos_ in {"PROPN", "NUM"} or token.ent_type_ in _NAMED_ENTS:
        return True
    return any(
        c.dep_ in {"compound", "prep", "nummod", "poss", "acl"}
        or (
            c.dep_ == "amod"
            and c.lower_ not in {"many", "few", "some", "more", "other"}
        )
        for c in token.children
    )


def _activity(token: Token) -> bool:
    """A bare activity word, which names itself: "swimming", "climbing"."""
    if any(c.dep_ in {"det", "poss"} for c in token.children):
        return False
    if token.tag_ == "VBG":
        return True
    return token.tag_ == "NN" and token.lower_.endswith("ing") and len(token) > 5


def _bare_noun(token: Token) -> bool:
    return token.pos_ == "NOUN" and not any(
        c.dep_ in {"det", "poss"} for c in token.children
    )


_LATELY = frozenset("lately recently regularly often loads".split())
"""Adverbs that make "I've been <doing>" a habit: "crocheting loads lately"."""


def _kept_up(verb: Token, objects: list[Token]) -> bool:
    """An activity kept up, told by its verb alone: "I've been crocheting loads".

    A perfect progressive with no object but an amount ("loads", "a lot"), and
    a word of how often or how lately; thinking and feeling are no pastime.
    """
    lemma = verb.lemma_.lower()
    if verb.tag_ != "VBG" or lemma in REACTION_VERBS | PLAN_VERBS | {"be", "go"}:
        return False
    auxes = {c.lower_ for c in verb.children if c.dep_ == "aux"}
    if "been" not in auxes:
        return False
    if any(o.lower_ not in QUANTIFIERS for o in objects):
        return False
    if any(c.dep_ in {"xcomp", "ccomp", "acomp"} for c in verb.children):
        return False
    return any(o.lower_ in QUANTIFIERS for o in objects) or any(
        c.dep_ in {"advmod", "npadvmod"} and c.lower_ in _LATELY for c in verb.children
    )


def _given(token: Token) -> bool:
    """A bare noun the speaker owns and names no further: "my notice", "our lease".

    A possessive with nothing else says the listener knows which one, so the
    object alone names nothing to remember ("I handed my notice in"). "The" is
    not enough: "learning the accordion" names an instrument.
    """
    if token.pos_ != "NOUN" or token.ent_type_:
        return False
    children = list(token.children)
    return len(children) == 1 and children[0].dep_ == "poss"


def _named(token: Token) -> bool:
    """A proper name, a number or a named entity: what "it's ..." can be a value of."""
    return token.pos_ in {"PROPN", "NUM"} or token.ent_type_ in _NAMED_ENTS


def _conjoined(token: Token) -> list[Token]:
    out = [token]
    for child in token.children:
        if child.dep_ == "conj":
            out.extend(_conjoined(child))
    return out


def _preps(verb: Token) -> Iterator[tuple[str, Token]]:
    """(preposition, object) pairs of a verb, also behind a particle ("up to")."""
    for child in verb.children:
        if child.dep_ == "prep":
            for obj in child.children:
                if obj.dep_ == "pobj":
                    yield child.lower_, obj
        if child.dep_ in {"prt", "advmod"}:
            for grand in child.children:
                if grand.dep_ == "pobj" and child.dep_ == "prt":
                    yield child.lower_, grand
                if grand.dep_ == "prep":
                    for obj in grand.children:
                        if obj.dep_ == "pobj":
                            yield grand.lower_, obj


def _dated(verb: Token) -> Span | None:
    """The calendar date a verb is said on ("on 2 May", "next Friday").

    A bare "today" or "tonight" names no date the value could keep.
    """
    for ent in verb.doc.ents:
        if not any(t.like_num or t.pos_ == "PROPN" for t in ent):
            continue
        if ent.label_ == "DATE" and ent.root.head in (verb, *verb.children):
            return ent
        if ent.label_ == "DATE" and ent.root.head.head.i == verb.i:
            return ent
    return None


def _change_value(verb: Token) -> Span | None:
    """The new value of a change: "went up to 380", "got pushed to the 14th"."""
    for prep, obj in _preps(verb):
        if prep == "to":
            if any(t.ent_type_ in _TIME_ENTS for t in obj.subtree):
                return _when(obj)
            return value_span(obj)
    for child in verb.subtree:
        if child.like_num and any(
            g.lower_ == "to" and g.dep_ in {"quantmod", "prep"} for g in child.children
        ):
            return value_span(child)
    return None


def _when(token: Token) -> Span:
    """The whole time phrase `token` heads ("Thursday evenings", "the 9th")."""
    start = min(t.i for t in token.subtree)
    end = max(t.i for t in token.subtree)
    return token.doc[start : end + 1]


def _owner_reading(statement: Statement) -> Iterator[Reading]:
    """A value of something the speaker has: "my car is a Golf", "the budget rose"."""
    noun, verb = statement.owner_noun, statement.verb
    assert noun is not None
    key = noun_key(noun)
    owned = any(c.dep_ == "poss" for c in noun.children)
    if verb.lemma_ == "be" and (owned or statement.resolved):
        for child in verb.children:
            if statement.resolved and not _named(child):
                continue  # "it was a great experience" names nothing
            if child.dep_ in {"attr", "oprd"} and (
                nominal(child) or child.pos_ == "NUM"
            ):
                span = value_span(child)
                if _thing(span):
                    yield Reading("knowledge", key, span)
                    return
        return
    if verb.lemma_.lower() in CHANGE_VERBS:
        span = _change_value(verb)
        if _thing(span):
            yield Reading("knowledge", key, span)


def _numbered_head(noun: Token) -> tuple[Token, int]:
    """The head of "a year 5 teacher", "a band 6 nurse", and where its phrase starts.

    The parser reads the noun before the number as the head and the rest as an
    apposition ("year", then "5 teacher"); with no comma between, the phrase is
    one noun phrase whose head is the last noun.
    """
    doc = noun.doc
    for child in noun.children:
        if (
            child.dep_ == "appos"
            and child.pos_ == "NOUN"
            and child.i == noun.i + 2
            and doc[noun.i + 1].like_num
            and doc[noun.i + 1].head.i == child.i
        ):
            return child, noun.i
    return noun, -1


def _copula_readings(statement: Statement) -> Iterator[Reading]:
    verb = statement.verb
    for child in verb.children:
        if child.dep_ == "attr" and nominal(child):
            kind = any(c.lower_ in {"a", "an"} for c in child.children)
            if not (kind or _specific(child)):
                continue  # "I'm the one", "it was fun": no class, no thing
            child, start = _numbered_head(child)
            span = value_span(child)
            if _thing(span):
                if 0 <= start < span.start:
                    span = child.doc[start : span.end]
                category = "knowledge" if child.pos_ == "PROPN" else "identity"
                yield Reading(category, f"is.{slug(key_word(child))}", span)
        elif child.dep_ == "acomp":
            adjective = child.lemma_.lower()
            preps = list(_preps(child)) + [
                ("to", c)
                for c in child.children
                if c.dep_ == "xcomp"
                and any(a.lower_ == "to" for a in c.children)
                and adjective in _HEALTH_ADJECTIVES
            ]
            for prep, obj in preps:
                for item in _conjoined(obj):
                    span = value_span(item)
                    if _thing(span):
                        category = (
                            "constraint"
                            if adjective in _HEALTH_ADJECTIVES
                            else "preference"
                            if adjective in {"fond", "into", "keen"}
                            else "knowledge"
                        )
                        yield Reading(
                            category,
                            f"{slug(adjective)}_{prep}.{slug(key_word(item))}",
                            span,
                        )
    for prep, obj in _preps(verb):
        if prep in {"from", "in"} and located(obj):
            span = value_span(obj)
            # A named place always has a word to read; a None value would fail
            # where the reading is used.
            assert span is not None
            key = "hometown" if prep == "from" else "home_city"
            yield Reading("identity", key, span)


def located(obj: Token) -> bool:
    """Whether a person said to be "in" or "from" `obj` is placed by it.

    A place's entity type, or a proper name the model took for a person's
    ("I'm still in Kraków"): no one is in a person.
    """
    if obj.ent_type_ in {"GPE", "LOC", "NORP"}:
        return True
    return (
        obj.pos_ == "PROPN" and obj.ent_type_ in {"PERSON", ""} and names_a_place(obj)
    )


def names_a_place(obj: Token) -> bool:
    """A proper name that is not a product ("Porto", "a town called Houten").

    The small model's entity types are unreliable for places (it has called
    Porto a person and Neovim a city), so a name counts unless it is tagged as a
    product or work, or the value classes know it as a tool ("VS Code").
    """
    names = [t for t in obj.subtree if t.pos_ == "PROPN"]
    if not names:
        return False  # "the night shift", "a new flat"
    if any(t.ent_type_ in _NOT_PLACES for t in names):
        return False
    return value_class(" ".join(t.text for t in names)) is None


def _frame(verb: Token, prep: str, obj: Token) -> str | None:
    """The slot a state frame fills, if its object is the right kind of thing.

    One moves to a place ("to Lisbon", not "to VS Code") and works for an
    organisation, not a person.
    """
    slot = STATE_FRAMES.get((verb.lemma_.lower(), prep))
    if slot in _PLACE_SLOTS and not names_a_place(obj):
        return None
    if slot == "employer" and (
        obj.ent_type_ == "PERSON" or obj.lemma_.lower() in RELATION_NOUNS
    ):
        return None
    return slot


def _measured(token: Token) -> Token:
    """The thing a quantifier measures: "most of the morning" -> "morning"."""
    if token.lower_ not in QUANTIFIERS:
        return token
    for prep in token.children:
        if prep.dep_ == "prep" and prep.lower_ == "of":
            for obj in prep.children:
                if obj.dep_ == "pobj":
                    return obj
    return token


def _with_manner(verb: Token, item: Token) -> Span | None:
    """A liking with its manner: "I prefer reports as Excel", "coffee black"."""
    span = value_span(item)
    if span is None:
        return None
    for child in verb.children:
        if child.i <= item.i:
            continue
        if child.dep_ == "oprd":
            tail = value_span(child)
        elif child.dep_ == "prep" and child.lower_ in {"as", "in", "with"}:
            objs = [o for o in child.children if o.dep_ == "pobj"]
            tail = value_span(objs[0]) if objs else None
        else:
            continue
        if tail is not None and tail.end - span.start <= MAX_VALUE_TOKENS:
            return item.doc[span.start : tail.end]
    return span


def _verb_readings(statement: Statement) -> Iterator[Reading]:
    verb = statement.verb
    lemma = verb.lemma_.lower()
    if lemma in PLAN_VERBS | {"start", "begin", "keep", "continue", "go"} and any(
        c.dep_ == "xcomp" for c in verb.children
    ):
        # "I plan to run ...", "I started learning Spanish": the complement says
        # what; it is read as its own clause with the same subject.
        complements = [
            c for c in verb.children if c.dep_ == "xcomp" and not unrealised(c)
        ]
        for comp in complements:
            inner = Statement(statement.subject, comp, None, statement.hedged)
            found = list(_verb_readings(inner))
            if found:
                yield from found
            elif comp.pos_ == "VERB" and lemma in {"go", "start", "begin"}:
                span = value_span(comp)
                if _thing(span):
                    yield Reading("knowledge", f"{lemma}.{slug(comp.lemma_)}", span)
        return
    category = "preference" if lemma in PREFERENCE_VERBS else "knowledge"
    objects = [c for c in verb.children if c.dep_ in {"dobj", "dative"}]
    if _kept_up(verb, objects):
        span = verb.doc[verb.i : verb.i + 1]
        yield Reading("knowledge", f"do.{slug(verb.lower_)}", span)
    date = _dated(verb)
    if lemma in CHANGE_VERBS and objects:
        # "I moved my main account to Chase": the object's value changes.
        moved = _change_value(verb)
        if _thing(moved) and objects[0].pos_ in {"NOUN", "PROPN"}:
            yield Reading("knowledge", noun_key(objects[0]), moved)
            return
        if lemma in REPLACE_VERBS:
            return  # "we switched banks": which bank now is not said here
    for obj in objects:
        items = list(map(_measured, _conjoined(obj)))
        # A list with an activity in it is a list of activities: "gardening,
        # pottery and chess" names chess as much as gardening.
        pastimes = any(_activity(i) for i in items)
        for item in items:
            if item.lower_ in PRONOUN_OBJECTS or item.pos_ == "PRON":
                continue
            if names_unrealised(item):
                continue
            if lemma in REACTION_VERBS and lemma not in PREFERENCE_VERBS:
                if item.pos_ != "PROPN" and item.ent_type_ not in _NAMED_ENTS:
                    continue
            if (
                lemma in _VAGUE_VERBS | PREFERENCE_VERBS
                and not _specific(item)
                and not (
                    _activity(item)
                    # "doing pilates", "I do karate": "do" with a bare noun
                    # is an activity, as a list of activities is.
                    or ((pastimes or lemma == "do") and _bare_noun(item))
                )
            ):
                continue
            if _given(item) and lemma not in ENDING_VERBS | PREFERENCE_VERBS:
                # "I sold my motorbike" still says there was one; "I like my
                # eggs with hot sauce" says how.
                continue
            if lemma in _LIGHT_VERBS and date is not None and item.pos_ == "NOUN":
                yield Reading("knowledge", noun_key(item), date)
                continue
            span = (
                _with_manner(verb, item)
                if lemma in PREFERENCE_VERBS
                else value_span(item)
            )
            if not _thing(span):
                continue
            if lemma == "join" and item.ent_type_ == "ORG":
                yield Reading("identity", "employer", span)
                continue
            key = f"{slug(lemma)}.{slug(key_word(item))}"
            if lemma in PREFERENCE_VERBS:
                key = f"likes.{slug(key_word(item))}"
            yield Reading(category, key, span)
    if lemma in PREFERENCE_VERBS:
        for comp in verb.children:
            if comp.dep_ == "xcomp" and comp.pos_ == "VERB":
                span = value_span(comp)
                if _thing(span):
                    yield Reading("preference", f"likes.{slug(comp.lemma_)}", span)
    has_object = bool(objects)
    places = [
        (p.lower_, place)
        for obj in objects
        for p in obj.children
        if p.dep_ == "prep" and (place := place_of(p)) is not None
    ]
    # "I live with my boyfriend in Derby": the place hangs on the companion.
    places += [
        (p.lower_, place)
        for _, obj in _preps(verb)
        for p in obj.children
        if p.dep_ == "prep"
        and (place := place_of(p)) is not None
        and _frame(verb, p.lower_, place) is not None
    ]
    for prep, obj in [*_preps(verb), *places]:
        if obj.ent_type_ in _TIME_ENTS or obj.lower_ in PRONOUN_OBJECTS:
            continue
        if prep == "between" and lemma in CHOOSING_VERBS:
            continue  # options still open, not what was chosen
        if obj.pos_ == "PRON":
            continue
        frame = _frame(verb, prep, obj)
        if (
            has_object
            and frame is None
            and (obj.ent_type_ not in _NAMED_ENTS or prep == "for")
        ):
            continue
        for item in _conjoined(obj):
            span = value_span(item)
            if not _thing(span):
                continue
            if frame is not None:
                category = "identity"
                if frame in _PLACE_SLOTS and not any(t.pos_ == "PROPN" for t in span):
                    span = with_place(item, span)  # "a tiny village outside Cork"
                yield Reading(category, frame, span)
            elif lemma in CHANGE_VERBS and prep == "to":
                yield Reading(category, f"{slug(lemma)}_to", span)
            elif lemma not in REACTION_VERBS:
                yield Reading(
                    category, f"{slug(lemma)}_{slug(prep)}.{slug(key_word(item))}", span
                )


def readings(statement: Statement) -> list[Reading]:
    """Every fact one asserted clause states (often none)."""
    if statement.owner_noun is not None:
        return list(_owner_reading(statement))
    if statement.verb.lemma_ == "be":
        return list(_copula_readings(statement))
    return list(_verb_readings(statement))
