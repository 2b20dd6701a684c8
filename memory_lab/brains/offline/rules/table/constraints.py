"""Rules for what limits the user: allergies, diets, budgets, requirements."""

from __future__ import annotations

from memory_lab.brains.offline.rules.keys import (
    cannot_key,
    const_key,
    runs_on_key,
    slot_key,
    spend_limit_key,
)
from memory_lab.brains.offline.rules.patterns import (
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
from memory_lab.brains.offline.rules.rule import Example, Rule
from memory_lab.brains.offline.rules.vocabulary import (
    VAGUE,
    slug,
)

# What a spending limit is for: "extras", "eating out".
SPENT_ON = r"(?P<thing>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)"
# The same groups, renamed for a second branch of one pattern.
SPENT_ON_2 = SPENT_ON.replace("?P<thing>", "?P<thing2>")
AMOUNT_2 = AMOUNT.replace("?P<v>", "?P<v2>")

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
        examples=(
            Example(
                "I'm allergic to peanuts and shellfish.",
                "allergy.shellfish",
                "shellfish",
            ),
        ),
        counter_examples=(
            "I'm not allergic to anything.",
            "I'm allergic to that.",
        ),
    ),
    Rule(
        "allergy_noun",
        "constraint",
        regex(
            rf"{I_SUBJ}\s+have\s+(?:an?\s+)?(?:severe\s+|mild\s+)?(?P<v>\w+)\s+allergy\b"
        ),
        lambda _m, v: None if v.lower() in VAGUE else f"allergy.{slug(v)}",
        examples=(
            Example("I have a severe peanut allergy.", "allergy.peanut", "peanut"),
        ),
        counter_examples=(
            "I have this allergy.",
            "I don't have a peanut allergy.",
        ),
    ),
    Rule(
        "intolerance",
        "constraint",
        regex(rf"{I_AM}{ADV}\s+(?P<v>[\w-]+)\s+intolerant\b"),
        slot_key("intolerance"),
        examples=(
            Example("I'm lactose intolerant.", "intolerance.lactose", "lactose"),
        ),
        counter_examples=(
            "I'm not lactose intolerant.",
            "I'm so intolerant.",
        ),
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
        examples=(Example("I'm vegetarian.", "diet", "vegetarian"),),
        counter_examples=(
            "I'm not vegetarian.",
            "I'm a vegetable grower.",
        ),
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
        examples=(Example("I don't eat pork.", "diet.no.pork", "pork"),),
        counter_examples=(
            "I don't eat that.",
            "I do eat pork.",
        ),
    ),
    Rule(
        "cannot",
        "constraint",
        regex(
            rf"{I_SUBJ}\s+(?:can{APOS}?t|cannot|can\s+not|am\s+unable\s+to)\s+{PHRASE}{END}"
        ),
        cannot_key,
        examples=(Example("I can't drive.", "cannot.drive", "drive"),),
        counter_examples=(
            "I can't wait to see you!",
            "I can't believe it.",
        ),
    ),
    Rule(
        "budget",
        "constraint",
        regex(
            rf"(?:\b(?:my|our|the)\s+budget\s+(?:is|{APOS}s|of)|\bbudget\s+(?:is\s+)?"
            rf"(?=at\s+most|max)|{I_SUBJ}\s+can\s+(?:only\s+)?spend)\s+(?:is\s+)?{AMOUNT}"
        ),
        const_key("budget"),
        examples=(
            Example(
                "Our budget is at most 5000 kr per month.",
                "budget",
                "at most 5000 kr per month",
            ),
        ),
        counter_examples=(
            "Our budget is tight.",
            "My budget is not 5000 kr.",
        ),
    ),
    Rule(
        "spend_limit",
        "constraint",
        regex(
            rf"(?:{I_SUBJ}{ADV}\s+(?:can{APOS}?t|cannot|can\s+not|shouldn{APOS}?t"
            rf"|mustn{APOS}?t|won{APOS}?t)\s+spend\s+(?:more\s+than|over)\s+{AMOUNT}"
            rf"\s+(?:on|for)\s+{SPENT_ON}"
            rf"|\b(?:my|our|the)\s+(?:(?:monthly|weekly|yearly|annual|spending)\s+)*"
            rf"(?:limit|budget|cap)\s+(?:for|on)\s+{SPENT_ON_2}\s+(?:is|{APOS}s)\s+"
            rf"(?:now\s+|still\s+)?{AMOUNT_2}){END}"
        ),
        spend_limit_key,
        examples=(
            Example(
                "I can't spend more than $250 a month on extras.",
                "spend_limit.extras",
                "$250 a month",
            ),
            Example(
                "Actually the limit for extras is $400 a month now.",
                "spend_limit.extras",
                "$400 a month",
            ),
            Example(
                "Our budget for eating out is 3000 kr per month.",
                "spend_limit.eating_out",
                "3000 kr per month",
            ),
        ),
        counter_examples=(
            "I can't spend more time on this.",
            "The limit for extras is not clear.",
        ),
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
        examples=(
            Example(
                "All of our code must run on Ruby 3.2.", "ruby_version", "Ruby 3.2"
            ),
        ),
        counter_examples=(
            "Our code must run on time.",
            "The app must run on every phone.",
        ),
    ),
)
