"""Plain-language memory commands: remember that, forget that, that's wrong.

"Remember that ...", "forget that ..." and "that's wrong, it is ..." in a user
turn. Pure parsing, no storage: a turn is split into the commands it gives and the rest
of its text, which extraction reads as usual. The command sentence itself must
never be extracted: "Please forget that I live in Uppsala" states the fact it
asks to drop, and extracting it would confirm the fact instead.

A command must open its sentence (after "please", "ok", "and" and the like, or a
polite "can you"), so "don't forget to call", "I remember that day", "if I said
remember that ..." and "do you remember that trip?" give none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from memory_lab.types import Message

CommandKind = Literal["remember", "forget", "correct"]

_A = "['’]"
_LEAD = (
    r"^(?:(?:please|pls|ok(?:ay)?|and|also|oh|hey|so|actually|no|nope)[,:]?\s+)*"
    r"(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
)
_REMEMBER = re.compile(
    _LEAD + r"(?:please\s+)?(?:remember|note|keep\s+in\s+mind)"
    r"(?:\s+that\b|\s*:)\s*(?P<v>.+)",
    re.I,
)
_FORGET = re.compile(
    _LEAD + r"(?:please\s+)?forget\s+(?:that\b|about\b|what\s+I\s+said\s+about\b)"
    r"\s*(?P<v>.+)",
    re.I,
)
_CORRECT = re.compile(
    _LEAD + rf"that(?:{_A}s|\s+is|\s+was)\s+(?:wrong|not\s+right|incorrect|not\s+true"
    rf"|not\s+correct)\s*[,.;:!–—-]*\s*(?:(?P<it>it{_A}s\b|it\s+is\b|it\s+was\b"
    rf"|the\s+answer\s+is\b)|actually\b,?)?\s*(?P<v>.+)",
    re.I,
)
_BOUNDARY = re.compile(r"(?<=[.!?])\s+|\n+")


@dataclass(frozen=True)
class MemoryCommand:
    """One command and what it is about.

    Attributes:
        kind: remember, forget or correct.
        text: What follows the command phrase ("I live in Uppsala").
        bare_value: For a correction, whether `text` is only the new value
            ("that's wrong, it is K3") rather than a statement.
        message: The turn that gave it (its id, time and session cite it).
        sentence: The whole command sentence, kept as evidence.
    """

    kind: CommandKind
    text: str
    bare_value: bool
    message: Message
    sentence: str


def split_sentences(text: str) -> list[str]:
    """Sentences of a chat turn; a command is always one sentence."""
    return [s.strip() for s in _BOUNDARY.split(text) if s and s.strip()]


def parse_command(sentence: str, message: Message) -> MemoryCommand | None:
    """The command a sentence gives, or None."""
    found = _match(sentence)
    if found is None:
        return None
    kind, value, bare = found
    return MemoryCommand(kind, value, bare, message, sentence.strip())


def sentence_command(sentence: str) -> tuple[CommandKind, str] | None:
    """The kind of command a sentence gives and what it is about, or None.

    For text with no turn to cite: a summary that carries a command sentence
    on, or a question not stored yet; reading them back to withhold what the
    user asked to forget needs the kind and the words, not the turn.
    """
    found = _match(sentence)
    return None if found is None else found[:2]


def _match(sentence: str) -> tuple[CommandKind, str, bool] | None:
    """The kind, the text it is about and whether that is a bare value."""
    text = sentence.strip()
    polite = re.match(r"^(?:please\s+)?(?:can|could|would|will)\s+you\b", text, re.I)
    if text.endswith("?") and not polite:
        return None
    patterns: tuple[tuple[CommandKind, re.Pattern[str]], ...] = (
        ("correct", _CORRECT),
        ("forget", _FORGET),
        ("remember", _REMEMBER),
    )
    for kind, pattern in patterns:
        match = pattern.match(text)
        if match is None:
            continue
        value = match.group("v").strip().rstrip(".!?").strip()
        if len(value) < 2 or value.lower() in {"it", "this", "that", "them"}:
            return None
        return kind, value, kind == "correct" and match.group("it") is not None
    return None


def split_commands(
    message: Message,
) -> tuple[list[MemoryCommand], Message | None]:
    """The commands a user turn gives, and the turn without them.

    Returns the turn unchanged when it gives none, and None for the rest when
    nothing but commands was said. Only user turns give commands.
    """
    if message.role != "user":
        return [], message
    commands, rest = [], []
    for sentence in split_sentences(message.content):
        command = parse_command(sentence, message)
        if command is None:
            rest.append(sentence)
        else:
            commands.append(command)
    if not commands:
        return [], message
    if not rest:
        return commands, None
    return commands, message.model_copy(update={"content": " ".join(rest)})


def statement_turn(command: MemoryCommand) -> Message:
    """The command's content as a turn of its own, for the brain to extract from.

    "Remember that I'm vegetarian" carries the statement "I'm vegetarian"; reading
    it as if the user had said it alone reuses every extraction rule.
    """
    return command.message.model_copy(
        update={"id": command.message.id, "content": command.text + "."}
    )
