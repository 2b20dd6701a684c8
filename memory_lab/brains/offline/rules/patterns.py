"""The regular-expression fragment language the rules are written in.

Each fragment is a named piece of a phrasing ("I am", a place name, a date, a
value phrase and where it ends), so a rule reads as a sentence shape rather than
a wall of regex. Values are always captured as group `v` so every value stays a
verbatim span of the turn.
"""

from __future__ import annotations

import re

APOS = "['’]"  # straight and typographic apostrophes both occur in chat text


def regex(pattern: str) -> re.Pattern[str]:
    """`pattern` compiled case-insensitively, as every rule is."""
    return re.compile(pattern, re.I)


I_OR_WE = r"\b(?:I|we)"
I_SUBJ = r"\bI"
I_AM = rf"\b(?:I{APOS}m|I\s+am)\b"
ADV = (
    r"(?:\s+(?:really|also|absolutely|totally|actually|still|just|definitely|truly"
    r"|genuinely|currently|now|mostly|usually|generally|honestly|kind\s+of|kinda"
    r"|sort\s+of|do|very|so|especially|particularly|personally|even|always))*"
)
STOPS = (
    r"(?:and|but|because|since|so|which|who|that|although|though|when|while|as"
    r"|whereas|or|now|anymore|any\s+more|these\s+days|nowadays|too|also|either"
    r"|at\s+the\s+moment|right\s+now|for\s+now|lately|instead|if|unless|until|lol"
    r"|haha|btw|such\s+as|like|for)"
)
LIST_STOPS = (
    r"(?:but|because|since|so|which|who|that|although|though|when|while|now"
    r"|anymore|these\s+days|too|also|lol|haha|btw|if|unless)"
)
# Sentence start, allowing the interjections chat turns open with.
LEADIN = r"^(?:(?:hi|hello|hey|well|so|ok|okay|oh|and|also|btw)(?:\s+there)?[,!.]?\s+)*"
# Digits keep their separators ("Python 3.11", "1,500") inside a value.
REPLY_VERB = r"(?:reply|respond|answer|write|talk|speak|chat)"
"""Verbs of an instruction about how the assistant replies ("answer in French")."""
RETRACTION = (
    r"(?:(?:scratch|forget|strike|ignore)\s+that|change\s+of\s+plans?"
    r"|on\s+second\s+thoughts?)\b"
)
"""A speaker taking back what they just said: what follows replaces it."""
PHRASE = r"(?P<v>(?:[^.,;:!?()\[\]\"\n]|(?<=\d)[.,](?=\d))+?)"
LIST = r"(?P<v>[^.;:!?()\[\]\"\n]+?)"
DASH = r"\s+[-–—]+\s"
END = rf"(?=\s*(?:(?!(?<=\d)[.,]\d)[.,;:!?()\[\]\"\n]|$)|\s+{STOPS}\b|{DASH})"
LIST_END = rf"(?=\s*(?:[.;:!?()\[\]\"\n]|$)|\s+{LIST_STOPS}\b|{DASH})"
CAPW = r"(?-i:[A-ZÀ-ÖØ-Þ][\w'’-]*)"
PLACE = (
    rf"(?:the\s+)?(?P<v>{CAPW}(?:(?:\s+|-)(?:(?-i:de|da|del|do|di|la|le|upon|on|am"
    rf"|of|y)\s+)?{CAPW})*)"
)
NAME = rf"(?P<v>{CAPW}(?:\s+{CAPW}){{0,2}})"
MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
DATE = (
    rf"(?P<v>{MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{MONTH}(?:,?\s+\d{{4}})?"
    r"|\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?|\d{4})\b"
)
AMOUNT = (
    r"(?P<v>(?:(?:at\s+most|max(?:imum)?|up\s+to|around|about|under|below|no\s+more"
    r"\s+than|less\s+than|roughly)\s+)?(?:[$€£]\s?)?\d[\d,. ]*(?:k|m)?\b"
    r"(?:\s*(?:kr|sek|usd|eur|dollars|euros|kronor|pounds|bucks))?"
    r"(?:\s*(?:per|a|/)\s*(?:month|week|year|day))?)"
)
REL_SINGLE = (
    r"wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|mother|mom|mum|father"
    r"|dad|boss|manager|best\s+friend|accountant|spouse"
)
REL_MULTI = (
    r"sister|brother|son|daughter|friend|cousin|dog|cat|puppy|kitten|colleague"
    r"|coworker|co-worker|kid|child|aunt|uncle|grandma|grandmother|grandpa"
    r"|grandfather|roommate|neighbou?r|niece|nephew|cofounder|co-founder"
)
REL = rf"(?P<rel>{REL_SINGLE}|{REL_MULTI})"
NUMBER = r"(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"
# What "my"/"our" owns: up to three words, and "X of choice" names X.
POSSESSED = r"(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?(?:\s+of\s+choice)?)"
RELATION_WORD = re.compile(rf"^(?:{REL_SINGLE}|{REL_MULTI})(?:s|es)?$", re.I)

# Corrections: the old value, the new value, and the words that may lead into it.
OLD = r"(?P<old>[^.,;:!?()\n]+?)"
NEW = r"(?P<v>(?:[^.,;:!?()\n]|(?<=\d)[.,](?=\d))+?)"
LEAD = (
    rf"(?:(?:it{APOS}s|it\s+is|i{APOS}m|i\s+am|we{APOS}re|we\s+are|we\s+use|i\s+use|now"
    rf"|but|rather|instead|just|only|actually)[\s,]+)*"
)
