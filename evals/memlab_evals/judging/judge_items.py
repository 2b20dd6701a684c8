"""Answers whose verdict is known, made from a dataset's own probes.

A judge is checked against items it cannot have memorised: per answerable probe,
the gold answer and a normalised copy of it (CORRECT), and the answer to another
question of the same conversation and category, the gold's year shifted by one,
another name from the conversation, or an abstention (WRONG). The expected
verdicts come from these rules, not hand labels; each item's `note` says how its
candidate was made, so the key can be audited.
"""

from __future__ import annotations

import random
import re
import string
from collections.abc import Sequence
from typing import Literal

from memlab_datasets import load_dataset
from memlab_datasets.categories import ABSTENTION_ANSWER
from memlab_datasets.types import Conversation, Dataset, Probe
from pydantic import BaseModel, ConfigDict, Field

from memlab_evals.running.llm_records import Label

CheckKind = Literal[
    "gold", "normalised", "other_answer", "year_off", "wrong_name", "abstention"
]
KINDS: tuple[CheckKind, ...] = (
    "gold",
    "normalised",
    "other_answer",
    "year_off",
    "wrong_name",
    "abstention",
)
EXPECTED: dict[CheckKind, Label] = {
    "gold": "CORRECT",
    "normalised": "CORRECT",
    "other_answer": "WRONG",
    "year_off": "WRONG",
    "wrong_name": "WRONG",
    "abstention": "WRONG",
}
ABSTENTIONS = ("I don't know.", "That is not known.")

_MONTHS = (
    "January February March April May June July August September October "
    "November December"
).split()
_WEEKDAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split()
_MONTH = "|".join(_MONTHS)
# LoCoMo writes "24June, 2022" as often as "24 June 2022".
_DAY_MONTH = re.compile(
    rf"\b(\d{{1,2}})(?:st|nd|rd|th)? ?({_MONTH})(?:,? (\d{{4}}))?\b", re.IGNORECASE
)
_MONTH_DAY = re.compile(
    rf"\b({_MONTH}) (\d{{1,2}})(?:st|nd|rd|th)?(?:,? (\d{{4}}))?\b", re.IGNORECASE
)
_YEAR = re.compile(r"\b(19\d{2}|20\d{2})\b")
_TITLE_WORD = re.compile(r"\b[A-Z][a-z]+\b")
_TITLE_RUN = re.compile(r"\b[A-Z][a-z]+(?: [A-Z][a-z]+)*\b")
_WORD = re.compile(r"[A-Za-z]+")
# Punctuation goes unless it sits between two digits (3.5, 1,000, 10:30); currency
# and percent signs carry meaning and stay.
_PUNCT = "".join(c for c in string.punctuation if c not in "$%'") + "“”‘’…–—"
_STRIP = re.compile(rf"(?<!\d)[{re.escape(_PUNCT)}]|[{re.escape(_PUNCT)}](?!\d)")
_ARTICLES = re.compile(r"\b(a|an|the)\b")
# Words two answers may share and still state different things.
_STOPWORDS = frozenset(
    "a an the and or of to in on at for with by from is was be her his their its "
    "she he they it i my our your this that week weekend weeks before after ago "
    "last next day days month months year years likely probably maybe yes no".split()
)
_LIST_MARK = re.compile(r"[,;/&]|\band\b|\bor\b")
_NUMBERS = dict(
    zip(
        "one two three four five six seven eight nine ten eleven twelve".split(),
        map(str, range(1, 13)),
        strict=True,
    )
)
_NOT_NAMES = frozenset({*_MONTHS, *_WEEKDAYS, "I", "User", "Assistant"})


class CalibrationModel(BaseModel):
    """Base of the calibration records: unknown fields are errors."""

    model_config = ConfigDict(extra="forbid")


class CalibrationItem(CalibrationModel):
    """One question with a candidate answer whose verdict is known."""

    id: str = Field(description="'<kind>/<conversation>/<probe id>'.")
    conversation: str
    probe_id: str
    category: int
    question: str
    gold: str = Field(description="The probe's gold answer, as J's prompt shows it.")
    candidate: str = Field(description="The answer the judge grades.")
    kind: CheckKind
    expected: Label
    note: str = Field(default="", description="How the candidate was made.")


