"""Rules for who the user is: name, places, age, dates, work, relations."""

from __future__ import annotations

from memory_lab.brains.offline.rules.keys import (
    age_key,
    born_key,
    const_key,
    employer_key,
    name_key,
    place_key,
    relation_key,
    relation_name_key,
    work_in_key,
)
from memory_lab.brains.offline.rules.patterns import (
    ADV,
    APOS,
    CAPW,
    DATE,
    END,
    I_AM,
    I_SUBJ,
    LEADIN,
    NAME,
    PHRASE,
    PLACE,
    REL,
    regex,
)
from memory_lab.brains.offline.rules.rule import Example, Rule
from memory_lab.brains.offline.rules.vocabulary import (
    LANGUAGES,
)

IDENTITY: tuple[Rule, ...] = (
    Rule(
        "name",
        "identity",
        regex(rf"\bmy\s+name(?:{APOS}s|\s+is)\s+{NAME}"),
        name_key,
        examples=(Example("My name is Alex and I prefer Python.", "name", "Alex"),),
        counter_examples=(
            "My name is not important.",
            "My name is Sorry, long story.",
        ),
    ),
    Rule(
        "name_call_me",
        "identity",
        regex(rf"\b(?:call\s+me|I\s+go\s+by|people\s+call\s+me)\s+{NAME}"),
        name_key,
        request_ok=True,
        examples=(Example("Call me Al.", "name", "Al"),),
        counter_examples=(
            "Call me tomorrow.",
            "Call me Mr Smith.",
        ),
    ),
    Rule(
        "name_intro",
        "identity",
        regex(
            rf"{LEADIN}{I_AM}\s+{NAME}"
            rf"(?=\s*(?:[,.!;]|$)|\s+(?:and|from|here|by\s+the\s+way|btw)\b)"
        ),
        name_key,
        examples=(Example("Hi, I'm Maria, a nurse from Spain.", "name", "Maria"),),
        counter_examples=(
            "I'm Swedish, by the way.",
            "I'm Tired.",
        ),
    ),
    Rule(
        "name_here",
        "identity",
        regex(rf"{LEADIN}{NAME}\s+here(?=\s*(?:[,.!;]|$))"),
        name_key,
        examples=(Example("Hey, Priya here!", "name", "Priya"),),
        counter_examples=(
            "Same here.",
            "Looky here, a new pup!",
        ),
    ),
    Rule(
        "home_city",
        "identity",
        regex(
            rf"(?:{I_SUBJ}{ADV}\s+(?:live|reside|stay)|{I_AM}{ADV}\s+(?:based|living"
            rf"|located|settled))\s+in\s+{PLACE}"
        ),
        place_key("home_city"),
        examples=(
            Example("I live in Stockholm with my wife Anna.", "home_city", "Stockholm"),
        ),
        counter_examples=(
            "It's not that I live in Oslo.",
            "I used to live in Malmö.",
        ),
    ),
    Rule(
        "hometown",
        "identity",
        regex(rf"(?:{I_AM}{ADV}|{I_SUBJ}\s+come)\s+(?:originally\s+)?from\s+{PLACE}"),
        place_key("hometown"),
        examples=(
            Example("I'm from Gothenburg originally.", "hometown", "Gothenburg"),
        ),
        counter_examples=(
            "I'm from March onwards free.",
            "I'm not from Oslo.",
        ),
    ),
    Rule(
        "grew_up",
        "identity",
        regex(rf"{I_SUBJ}\s+grew\s+up\s+in\s+{PLACE}"),
        place_key("hometown"),
        examples=(Example("I grew up in Bergen.", "hometown", "Bergen"),),
        counter_examples=(
            "I grew up in the eighties.",
            "I never grew up in Bergen.",
        ),
    ),
    Rule(
        "birthplace",
        "identity",
        regex(rf"{I_SUBJ}\s+was\s+born\s+in\s+{PLACE}"),
        place_key("birthplace"),
        examples=(Example("I was born in Lagos.", "birthplace", "Lagos"),),
        counter_examples=(
            "I was born in 1990.",
            "I was born in May.",
        ),
    ),
    Rule(
        "born_on",
        "identity",
        regex(rf"{I_SUBJ}\s+was\s+born\s+(?:on|in)\s+{DATE}"),
        born_key,
        examples=(
            Example("I was born in 1990.", "birth_year", "1990"),
            Example("I was born on May 4, 1988.", "birth_date", "May 4, 1988"),
        ),
        counter_examples=(
            "I was born in Lagos.",
            "I was not born in 1990.",
        ),
    ),
    Rule(
        "birthday",
        "identity",
        regex(rf"\bmy\s+birthday\s+(?:is|falls)\s+(?:on\s+)?{DATE}"),
        const_key("birthday"),
        examples=(Example("My birthday is on March 3rd.", "birthday", "March 3rd"),),
        counter_examples=(
            "My birthday is soon.",
            "My birthday is not on March 3rd.",
        ),
    ),
    Rule(
        "age",
        "identity",
        regex(
            rf"(?:{I_AM}|{I_SUBJ}\s+(?:just\s+)?turned)\s+(?P<v>\d{{1,3}})"
            rf"(?:\s*(?:years?|yrs?)(?:[\s-]*old)?)?"
            rf"(?=\s*(?:[.,;!]|$)|\s+(?:and|now|this|last|next)\b)"
        ),
        age_key,
        examples=(Example("I'm 34 years old.", "age", "34"),),
        counter_examples=(
            "I'm 400 years old.",
            "I'm 5 minutes away.",
        ),
    ),
    Rule(
        "employer",
        "identity",
        regex(
            rf"(?:{I_SUBJ}{ADV}\s+work|{I_AM}{ADV}\s+(?:working|employed))\s+(?:at|for|by)"
            rf"\s+{PHRASE}{END}"
        ),
        employer_key,
        examples=(
            Example("I work at Spotify as a data engineer.", "employer", "Spotify"),
        ),
        counter_examples=(
            "I work at home.",
            "I work at night.",
        ),
    ),
    Rule(
        "job_title",
        "identity",
        regex(
            rf"(?:(?:{I_SUBJ}{ADV}\s+work|{I_AM}{ADV}\s+working)(?:\s+(?:at|for)\s+"
            rf"[^.,;:!?\n]+?)?\s+as"
            rf"|\bmy\s+(?:job|role|position|job\s+title|title|profession|occupation)"
            rf"\s+is)\s+(?:an?\s+)?{PHRASE}{END}"
        ),
        const_key("job_title"),
        examples=(
            Example("I work as a software engineer.", "job_title", "software engineer"),
            Example(
                "I work at Spotify as a data engineer.", "job_title", "data engineer"
            ),
        ),
        counter_examples=(
            "I don't work as a nurse.",
            "I used to work as a nurse.",
        ),
    ),
    Rule(
        "job_by_day",
        "identity",
        regex(
            rf"\bby\s+(?:day|profession|trade)\s*,?\s+{I_AM}{ADV}\s+(?:an?\s+)?"
            rf"{PHRASE}{END}"
        ),
        const_key("job_title"),
        examples=(Example("By trade I'm a carpenter.", "job_title", "carpenter"),),
        counter_examples=(
            "By day I'm that.",
            "By the way, I'm a carpenter.",
        ),
    ),
    Rule(
        "job_by_trade",
        "identity",
        regex(rf"{I_AM}\s+an?\s+{PHRASE}\s+by\s+(?:profession|trade)\b"),
        const_key("job_title"),
        examples=(
            Example("I'm an electrician by profession.", "job_title", "electrician"),
        ),
        counter_examples=(
            "I'm an electrician.",
            "I'm not an electrician by profession.",
        ),
    ),
    Rule(
        "work_in",
        "identity",
        regex(rf"(?:{I_SUBJ}{ADV}\s+work|{I_AM}{ADV}\s+working)\s+in\s+{PHRASE}{END}"),
        work_in_key,
        examples=(
            Example("I work in Berlin.", "work_city", "Berlin"),
            Example("I work in finance.", "work_field", "finance"),
        ),
        counter_examples=(
            "I work in it.",
            "I don't work in finance.",
        ),
    ),
    Rule(
        "relation_name",
        "identity",
        regex(
            rf"\bmy\s+{REL}(?:{APOS}s\s+name\s+is|\s+is\s+(?:called|named)|\s+(?:called"
            rf"|named)|,)?\s+{NAME}"
        ),
        relation_name_key,
        examples=(
            Example("I live in Stockholm with my wife Anna.", "wife.name", "Anna"),
            Example("My sister Emma is a doctor.", "sister.emma", "Emma"),
        ),
        counter_examples=(
            "My sister Swedish is fluent.",
            "My wife Sorry for the delay.",
        ),
    ),
    Rule(
        "relation_apposition",
        "identity",
        regex(rf"^{LEADIN}{NAME},\s+my\s+{REL}\s*,"),
        relation_name_key,
        examples=(
            Example("Sam, my roommate, is moving out in May.", "roommate.sam", "Sam"),
        ),
        counter_examples=(
            "Well, my roommate, is moving out.",
            "Thanks, my friend, for the help.",
        ),
    ),
    Rule(
        "speaks",
        "identity",
        regex(rf"{I_SUBJ}{ADV}\s+speak\s+(?P<v>(?-i:[A-Z])\w+)(?!\s+(?:to|with)\b)"),
        lambda _m, v: f"speaks.{v.lower()}" if v.lower() in LANGUAGES else None,
        examples=(Example("I speak Spanish.", "speaks.spanish", "Spanish"),),
        counter_examples=(
            "I speak to Anna daily.",
            "I speak Python.",
        ),
    ),
)

# Third parties are kept apart from the user's own slots.
THIRD_PARTIES: tuple[Rule, ...] = (
    Rule(
        "relation_home",
        "knowledge",
        regex(
            rf"\bmy\s+{REL}(?:\s+{CAPW})?{ADV}\s+(?:lives|is\s+living|is\s+based"
            rf"|resides|moved)"
            rf"\s+(?:in|to)\s+{PLACE}"
        ),
        lambda m, v: relation_key(m, v, "home_city"),
        examples=(Example("My brother lives in Oslo.", "brother.home_city", "Oslo"),),
        counter_examples=(
            "My brother lives in the city.",
            "My brother never lives in Oslo.",
        ),
    ),
    Rule(
        "relation_employer",
        "knowledge",
        regex(rf"\bmy\s+{REL}(?:\s+{CAPW})?{ADV}\s+works\s+(?:at|for)\s+{PHRASE}{END}"),
        lambda m, v: relation_key(m, v, "employer"),
        examples=(
            Example(
                "My brother lives in Oslo and my sister works at IKEA.",
                "sister.employer",
                "IKEA",
            ),
        ),
        counter_examples=(
            "My sister works at that.",
            "My sister no longer works at IKEA.",
        ),
    ),
)
