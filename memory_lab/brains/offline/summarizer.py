"""The rule-based brain's private summariser: extractive, no model.

Only `RuleBasedBrain` calls this module; it is not the window's compression step
(that is `memory_lab.episodes.compression`, which asks whichever brain is
configured). The LLM brain summarises with a prompt instead.

The offline brain may not paraphrase, so it picks sentences. An episode summary
is what episodic retrieval embeds and what evals search for evidence, so the
picker rewards sentences that carry decisions, first-person facts, task state and
answered questions, and above all sentences that add content words not yet
covered (names, numbers, dates, places count double). Greetings and pleasantries
score nothing. Selected sentences keep their original order and carry their
speaker, and the whole summary always fits the token budget.

Nothing here writes a word that is not in the turns, apart from speaker prefixes
and the fixed phrase used for a span that is only small talk.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from memory_lab.brains.offline.rules import sentence_has_fact
from memory_lab.text import (
    CHAT_STOP_WORDS,
    split_sentences,
    strip_injected_memory,
    truncate_to_tokens,
)
from memory_lab.tokens import TokenCounter
from memory_lab.types import EpisodeDraft, Message

__all__ = ["condense_text", "summarize_extractive"]

_MAX_LIST_ITEMS = 5
_MAX_ITEM_WORDS = 40
_MAX_UNIT_WORDS = 45
_KEY_FACT_WORDS = 30

# Words that make a sentence chit-chat when they are all it has to say.
_FILLER = frozenset(
    """hi hello hey hiya thanks thank cheers cool great good nice awesome amazing wow
    lol haha hahaha yeah yes yep yup ok okay sure bye goodbye see soon talk later
    morning afternoon evening night welcome glad hear sounds sound fine doing care
    day totally agree agreed absolutely definitely congrats congratulations sweet
    fun exciting excited hope hopefully appreciate appreciated happy awesome
    sorry problem worries bet true right exactly indeed cute lovely wonderful
    fantastic incredible beautiful super pretty tell know feel think means mean
    been new up chat chatting catch""".split()
)
_MONTHS_DAYS = frozenset(
    """january february march april may june july august september october november
    december monday tuesday wednesday thursday friday saturday sunday""".split()
)

_DECISION = re.compile(
    r"\b(?:decided|decide\s+to|chose|chosen|picked|went\s+with|go(?:ing)?\s+with"
    r"|settled\s+on|agreed\s+(?:to|on)|opted|will\s+use|switch(?:ed)?\s+to"
    r"|postpone(?:d)?|going\s+to|plan(?:ning)?\s+to|let's|let’s)\b",
    re.I,
)
_OPEN_ITEM = re.compile(
    r"\b(?:still\s+(?:need|have)\s+to|need\s+to|haven't\s+decided|have\s+not\s+decided"
    r"|not\s+sure\s+(?:whether|if)|remind\s+me|todo|to-do|follow\s+up|next\s+step"
    r"|pending|later|postponed|not\s+yet|haven't\s+yet|open\s+question)\b",
    re.I,
)
_TASK_STATE = re.compile(
    r"\b(?:halfway|finished|completed|started|working\s+on|in\s+progress"
    r"|next|remaining|left\s+to|deadline|due|submitted|paid|reviewed|booked)\b",
    re.I,
)
_REQUEST = re.compile(
    r"^(?:(?:so|and|also|ok|okay|hi|hello|hey)[,!\s]+)*(?:please|can\s+you|could"
    r"\s+you|would\s+you|will\s+you|help\s+me|i\s+need|i\s+want|i'd\s+like|i\s+would"
    r"\s+like|how\s+(?:do|can|should)|what\s+(?:is|are|should)|tell\s+me|show\s+me"
    r"|explain|walk\s+me)\b",
    re.I,
)
_WORD = re.compile(r"[\w’'+#-]+")


class _Line(NamedTuple):
    """One turn (or one line of a running summary) before it is cut into units."""

    who: str | None
    role: str
    text: str
    named: bool = False


@dataclass
class _Unit:
    """One selectable sentence (or a piece of a very long one)."""

    index: int
    line: int
    who: str | None
    role: str
    text: str
    weights: dict[str, float]
    bonus: float = 0.0
    person: bool = True
    """Said by a person (the user or a named speaker), not by the assistant."""
    question: bool = False
    answered: bool = False
    has_fact: bool = False
    substantive: bool = False
    tokens: int = 0


def _chunks(sentence: str) -> list[str]:
    """Split a run-on sentence at commas and dashes so it can be picked in parts."""
    if len(sentence.split()) <= _MAX_UNIT_WORDS:
        return [sentence]
    pieces: list[str] = []
    start = 0
    for match in re.finditer(r"[,;]\s+|\s+[-–—]+\s+", sentence):
        if len(sentence[start : match.start()].split()) >= 12:
            pieces.append(sentence[start : match.start() + 1].strip())
            start = match.end()
    pieces.append(sentence[start:].strip())
    return [p for p in pieces if p]


def _content_weights(sentence: str, names: frozenset[str]) -> dict[str, float]:
    """Content words of a sentence, weighted: names, numbers and dates count double."""
    weights: dict[str, float] = {}
    for position, raw in enumerate(_WORD.findall(sentence)):
        word = raw.strip("'’-").replace("’", "'")
        low = word.lower()
        if not low or low in CHAT_STOP_WORDS or _is_speaker(word, names):
            continue
        informative = (
            any(ch.isdigit() for ch in word)
            or low in _MONTHS_DAYS
            or (len(word) > 1 and word.isupper())
            or (position > 0 and word[:1].isupper())
        )
        weight = 2.0 if informative else (0.0 if low in _FILLER else 1.0)
        weights[low] = max(weights.get(low, 0.0), weight)
    return weights


def _is_speaker(word: str, names: frozenset[str]) -> bool:
    # "Hey Mel!" addresses Melanie; a speaker's own name adds nothing to a summary.
    # Only capitalised words can be nicknames, so "car" never hides "Caroline".
    low = word.lower()
    if low in names:
        return True
    return (
        word[:1].isupper() and len(low) >= 3 and any(n.startswith(low) for n in names)
    )


def _make_units(lines: Sequence[_Line], names: frozenset[str]) -> list[_Unit]:
    """Units from lines, each sentence scored on its own merits."""
    units: list[_Unit] = []
    for line_no, (who, role, text, named) in enumerate(lines):
        for sentence in split_sentences(text):
            for piece in _chunks(sentence):
                weights = _content_weights(piece, names)
                unit = _Unit(len(units), line_no, who, role, piece, weights)
                unit.person = named or role != "assistant"
                unit.question = piece.rstrip().endswith("?")
                unit.has_fact = sentence_has_fact(piece)
                unit.bonus = (
                    3.0 * bool(_DECISION.search(piece))
                    + 3.0 * unit.has_fact
                    + 2.0 * bool(_TASK_STATE.search(piece))
                    + 1.0 * bool(_OPEN_ITEM.search(piece))
                )
                units.append(unit)
    return units


def _finish(units: list[_Unit], counter: TokenCounter) -> None:
    for unit in units:
        weight = sum(unit.weights.values())
        unit.substantive = weight >= 2.0 or (unit.bonus > 0 and weight >= 1.0)
        unit.tokens = counter.count(unit.text)


def _mark_answers(units: list[_Unit]) -> None:
    """Questions another speaker took up are answered; both sides gain weight."""
    for unit in units:
        if not (unit.question and unit.substantive):
            continue
        reply = next(
            (u for u in units if u.line > unit.line and u.who != unit.who),
            None,
        )
        if reply is None:
            continue
        unit.answered = True
        unit.bonus += 1.0
        first = next((u for u in units if u.line == reply.line and u.substantive), None)
        if first is not None:
            first.bonus += 1.5


def _render(units: Sequence[_Unit]) -> str:
    """Chosen units in source order, one line per turn, prefixed with the speaker."""
    lines: list[str] = []
    current: int | None = None
    for unit in sorted(units, key=lambda u: u.index):
        if unit.line == current:
            lines[-1] += " " + unit.text
            continue
        current = unit.line
        lines.append(f"{unit.who}: {unit.text}" if unit.who else unit.text)
    return "\n".join(lines)


def _select(
    units: list[_Unit], *, max_tokens: int, counter: TokenCounter
) -> list[_Unit]:
    """Greedy budgeted coverage: best new information per token until full.

    A unit that does not fit once is dropped for good: the summary only grows, so
    it would not fit later either, and dropping it keeps the token counting linear.
    """
    covered: set[str] = set()
    chosen: list[_Unit] = []
    remaining = [u for u in units if u.substantive and u.tokens <= max_tokens]

    def value(unit: _Unit) -> float:
        fresh = sum(w for word, w in unit.weights.items() if word not in covered)
        if fresh <= 0:
            return 0.0
        return (fresh + unit.bonus) / math.sqrt(unit.tokens + 1)

    while remaining:
        ranked = sorted(remaining, key=lambda u: (-value(u), u.index))
        picked = None
        for unit in ranked:
            if value(unit) <= 0:
                break
            if counter.count(_render([*chosen, unit])) <= max_tokens:
                picked = unit
                break
            remaining.remove(unit)
        if picked is None:
            break
        chosen.append(picked)
        covered.update(picked.weights)
        remaining.remove(picked)
    return chosen


def _small_talk(names: Sequence[str]) -> str:
    if not names:
        return ""
    if len(names) == 1:
        return f"Small talk from {names[0]}."
    return f"Small talk between {', '.join(names[:-1])} and {names[-1]}."


def _labelled(unit: _Unit) -> str:
    words = unit.text.split(" ")
    text = " ".join(words[:_MAX_ITEM_WORDS])
    return f"{unit.who}: {text}" if unit.who else text


def _pick_list(units: Sequence[_Unit], keep: Callable[[_Unit], bool]) -> list[str]:
    return [_labelled(u) for u in units if keep(u)][:_MAX_LIST_ITEMS]


def _intent(units: Sequence[_Unit]) -> str:
    """The first substantive request or question, preferring the user's turns."""
    for roles in (("user",), ("user", "assistant")):
        for unit in units:
            if (
                unit.role in roles
                and unit.substantive
                and (unit.question or _REQUEST.search(unit.text))
            ):
                return unit.text
    return ""


