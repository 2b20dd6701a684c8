"""What a fact's evidence sentence says beyond its key: tense, article, person.

A key keeps the lemma ("adopt.puppy") and the value drops its article ("puppy"),
so the row alone cannot tell "you adopted a puppy" from "you adopt puppy". The
sentence the fact was read from still can: the verb as it was said, with its
auxiliaries ("'ve been learning", "'m going to run"), and the word before the
value ("a", "the", "my"). Only those words are taken from it; the value is
always the stored one. Plain string work over the stored sentence: the turn
path never parses.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from memory_lab.brains.offline.parse.lexicon import FILLERS, PLAN_VERBS
from memory_lab.facts.inflection import AUXILIARIES, forms, verb_lemma

_TOKEN = re.compile(
    r"[A-Za-z]+(?=')|'(?:m|re|ve|s|d|ll)\b|n't\b|[A-Za-z]+(?:-[A-Za-z]+)*|\d[\d.,]*|\S"
)
GROUP_WORDS = 6
"""Longest verb group taken from a statement; longer ones are not a verb group."""
_GOVERNORS = PLAN_VERBS | {"start", "begin", "keep", "continue", "go", "use"}
"""Verbs whose complement a fact can be keyed by ("started learning", "used to
play"): said with the fact's verb, they are part of what the statement said."""
_ARTICLES = frozenset({"a", "an", "the", "some", "another"})
_POINTING = frozenset({"this", "that", "these", "those"})
_OWN = frozenset({"my", "our"})
_OTHERS = frozenset({"his", "her", "their", "its"})
_SKIPPED = FILLERS | frozenset(
    "usually always often sometimes ever quite very rather fairly super".split()
)
"""Words between a verb and what carries its tense that say how, not what."""
_SUBJECTS = frozenset({"i", "we", "you", "he", "she", "they", "it"})


@dataclass(frozen=True)
class Word:
    """One word of the evidence and where it starts."""

    text: str
    start: int

    @property
    def lower(self) -> str:
        """The word in lower case, as word lists hold it."""
        return self.text.lower()


def words(sentence: str) -> list[Word]:
    """The sentence's words, contractions split off ("I'm" -> "I", "'m")."""
    text = sentence.replace("\u2019", "'")
    return [Word(m.group(), m.start()) for m in _TOKEN.finditer(text)]


def value_at(sentence: str, value: str) -> int:
    """Where the value starts in the sentence, -1 when it is not there."""
    text = sentence.replace("\u2019", "'").lower()
    return text.find(value.replace("\u2019", "'").lower()) if value else -1


def verb_group(sentence: str, lemmas: Iterable[str], value: str) -> list[str] | None:
    """The verb of `lemmas` as the sentence said it, with what carries its tense.

    The nearest form of the verb before the value (before the sentence's end if
    the value is not in it), then, walking back, its auxiliaries and a verb it
    is the complement of ("want to", "started"), skipping fillers ("really").
    None when the sentence does not say the verb.
    """
    said = words(sentence)
    end = value_at(sentence, value)
    limit = end if end >= 0 else len(sentence) + 1
    spellings = frozenset().union(*(forms(lemma) for lemma in lemmas))
    found = [i for i, w in enumerate(said) if w.start < limit and w.lower in spellings]
    if not found:
        return None
    at = found[-1]
    group = [said[at].lower]
    j = at - 1
    while j >= 0 and len(group) < GROUP_WORDS:
        word = said[j].lower
        if _skipped(word):
            j -= 1
            continue
        if word in AUXILIARIES:
            group.insert(0, word)
        elif word == "to" and j > 0 and _governs(said[j - 1].lower):
            group[:0] = [said[j - 1].lower, "to"]
            j -= 1
        elif group[0].endswith("ing") and _governs(word) and word not in _SUBJECTS:
            group.insert(0, word)
        else:
            break
        j -= 1
    return group


def _skipped(word: str) -> bool:
    """A filler or an adverb ("really", "deeply"): walked over, not kept."""
    return word in _SKIPPED or (word.endswith("ly") and len(word) > 4)


def _governs(word: str) -> bool:
    """Whether a word is a form of a verb that takes the fact's verb after it."""
    lemma = verb_lemma(word)
    return lemma is not None and lemma in _GOVERNORS and word not in _SUBJECTS


def follows_be(sentence: str, word: str) -> bool | None:
    """Whether `word` comes after a form of "be" ("I'm allergic"): an adjective.

    None when the sentence does not hold the word.
    """
    said = words(sentence)
    at = [i for i, w in enumerate(said) if w.lower == word]
    if not at:
        return None
    j = at[0] - 1
    while j >= 0 and _skipped(said[j].lower):
        j -= 1
    return j >= 0 and said[j].lower in forms("be") | {"'s", "feel", "feels", "felt"}


def determiner(sentence: str, value: str, user_side: bool) -> str:
    """The article the sentence put before the value, for the fact's subject.

    "a", "an", "the" and the like stay; "this" becomes "the"; "my" and "our" are
    the speaker's, so they become "your" when the fact is the user's (or the
    user's sister's) and "the" otherwise, since whose they are is not known. An
    empty string when the sentence has no article there.
    """
    at = value_at(sentence, value)
    if at <= 0:
        return ""
    before = [w for w in words(sentence) if w.start < at]
    if not before:
        return ""
    word = before[-1].lower
    if word in _ARTICLES:
        return word
    if word in _POINTING:
        return "the"
    if word in _OWN:
        return "your" if user_side else "the"
    if word in _OTHERS:
        return word
    return ""


def word_before(sentence: str, value: str) -> str:
    """The word just before the value in the sentence ("on" in "is on 12 May")."""
    at = value_at(sentence, value)
    before = [w for w in words(sentence) if w.start < at] if at > 0 else []
    return before[-1].lower if before else ""
