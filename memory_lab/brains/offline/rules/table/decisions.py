"""Rules for choices made and plans announced."""

from __future__ import annotations

from memory_lab.brains.offline.rules.keys import (
    choice_key,
    classed_key,
    it_is_key,
    plan_key,
)
from memory_lab.brains.offline.rules.patterns import (
    ADV,
    APOS,
    END,
    I_AM,
    I_OR_WE,
    PHRASE,
    regex,
)
from memory_lab.brains.offline.rules.rule import Example, Rule

DECISIONS: tuple[Rule, ...] = (
    Rule(
        "choice",
        "decision",
        regex(
            rf"(?:{I_OR_WE}(?:{APOS}ve|\s+have)?{ADV}\s+(?:chose|chosen|picked(?!\s+up\b)|selected|went"
            rf"\s+with|opted\s+for|settled\s+on)|{I_OR_WE}(?:{APOS}ll|\s+will|{APOS}re|\s+are)"
            rf"\s+(?:go|going)\s+with|\blet{APOS}?s\s+go\s+with|\bdecided\s+to\s+(?:go\s+with"
            rf"|use|stick\s+with|switch\s+to))\s+{PHRASE}"
            rf"(?:\s+(?:over|instead\s+of|rather\s+than)\s+(?P<o>[^.,;:!?\n]+?))?{END}"
        ),
        choice_key,
        examples=(
            Example(
                "I chose K2 over K3 for the annual report.", "accounting_standard", "K2"
            ),
            Example("We'll go with Fortnox.", "accounting_software", "Fortnox"),
        ),
        counter_examples=(
            "Let's go with that.",
            "I picked up the kids.",
        ),
    ),
    Rule(
        "it_is",
        "decision",
        regex(
            r"(?:^|\b(?:decision\s+made|decided|final\s+answer|ok|okay|fine|right"
            r"|then|so)\s*[:,!-]\s*)(?P<v>(?-i:[A-Z0-9])[\w.-]*(?:\s+[\w.-]+){0,2}?)"
            r"\s+it\s+is\s*(?:[.!]|$)"
        ),
        it_is_key,
        examples=(
            Example("Decision made: K3 it is.", "accounting_standard", "K3"),
            Example("OK, Fortnox it is!", "accounting_software", "Fortnox"),
        ),
        counter_examples=(
            "So it is.",
            "What time it is.",
            "Yes it is!",
            "That it is.",
        ),
    ),
    Rule(
        "decided",
        "decision",
        regex(
            rf"{I_OR_WE}(?:{APOS}ve|\s+have)?{ADV}\s+(?:decided|agreed|resolved)"
            rf"(?:\s+(?:to|on|that))?\s+{PHRASE}{END}"
        ),
        classed_key("decided"),
        examples=(
            Example(
                "We decided to postpone closing October until invoices are paid.",
                "decided.postpone_closing_october",
                "postpone closing October",
            ),
        ),
        counter_examples=(
            "We decided to do this.",
            "We never decided to move.",
        ),
    ),
    Rule(
        "plan",
        "decision",
        regex(
            rf"(?:(?:{I_AM}|\bwe{APOS}re|\bwe\s+are){ADV}\s+(?:going\s+to|gonna"
            rf"|planning\s+to)|{I_OR_WE}\s+(?:plan|intend)\s+to)\s+{PHRASE}{END}"
        ),
        plan_key,
        examples=(
            Example(
                "I'm going to hire a third employee next spring.",
                "plan.hire_third_employee",
                "hire a third employee next spring",
            ),
        ),
        counter_examples=(
            "I'm going to make it!",
            "I'm going to be honest.",
        ),
    ),
)
