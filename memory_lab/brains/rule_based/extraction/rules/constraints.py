"""Rules for what limits the user: allergies, diets, budgets, requirements."""

from __future__ import annotations

from memory_lab.brains.rule_based.extraction.keys import (
    cannot_key,
    const_key,
    runs_on_key,
    slot_key,
)
from memory_lab.brains.rule_based.extraction.patterns import (
    ADV,
    AMOUNT,
    APOS,
    END,
    I_AM,
    I_SUBJ,
    LIST,
    LIST_END,
    PHRASE,
    regex,
)
from memory_lab.brains.rule_based.extraction.rule import (
    Rule,
)
from memory_lab.brains.rule_based.extraction.vocabulary import (
    VAGUE,
    slug,
)

CONSTRAINTS: tuple[Rule, ...] = (
    Rule(
        "allergy",
        "constraint",
        regex(
            rf"{I_AM}{ADV}\s+(?:severely\s+|deathly\s+|highly\s+)?allergic\s+to\s+{LIST}"
            rf"{LIST_END}"
        ),
        slot_key("allergy"),
        multi=True,
    ),
    Rule(
        "allergy_noun",
        "constraint",
        regex(
            rf"{I_SUBJ}\s+have\s+(?:an?\s+)?(?:severe\s+|mild\s+)?(?P<v>\w+)\s+allergy\b"
        ),
        lambda _m, v: None if v.lower() in VAGUE else f"allergy.{slug(v)}",
    ),
    Rule(
        "intolerance",
        "constraint",
        regex(rf"{I_AM}{ADV}\s+(?P<v>[\w-]+)\s+intolerant\b"),
        slot_key("intolerance"),
    ),
    Rule(
        "diet",
        "constraint",
        regex(
            rf"(?:{I_AM}{ADV}\s+(?:an?\s+)?|{I_SUBJ}\s+(?:eat|follow|keep)\s+(?:an?\s+)?"
            rf"|{I_AM}\s+on\s+an?\s+)(?P<v>vegan|vegetarian|pescatarian|keto|paleo"
            rf"|flexitarian|gluten[\s-]free|halal|kosher)\b"
        ),
        const_key("diet"),
    ),
    Rule(
        "no_eat",
        "constraint",
        regex(
            rf"{I_SUBJ}\s+(?:don{APOS}?t|do\s+not|never|can{APOS}?t|cannot|can\s+not)"
            rf"\s+eat\s+{LIST}{LIST_END}"
        ),
        slot_key("diet.no"),
        multi=True,
    ),
    Rule(
        "cannot",
        "constraint",
        regex(
            rf"{I_SUBJ}\s+(?:can{APOS}?t|cannot|can\s+not|am\s+unable\s+to)\s+{PHRASE}{END}"
        ),
        cannot_key,
    ),
    Rule(
        "budget",
        "constraint",
        regex(
            rf"(?:\b(?:my|our|the)\s+budget\s+(?:is|{APOS}s|of)|\bbudget\s+(?:is\s+)?"
            rf"(?=at\s+most|max)|{I_SUBJ}\s+can\s+(?:only\s+)?spend)\s+(?:is\s+)?{AMOUNT}"
        ),
        const_key("budget"),
    ),
    Rule(
        "runs_on",
        "constraint",
        regex(
            r"\b(?:everything|all\s+(?:of\s+)?(?:it|this|our\s+code|the\s+code)"
            r"|(?:the|our|my)\s+(?:code|app|application|service|stack|project|codebase"
            r"|site|website|tool|scripts?))\s+(?:has|have|needs?|must|should)\s+"
            rf"(?:to\s+)?(?:run|work|be\s+compatible)\s+(?:on|with|in|under)\s+"
            rf"{PHRASE}{END}"
        ),
        runs_on_key,
    ),
)
