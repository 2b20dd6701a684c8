"""The offline brain's extraction: the parse, with the rules kept where they add.

The rules still own what the parse cannot say on its own: standing instructions
("always reply in Swedish"), constraints phrased as rules, decisions among named
options and corrections of a slot ("not K2 anymore, K3"). The parse covers
statements of fact in any phrasing. Where both read the same words of a turn,
the rule's slot is kept (its key is the one older facts and the app use) and the
parse's reading is dropped, so one statement is one fact.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_lab.brains.offline.parse.change import (
    sentence_past_only,
    sentence_signals_change,
)
from memory_lab.brains.offline.parse.extract import parse_candidates
from memory_lab.brains.offline.parse.pipeline import parse_many
from memory_lab.brains.offline.rules import extract_candidates
from memory_lab.brains.offline.rules.corrections import FactLike
from memory_lab.text import content_words
from memory_lab.types import FactCandidate, Message


def _same_words(a: FactCandidate, b: FactCandidate | FactLike) -> bool:
    """Whether two candidates state one value of one subject.

    Within a turn, one value's words holding the other's is enough; across
    turns the words must be the same (a restatement under another key).
    """
    if a.subject != b.subject:
        return False
    left, right = content_words(a.value), content_words(b.value)
    if not (left and right):
        return False
    turns = getattr(b, "turn_ids", ())
    if set(a.turn_ids) & set(turns):
        return left <= right or right <= left
    return left == right


def _someone_elses(ruled: FactCandidate, parsed: Sequence[FactCandidate]) -> bool:
    """Whether the parse read the rule's words as another person's fact.

    The rules key a third party's statement under the speaker ("my sister
    lives in Porto" as the user's `sister.home_city`); the parse knows whom the
    clause is about, so the speaker never gets that value.
    """
    words = content_words(ruled.value)
    return bool(words) and any(
        p.subject != ruled.subject
        and set(p.turn_ids) & set(ruled.turn_ids)
        and content_words(p.value) == words
        for p in parsed
    )


def merged_candidates(
    messages: Sequence[Message], *, prior: Sequence[FactLike] = ()
) -> list[FactCandidate]:
    """Rule candidates, then parse candidates that state something the rules did not."""
    ruled = extract_candidates(messages, prior=prior)
    parsed = parse_candidates(messages, prior=[*prior, *ruled])
    ruled = [r for r in ruled if not _someone_elses(r, parsed)]
    known = [*prior, *ruled]
    kept = [p for p in parsed if not any(_same_words(p, r) for r in known)]
    return [*_with_changes(ruled), *kept]


def _with_changes(ruled: list[FactCandidate]) -> list[FactCandidate]:
    """Rule readings marked when their sentence says a value changed or used to hold.

    The rules name the slot; whether the statement is a change ("lately I've
    been more into jazz") or only of the past ("I used to live in Rotterdam")
    is the parse's to tell.
    """
    docs = parse_many(r.evidence for r in ruled)
    return [
        r.model_copy(
            update={
                "changes": any(sentence_signals_change(s) for s in doc.sents),
                "past": any(sentence_past_only(s) for s in doc.sents),
            }
        )
        if r.evidence
        else r
        for r, doc in zip(ruled, docs, strict=True)
    ]
