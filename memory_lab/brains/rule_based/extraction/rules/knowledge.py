"""Rules for facts about the user's world: tools, accounts, counts, business."""

from __future__ import annotations

import re

from memory_lab.brains.rule_based.extraction.keys import (
    classed_key,
    const_key,
    count_key,
    possessive_key,
    we_verb_key,
)
from memory_lab.brains.rule_based.extraction.patterns import (
    ADV,
    APOS,
    END,
    I_AM,
    I_OR_WE,
    I_SUBJ,
    LEADIN,
    NAME,
    NUMBER,
    PHRASE,
    POSSESSED,
    regex,
)
from memory_lab.brains.rule_based.extraction.rule import (
    Rule,
)

KNOWLEDGE: tuple[Rule, ...] = (
    Rule(
        "uses",
        "knowledge",
        regex(
            rf"(?:{I_OR_WE}{ADV}\s+use|{I_AM}{ADV}\s+using|\bwe{APOS}re{ADV}\s+using)\s+"
            rf"{PHRASE}{END}"
        ),
        classed_key("uses"),
    ),
    Rule(
        "possessive",
        "knowledge",
        regex(
            rf"\b(?:my|our)\s+{POSSESSED}(?:\s+(?:is|are)|{APOS}s)\s+"
            rf"(?:(?:with|on|in|at|into|through|via)\s+)?{PHRASE}{END}"
        ),
        possessive_key,
    ),
    Rule(
        "possessive_verb",
        "knowledge",
        regex(
            rf"\b(?:my|our)\s+{POSSESSED}\s+(?P<verb>lives?|sits?|goes|go|runs?|starts?"
            r"|begins?|opens?|ends?|closes?|finishes|falls?|(?:is|are)\s+(?:hosted|kept"
            r"|stored|held|based|banked|managed|handled|paid))\s+(?:on|in|into|at|with"
            rf"|to|through|via|by)\s+{PHRASE}{END}"
        ),
        possessive_key,
    ),
    Rule(
        "for_me",
        "knowledge",
        regex(
            rf"^{LEADIN}(?:the\s+)?(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+for\s+"
            r"(?:me|us)\s+(?:is|are|(?P<verb>starts?|begins?|opens?|ends?|closes?"
            rf"|finishes))\s+(?:(?:on|in|at)\s+)?{PHRASE}{END}"
        ),
        possessive_key,
    ),
    Rule(
        "we_verb",
        "knowledge",
        regex(
            rf"{I_OR_WE}{ADV}\s+(?:(?P<verb>deploy|host|bank)(?:\s+(?P<obj>(?:everything"
            r"|it|all|(?:my|our|the)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?)))?"
            r"|(?P<verb2>run|store|keep)\s+(?P<obj2>(?:my|our|the)\s+[a-z][\w-]*"
            r"(?:\s+[a-z][\w-]*)?))\s+(?:to|on|with|at|in|into)\s+"
            rf"{PHRASE}{END}"
        ),
        we_verb_key,
    ),
    Rule(
        "count",
        "knowledge",
        regex(
            rf"{I_OR_WE}{ADV}\s+(?:have|employ|own)\s+(?P<v>{NUMBER}\s+(?:[\w-]+\s+)?"
            r"(?P<noun>(?!(?:and|or|but|so|which|that|who|in|at)\b)[a-z]+))\b"
        ),
        count_key,
    ),
    Rule(
        "fiscal_year",
        "knowledge",
        regex(
            rf"\b(?:our|my|the)\s+fiscal\s+year\s+(?:is|runs|starts|ends|goes)\s+"
            rf"{PHRASE}{END}"
        ),
        const_key("fiscal_year"),
    ),
    Rule(
        "company_name",
        "knowledge",
        regex(
            rf"\b(?:our|my)\s+(?:company|business|firm|startup)(?:{APOS}s\s+name\s+is"
            rf"|\s+is\s+(?:called|named))\s+{NAME}"
        ),
        const_key("company_name"),
    ),
    Rule(
        "business",
        "knowledge",
        regex(rf"{I_SUBJ}\s+(?:run|own)\s+(?:an?\s+|my\s+own\s+)?{PHRASE}{END}"),
        lambda _m, v: (
            "business"
            if re.search(
                r"\b(?:company|business|firm|shop|store|agency|consultancy|restaurant"
                r"|startup|cafe|bakery|studio|practice)\b",
                v,
                re.I,
            )
            else None
        ),
    ),
)
