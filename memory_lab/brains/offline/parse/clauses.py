"""Statements in a parse: each asserted clause with the person it is about.

A sentence holds several clauses ("I work as a nurse and my husband Tom is a
pilot"); each verb with a subject is one candidate statement. What is not
asserted is dropped here, from the parse rather than from word lists: questions
(inverted or question-marked), negated verbs, clauses under "if", a modal of
possibility or a wish, and clauses that report what someone else says or wants.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from spacy.tokens import Span, Token

from memory_lab.brains.offline.parse.lexicon import (
    CHANGE_VERBS,
    HYPOTHETICAL_MARKERS,
    HYPOTHETICAL_MODALS,
    RELATION_NOUNS,
    REPORTING_VERBS,
    TIME_NOUNS,
    UNREALISED_ADVERBS,
    UNREALISED_VERBS,
    WEIGHING_VERBS,
    WISHING_VERBS,
)
from memory_lab.brains.offline.parse.names import name_after
from memory_lab.brains.offline.parse.pronouns import PRONOUNS, Referents

FIRST_PERSON = frozenset({"i", "we"})
_CLAUSE_DEPS = frozenset({"ROOT", "conj", "ccomp", "advcl", "xcomp", "relcl", "pcomp"})
_RELATIVE_WHO = frozenset({"who", "that"})
AFTER_LINKS = frozenset({"since", "after"})
"""Prepositions whose "-ing" clause happened before its head's: "since moving
to Leeds I've ...", "after leaving Google I ..."."""
_HEDGING_FRAMES = frozenset({"think", "guess", "believe", "suppose", "reckon"})


@dataclass(frozen=True)
class Statement:
    """One asserted clause.

    Attributes:
        subject: Whom it is about: the speaker's subject, a named third party in
            lower case, or "<speaker>'s <relation>" for an unnamed one.
        verb: The clause's head (a copula's "be" included).
        owner_noun: For "my car is a Golf" or "our budget went up", the noun
            whose value the clause states; None for a person's own clause.
        hedged: Said under "I think" or "probably": kept, less sure.
        resolved: The clause's subject is "it", read as `owner_noun` from
            earlier in the turn ("we changed banks, it's Nordea now").
        ceased: The clause is denied with "anymore" or "no longer": what it
            would state held before and holds no more.
    """

    subject: str
    verb: Token
    owner_noun: Token | None
    hedged: bool
    resolved: bool = False
    ceased: bool = False


def is_question(sentence: Span) -> bool:
    """A question mark, or a clause that opens with an auxiliary or wh-word + aux."""
    text = sentence.text.strip()
    if text.endswith("?"):
        return True
    return _opens_question(list(sentence))


_BREAKS = frozenset({",", ";", ":", "-", "—", "–", "...", "…"})
_TURNS = frozenset({"so", "but"})


def parts(sentence: Span) -> list[list[Token]]:
    """The sentence cut where a comma, a dash or "so"/"but" sets a clause off."""
    cut: list[list[Token]] = [[]]
    for token in sentence:
        if token.text in _BREAKS or (token.lower_ in _TURNS and cut[-1]):
            cut.append([])
        if token.text not in _BREAKS:
            cut[-1].append(token)
    return [p for p in cut if p]


def asked(sentence: Span) -> set[int]:
    """The token indices of the parts of a sentence that ask.

    "I just moved to Cardiff, any tips?" asks only after the comma: the part
    that ends on the question mark asks, as does any part that opens as a
    question ("did you ..., or ..."); a part before them tells.
    """
    pieces = parts(sentence)
    ends_asking = sentence.text.strip().endswith("?")
    indices: set[int] = set()
    for n, part in enumerate(pieces):
        if (ends_asking and n == len(pieces) - 1) or _opens_question(part):
            indices.update(t.i for t in part)
    return indices


def _opens_question(tokens: list[Token]) -> bool:
    """Whether a clause opens with an auxiliary before its subject, or wh + aux."""
    words = [t for t in tokens if not t.is_punct and t.lower_ not in {"so", "and"}]
    if len(words) < 2:
        return False
    first, second = words[0], words[1]
    inverted = (
        first.pos_ == "AUX"
        and first.dep_ in {"aux", "ROOT"}
        and (
            second.dep_ in {"nsubj", "expl"} or second.lower_ in FIRST_PERSON | {"you"}
        )
    )
    wh_aux = first.tag_ in {"WRB", "WP", "WDT"} and second.pos_ == "AUX"
    return inverted or wh_aux


