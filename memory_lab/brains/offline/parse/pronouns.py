"""Whom "he" and "she" name: the person last mentioned, across turns and jobs.

"My husband's called Dev" in one turn and "He's a paramedic" a day later are
read by different extraction jobs. The second job still knows the first's
facts (the stored facts it is shown), so the people those facts name as
someone's relation seed the referents, oldest first; each sentence read then
updates them. A fact's subject given by a bare name never seeds them: in a
conversation of two named people it is often the other speaker, whom "she"
does not name. A relation noun
says which pronoun fits ("husband" is "he"); a bare name fits either, until a
person of known gender is named after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from memory_lab.brains.offline.parse.lexicon import RELATION_NOUNS
from memory_lab.brains.offline.rules.corrections import FactLike

HE = frozenset(
    """husband boyfriend fiance dad father brother son grandpa grandfather uncle
    nephew stepdad stepson""".split()
)
SHE = frozenset(
    """wife girlfriend fiancee mom mum mother sister daughter grandma grandmother
    aunt niece stepmom stepdaughter landlady""".split()
)
SINGLE_RELATIONS = frozenset(
    """wife husband partner spouse fiance fiancee girlfriend boyfriend mom mum
    mother dad father stepmom stepdad boss manager landlord landlady""".split()
)
"""Relations a person mostly has one of: once named, "my wife" is that name."""
PRONOUNS = frozenset({"he", "she", "him", "her"})
_FORMS = {"him": "he", "her": "she"}


MASCULINE: tuple[str, ...] = ("he",)
FEMININE: tuple[str, ...] = ("she",)
EITHER = MASCULINE + FEMININE


def fits(relation: str | None) -> tuple[str, ...]:
    """The pronouns a person of this relation answers to."""
    if relation in HE:
        return MASCULINE
    if relation in SHE:
        return FEMININE
    return EITHER


class Referents:
    """The person each third-person pronoun names now."""

    def __init__(self, speaker: str) -> None:
        self._speaker = speaker
        self._by_pronoun: dict[str, str] = {}
        self._fits: dict[str, tuple[str, ...]] = {}
        self._kin: set[str] = set()
        self._names: dict[str, str] = {}
        self.theirs: str | None = None
        """The relation the other speaker last spoke of: what "mine" answers."""

    def note(self, subject: str, relation: str | None = None) -> None:
        """`subject` was just mentioned; `relation` is its relation noun if known.

        A person keeps the pronoun a relation once gave them: "Kofi" after "my
        brother Kofi" is "he" only.
        """
        if subject == self._speaker:
            return
        if relation is None and "'s " in subject:
            relation = subject.rsplit("'s ", 1)[1]
        if relation is not None and "'s " not in subject:
            self._kin.add(subject)
            if relation in SINGLE_RELATIONS:
                self._names[relation] = subject
        if relation is not None or subject not in self._fits:
            self._fits[subject] = fits(relation)
        for pronoun in self._fits[subject]:
            self._by_pronoun[pronoun] = subject

    def named(self, word: str) -> str | None:
        """The person a bare name is, when the speaker named them as a relative.

        Only a relative's name counts: a name seen only as a subject may be
        the other person in the conversation, or no person at all.
        """
        word = word.lower()
        return word if word in self._kin else None

    def mine(self, word: str) -> str | None:
        """Whom "mine" names: the speaker's own of the relation just spoken of.

        "my brother is a chef" from one speaker, then "mine is a plumber" from
        the other, is the second speaker's brother.
        """
        if word.lower() not in {"mine", "ours"} or self.theirs is None:
            return None
        return f"{self._speaker}'s {self.theirs}"

    def by_name(self, subject: str) -> str:
        """The name of "<speaker>'s wife" once she is named, else `subject`."""
        owner, _, relation = subject.partition("'s ")
        if owner != self._speaker or relation not in SINGLE_RELATIONS:
            return subject
        return self._names.get(relation, subject)

    def resolve(self, word: str) -> str | None:
        """The subject a pronoun names, or None when no one fits."""
        word = word.lower()
        return self._by_pronoun.get(_FORMS.get(word, word))

    @classmethod
    def from_facts(cls, speaker: str, facts: Sequence[FactLike]) -> Referents:
        """Seeded with the people stored facts name, the newest last."""
        referents = cls(speaker)
        for subject, relation in _people(speaker, _oldest_first(facts)):
            referents.note(subject, relation)
        return referents


def _oldest_first(facts: Sequence[FactLike]) -> list[FactLike]:
    def when(fact: FactLike) -> datetime | None:
        return getattr(fact, "created_at", None)

    if all(when(f) is not None for f in facts):
        return sorted(facts, key=lambda f: when(f))  # type: ignore[arg-type, return-value]
    return list(facts)


def _people(
    speaker: str, facts: Iterable[FactLike]
) -> Iterable[tuple[str, str | None]]:
    """(subject, relation) for each person a fact names."""
    for fact in facts:
        head, _, rest = fact.key.partition(".")
        name = fact.value.strip().lower()
        # "sister.ana" = "Ana" (the parse), "wife.name" = "Marisol" (the rules)
        named = rest in {"_".join(name.split()), "name"}
        if fact.subject == speaker and head in RELATION_NOUNS and named:
            yield name, head
        elif "'s " in fact.subject:
            # "user's sister": someone the speaker spoke of. A bare name may
            # be the other person in the conversation, whom no one calls "she".
            yield fact.subject, None