def calibration_set(
    dataset: Dataset | str, *, seed: int = 0, per_kind: int = 20
) -> list[CalibrationItem]:
    """Up to `per_kind` items of each kind, made from the dataset's own probes.

    Abstention probes are left out: their gold is itself "not known", so neither an
    abstaining candidate nor a wrong one has a verdict J would ask for. A kind gets
    fewer items when fewer probes allow it (a year needs a year in the gold).

    Raises:
        ValueError: `per_kind` is below 1.
        DatasetError: for a spec that names no dataset.
    """
    if per_kind < 1:
        raise ValueError(f"--per-kind must be at least 1, got {per_kind}")
    if isinstance(dataset, str):
        dataset = load_dataset(dataset)
    items: list[CalibrationItem] = []
    for kind in KINDS:
        # One generator per kind: adding a kind never reshuffles the others.
        rng = random.Random(f"{seed}:{kind}")
        found = [
            item
            for conversation in dataset.conversations
            for item in _candidates(kind, conversation, rng)
        ]
        rng.shuffle(found)
        items += found[:per_kind]
    return items


def _candidates(
    kind: CheckKind, conversation: Conversation, rng: random.Random
) -> list[CalibrationItem]:
    probes = [p for p in conversation.probes if _answerable(p)]
    names = _proper_nouns(conversation) if kind == "wrong_name" else set()
    made = []
    for probe in probes:
        if kind == "gold":
            candidate = (probe.answer, "the gold answer")
        elif kind == "normalised":
            candidate = _normalised(probe.answer)
        elif kind == "other_answer":
            candidate = _other_answer(probe, probes, rng)
        elif kind == "year_off":
            candidate = _year_off(probe, rng)
        elif kind == "wrong_name":
            candidate = _wrong_name(probe, conversation, names, rng)
        else:
            candidate = (rng.choice(ABSTENTIONS), "an abstention")
        if candidate is None:
            continue
        text, note = candidate
        made.append(
            CalibrationItem(
                id=f"{kind}/{conversation.id}/{probe.id}",
                conversation=conversation.id,
                probe_id=probe.id,
                category=probe.category,
                question=probe.question,
                gold=probe.answer,
                candidate=text,
                kind=kind,
                expected=EXPECTED[kind],
                note=note,
            )
        )
    return made


def _answerable(probe: Probe) -> bool:
    answer = normalise_answer(probe.answer)
    return (
        probe.kind != "abstention"
        and probe.category != 5
        and bool(answer)
        and answer != ABSTENTION_ANSWER
    )


def normalise_answer(text: str) -> str:
    """Lowercase, punctuation (outside numbers) and articles removed, spaces tidied.

    The normalisation SQuAD-style F1 applies: a fair judge sees no difference.
    """
    text = re.sub(r"['’]", "", text.lower())
    text = _ARTICLES.sub(" ", _STRIP.sub(" ", text))
    return " ".join(text.split())


def reformat_date(text: str) -> str | None:
    """'7 May 2023' as 'May 7, 2023' and back; None when the text names no day."""
    if found := _DAY_MONTH.search(text):
        day, month, year = found.groups()
        new = f"{month.title()} {int(day)}" + (f", {year}" if year else "")
    elif found := _MONTH_DAY.search(text):
        month, day, year = found.groups()
        new = f"{int(day)} {month.title()}" + (f" {year}" if year else "")
    else:
        return None
    return text[: found.start()] + new + text[found.end() :]


def _normalised(answer: str) -> tuple[str, str] | None:
    if (date := reformat_date(answer)) is not None:
        return date, "the date in another format"
    text = normalise_answer(answer)
    if text == answer or not any(c.isalnum() for c in text):
        return None  # already normal: the same test as `gold`
    return text, "lowercased, punctuation and articles removed"


def _other_answer(
    probe: Probe, probes: Sequence[Probe], rng: random.Random
) -> tuple[str, str] | None:
    others = [
        p
        for p in probes
        if p.id != probe.id
        and p.category == probe.category
        and _states_something_else(probe.answer, p.answer)
    ]
    if not others:
        return None
    other = rng.choice(others)
    return other.answer, f"the gold answer of {other.id}"