def _vocative(token: Token) -> bool:
    """A name the speaker addresses ("Hey John, I'm ..."), not a subject.

    The small model often parses it as the subject. A name is an address when a
    comma follows it, nothing but a greeting comes before it, and no apposition
    names who it is ("Fiona, my older sister, is a vet" is about Fiona).
    """
    doc = token.doc
    if token.pos_ != "PROPN" or token.i + 1 >= len(doc) or doc[token.i + 1].text != ",":
        return False
    if any(c.dep_ == "appos" for c in token.children):
        return False
    before = doc[token.sent.start : token.i]
    return len(before) <= 2 and all(
        t.pos_ in {"INTJ", "PROPN"} or t.dep_ == "intj" for t in before
    )


def _subject_token(verb: Token) -> Token | None:
    for child in verb.children:
        if child.dep_ in {"nsubj", "nsubjpass"} and not _vocative(child):
            return child
        if child.dep_ == "expl":
            return None
    if verb.dep_ in {"conj", "xcomp"} and verb.head.i != verb.i:
        return _subject_token(verb.head)
    if _participle_clause(verb):
        return _subject_token(verb.head)
    if told_in_passing(verb):
        return _subject_token(verb.head.head)
    return None


def told_in_passing(verb: Token) -> bool:
    """An "-ing" clause after "since" or "after" on a verb: "since moving to Leeds".

    It happened, before its head clause, and has that clause's subject.
    """
    link = verb.head
    return (
        verb.dep_ == "pcomp"
        and verb.tag_ == "VBG"
        and link.lower_ in AFTER_LINKS
        and link.head.pos_ in {"VERB", "AUX"}
        and link.head.i != link.i
    )


def _relative_person(verb: Token, speaker: str) -> str | None:
    """Whom "who" stands for in "my sister, who lives in Oslo": her, if a person.

    "a brother who ..." after the speaker's "have" or "have got" is the
    speaker's brother.
    """
    if not any(
        c.dep_ in {"nsubj", "nsubjpass"} and c.lower_ in _RELATIVE_WHO
        for c in verb.children
    ):
        return None
    noun = verb.head
    person = person_of(noun, speaker)
    if person is not None or noun.lemma_.lower() not in RELATION_NOUNS:
        return person
    owner = noun.head
    if noun.dep_ == "dobj" and owner.lemma_.lower() in {"have", "get"}:
        who = _subject_token(owner)
        if who is not None and who.lower_ in FIRST_PERSON:
            return f"{speaker}'s {noun.lemma_.lower()}"
    return None


def _participle_clause(verb: Token) -> bool:
    """A participle clause with no subject or linking word of its own.

    Its subject is its head clause's: in "raised in Cork, I've been in Leeds
    since" the one raised is "I".
    """
    return (
        verb.dep_ == "advcl"
        and verb.tag_ in {"VBN", "VBG"}
        and verb.head.i != verb.i
        and not any(
            c.dep_ in {"mark", "advmod", "aux", "auxpass"} for c in verb.children
        )
    )


def _possessor(noun: Token) -> str | None:
    for child in noun.children:
        if child.dep_ == "poss" and child.lower_ in {"my", "our"}:
            return child.lower_
    return None


def _bare(noun: Token) -> bool:
    """A singular relation noun with no article or owner, used as a name.

    "mum's a headteacher", "boss is off sick": said like a name, the noun is the
    speaker's own relative; "mums are busy" (plural) and "a friend" are not.
    """
    return noun.tag_ in {"NN", "NNP", "PRP"} and not any(
        c.dep_ in {"det", "poss", "amod", "compound", "nummod"} for c in noun.children
    )


def _modified(noun: Token) -> bool:
    return any(c.dep_ in {"det", "poss", "amod", "compound"} for c in noun.children)


def _moves_speakers_value(verb: Token) -> bool:
    """A change to something of the speaker's, whoever makes it.

    "the landlord raised my rent to 1,300", "the doctor upped my dose to 20mg":
    the new value is the speaker's rent or dose, not the landlord's.
    """
    return verb.lemma_.lower() in CHANGE_VERBS and any(
        c.dep_ == "dobj" and _possessor(c) for c in verb.children
    )


