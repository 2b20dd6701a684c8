"""Prompt: answer an eval probe from the assembled memory, briefly.

The QA protocol of published memory results: one model answers every system's
context with the same pinned prompt, and the short answer is compared with the gold
one (token F1, BLEU-1, an LLM judge). Short answers keep overlap metrics meaningful;
the question's date lets the model turn "last May" into a date; "not known" is the
one abstention phrase, so abstention can be scored without a judge.
"""

from __future__ import annotations

import html
import sys
from datetime import datetime

from memory_lab.prompts._render import data_rule, wrap_data
from memory_lab.prompts.versioning import module_version

NAME = "answer"
NOT_KNOWN = "not known"
MAX_TOKENS = 48
"""Room for a short phrase or a date; longer answers only dilute F1."""


def build(question: str, context: str, asked_at: datetime | None) -> list[dict]:
    """Chat messages: instructions and the fenced memory, then the question.

    `context` may arrive escaped (the engine's assembly escapes memory) or raw (the
    baselines' turns); it is unescaped first so the model never sees `&amp;lt;`.
    """
    when = (
        f"The question is asked on {asked_at.strftime('%Y-%m-%d %H:%M %Z').strip()}."
        if asked_at is not None
        else ""
    )
    memory = html.unescape(context).strip() or "(empty)"
    system = "\n\n".join(
        part
        for part in (
            "You answer questions about earlier conversations using only the "
            "memory below. Answer with a short phrase of a few words, not a "
            "sentence. Memory lines carry dates: turn relative dates such as "
            "'yesterday' or 'last year' into absolute dates using them. If the "
            f"memory does not contain the answer, reply exactly: {NOT_KNOWN}",
            when,
            data_rule("memory"),
            wrap_data("memory", memory),
        )
        if part
    )
    return [
        {"role": "system", "content": system},
        {"role": "user", "content": question},
    ]


VERSION = module_version(sys.modules[__name__], NAME)
"""Name and digest of this module's text and schemas (see `versioning`)."""
