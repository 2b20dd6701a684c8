"""Rules for facts about the user's world: tools, accounts, counts, business."""

from __future__ import annotations

import re

from memory_lab.brains.offline.rules.keys import (
    classed_key,
    const_key,
    count_key,
    possessive_key,
    we_verb_key,
)
from memory_lab.brains.offline.rules.patterns import (
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
from memory_lab.brains.offline.rules.rule import Example, Rule

KNOWLEDGE: tuple[Rule, ...] = (
    Rule(
        "uses",
        "knowledge",
        regex(
            rf"(?:{I_OR_WE}{ADV}\s+use|{I_AM}{ADV}\s+using|\bwe{APOS}re{ADV}\s+using)\s+"
            rf"{PHRASE}{END}"
        ),
        classed_key("uses"),
        examples=(
            Example("I use Visma for payroll.", "accounting_software", "Visma"),
            Example("We're using Slack for chat.", "uses.slack", "Slack"),
        ),
        counter_examples=(
            "I'm using it to stay organized.",
            "I don't use Slack.",
        ),
    ),
    Rule(
        "possessive",
        "knowledge",
        regex(
            rf"\b(?:my|our)\s+{POSSESSED}(?:\s+(?:is|are)|{APOS}s)\s+"
            rf"(?:(?:with|on|in|at|into|through|via)\s+)?{PHRASE}{END}"
        ),
        possessive_key,
        examples=(
            Example("Our lawyer is Baker McKenzie.", "lawyer", "Baker McKenzie"),
            Example("My browser of choice is Firefox.", "browser", "Firefox"),
        ),
        counter_examples=(
            "My day was long.",
            "My sister Emma is a doctor.",
        ),
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
        examples=(
            Example("Our docs live on Confluence.", "docs", "Confluence"),
            Example(
                "Our school term starts on 3 September.",
                "school_term_start",
                "3 September",
            ),
        ),
        counter_examples=(
            "My brother lives in Oslo.",
            "My mind goes to dark places.",
        ),
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
        examples=(
            Example("Rent day for us is the 1st.", "rent_day", "the 1st"),
            Example("The tax year for us ends on 5 April.", "tax_year_end", "5 April"),
        ),
        counter_examples=("Dancing for me is like a way to express myself.",),
    ),
    Rule(
        "we_verb",
        "knowledge",
        regex(
            rf"{I_OR_WE}{ADV}\s+(?:(?:do\s+(?:my|our)\s+(?=banking))?"
            r"(?P<verb>deploy|host|bank)(?:ing)?(?:\s+(?P<obj>(?:everything"
            r"|it|all|(?:my|our|the)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?)))?"
            r"|(?P<verb2>run|store|keep)\s+(?P<obj2>(?:my|our|the)\s+[a-z][\w-]*"
            r"(?:\s+[a-z][\w-]*)?))\s+(?:to|on|with|at|in|into)\s+"
            rf"{PHRASE}{END}"
        ),
        we_verb_key,
        examples=(
            Example("We host everything on Hetzner.", "cloud_provider", "Hetzner"),
            Example("I bank with Revolut.", "bank", "Revolut"),
            Example("I do my banking with Chase.", "bank", "Chase"),
        ),
        counter_examples=(
            "We host on Fridays.",
            "We keep the receipts in a box.",
        ),
    ),
    Rule(
        "count",
        "knowledge",
        regex(
            rf"{I_OR_WE}{ADV}\s+(?:have|employ|own)\s+(?P<v>{NUMBER}\s+(?:[\w-]+\s+)?"
            r"(?P<noun>(?!(?:and|or|but|so|which|that|who|in|at)\b)[a-z]+))\b"
        ),
        count_key,
        examples=(Example("We have 2 employees.", "employee_count", "2 employees"),),
        counter_examples=(
            "I have 5 minutes.",
            "We have 3 more days.",
        ),
    ),
    Rule(
        "fiscal_year",
        "knowledge",
        regex(
            rf"\b(?:our|my|the)\s+fiscal\s+year\s+(?:is|runs|starts|ends|goes)\s+"
            rf"{PHRASE}{END}"
        ),
        const_key("fiscal_year"),
        examples=(
            Example(
                "Our fiscal year runs January to December.",
                "fiscal_year",
                "January to December",
            ),
        ),
        counter_examples=("Our fiscal year is this.",),
    ),
    Rule(
        "company_name",
        "knowledge",
        regex(
            rf"\b(?:our|my)\s+(?:company|business|firm|startup)(?:{APOS}s\s+name\s+is"
            rf"|\s+is\s+(?:called|named))\s+{NAME}"
        ),
        const_key("company_name"),
        examples=(
            Example(
                "Our company is called Fjord Studio.", "company_name", "Fjord Studio"
            ),
        ),
        counter_examples=(
            "Our company is called something else.",
            "My company is great.",
        ),
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
        examples=(
            Example(
                "I run a small design studio called Fjord Studio.",
                "business",
                "small design studio called Fjord Studio",
            ),
        ),
        counter_examples=(
            "I'll give you a shout whenever I run out of things to watch!",
            "I run every morning.",
        ),
    ),
)