def _name_of(noun: Token) -> str | None:
    """The proper name beside a relation noun: "my husband Tom", "my sister, Ana"."""
    for child in noun.children:
        if child.dep_ in {"appos", "compound", "npadvmod"} and child.pos_ == "PROPN":
            return child.text.lower()
    if noun.dep_ == "compound" and noun.head.pos_ == "PROPN":
        return noun.head.text.lower()
    after = name_after(noun)
    return after.text.lower() if after is not None else None


def _related(name: Token) -> bool:
    """A name the sentence ties to the speaker: "Maya, my cousin", "my niece Priya".

    The small model's entity types miss many first names; a relation noun of
    the speaker's beside the name says it is a person.
    """
    return any(
        c.dep_ in {"appos", "compound", "npadvmod"}
        and c.lemma_.lower() in RELATION_NOUNS
        and _possessor(c)
        for c in name.children
    )


def person_of(noun: Token, speaker: str) -> str | None:
    """Whom a noun phrase names: the speaker, a relative, a named person, or None."""
    joined = [c for c in noun.children if c.dep_ == "conj"]
    if (
        noun.lower_ in FIRST_PERSON
        or any(c.lower_ in FIRST_PERSON for c in joined)
        or (noun.lower_ == "me" and joined)
    ):
        return speaker  # "Alex and I live in Uppsala", "me and Alex" say "we"
    if noun.lemma_.lower() in RELATION_NOUNS and (_possessor(noun) or _bare(noun)):
        name = _name_of(noun)
        return name or f"{speaker}'s {noun.lemma_.lower()}"
    if noun.pos_ == "PROPN" and (noun.ent_type_ == "PERSON" or _related(noun)):
        name = noun.text.lower()
        return speaker if name == speaker else name
    return None


def _negated(verb: Token) -> bool:
    heads = [verb, *(c for c in verb.children if c.dep_ in {"aux", "auxpass"})]
    return (
        any(c.dep_ == "neg" for h in heads for c in h.children)
        or any(
            c.lower_ in {"never", "no"} and c.dep_ in {"neg", "advmod", "det"}
            for c in verb.children
        )
        or _no_longer(verb)
    )


def _no_longer(verb: Token) -> bool:
    """Whether "no longer" is on the verb; the model hangs "no" on "longer"."""
    return any(
        c.lower_ == "longer" and any(g.lower_ == "no" for g in c.children)
        for c in verb.children
    )


def ceased(verb: Token) -> bool:
    """A denial with "anymore" or "no longer": "I don't live in Denver anymore"."""
    if _no_longer(verb):
        return True
    if not _negated(verb):
        return False
    return any(
        c.dep_ == "advmod"
        and (
            c.lower_ == "anymore"
            or (c.lower_ == "more" and any(g.lower_ == "any" for g in c.children))
        )
        for c in verb.children
    )


_TIME_LINKS = frozenset("when while since until till before after once".split())


def past_backdrop(verb: Token) -> bool:
    """A past state that only dates another clause: "when I was eleven".

    "We emigrated when I was eleven" and "a fan since I was a kid" give a time,
    not the speaker's age or what they are now.
    """
    return (
        verb.lemma_ == "be"
        and verb.tag_ == "VBD"
        and verb.dep_ == "advcl"
        and any(
            c.dep_ in {"advmod", "mark"} and c.lower_ in _TIME_LINKS
            for c in verb.children
        )
    )


def supposed(verb: Token) -> bool:
    """Under "if", a wish, "someday", or a modal of possibility."""
    for child in verb.children:
        word = child.lower_
        if child.dep_ in {"aux", "mark", "advmod", "npadvmod", "prep"} and (
            word in HYPOTHETICAL_MODALS or word in HYPOTHETICAL_MARKERS
        ):
            return True
        if child.dep_ == "advcl" and any(
            g.dep_ == "mark" and g.lower_ in {"if", "unless"} for g in child.children
        ):
            return True  # "if all goes well we'll move to Bath": a condition
        if (
            child.dep_ == "npadvmod"
            and word == "day"
            and any(g.lower_ == "one" for g in child.children)
        ):
            return True
    node = verb
    while node.dep_ not in {"ROOT"} and node.head.i != node.i:
        # "I'd buy a boat and sail around Greece": a verb joined to another
        # without a subject or auxiliary of its own shares that one's modal.
        shares = node.dep_ == "conj" and not any(
            c.dep_ in {"aux", "nsubj", "nsubjpass"} for c in node.children
        )
        node = node.head
        if node.lemma_.lower() in HYPOTHETICAL_MARKERS | WEIGHING_VERBS:
            return True
        if shares and any(
            c.dep_ == "aux" and c.lower_ in HYPOTHETICAL_MODALS for c in node.children
        ):
            return True
        # The small model may make the "if" clause the root, with the rest under it.
        if node.dep_ in {"advcl", "ROOT"} and any(
            c.dep_ == "mark" and c.lower_ in HYPOTHETICAL_MARKERS for c in node.children
        ):
            return True
    return False


