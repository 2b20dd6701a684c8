"""English word forms for saying a fact: verbs agreeing with their subject.

Fact keys hold lemmas ("live_in", "adopt"), and a fact line must say them as a
person would ("Melanie lives in", "you adopted"). The forms come from
LemmInflect's lookup tables, not from rules written here: irregular verbs
("bought", "went", "has") are the words a hand-written rule gets wrong, and the
tables also say whether a word can be a verb at all ("budget" can, "allergy"
cannot). The tables load once, on the first fact said, so nothing here runs on
a turn that shows no facts; LemmInflect imports spaCy (the offline brain's
parser, already a dependency) to register an extension, which costs about a
second in a process that has not loaded it.

Pure word functions; which words of a statement to use is `evidence`'s job.
"""

from __future__ import annotations

import re
from functools import lru_cache

BE_PRESENT = frozenset({"am", "'m", "are", "'re", "is"})
BE_PAST = frozenset({"was", "were"})
HAVE = frozenset({"have", "'ve", "has", "had"})
DO = frozenset({"do", "does", "did"})
MODALS = frozenset(
    {"will", "'ll", "can", "could", "would", "should", "must", "shall", "'d"}
)
AUXILIARIES = BE_PRESENT | BE_PAST | HAVE | DO | MODALS | {"'s", "be", "been", "being"}
"""Words that carry a verb's tense and person before it ("'ve been learning")."""


@lru_cache(maxsize=4096)
def verb_tags(lemma: str) -> dict[str, tuple[str, ...]]:
    """Every form of a verb by Penn tag (`VBD`: "went"); empty for a non-verb."""
    from lemminflect import getAllInflections

    return dict(getAllInflections(lemma, upos="VERB"))


@lru_cache(maxsize=4096)
def verb_lemma(word: str) -> str | None:
    """The verb a word is a form of ("bought" -> "buy"), None if it is none."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word.lower(), upos="VERB").get("VERB")
    return lemmas[0] if lemmas else None


def is_verb(lemma: str) -> bool:
    """Whether a key word can be a verb's dictionary form ("budget", not "allergy")."""
    return bool(verb_tags(lemma))


def forms(lemma: str) -> frozenset[str]:
    """A verb's spellings, the lemma itself and the contractions of "be"."""
    spelled = {form for group in verb_tags(lemma).values() for form in group}
    if lemma == "be":
        spelled |= {"'m", "'re", "'s"}
    return frozenset({lemma, *spelled})


def present(lemma: str, third: bool) -> str:
    """The present tense for a subject: "live"/"lives", "are"/"is", "have"/"has"."""
    if lemma == "be":
        return "is" if third else "are"
    if not third:
        return lemma
    from lemminflect import getInflection

    found = getInflection(lemma, tag="VBZ")
    return found[0] if found else lemma


def tense(word: str, lemma: str) -> str:
    """How a verb form places its verb: "past", "participle", "ing" or "present"."""
    tags = verb_tags(lemma)
    lowered = word.lower()
    if lowered in tags.get("VBG", ()):
        return "ing"
    plain = (
        set(tags.get("VB", ())) | set(tags.get("VBP", ())) | set(tags.get("VBZ", ()))
    )
    if lowered in plain or lowered == lemma:
        return "present"
    if lowered in tags.get("VBD", ()):
        return "past"
    if lowered in tags.get("VBN", ()):
        return "participle"
    return "present"


@lru_cache(maxsize=4096)
def is_plural(noun: str) -> bool:
    """Whether a noun is plural ("parents", "docs"), so it takes "are"."""
    from lemminflect import getAllLemmas

    word = noun.lower()
    lemmas = getAllLemmas(word, upos="NOUN").get("NOUN")
    if lemmas:
        return lemmas[0] != word
    return bool(re.search(r"[^su]s$", word))


@lru_cache(maxsize=4096)
def is_verb_form(word: str) -> bool:
    """Whether a word can only be an inflected verb ("chose", "filed", not "set")."""
    from lemminflect import getAllLemmas

    lemmas = getAllLemmas(word.lower())
    verbs = lemmas.get("VERB", ())
    return bool(verbs) and set(lemmas) <= {"VERB", "AUX"} and word.lower() not in verbs


@lru_cache(maxsize=4096)
def stems(word: str) -> frozenset[str]:
    """A word and the dictionary forms it may be of ("agencies" -> "agency")."""
    from lemminflect import getAllLemmas

    found = {word}
    for lemmas in getAllLemmas(word).values():
        found.update(lemmas)
    return frozenset(found)


def agree(words: list[str], third: bool) -> list[str]:
    """A verb group said of another subject: its first verb made to agree.

    The group is as the statement said it ("'m", "going", "to", "run"; "moved");
    only its finite word changes, so tense and aspect stay as they were said.
    A group with no finite word ("been learning", "learning") gets one.
    """
    if not words:
        return words
    first, rest = words[0].lower(), words[1:]
    after = rest[0].lower() if rest else ""
    if first in BE_PRESENT or (first == "'s" and not _participle(after)):
        return ["is" if third else "are", *rest]
    if first in BE_PAST:
        return ["was" if third else "were", *rest]
    if first in {"have", "'ve", "has"} or (first == "'s" and _participle(after)):
        return ["has" if third else "have", *rest]
    if first == "'d":
        return ["had" if _participle(after) else "would", *rest]
    if first in {"do", "does"}:
        return ["does" if third else "do", *rest]
    if first == "'ll":
        return ["will", *rest]
    if first in HAVE | DO | MODALS:
        return [first, *rest]
    if first == "been":
        return ["has" if third else "have", *words]
    if first in {"be", "being"}:
        return ["is" if third else "are", *rest]
    lemma = verb_lemma(first)
    if lemma is None:
        return words
    said = tense(first, lemma)
    if said == "ing":
        return ["is" if third else "are", *words]
    if said == "participle":
        # A participle with its auxiliary dropped, as chat does ("born in
        # Ljubljana"): said as the passive it almost always is.
        return ["was" if third else "were", *words]
    if said == "past":
        return words
    return [present(lemma, third), *rest]


def _participle(word: str) -> bool:
    """Whether a word after "'s" makes it "has" ("'s been", "'s moved")."""
    lemma = verb_lemma(word) if word else None
    return lemma is not None and word in verb_tags(lemma).get("VBN", ())