def _states_something_else(gold: str, other: str) -> bool:
    """Whether `other` cannot pass for `gold`, however generous the reader.

    A shared content word could make it a partial or reworded answer, and a
    yes/no of the same polarity agrees whatever follows; both are left out, so
    the key never calls a defensible answer WRONG. Dates may share their year.
    """
    if normalise_answer(gold) == normalise_answer(other):
        return False
    polarity = _polarity(gold), _polarity(other)
    if all(polarity):
        return polarity[0] != polarity[1]
    mine, theirs = _content_words(gold), _content_words(other)
    if not mine or not theirs:
        return False
    shared = mine & theirs
    if not shared:
        return True
    years = {w for w in shared if _YEAR.fullmatch(w)}
    # Only a year in common: two different days of that year.
    return shared == years and bool(mine - years) and bool(theirs - years)


def _polarity(answer: str) -> str | None:
    words = normalise_answer(answer).split()
    while words and words[0] in ("likely", "probably", "maybe", "most"):
        words = words[1:]
    return words[0] if words and words[0] in ("yes", "no") else None


def _content_words(answer: str) -> set[str]:
    text = re.sub(rf"(\d)({_MONTH})", r"\1 \2", answer, flags=re.IGNORECASE)
    words = (_NUMBERS.get(w, w) for w in normalise_answer(text).split())
    return {w for w in words if w not in _STOPWORDS}


def _year_off(probe: Probe, rng: random.Random) -> tuple[str, str] | None:
    answer = probe.answer
    if not _YEAR.search(answer):
        return None
    dated = (
        probe.kind == "temporal"
        or any(m.lower() in answer.lower() for m in _MONTHS)
        or _YEAR.fullmatch(answer.strip(" ."))
    )
    if not dated:
        return None  # "2000 dollars" has no year to shift
    delta = rng.choice((-1, 1))
    shifted = _YEAR.sub(lambda m: str(int(m.group(1)) + delta), answer)
    return shifted, f"every year shifted by {delta:+d}"


def _proper_nouns(conversation: Conversation) -> set[str]:
    """Title-case words the conversation never writes in lower case.

    A word capitalised mid-sentence and never lower-cased is a name ("Sweden",
    "Tomas"), where "Psychology" at the start of an answer is not.
    """
    capital, lower = set(), set()
    for turn in conversation.turns:
        for sentence in re.split(r"[.!?]\s+|\n", turn.content):
            words = _WORD.findall(sentence)
            for position, word in enumerate(words):
                if word.islower():
                    lower.add(word)
                elif position > 0 and _TITLE_WORD.fullmatch(word):
                    capital.add(word)
    names = {w for w in capital if w.lower() not in lower}
    names |= {n for n in conversation.speakers.values() if _TITLE_WORD.fullmatch(n)}
    return names - _NOT_NAMES


def _wrong_name(
    probe: Probe, conversation: Conversation, names: set[str], rng: random.Random
) -> tuple[str, str] | None:
    """The answer's one name (a run of names: "Smoky Mountains") swapped for another.

    Lists and answers with two names are left out: one changed item of a list, or
    "Lord of the Catan", is half right. So is a name the question itself asks about.
    """
    name = _sole_name(probe.answer, names)
    if name is None:
        return None
    asked = _words(probe.question)
    if _words(name) & asked:
        return None  # the question's subject, not its answer
    pool = {n for n in conversation.speakers.values() if n in names}
    pool |= {n for p in conversation.probes if (n := _sole_name(p.answer, names))}
    pool = sorted(n for n in pool if not _words(n) & (asked | _words(probe.answer)))
    if not pool:
        return None
    same_length = [n for n in pool if len(n.split()) == len(name.split())]
    replacement = rng.choice(same_length or pool)
    text = re.sub(rf"\b{re.escape(name)}\b", replacement, probe.answer)
    return text, f"{name} replaced by {replacement}"


def _sole_name(answer: str, names: set[str]) -> str | None:
    """The answer's one run of names ("Smoky Mountains", "Tilly"), if it has one.

    Not in a list, and with no other capitalised word, which may belong to the
    same title ("Lord of the Rings").
    """
    if _LIST_MARK.search(answer):
        return None
    runs = _TITLE_RUN.findall(answer)
    if len(runs) != 1 or not set(runs[0].split()) <= names:
        return None
    return runs[0]


def _words(text: str) -> set[str]:
    return {w.lower() for w in _WORD.findall(text)}


# -- asking the judge --------------------------------------------------------------