def _reported(verb: Token, speaker_words: frozenset[str]) -> tuple[bool, bool]:
    """(someone else's words or wishes, the speaker's own hedge) around `verb`."""
    node, hedged = verb, False
    while node.dep_ in {"ccomp", "xcomp", "conj"} and node.head.i != node.i:
        node = node.head
        lemma = node.lemma_.lower()
        if node.dep_ == "conj" or lemma not in REPORTING_VERBS:
            continue
        if _negated(node) or supposed(node):
            return True, hedged  # "I wouldn't say I'm a climber"
        who = _subject_token(node)
        if who is None or who.lower_ not in speaker_words:
            return True, hedged
        if lemma in _HEDGING_FRAMES:
            hedged = True
    return False, hedged


_WILL = frozenset({"will", "'ll", "shall", "wo"})


def future(verb: Token) -> bool:
    """Said of the future: "we'll move to Spain", "I'm going to get married".

    A state said so is planned, not held yet.
    """
    if any(c.dep_ == "aux" and c.lower_ in _WILL for c in verb.children):
        return True
    head = verb.head
    return (
        verb.dep_ == "xcomp"
        and head.lemma_.lower() == "go"
        and head.tag_ == "VBG"
        and any(c.dep_ == "aux" and c.lower_ == "to" for c in verb.children)
    )


def unrealised(verb: Token) -> bool:
    """Under "meant to", "forgot to", "almost", "was going to": it did not happen.

    A complement also takes its head's supposition: "I'd love to visit
    Patagonia" is a wish, as "I'd visit" is.
    """
    if any(
        c.dep_ == "advmod" and c.lower_ in UNREALISED_ADVERBS for c in verb.children
    ):
        return True
    if any(t.lemma_.lower() == "accord" for t in (verb, *verb.children)):
        return True  # "according to my mum I was ...": hearsay
    if verb.lemma_.lower() in WISHING_VERBS and verb.tag_ in {"VBD", "VBN"}:
        return True  # "I've always fancied Rome": a wish told as past is unmet
    if verb.dep_ == "xcomp" and verb.head.i != verb.i:
        head = verb.head
        if supposed(head):
            return True
        # "I've always wanted to visit Peru": a wish told as past is unmet.
        if head.lemma_.lower() in WISHING_VERBS and head.tag_ in {"VBD", "VBN"}:
            return True
        # "I was going to sign up": a past plan, said because it fell through.
        if (
            head.lemma_ == "go"
            and head.tag_ == "VBG"
            and any(
                c.dep_ == "aux" and c.lower_ in {"was", "were"} for c in head.children
            )
        ):
            return True
    node = verb
    while node.dep_ == "xcomp" and node.head.i != node.i:
        node = node.head
        if _negated(node):
            return True  # "we didn't end up buying", "I never got to visit"
        # The small model may read "keep meaning to" with "meaning" as an object.
        frame = [node, *(c for c in node.children if c.dep_ == "dobj" and c.i < verb.i)]
        if any(names_unrealised(t) for t in frame):
            return True
    return False


def names_unrealised(token: Token) -> bool:
    """Whether a word is an unrealised verb ("forgot"; "meaning" read as a noun)."""
    return (
        token.lemma_.lower() in UNREALISED_VERBS
        or token.lower_.removesuffix("ing") in UNREALISED_VERBS
    )


_LEAD_POS = frozenset({"ADV", "AUX", "INTJ", "PART", "PUNCT", "CCONJ"})
_SAID_FORMS = frozenset({"VBD", "VBN", "VBG"})


