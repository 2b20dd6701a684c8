"""One slot under two spellings of its key: "accountant" and "accountant.external".

Keys read from the parse are a head noun and its qualifiers, sorted ("our external
accountant" -> `accountant.external`). Said again without the adjective ("we
changed accountants, it's Johan Ek now") the key is the bare head; the stored row
must still be the one updated, or the old value stays active beside the new one.
The join is by key alone, so it is exact where embeddings of "key: value" are not
(the values differ in every update).
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_lab.text import content_words
from memory_lab.types import Fact, FactCandidate


def _parts(key: str) -> tuple[str, frozenset[str]]:
    head, *qualifiers = key.lower().split(".")
    return head, frozenset(qualifiers)


def _listed(key: str, value: str) -> bool:
    """Whether a key names its own value ("likes.jazz" = jazz): one of a list."""
    _, qualifiers = _parts(key)
    words = content_words(value.replace("_", " "))
    return any(set(q.split("_")) & words for q in qualifiers)


def family_match(candidate: FactCandidate, active: Sequence[Fact]) -> Fact | None:
    """The one active row of the candidate's subject whose key is the same slot.

    Same head, and one key's qualifiers hold the other's: `accountant` and
    `accountant.external` are one slot, `budget.food` and `budget.rent` two. When
    several rows qualify ("budget" beside `budget.food` and `budget.rent`) the
    candidate is ambiguous and joins none. List keys, whose qualifier is their
    value, never join, and neither do two readings of one turn.
    """
    if _listed(candidate.key, candidate.value):
        return None
    head, qualifiers = _parts(candidate.key)
    found = []
    for f in active:
        if f.subject != candidate.subject or f.key == candidate.key:
            continue
        other_head, other = _parts(f.key)
        if (
            other_head == head
            and (other <= qualifiers or qualifiers <= other)
            and not _listed(f.key, f.value)
            and not set(candidate.turn_ids) & set(f.turn_ids)
        ):
            found.append(f)
    return found[0] if len(found) == 1 else None
