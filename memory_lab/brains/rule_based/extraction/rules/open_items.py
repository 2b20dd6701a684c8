"""Rules for open items: tasks, reminders and undecided questions."""

from __future__ import annotations

import re

from memory_lab.brains.rule_based.extraction.keys import (
    obligation_key,
    slot_key,
)
from memory_lab.brains.rule_based.extraction.patterns import (
    ADV,
    APOS,
    END,
    I_AM,
    I_OR_WE,
    I_SUBJ,
    LEADIN,
    PHRASE,
    regex,
)
from memory_lab.brains.rule_based.extraction.rule import (
    Rule,
)

OPEN_ITEMS: tuple[Rule, ...] = (
    Rule(
        "still_need",
        "unresolved",
        regex(rf"{I_OR_WE}\s+still\s+(?:need|have)\s+to\s+{PHRASE}{END}"),
        slot_key("todo"),
    ),
    Rule(
        "not_done",
        "unresolved",
        regex(
            rf"{I_OR_WE}\s+(?:haven{APOS}?t|have\s+not)\s+(?:yet\s+)?(?P<v>(?:finished|filed|paid"
            rf"|reviewed|submitted|sent|booked|completed|started|fixed|signed|closed)"
            rf"\s+[^.,;:!?\n]+?){END}"
        ),
        slot_key("todo"),
    ),
    Rule(
        "obligation",
        "unresolved",
        regex(
            rf"{I_SUBJ}{ADV}\s+(?:have\s+to|must|need\s+to|(?:{APOS}ve|\s+have)\s+got\s+to"
            rf"|gotta)\s+{PHRASE}{END}"
        ),
        obligation_key,
    ),
    Rule(
        "not_managed",
        "unresolved",
        regex(
            rf"{I_OR_WE}\s+(?:still\s+)?(?:haven{APOS}?t|have\s+not)\s+(?:yet\s+)?(?:managed"
            r"|gotten\s+around|got\s+(?:a)?round|had\s+(?:the\s+)?(?:time|chance)"
            rf"|found\s+(?:the\s+)?time)\s+to\s+{PHRASE}{END}"
        ),
        obligation_key,
    ),
    Rule(
        "note_to_self",
        "unresolved",
        regex(
            r"\b(?:note\s+to\s+self|open\s+item|reminder\s+to\s+self)\s*[:,-]\s*"
            rf"(?:{I_SUBJ}\s+(?:must|have\s+to|need\s+to|should)\s+)?{PHRASE}{END}"
        ),
        obligation_key,
    ),
    Rule(
        "undecided",
        "unresolved",
        regex(
            rf"(?:(?:{I_OR_WE}\s+(?:haven{APOS}?t|have\s+not)\s+(?:yet\s+)?decided|{I_AM}\s+"
            rf"(?:still\s+)?(?:not\s+sure|unsure|undecided)|{I_OR_WE}\s+can{APOS}?t\s+decide)"
            rf"(?:\s+yet)?\s+(?:about|on|whether|if|what|which|how|when|between)"
            rf"|{I_AM}\s+(?:still\s+)?(?:deciding|considering|thinking\s+about)"
            rf"(?:\s+(?:whether|if))?)\s+{PHRASE}{END}"
        ),
        slot_key("undecided"),
        open_item=True,
    ),
    Rule(
        "remind_me",
        "unresolved",
        regex(
            rf"(?:{LEADIN}|\b(?:please|you|pls|and)\s+)remind\s+me\s+(?:to|about)\s+{PHRASE}"
            rf"{END}"
        ),
        slot_key("reminder"),
        request_ok=True,
        to_assistant=True,
    ),
    Rule(
        "todo",
        "unresolved",
        re.compile(
            r"(?:\bTODO|\b(?i:to-?do)(?=\s*:))\s*:?\s+(?P<v>[^.;!?\n]+?)"
            r"(?=\s*(?:[.;!?\n]|$))"
        ),
        slot_key("todo"),
    ),
)