def said_by_speaker(verb: Token) -> bool:
    """Whether a clause with no subject is the speaker's own ("took a trip to Rome").

    Chat drops the "I": a sentence that opens on a past or progressive verb
    ("booked flights", "been running", "just finished a painting") is the
    speaker's, as is one the tagger reads as a present form with its subject
    left out ("live in Leeds now", tagged VBP). A bare verb ("book a flight",
    tagged VB) is a request and stays out, as do
    clauses whose subject is a clause ("seeing them was awesome") and wishes or
    thanks addressed to the listener ("missed you", "wishing you luck").
    """
    if verb.dep_ == "conj" or _participle_clause(verb):
        return said_by_speaker(verb.head) and verb.tag_ in _SAID_FORMS
    if verb.dep_ != "ROOT" or verb.tag_ not in _SAID_FORMS | {"VBP"}:
        return False
    if any(c.dep_ in {"csubj", "expl", "nsubj", "nsubjpass"} for c in verb.children):
        return False
    if any(c.lower_ == "you" and c.dep_ in {"dobj", "dative"} for c in verb.children):
        return False
    # Participle clauses may come first: "born in Lagos, live in Atlanta now".
    leading = {t.i for c in verb.children if _participle_clause(c) for t in c.subtree}
    before = verb.doc[verb.sent.start : verb.i]
    return all(t.pos_ in _LEAD_POS or t.i in leading for t in before)


def antecedent(pronoun: Token) -> Token | None:
    """The thing "it" names: the nearest earlier subject or object noun of the turn.

    Only a copula's "it" is resolved ("we switched banks, it's Nordea now"), and
    only to a common noun that is not a person or a time, so "it was fun" after
    "I went home" finds nothing.
    """
    if pronoun.lower_ != "it" or pronoun.head.lemma_ != "be":
        return None
    for token in reversed(pronoun.doc[: pronoun.i]):
        if (
            token.pos_ == "NOUN"
            and token.dep_ in {"nsubj", "nsubjpass", "dobj"}
            and token.lemma_.lower() not in RELATION_NOUNS
            and token.lower_ not in TIME_NOUNS
        ):
            return token
    return None


def statements(
    sentence: Span, speaker: str, referents: Referents | None = None
) -> Iterator[Statement]:
    """The asserted clauses of a sentence, each with whom it is about.

    `referents` resolves "he" and "she" to the person last mentioned.
    """
    asking = asked(sentence)
    for verb in sentence:
        if verb.pos_ not in {"VERB", "AUX"} or verb.dep_ not in _CLAUSE_DEPS:
            continue
        if verb.i in asking:
            continue
        if verb.lemma_.lower() in WEIGHING_VERBS:
            continue
        if verb.dep_ == "relcl":
            told = _relative_person(verb, speaker)
            if told is None:
                continue
            yield from _asserted(verb, told, referents)
            continue
        noun = _subject_token(verb)
        if noun is None:
            if said_by_speaker(verb) and not (_negated(verb) or supposed(verb)):
                yield Statement(speaker, verb, None, False)
            continue
        subject = speaker if _moves_speakers_value(verb) else person_of(noun, speaker)
        if subject is None and referents is not None:
            if noun.lower_ in PRONOUNS:
                subject = referents.resolve(noun.lower_)
            elif noun.lower_ in {"mine", "ours"}:
                subject = referents.mine(noun.lower_)
            elif noun.pos_ in {"PROPN", "NOUN"} and not _modified(noun):
                # "kofi" after "my brother Kofi": a person already named.
                subject = referents.named(noun.lower_)
        owner = None
        thing = antecedent(noun) if subject is None else None
        if thing is not None:
            subject, owner = speaker, thing
        elif subject is None:
            if _possessor(noun) is None and not any(
                c.dep_ == "det" and c.lower_ == "the" for c in noun.children
            ):
                continue
            if noun.pos_ not in {"NOUN", "PROPN"}:
                continue
            subject, owner = speaker, noun
        stopped = ceased(verb)
        if (_negated(verb) and not stopped) or supposed(verb) or past_backdrop(verb):
            continue
        reported, hedged = _reported(verb, FIRST_PERSON)
        if reported:
            continue
        if verb.dep_ == "xcomp" and verb.head.lemma_.lower() in REPORTING_VERBS:
            continue
        if unrealised(verb):
            continue
        if referents is not None:
            subject = referents.by_name(subject)
        yield Statement(
            subject, verb, owner, hedged, resolved=thing is not None, ceased=stopped
        )


def _asserted(
    verb: Token, subject: str, referents: Referents | None
) -> Iterator[Statement]:
    """A relative clause's statement about `subject`, unless it is not asserted."""
    if _negated(verb) or supposed(verb) or unrealised(verb):
        return
    if _reported(verb, FIRST_PERSON)[0]:
        return
    if referents is not None:
        subject = referents.by_name(subject)
    yield Statement(subject, verb, None, False)
