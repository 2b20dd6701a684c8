"""Is a proposed value really in the turn it cites? The model is not trusted.

A small model writes valid JSON whose content is mostly invented: turn ids that
do not exist, values from nowhere. A value is grounded when every content word of
it appears in the cited turn; when the value also occurs there as a phrase, the
turn's own words are stored rather than the model's rendering of them.
"""

from __future__ import annotations

import html
import re

from memory_lab.text import content_words


def plain(text: str) -> str:
    """`text` unescaped and with whitespace runs collapsed.

    The model saw escaped turns, so it may quote `&lt;` where the user wrote `<`.
    """
    return " ".join(html.unescape(text).split())


def locate(text: str, value: str) -> tuple[int, int] | None:
    """Where `value` occurs in `text`, ignoring case and runs of whitespace.

    The match may not start or end inside a word, so "Osl" is not found in
    "Oslo" and "12" is not found in "120k".
    """
    words = value.split()
    if not words:
        return None
    pattern = r"\s+".join(re.escape(w) for w in words)
    if re.match(r"\w", words[0]):
        pattern = r"(?<!\w)" + pattern
    if re.search(r"\w$", words[-1]):
        pattern += r"(?!\w)"
    match = re.search(pattern, text, flags=re.IGNORECASE)
    return match.span() if match else None


def ungrounded_words(value: str, turn_text: str) -> set[str]:
    """Content words of `value` that `turn_text` does not contain.

    Empty means grounded. A value with no content words at all ("yes", "it")
    says nothing checkable, so it counts as ungrounded: it is returned whole.
    """
    wanted = content_words(value)
    if not wanted:
        return {value.strip() or "(empty)"}
    return wanted - content_words(turn_text)


def evidence_span(
    text: str, proposed: str, value: str, span: tuple[int, int] | None, pad: int = 80
) -> str:
    """A real span of the turn that backs `value`.

    The model's evidence when the turn holds it and it contains the value;
    otherwise a window of the turn around the value (or the whole turn, cut to a
    window, when the value's words are scattered).
    """
    evidence = plain(proposed)
    where = locate(text, evidence) if evidence else None
    if where is not None:
        if span is None and not ungrounded_words(value, text[where[0] : where[1]]):
            return text[where[0] : where[1]]
        if span is not None and where[0] <= span[0] and span[1] <= where[1]:
            return text[where[0] : where[1]]
    if span is None:
        return text[: 2 * pad].strip()
    start, end = max(0, span[0] - pad), min(len(text), span[1] + pad)
    return text[start:end].strip()
