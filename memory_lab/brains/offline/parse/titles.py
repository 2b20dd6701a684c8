"""Quoted titles: a book, film or song named in quotes is one value, whole.

"I loved reading "Charlotte's Web"" has "Web" for the parse's head of the
object; the title is the words between the quotes, whatever the parse makes of
them.
"""

from __future__ import annotations

from spacy.tokens import Span, Token

MAX_TITLE_TOKENS = 12
"""A longer run between quotes is a quoted remark, not a title."""

QUOTES = frozenset({'"', "\u201c", "\u201d", "''", "``"})
"""Double quotes, straight, curly or as the tokenizer writes them."""


def quoted_span(head: Token) -> Span | None:
    """The quoted title `head` is in, whole ("Charlotte's Web"), else None.

    A title is one name, whatever the parse makes of the words inside it: its
    head alone ("Web") is no value.
    """
    sentence = head.sent
    marks = [t.i for t in sentence if t.text in QUOTES]
    for opening, closing in zip(marks[::2], marks[1::2], strict=False):
        if opening < head.i < closing and closing - opening - 1 <= MAX_TITLE_TOKENS:
            return head.doc[opening + 1 : closing]
    return None