def _key_facts(units: Sequence[_Unit]) -> list[str]:
    def fact_bearing(u: _Unit) -> bool:
        dense = any(w >= 2.0 for w in u.weights.values())
        first_person = re.search(r"\b(?:I|my|we|our|I'm|I’m)\b", u.text) is not None
        short = len(u.text.split()) <= _KEY_FACT_WORDS
        personal = u.person and dense and first_person
        return short and not u.question and (u.has_fact or personal)

    ranked = sorted(
        (u for u in units if u.substantive and fact_bearing(u)),
        key=lambda u: (-(u.bonus + sum(u.weights.values())), u.index),
    )[:_MAX_LIST_ITEMS]
    return [_labelled(u) for u in sorted(ranked, key=lambda u: u.index)]


def summarize_extractive(
    messages: Sequence[Message], *, max_tokens: int, counter: TokenCounter
) -> EpisodeDraft:
    """An episode draft built from the turns' own sentences.

    Args:
        messages: The span to compress, in transcript order. System turns and
            injected memory blocks are ignored: they are not what was said.
        max_tokens: Hard budget for `summary`, counted with `counter`.
        counter: The token counter the budget is measured with.

    Returns:
        A draft whose summary fits `max_tokens`. A span with nothing but greetings
        gets an honest one-line "Small talk between ..." summary.
    """
    turns = [m for m in messages if m.role != "system"]
    names = list(dict.fromkeys(m.who for m in turns))
    speaker_words = frozenset(
        w.lower() for n in names for w in _WORD.findall(n) if len(w) >= 3
    )
    # A named speaker is a person even in the assistant role (two-person datasets).
    lines = [
        _Line(m.who, m.role, strip_injected_memory(m.content), bool(m.speaker))
        for m in turns
    ]
    units = _make_units(lines, speaker_words)
    _finish(units, counter)
    _mark_answers(units)
    chosen = _select(units, max_tokens=max(0, max_tokens), counter=counter)
    if chosen:
        summary = _render(chosen)
    elif any(u.substantive for u in units):
        best = max(
            (u for u in units if u.substantive),
            key=lambda u: (u.bonus + sum(u.weights.values()), -u.index),
        )
        summary = truncate_to_tokens(_render([best]), max_tokens, counter)
        if best.who and len(summary) <= len(best.who) + 1:
            summary = ""  # a bare "speaker:" says nothing
    else:
        summary = truncate_to_tokens(_small_talk(names), max_tokens, counter)
    return EpisodeDraft(
        summary=summary,
        intent=_intent(units),
        key_facts=_key_facts(units),
        decisions=_pick_list(units, lambda u: bool(_DECISION.search(u.text))),
        open_questions=_pick_list(
            units,
            lambda u: (
                u.substantive
                and ((u.question and not u.answered) or bool(_OPEN_ITEM.search(u.text)))
            ),
        ),
    )


