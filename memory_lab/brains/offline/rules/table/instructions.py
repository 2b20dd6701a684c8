"""Rules for standing instructions to the assistant: always, never, language."""

from __future__ import annotations

from memory_lab.brains.offline.rules.keys import (
    always_never_key,
    answer_length_key,
    dont_key,
    reply_language_key,
    slot_key,
)
from memory_lab.brains.offline.rules.patterns import (
    APOS,
    END,
    LEADIN,
    PHRASE,
    REPLY_VERB,
    regex,
)
from memory_lab.brains.offline.rules.rule import Example, Rule

INSTRUCTIONS: tuple[Rule, ...] = (
    Rule(
        "always_never",
        "instruction",
        regex(
            rf"(?:{LEADIN}|\b(?:please|you\s+should|i\s+want\s+you\s+to"
            r"|make\s+sure\s+(?:to|you)|from\s+now\s+on,?)\s+)(?P<v>(?:always|never)\s+(?!(?:mind|again|ever"
            r"|been|good|great|here|there|up|happy|glad|nice|fun|a|an|the|so|more|ready"
            r"|welcome|on|in|at|my|your|his|her|their|our|its|it|that|this|too)\b)"
            r"(?![a-z]+[^s]s\b)[^.;!?\n]+?)(?=\s*(?:[.;!?\n]|$))"
        ),
        always_never_key,
        request_ok=True,
        to_assistant=True,
        examples=(
            Example(
                "Always use metric units.",
                "always.use_metric_units",
                "Always use metric units",
            ),
            Example("Never use emojis.", "never.use_emojis", "Never use emojis"),
        ),
        counter_examples=(
            "Always been a fan.",
            "Never mind.",
            "Always answer in French.",  # the reply-language slot's
        ),
    ),
    Rule(
        "dont",
        "instruction",
        regex(
            rf"{LEADIN}(?:please\s+)?(?P<v>(?:don{APOS}?t|do\s+not)\s+(?:ever\s+)?"
            rf"(?!worry|mind|know|think|be\s+sorry|forget|get\s+me\s+wrong)[^.;!?\n]+?)"
            r"(?=\s*(?:[.;!?\n]|$))"
        ),
        dont_key,
        to_assistant=True,
        examples=(
            Example("Don't use jargon.", "never.use_jargon", "Don't use jargon"),
        ),
        counter_examples=(
            "Don't worry about it.",
            "Don't get me wrong.",
        ),
    ),
    Rule(
        "remember_to",
        "instruction",
        regex(
            rf"\b(?:remember|don{APOS}?t\s+forget|do\s+not\s+forget)\s+to\s+{PHRASE}{END}"
        ),
        slot_key("remember"),
        request_ok=True,
        to_assistant=True,
        examples=(
            Example(
                "Please remember to check the VAT deadline.",
                "remember.check_vat_deadline",
                "check the VAT deadline",
            ),
        ),
        counter_examples=(
            "Remember to do that.",
            "I remember how to swim.",
        ),
    ),
    Rule(
        "reply_language",
        "instruction",
        regex(
            rf"\b{REPLY_VERB}(?:\s+to\s+me)?\s+"
            r"(?:only\s+|always\s+)?in\s+(?P<v>(?-i:[A-Z])\w+)"
            r"|\byour\s+(?:answers|replies|responses|messages)\s+(?:to\s+me\s+)?"
            r"(?:only\s+|always\s+)?in\s+(?P<v2>(?-i:[A-Z])\w+)"
        ),
        reply_language_key,
        request_ok=True,
        examples=(
            Example("Reply in Swedish please.", "reply_language", "Swedish"),
            Example("I'd like all your replies in German.", "reply_language", "German"),
        ),
        counter_examples=(
            "Reply in Markdown please.",
            "Never answer in French.",
            "Don't reply in German.",
        ),
    ),
    Rule(
        "answer_length",
        "instruction",
        regex(
            r"\b(?:keep\s+(?:your\s+|the\s+)?(?:answers?|replies|reply|responses?|it"
            r"|things|explanations?)\s+|be\s+(?:more\s+)?)(?P<v>short|brief|concise"
            r"|shorter|simple|simpler|detailed)\b"
        ),
        answer_length_key,
        request_ok=True,
        examples=(
            Example("Keep answers short.", "answer_length", "short"),
            Example("I'll keep things simple.", "answer_style", "simple"),
        ),
        counter_examples=(
            "Keep calm.",
            "Keep the receipts short of tape.",
        ),
    ),
)
