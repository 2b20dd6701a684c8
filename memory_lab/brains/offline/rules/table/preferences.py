"""Rules for what the user likes, dislikes, prefers and would rather have."""

from __future__ import annotations

from memory_lab.brains.offline.rules.keys import (
    favorite_of_key,
    prefer_key,
    rather_key,
    slot_key,
)
from memory_lab.brains.offline.rules.patterns import (
    ADV,
    APOS,
    END,
    I_AM,
    I_SUBJ,
    LEADIN,
    LIST,
    LIST_END,
    PHRASE,
    regex,
)
from memory_lab.brains.offline.rules.rule import Example, Rule
from memory_lab.brains.offline.rules.vocabulary import (
    slug,
)

PREFERENCES: tuple[Rule, ...] = (
    Rule(
        "favorite",
        "preference",
        regex(
            rf"\bmy{ADV}\s+(?:all[\s-]time\s+)?(?:fav(?:ou?rite)?|fave)\s+"
            rf"(?P<k>[\w\s-]{{1,30}}?)\s+(?:is|are|has\s+to\s+be|would\s+be)\s+"
            rf"{PHRASE}{END}"
        ),
        lambda m, _v: (
            f"favorite_{slug(m.group('k'), words=2)}"
            if slug(m.group("k"), words=2)
            else None
        ),
        examples=(Example("My favourite colour is blue.", "favorite_color", "blue"),),
        counter_examples=(
            "My favourite colour is this.",
            "My favourite is you.",
        ),
    ),
    Rule(
        "favorite_inverse",
        "preference",
        regex(
            rf"{LEADIN}(?:\w+,\s+)?(?P<v>\w[\w\s'’-]{{0,30}}?)\s+(?:is|are)\s+"
            r"(?:(?:still|now|definitely|easily|probably)\s+)?my\s+(?:new\s+"
            r"|all[\s-]time\s+|absolute\s+)?(?:fav(?:ou?rite)?|fave)"
            r"(?:\s+(?!now\b|these\b)(?P<k>[a-z]+(?:\s+[a-z]+)?))?"
            r"(?=\s*(?:[.,;:!?]|$)|\s+(?:now|these\s+days|at\s+the\s+moment|and|but)"
            r"\b)"
        ),
        favorite_of_key,
        examples=(
            Example(
                "Tacos are my favourite food these days.", "favorite_food", "Tacos"
            ),
            Example(
                "Honestly, cold brew is my favourite now.", "favorite", "cold brew"
            ),
        ),
        counter_examples=(
            "That is my favourite.",
            "It is my favourite part.",
        ),
    ),
    Rule(
        "rather",
        "preference",
        regex(
            rf"{I_SUBJ}(?:{APOS}d|\s+would){ADV}\s+rather\s+(?:use|write|code\s+in|have"
            r"|eat|drink|read|watch|listen\s+to|play|work\s+(?:in|with)|go\s+with"
            rf"|stick\s+(?:with|to))\s+{PHRASE}"
            rf"(?:\s+(?:than|over|instead\s+of)\s+(?P<o>[^.,;:!?\n]+?))?{END}"
        ),
        rather_key,
        examples=(
            Example("I'd rather use Rust than Go.", "programming_language", "Rust"),
        ),
        counter_examples=(
            "I'd rather not talk about it.",
            "I'd rather have that.",
        ),
    ),
    Rule(
        "prefer",
        "preference",
        regex(
            rf"{I_SUBJ}(?:{APOS}d|\s+would)?{ADV}\s+prefer\s+{PHRASE}"
            rf"(?:\s+(?:over|to|rather\s+than|instead\s+of)\s+(?P<o>[^.,;:!?\n]+?))?"
            rf"{END}"
        ),
        prefer_key,
        examples=(
            Example("I prefer tea over coffee.", "prefers.coffee_or_tea", "tea"),
            Example(
                "My name is Alex and I prefer Python.", "programming_language", "Python"
            ),
        ),
        counter_examples=(
            "I prefer that.",
            "I don't prefer tea.",
        ),
    ),
    Rule(
        "likes",
        "preference",
        regex(
            rf"(?:{I_SUBJ}{ADV}\s+(?:like|love|enjoy|adore)|{I_SUBJ}(?:{APOS}ve|\s+have){ADV}"
            rf"\s+been{ADV}\s+(?:more\s+)?into|{I_AM}{ADV}\s+(?:into|keen\s+on"
            rf"|passionate\s+about|(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of))\s+{LIST}"
            rf"{LIST_END}"
        ),
        slot_key("likes"),
        multi=True,
        examples=(
            Example("I love hiking and skiing.", "likes.hiking", "hiking"),
            Example(
                "Lately I've been really into pottery.", "likes.pottery", "pottery"
            ),
        ),
        counter_examples=(
            "I don't think I like sushi.",
            "I love that!",
        ),
    ),
    Rule(
        "dislikes",
        "preference",
        regex(
            rf"{I_SUBJ}{ADV}\s+(?:hate|dislike|detest|loathe|can{APOS}?t\s+stand|cannot"
            rf"\s+stand|(?:don{APOS}?t|do\s+not)\s+(?:really\s+)?(?:like|enjoy|love))\s+"
            rf"{LIST}{LIST_END}"
        ),
        slot_key("dislikes"),
        multi=True,
        examples=(
            Example("I hate cilantro.", "dislikes.cilantro", "cilantro"),
            Example("I don't like jazz.", "dislikes.jazz", "jazz"),
        ),
        counter_examples=(
            "Haha no, I hate everything.",
            "I hate it.",
        ),
    ),
)