_LINE = re.compile(r"^(?P<who>[^:\n.?!]{1,40}):\s+(?P<rest>\S.*)$")


def condense_text(text: str, *, max_tokens: int, counter: TokenCounter) -> str:
    """Shorten a running summary to `max_tokens`, keeping its most informative parts.

    Text that already fits comes back unchanged, so condensing is idempotent. Lines
    shaped "speaker: ..." keep their prefix; sentences are chosen by the same
    coverage rule as episode summaries and keep their order.
    """
    max_tokens = max(0, max_tokens)
    if counter.count(text) <= max_tokens:
        return text
    lines: list[_Line] = []
    for raw in text.splitlines():
        match = _LINE.match(raw.strip())
        if match:
            lines.append(_Line(match.group("who").strip(), "", match.group("rest")))
        elif raw.strip():
            lines.append(_Line(None, "", raw.strip()))
    speaker_words = frozenset(
        w.lower()
        for line in lines
        for w in _WORD.findall(line.who or "")
        if len(w) >= 3
    )
    units = _make_units(lines, speaker_words)
    _finish(units, counter)
    chosen = _select(units, max_tokens=max_tokens, counter=counter)
    if chosen:
        return _render(chosen)
    return truncate_to_tokens(" ".join(text.split()), max_tokens, counter)
