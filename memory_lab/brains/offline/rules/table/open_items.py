"""Rules for open items: tasks, reminders and undecided questions."""

from __future__ import annotations

import re

from memory_lab.brains.offline.rules.keys import (
    obligation_key,
    slot_key,
)
from memory_lab.brains.offline.rules.patterns import (
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
from memory_lab.brains.offline.rules.rule import Example, Rule

OPEN_ITEMS: tuple[Rule, ...] = (
    Rule(
        "still_need",
        "unresolved",
        regex(rf"{I_OR_WE}\s+still\s+(?:need|have)\s+to\s+{PHRASE}{END}"),
        slot_key("todo"),
        examples=(
            Example(
                "I still need to review the October transactions.",
                "todo.review_october_transactions",
                "review the October transactions",
            ),
        ),
        counter_examples=(
            "I still need to do that.",
            "I don't still need to go.",
        ),
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
        examples=(
            Example(
                "I haven't filed the VAT return.",
                "todo.filed_vat_return",
                "filed the VAT return",
            ),
        ),
        counter_examples=(
            "I haven't seen it.",
            "I haven't finished.",
        ),
    ),
    Rule(
        "obligation",
        "unresolved",
        regex(
            rf"{I_SUBJ}{ADV}\s+(?:have\s+to|must|need\s+to|(?:{APOS}ve|\s+have)\s+got\s+to"
            rf"|gotta)\s+{PHRASE}{END}"
        ),
        obligation_key,
        examples=(
            Example(
                "I have to renew my passport before June.",
                "todo.renew_passport_before",
                "renew my passport before June",
            ),
        ),
        counter_examples=(
            "I have to say, that was great.",
            "I gotta tell you about this.",
        ),
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
        examples=(
            Example(
                "I still haven't managed to sort the garage.",
                "todo.sort_garage",
                "sort the garage",
            ),
        ),
        counter_examples=(
            "I haven't managed to say it.",
            "I haven't managed to do that.",
        ),
    ),
    Rule(
        "note_to_self",
        "unresolved",
        regex(
            r"\b(?:note\s+to\s+self|open\s+item|reminder\s+to\s+self)\s*[:,-]\s*"
            rf"(?:{I_SUBJ}\s+(?:must|have\s+to|need\s+to|should)\s+)?{PHRASE}{END}"
        ),
        obligation_key,
        examples=(
            Example(
                "Note to self: water the plants.",
                "todo.water_plants",
                "water the plants",
            ),
        ),
        counter_examples=(
            "Note to self: say thanks.",
            "Note to self: that.",
        ),
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
        examples=(
            Example(
                "I haven't decided whether to sell the company.",
                "undecided.sell_company",
                "to sell the company",
            ),
        ),
        counter_examples=(
            "I haven't decided yet.",
            "I'm not sure about that.",
        ),
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
        examples=(
            Example(
                "Remind me to pay the invoice on Friday.",
                "reminder.pay_invoice_friday",
                "pay the invoice on Friday",
            ),
        ),
        counter_examples=(
            "Remind me to do that.",
            "That reminds me of home.",
        ),
    ),
    Rule(
        "todo",
        "unresolved",
        re.compile(
            r"(?:\bTODO|\b(?i:to-?do)(?=\s*:))\s*:?\s+(?P<v>[^.;!?\n]+?)"
            r"(?=\s*(?:[.;!?\n]|$))"
        ),
        slot_key("todo"),
        examples=(
            Example(
                "TODO: send the K10 form", "todo.send_k10_form", "send the K10 form"
            ),
        ),
        counter_examples=(
            "What is there to do today?",
            "todo list app",
        ),
    ),
)
