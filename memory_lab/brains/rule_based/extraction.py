"""Fact extraction by rules: first-person statements to fact candidates.

The offline brain needs facts without a model, so this module matches common
phrasings ("my name is", "I'm allergic to", "we decided to", "actually I switched
to") sentence by sentence. It favours precision over recall: a sentence that is a
question, a hypothetical, a joke, hedged by uncertainty or negated before the
match yields nothing, because a wrong fact in memory costs more than a missed one
(seed 000: "never hallucinate memories").

Every value is a verbatim span of the cited turn and every evidence string is the
sentence it came from, so a reviewer can always find the words in the transcript.
Keys are short slots (`name`, `home_city`, `allergy.peanuts`) so that a later
statement of the same slot, above all a correction, supersedes the earlier one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from memory_lab.types import FactCandidate, Message

__all__ = [
    "CATEGORY_IMPORTANCE",
    "CONFIDENCE_CORRECTION",
    "CONFIDENCE_EXPLICIT",
    "CONFIDENCE_HEDGED",
    "extract_candidates",
    "sentence_has_fact",
    "slug",
    "split_sentences",
    "strip_injected_memory",
    "value_class",
]

CONFIDENCE_EXPLICIT = 0.88
CONFIDENCE_CORRECTION = 0.95
CONFIDENCE_HEDGED = 0.55
_CONFIDENCE_HEDGED_CORRECTION = 0.6

# Standing rules and constraints matter on every turn; knowledge fades (seed 000).
CATEGORY_IMPORTANCE: dict[str, float] = {
    "instruction": 0.9,
    "constraint": 0.9,
    "identity": 0.85,
    "decision": 0.75,
    "preference": 0.7,
    "unresolved": 0.6,
    "knowledge": 0.55,
}

_MAX_VALUE_WORDS = 8
_A = "['’]"  # straight and typographic apostrophes both occur in chat text


class FactLike(Protocol):
    """What a correction needs from an earlier fact: its slot and value."""

    subject: str
    category: str
    key: str
    value: str


# --------------------------------------------------------------------------
# Text preparation: injected memory, sentences, slugs
# --------------------------------------------------------------------------

_MEMORY_TAG = re.compile(r"<memory\b[^>]*>.*?</memory\s*>", re.I | re.S)
_MEMORY_TAG_OPEN = re.compile(r"<memory\b.*\Z", re.I | re.S)
_MEMORY_BRACKET_BLOCK = re.compile(
    r"\[[A-Z _-]*(?:MEMORY|CONTEXT)\].*?\[END\b[A-Z _-]*\]", re.S
)
_MEMORY_LINE = re.compile(r"^[ \t]*\[MEMORY[^\n]*$", re.M)


def strip_injected_memory(text: str) -> str:
    """Remove memory blocks a client pasted back into a turn.

    Memory that is echoed into a message must not be re-extracted as if the user
    had said it again, or stale facts would confirm themselves forever. Removed
    spans become line breaks so no sentence is glued across them and every
    remaining sentence is still a substring of the original turn.
    """
    text = _MEMORY_TAG.sub("\n", text)
    text = _MEMORY_TAG_OPEN.sub("\n", text)
    text = _MEMORY_BRACKET_BLOCK.sub("\n", text)
    return _MEMORY_LINE.sub("\n", text)


_ABBREVIATIONS = frozenset(
    "e.g i.e etc vs mr mrs ms dr st prof jr sr no approx ca inc ltd co".split()
)
_BOUNDARY = re.compile(r"[.!?…]+[\"')\]]*(?=\s)|\n+")


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`, each a stripped substring of it.

    A small splitter is enough for chat turns; it keeps "e.g." and "Dr." inside
    their sentences and treats line breaks as boundaries because chat users often
    write one thought per line without punctuation.
    """
    out: list[str] = []
    start = 0
    for match in _BOUNDARY.finditer(text):
        if match.group().startswith("."):
            before = re.search(r"([\w.]+)\.*$", text[start : match.start()])
            word = before.group(1).lower() if before else ""
            if word in _ABBREVIATIONS or re.fullmatch(r"[a-z]", word):
                continue
        piece = text[start : match.end()].strip()
        if piece:
            out.append(piece)
        start = match.end()
    tail = text[start:].strip()
    if tail:
        out.append(tail)
    return out


_SLUG_DROP = frozenset(
    """a an the my our your his her their its some any this that these those to of
    in on at for with and or very lot lots really just also""".split()
)
_SPELLING = {
    "colour": "color",
    "favourite": "favorite",
    "mum": "mother",
    "mom": "mother",
}


def slug(text: str, *, words: int = 3) -> str:
    """A short, stable key fragment: 'the Hiking trips' -> 'hiking_trips'.

    Keys must match across turns that phrase the same thing slightly differently,
    so articles and possessives are dropped and British spellings are folded.
    """
    tokens = [t.lower().replace("’", "'") for t in re.findall(r"[\w+#'’-]+", text)]
    kept = [_SPELLING.get(t, t) for t in tokens if t not in _SLUG_DROP]
    cleaned = [re.sub(r"[^\w+#]+", "_", t).strip("_") for t in kept[:words]]
    return "_".join(t for t in cleaned if t)


# --------------------------------------------------------------------------
# Vocabulary shared by the rules
# --------------------------------------------------------------------------

_LANGUAGES = """swedish english german french spanish norwegian danish finnish dutch
italian portuguese polish russian chinese mandarin cantonese japanese korean arabic
hindi turkish greek ukrainian icelandic estonian czech hungarian hebrew persian farsi
urdu bengali vietnamese thai indonesian""".split()
_NATIONALITIES = """american british canadian australian indian irish scottish mexican
brazilian swede dane norwegian finn""".split()
_DAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
_MONTHS = """january february march april may june july august september october
november december""".split()

# Values whose kind is known get a fixed slot, so "I use K2" and "actually I
# switched to K3" land on the same key even though they share no words.
_VALUE_CLASSES: dict[str, frozenset[str]] = {
    name: frozenset(members.split())
    for name, members in {
        "accounting_standard": "k1 k2 k3 k4 ifrs gaap",
        "diet": "vegan vegetarian pescatarian keto paleo flexitarian gluten-free halal "
        "kosher",
        "programming_language": "python rust golang java javascript typescript c++ c# "
        "ruby kotlin swift scala haskell php julia elixir clojure",
        "editor": "vim neovim emacs vscode pycharm intellij sublime",
        "operating_system": "linux macos ubuntu debian windows",
        "accounting_software": "fortnox visma bokio quickbooks xero",
        "code_host": "github gitlab bitbucket codeberg sourcehut",
        "cloud_provider": "aws azure gcp heroku digitalocean linode hetzner vercel "
        "netlify",
        # only names that are not also ordinary words ("spring", "express")
        "web_framework": "django flask fastapi laravel symfony phoenix nextjs",
        "language": " ".join(_LANGUAGES),
    }.items()
}

_NOT_NAMES = frozenset(
    """i the a an not just so very really sorry fine good great okay ok here there
    back home done ready happy sure glad still also actually currently now today
    tomorrow yesterday tired busy new from in at on well yes no hey hi hello thanks
    mr mrs ms dr same look looky right over out up down me us you we they everyone
    everybody all""".split()
    + _LANGUAGES
    + _NATIONALITIES
    + _DAYS
    + _MONTHS
)
_VAGUE = frozenset(
    """it that this them those these you him her one both all so too there here
    what which something anything everything nothing stuff things your their his
    it's they're he's she's we're you're i'm that's how why when where who yet do
    then""".split()
)
_FILLER_OBJECTS = re.compile(
    r"^(?:to\s+(?:hear|see|think|know|say|help|chat|talk)|the\s+idea|hearing|seeing)\b",
    re.I,
)
_NOT_PLACES = frozenset([*_DAYS, *_MONTHS, "i"])


def value_class(value: str) -> str | None:
    """The fixed slot a value belongs to (e.g. 'K3' -> 'accounting_standard')."""
    words = [w.lower() for w in re.findall(r"[\w+#-]+", value)]
    for key, members in _VALUE_CLASSES.items():
        if any(w in members for w in words):
            return key
    return None


# --------------------------------------------------------------------------
# Regex building blocks
# --------------------------------------------------------------------------

_IM = rf"\b(?:I{_A}m|I\s+am)\b"
_ADV = (
    r"(?:\s+(?:really|also|absolutely|totally|actually|still|just|definitely|truly"
    r"|genuinely|currently|now|mostly|usually|generally|honestly|kind\s+of|kinda"
    r"|sort\s+of|do|very|so|especially|particularly|personally|even|always))*"
)
_STOPS = (
    r"(?:and|but|because|since|so|which|who|that|although|though|when|while|as"
    r"|whereas|or|now|anymore|any\s+more|these\s+days|nowadays|too|also|either"
    r"|at\s+the\s+moment|right\s+now|for\s+now|lately|instead|if|unless|until|lol"
    r"|haha|btw|such\s+as|like|for)"
)
_LIST_STOPS = (
    r"(?:but|because|since|so|which|who|that|although|though|when|while|now"
    r"|anymore|these\s+days|too|also|lol|haha|btw|if|unless)"
)
# Sentence start, allowing the interjections chat turns open with.
_LEADIN = (
    r"^(?:(?:hi|hello|hey|well|so|ok|okay|oh|and|also|btw)(?:\s+there)?[,!.]?\s+)*"
)
# Digits keep their separators ("Python 3.11", "1,500") inside a value.
_PHRASE = r"(?P<v>(?:[^.,;:!?()\[\]\"\n]|(?<=\d)[.,](?=\d))+?)"
_LIST = r"(?P<v>[^.;:!?()\[\]\"\n]+?)"
_DASH = r"\s+[-–—]+\s"
_END = rf"(?=\s*(?:(?!(?<=\d)[.,]\d)[.,;:!?()\[\]\"\n]|$)|\s+{_STOPS}\b|{_DASH})"
_LIST_END = rf"(?=\s*(?:[.;:!?()\[\]\"\n]|$)|\s+{_LIST_STOPS}\b|{_DASH})"
_CAPW = r"(?-i:[A-ZÀ-ÖØ-Þ][\w'’-]*)"
_PLACE = (
    rf"(?:the\s+)?(?P<v>{_CAPW}(?:(?:\s+|-)(?:(?-i:de|da|del|do|di|la|le|upon|on|am"
    rf"|of|y)\s+)?{_CAPW})*)"
)
_NAME = rf"(?P<v>{_CAPW}(?:\s+{_CAPW}){{0,2}})"
_MONTH = (
    r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
    r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
)
_DATE = (
    rf"(?P<v>{_MONTH}\.?\s+\d{{1,2}}(?:st|nd|rd|th)?(?:,?\s+\d{{4}})?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?{_MONTH}(?:,?\s+\d{{4}})?"
    r"|\d{4}-\d{2}-\d{2}|\d{1,2}[/.]\d{1,2}(?:[/.]\d{2,4})?|\d{4})\b"
)
_AMOUNT = (
    r"(?P<v>(?:(?:at\s+most|max(?:imum)?|up\s+to|around|about|under|below|no\s+more"
    r"\s+than|less\s+than|roughly)\s+)?(?:[$€£]\s?)?\d[\d,. ]*(?:k|m)?\b"
    r"(?:\s*(?:kr|sek|usd|eur|dollars|euros|kronor|pounds|bucks))?"
    r"(?:\s*(?:per|a|/)\s*(?:month|week|year|day))?)"
)
_REL_SINGLE = (
    r"wife|husband|partner|girlfriend|boyfriend|fianc[ée]e?|mother|mom|mum|father"
    r"|dad|boss|manager|best\s+friend|accountant|spouse"
)
_REL_MULTI = (
    r"sister|brother|son|daughter|friend|cousin|dog|cat|puppy|kitten|colleague"
    r"|coworker|co-worker|kid|child|aunt|uncle|grandma|grandmother|grandpa"
    r"|grandfather|roommate|neighbou?r|niece|nephew|cofounder|co-founder"
)
_REL = rf"(?P<rel>{_REL_SINGLE}|{_REL_MULTI})"
_NUMBER = r"(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)"

# --------------------------------------------------------------------------
# Sentence filters
# --------------------------------------------------------------------------

_JOKE = re.compile(
    r"\b(?:just\s+kidding|kidding|joking|jk|j/k|haha\s+no|yeah\s+right)\b"
    r"|(?:^|\s)/s\b",
    re.I,
)
_HYPOTHETICAL = re.compile(
    r"\b(?:what\s+if|if|even\s+if|supposing|imagine|imagining|hypothetically"
    rf"|pretend|in\s+theory|let{_A}?s\s+say|would\s+(?:i|we)|(?:i|we)\s+were\s+to"
    r"|wish|dream(?:ing)?\s+of|someday|one\s+day)\b|(?:^|[,;]\s*)suppose\b",
    re.I,
)
_UNCERTAIN = re.compile(
    rf"\b(?:not\s+sure|unsure|don{_A}t\s+know|do\s+not\s+know|wonder(?:ing)?"
    rf"|undecided|haven{_A}t\s+decided|have\s+not\s+decided|can{_A}t\s+decide"
    r"|considering|thinking\s+about|thinking\s+of)\b",
    re.I,
)
_HEDGE = re.compile(
    r"\b(?:i\s+think|i\s+guess|i\s+believe|i\s+suppose|maybe|perhaps|probably"
    rf"|possibly|might|i{_A}d\s+say|kind\s+of|sort\s+of|not\s+certain)\b",
    re.I,
)
_NEGATED_BEFORE = re.compile(
    rf"\b(?:not|never|no\s+longer|don{_A}t|do\s+not|didn{_A}t|doesn{_A}t|won{_A}t"
    rf"|wouldn{_A}t|isn{_A}t|hardly|nobody|no\s+one)\b",
    re.I,
)
_QUESTION_START = re.compile(
    r"^(?:(?:and|so|but|also|ok|okay|hmm|well)[,\s]+)*(?:"
    r"(?:should|would|could|can|do|does|did|shall|will|is|are|am|was|were|have|has)"
    r"\s+(?:i|we|you|it|my|our|there)\b"
    r"|(?:what|why|how|which|who|where|when)\s+(?:should|would|could|can|do|does"
    r"|did|shall|will|is|are|am|was|were|have|has|about)\b)",
    re.I,
)
_REQUEST_START = re.compile(
    r"^(?:(?:and|so|also|ok|okay)[,\s]+)*(?:please\s+)?"
    r"(?:can|could|would|will)\s+you\b",
    re.I,
)
_CORRECTION = re.compile(
    r"^(?:actually|correction|update|sorry|wait|oops|no|nope)\b|\bactually\b"
    r"|\bnot\b.*\bany\s?more\b|\bno\s+longer\b|\bswitched\b|\bchanged\s+(?:it\s+|that"
    r"\s+)?to\b|\bnow\s*[.!]?$|\binstead\b|\bI\s+meant\b",
    re.I,
)

# --------------------------------------------------------------------------
# Rules
# --------------------------------------------------------------------------

KeyFn = Callable[[re.Match[str], str], "str | None"]


@dataclass(frozen=True)
class Rule:
    """One phrasing that states a fact; `key` names the slot or rejects it."""

    name: str
    category: str
    pattern: re.Pattern[str]
    key: KeyFn
    request_ok: bool = False
    """May fire inside a polite request ("can you remind me to ...?")."""
    open_item: bool = False
    """States uncertainty itself, so uncertainty markers must not block it."""
    multi: bool = False
    """The value may list several objects, each its own fact."""
    to_assistant: bool = False
    """Only a user talking to the assistant means it as a standing instruction;
    between two people ("don't give up!") it is encouragement."""


def _const(key: str) -> KeyFn:
    return lambda _m, _v: key


def _slot(prefix: str) -> KeyFn:
    def key(_m: re.Match[str], value: str) -> str | None:
        s = slug(value)
        return f"{prefix}.{s}" if s else None

    return key


def _classed(prefix: str) -> KeyFn:
    """Key by value class when known ('K2' -> accounting_standard), else a slot."""

    def key(m: re.Match[str], value: str) -> str | None:
        return value_key(value, "language") or _slot(prefix)(m, value)

    return key


def _choice(m: re.Match[str], value: str) -> str | None:
    # "K2 over K3" and "K3 over K2" must share a key so the later choice wins.
    other = m.groupdict().get("o") or ""
    known = value_key(value, "language") or value_key(other, "language")
    if known:
        return known
    a, b = slug(value), slug(other)
    if not a:
        return None
    return "choice." + ("_or_".join(sorted([a, b])) if b else a)


def _relation_key(m: re.Match[str], _value: str, attribute: str) -> str:
    rel = re.sub(r"\s+", "_", m.group("rel").lower()).replace("-", "")
    return f"{_SPELLING.get(rel, rel)}.{attribute}"


def _relation_name(m: re.Match[str], value: str) -> str | None:
    if value.split()[0].lower() in _NOT_NAMES:
        return None
    rel = m.group("rel").lower()
    if re.fullmatch(_REL_SINGLE, rel, re.I):
        return _relation_key(m, value, "name")
    return _relation_key(m, value, slug(value) or "name")


def _name(_m: re.Match[str], value: str) -> str | None:
    return None if value.split()[0].lower() in _NOT_NAMES else "name"


def _place(key: str) -> KeyFn:
    def fn(_m: re.Match[str], value: str) -> str | None:
        if value.split()[0].lower() in _NOT_PLACES or value_class(value):
            return None
        return key

    return fn


def _age(_m: re.Match[str], value: str) -> str | None:
    return "age" if 0 < int(value) <= 120 else None


def _born(_m: re.Match[str], value: str) -> str:
    if re.fullmatch(r"\d{4}", value):
        return "birth_year"
    return "birth_date"


def _work_in(_m: re.Match[str], value: str) -> str | None:
    first = value.split()[0]
    if value.isupper() or not first[0].isupper() or first.lower() in _NOT_PLACES:
        return "work_field"
    return "work_city"


def _employer(m: re.Match[str], value: str) -> str | None:
    bad = {"home", "night", "nights", "weekends", "noon", "midnight", "a living"}
    return None if value.lower() in bad else "employer"


def _count(m: re.Match[str], _value: str) -> str | None:
    noun = m.group("noun").lower()
    if noun in _COUNT_IGNORED:
        return None
    singular = {"children": "child", "people": "person", "kids": "child"}.get(noun)
    singular = singular or re.sub(r"(?<=[^s])s$", "", noun)
    return f"{singular}_count"


_COUNT_IGNORED = frozenset(
    """minutes hours days weeks months years times questions problems things ideas
    issues options reasons ways more less""".split()
)

_CANNOT_IGNORED = frozenset(
    """believe wait stand remember imagine thank tell say decide help find figure seem
    get stop eat understand see hear recall think wrap""".split()
)


def _cannot(m: re.Match[str], value: str) -> str | None:
    first = value.split()[0].lower()
    return None if first in _CANNOT_IGNORED else _slot("cannot")(m, value)


def _answer_length(_m: re.Match[str], value: str) -> str:
    return (
        "answer_length"
        if re.search(r"short|brief|concise", value, re.I)
        else ("answer_style")
    )


def _plan(m: re.Match[str], value: str) -> str | None:
    if re.match(r"(?:be\s+honest|say|tell\s+you|ask)\b", value, re.I):
        return None
    return _slot("plan")(m, value)


def _prefer(m: re.Match[str], value: str) -> str | None:
    key = _choice(m, value)
    return key.replace("choice.", "prefers.", 1) if key else None


def _always_never(_m: re.Match[str], value: str) -> str | None:
    word, _, rest = value.partition(" ")
    return f"{word.lower()}.{slug(rest)}" if slug(rest) else None


def _dont(_m: re.Match[str], value: str) -> str | None:
    rest = re.sub(r"^(?:don\S?t|do\s+not)\s+(?:ever\s+)?", "", value, flags=re.I)
    return f"never.{slug(rest)}" if slug(rest) else None


_VERSION = re.compile(r"^(?P<name>[A-Za-z][\w+#.-]*?)\s*v?\d+(?:\.\d+)+\b")


def value_key(value: str, hint: str = "") -> str | None:
    """The fixed slot a value implies, or None: its class, or its version slot.

    'Python 3.11' names a version rather than a language, so it gets its own slot
    ('python_version') and a later upgrade supersedes it. A language class is only
    trusted when `hint` (the words that introduced the value) mentions language,
    because 'Swedish' is as often a nationality as a language.
    """
    version = _VERSION.match(value.strip())
    if version:
        return f"{slug(version.group('name'), words=1)}_version"
    cls = value_class(value)
    if cls == "language" and "language" not in hint.lower():
        return None
    return cls


def _named_value(value: str) -> bool:
    """Whether a value names something: a proper noun, a number or a known class.

    Possessive statements are common in chat ("my day was long"), but only the ones
    that end in a name or a number are facts worth remembering.
    """
    words = value.split()
    if not words or len(words) > 5:
        return False
    first = words[1] if words[0].lower() == "the" and len(words) > 1 else words[0]
    if first in {"I", "I'm", "I’m"} or first.lower() in _VAGUE:
        return False
    return first[0].isupper() or first[0].isdigit() or value_class(first) is not None


# Lone nouns that other rules own or that are too vague to be a slot ("my day is
# Monday-shaped"); with a modifier they can be ("financial year", "business account").
_NP_BLOCKED_ALONE = frozenset(
    """name names birthday budget job role title position profession occupation
    company business firm startup plan plans idea ideas point guess question answer
    advice thought thoughts bad life day week weekend year month night morning evening
    mind heart head turn fault pleasure gosh god goodness""".split()
)
# Openings that make the phrase someone else's slot or not a current one.
_NP_BLOCKED_FIRST = frozenset(
    "fav favorite favourite fave own only first last next old former".split()
)
_NP_STOP = frozenset(
    """and or but i it he she they we you that this who which what when where there
    here not no so to of in on at for with from as by if than then just also said
    says thinks told still really""".split()
)
_RELATION_WORD = re.compile(rf"^(?:{_REL_SINGLE}|{_REL_MULTI})(?:s|es)?$", re.I)
_START_VERBS = frozenset("starts begins opens start begin open".split())
_END_VERBS = frozenset("ends closes finishes end close finish".split())


def _np_slot(np: str) -> str | None:
    """A slot named after a possessed noun phrase: 'main bank account' -> key.

    The phrase is the user's own name for the thing, so it is the most stable key a
    rule can derive without a domain table; relations and vague heads are refused.
    """
    np = re.sub(r"\s+of\s+choice$", "", np.strip(), flags=re.I)
    words = [w.lower() for w in np.split()]
    if not words or words[0] in _NP_BLOCKED_FIRST:
        return None
    if len(words) == 1 and words[0] in _NP_BLOCKED_ALONE:
        return None
    if any(w in _NP_STOP or _RELATION_WORD.match(w) for w in words):
        return None
    return slug(np) or None


def _possessive(m: re.Match[str], value: str) -> str | None:
    if not _named_value(value):
        return None
    np = m.group("np")
    key = _np_slot(np)
    if key is None:
        return None
    verb = (m.groupdict().get("verb") or "").lower()
    if verb in _START_VERBS:
        key += "_start"
    elif verb in _END_VERBS:
        key += "_end"
    return value_key(value, np) or key


_WE_VERB_SLOTS = {
    "deploy": "deploy_target",
    "host": "hosting",
    "bank": "bank",
    "run": "platform",
    "store": "storage",
    "keep": "storage",
}


def _we_verb(m: re.Match[str], value: str) -> str | None:
    # "we host on Fridays" says when, not where
    if not _named_value(value) or value.split()[0].lower().rstrip("s") in _NOT_PLACES:
        return None
    groups = m.groupdict()
    verb = (groups.get("verb") or groups.get("verb2") or "").lower()
    obj = groups.get("obj") or groups.get("obj2") or ""
    owned = re.match(r"(?:my|our|the)\s+(.+)", obj, re.I)
    fallback = (_np_slot(owned.group(1)) if owned else None) or _WE_VERB_SLOTS.get(verb)
    return value_key(value) or fallback


def _runs_on(_m: re.Match[str], value: str) -> str | None:
    return (value_key(value) or "runs_on") if _named_value(value) else None


_OBLIGATION_IGNORED = frozenset(
    """say admit tell thank agree ask be go leave run confess mention apologize
    apologise wait see know think warn hand give get hear share laugh dash""".split()
)


def _obligation(m: re.Match[str], value: str) -> str | None:
    if value.split()[0].lower() in _OBLIGATION_IGNORED:
        return None
    return _slot("todo")(m, value)


def _rather(m: re.Match[str], value: str) -> str | None:
    return None if value.split()[0].lower() == "not" else _prefer(m, value)


def _favorite_of(m: re.Match[str], _value: str) -> str | None:
    kind = slug(m.group("k") or "", words=2)
    return f"favorite_{kind}" if kind else "favorite"


def _r(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


_I = r"\b(?:I|we)"
# What "my"/"our" owns: up to three words, and "X of choice" names X.
_POSSESSED = r"(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*){0,2}?(?:\s+of\s+choice)?)"
_ME = r"\bI"

RULES: tuple[Rule, ...] = (
    # identity: names, places, age, dates, relationships
    Rule("name", "identity", _r(rf"\bmy\s+name(?:{_A}s|\s+is)\s+{_NAME}"), _name),
    Rule(
        "name_call_me",
        "identity",
        _r(rf"\b(?:call\s+me|I\s+go\s+by|people\s+call\s+me)\s+{_NAME}"),
        _name,
        request_ok=True,
    ),
    Rule(
        "name_intro",
        "identity",
        _r(
            rf"{_LEADIN}{_IM}\s+{_NAME}"
            rf"(?=\s*(?:[,.!;]|$)|\s+(?:and|from|here|by\s+the\s+way|btw)\b)"
        ),
        _name,
    ),
    Rule(
        "name_here",
        "identity",
        _r(rf"{_LEADIN}{_NAME}\s+here(?=\s*(?:[,.!;]|$))"),
        _name,
    ),
    Rule(
        "home_city",
        "identity",
        _r(
            rf"(?:{_ME}{_ADV}\s+(?:live|reside|stay)|{_IM}{_ADV}\s+(?:based|living"
            rf"|located|settled))\s+in\s+{_PLACE}"
        ),
        _place("home_city"),
    ),
    Rule(
        "moved_to",
        "identity",
        _r(rf"{_ME}(?:{_A}ve|\s+have)?{_ADV}\s+(?:moved|relocated)\s+to\s+{_PLACE}"),
        _place("home_city"),
    ),
    Rule(
        "hometown",
        "identity",
        _r(rf"(?:{_IM}{_ADV}|{_ME}\s+come)\s+(?:originally\s+)?from\s+{_PLACE}"),
        _place("hometown"),
    ),
    Rule(
        "grew_up",
        "identity",
        _r(rf"{_ME}\s+grew\s+up\s+in\s+{_PLACE}"),
        _place("hometown"),
    ),
    Rule(
        "birthplace",
        "identity",
        _r(rf"{_ME}\s+was\s+born\s+in\s+{_PLACE}"),
        _place("birthplace"),
    ),
    Rule(
        "born_on", "identity", _r(rf"{_ME}\s+was\s+born\s+(?:on|in)\s+{_DATE}"), _born
    ),
    Rule(
        "birthday",
        "identity",
        _r(rf"\bmy\s+birthday\s+(?:is|falls)\s+(?:on\s+)?{_DATE}"),
        _const("birthday"),
    ),
    Rule(
        "age",
        "identity",
        _r(
            rf"(?:{_IM}|{_ME}\s+(?:just\s+)?turned)\s+(?P<v>\d{{1,3}})"
            rf"(?:\s*(?:years?|yrs?)(?:[\s-]*old)?)?"
            rf"(?=\s*(?:[.,;!]|$)|\s+(?:and|now|this|last|next)\b)"
        ),
        _age,
    ),
    Rule(
        "employer",
        "identity",
        _r(
            rf"(?:{_ME}{_ADV}\s+work|{_IM}{_ADV}\s+(?:working|employed))\s+(?:at|for|by)"
            rf"\s+{_PHRASE}{_END}"
        ),
        _employer,
    ),
    Rule(
        "job_title",
        "identity",
        _r(
            rf"(?:(?:{_ME}{_ADV}\s+work|{_IM}{_ADV}\s+working)(?:\s+(?:at|for)\s+"
            rf"[^.,;:!?\n]+?)?\s+as"
            rf"|\bmy\s+(?:job|role|position|job\s+title|title|profession|occupation)"
            rf"\s+is)\s+(?:an?\s+)?{_PHRASE}{_END}"
        ),
        _const("job_title"),
    ),
    Rule(
        "job_by_day",
        "identity",
        _r(
            rf"\bby\s+(?:day|profession|trade)\s*,?\s+{_IM}{_ADV}\s+(?:an?\s+)?"
            rf"{_PHRASE}{_END}"
        ),
        _const("job_title"),
    ),
    Rule(
        "job_by_trade",
        "identity",
        _r(rf"{_IM}\s+an?\s+{_PHRASE}\s+by\s+(?:profession|trade)\b"),
        _const("job_title"),
    ),
    Rule(
        "work_in",
        "identity",
        _r(rf"(?:{_ME}{_ADV}\s+work|{_IM}{_ADV}\s+working)\s+in\s+{_PHRASE}{_END}"),
        _work_in,
    ),
    Rule(
        "relation_name",
        "identity",
        _r(
            rf"\bmy\s+{_REL}(?:{_A}s\s+name\s+is|\s+is\s+(?:called|named)|\s+(?:called"
            rf"|named)|,)?\s+{_NAME}"
        ),
        _relation_name,
    ),
    Rule(
        "relation_apposition",
        "identity",
        _r(rf"^{_LEADIN}{_NAME},\s+my\s+{_REL}\s*,"),
        _relation_name,
    ),
    Rule(
        "speaks",
        "identity",
        _r(rf"{_ME}{_ADV}\s+speak\s+(?P<v>(?-i:[A-Z])\w+)(?!\s+(?:to|with)\b)"),
        lambda _m, v: f"speaks.{v.lower()}" if v.lower() in _LANGUAGES else None,
    ),
    # third parties: kept apart from the user's own slots
    Rule(
        "relation_home",
        "knowledge",
        _r(
            rf"\bmy\s+{_REL}(?:\s+{_CAPW})?{_ADV}\s+(?:lives|is\s+living|is\s+based"
            rf"|resides|moved)"
            rf"\s+(?:in|to)\s+{_PLACE}"
        ),
        lambda m, v: _relation_key(m, v, "home_city"),
    ),
    Rule(
        "relation_employer",
        "knowledge",
        _r(
            rf"\bmy\s+{_REL}(?:\s+{_CAPW})?{_ADV}\s+works\s+(?:at|for)\s+{_PHRASE}{_END}"
        ),
        lambda m, v: _relation_key(m, v, "employer"),
    ),
    # preferences
    Rule(
        "favorite",
        "preference",
        _r(
            rf"\bmy{_ADV}\s+(?:all[\s-]time\s+)?(?:fav(?:ou?rite)?|fave)\s+"
            rf"(?P<k>[\w\s-]{{1,30}}?)\s+(?:is|are|has\s+to\s+be|would\s+be)\s+"
            rf"{_PHRASE}{_END}"
        ),
        lambda m, _v: (
            f"favorite_{slug(m.group('k'), words=2)}"
            if slug(m.group("k"), words=2)
            else None
        ),
    ),
    Rule(
        "favorite_inverse",
        "preference",
        _r(
            rf"{_LEADIN}(?:\w+,\s+)?(?P<v>\w[\w\s'’-]{{0,30}}?)\s+(?:is|are)\s+"
            r"(?:(?:still|now|definitely|easily|probably)\s+)?my\s+(?:new\s+"
            r"|all[\s-]time\s+|absolute\s+)?(?:fav(?:ou?rite)?|fave)"
            r"(?:\s+(?!now\b|these\b)(?P<k>[a-z]+(?:\s+[a-z]+)?))?"
            r"(?=\s*(?:[.,;:!?]|$)|\s+(?:now|these\s+days|at\s+the\s+moment|and|but)"
            r"\b)"
        ),
        _favorite_of,
    ),
    Rule(
        "rather",
        "preference",
        _r(
            rf"{_ME}(?:{_A}d|\s+would){_ADV}\s+rather\s+(?:use|write|code\s+in|have"
            r"|eat|drink|read|watch|listen\s+to|play|work\s+(?:in|with)|go\s+with"
            rf"|stick\s+(?:with|to))\s+{_PHRASE}"
            rf"(?:\s+(?:than|over|instead\s+of)\s+(?P<o>[^.,;:!?\n]+?))?{_END}"
        ),
        _rather,
    ),
    Rule(
        "prefer",
        "preference",
        _r(
            rf"{_ME}(?:{_A}d|\s+would)?{_ADV}\s+prefer\s+{_PHRASE}"
            rf"(?:\s+(?:over|to|rather\s+than|instead\s+of)\s+(?P<o>[^.,;:!?\n]+?))?"
            rf"{_END}"
        ),
        _prefer,
    ),
    Rule(
        "likes",
        "preference",
        _r(
            rf"(?:{_ME}{_ADV}\s+(?:like|love|enjoy|adore)|{_ME}(?:{_A}ve|\s+have){_ADV}"
            rf"\s+been{_ADV}\s+(?:more\s+)?into|{_IM}{_ADV}\s+(?:into|keen\s+on"
            rf"|passionate\s+about|(?:a\s+)?(?:big\s+|huge\s+)?fan\s+of))\s+{_LIST}"
            rf"{_LIST_END}"
        ),
        _slot("likes"),
        multi=True,
    ),
    Rule(
        "dislikes",
        "preference",
        _r(
            rf"{_ME}{_ADV}\s+(?:hate|dislike|detest|loathe|can{_A}?t\s+stand|cannot"
            rf"\s+stand|(?:don{_A}?t|do\s+not)\s+(?:really\s+)?(?:like|enjoy|love))\s+"
            rf"{_LIST}{_LIST_END}"
        ),
        _slot("dislikes"),
        multi=True,
    ),
    # constraints
    Rule(
        "allergy",
        "constraint",
        _r(
            rf"{_IM}{_ADV}\s+(?:severely\s+|deathly\s+|highly\s+)?allergic\s+to\s+{_LIST}"
            rf"{_LIST_END}"
        ),
        _slot("allergy"),
        multi=True,
    ),
    Rule(
        "allergy_noun",
        "constraint",
        _r(rf"{_ME}\s+have\s+(?:an?\s+)?(?:severe\s+|mild\s+)?(?P<v>\w+)\s+allergy\b"),
        lambda _m, v: None if v.lower() in _VAGUE else f"allergy.{slug(v)}",
    ),
    Rule(
        "intolerance",
        "constraint",
        _r(rf"{_IM}{_ADV}\s+(?P<v>[\w-]+)\s+intolerant\b"),
        _slot("intolerance"),
    ),
    Rule(
        "diet",
        "constraint",
        _r(
            rf"(?:{_IM}{_ADV}\s+(?:an?\s+)?|{_ME}\s+(?:eat|follow|keep)\s+(?:an?\s+)?"
            rf"|{_IM}\s+on\s+an?\s+)(?P<v>vegan|vegetarian|pescatarian|keto|paleo"
            rf"|flexitarian|gluten[\s-]free|halal|kosher)\b"
        ),
        _const("diet"),
    ),
    Rule(
        "no_eat",
        "constraint",
        _r(
            rf"{_ME}\s+(?:don{_A}?t|do\s+not|never|can{_A}?t|cannot|can\s+not)"
            rf"\s+eat\s+{_LIST}{_LIST_END}"
        ),
        _slot("diet.no"),
        multi=True,
    ),
    Rule(
        "cannot",
        "constraint",
        _r(
            rf"{_ME}\s+(?:can{_A}?t|cannot|can\s+not|am\s+unable\s+to)\s+{_PHRASE}{_END}"
        ),
        _cannot,
    ),
    Rule(
        "budget",
        "constraint",
        _r(
            rf"(?:\b(?:my|our|the)\s+budget\s+(?:is|{_A}s|of)|\bbudget\s+(?:is\s+)?"
            rf"(?=at\s+most|max)|{_ME}\s+can\s+(?:only\s+)?spend)\s+(?:is\s+)?{_AMOUNT}"
        ),
        _const("budget"),
    ),
    Rule(
        "runs_on",
        "constraint",
        _r(
            r"\b(?:everything|all\s+(?:of\s+)?(?:it|this|our\s+code|the\s+code)"
            r"|(?:the|our|my)\s+(?:code|app|application|service|stack|project|codebase"
            r"|site|website|tool|scripts?))\s+(?:has|have|needs?|must|should)\s+"
            rf"(?:to\s+)?(?:run|work|be\s+compatible)\s+(?:on|with|in|under)\s+"
            rf"{_PHRASE}{_END}"
        ),
        _runs_on,
    ),
    # instructions to the assistant
    Rule(
        "always_never",
        "instruction",
        _r(
            rf"(?:{_LEADIN}|\b(?:please|you\s+should|i\s+want\s+you\s+to"
            r"|make\s+sure\s+(?:to|you)|from\s+now\s+on,?)\s+)(?P<v>(?:always|never)\s+(?!(?:mind|again|ever"
            r"|been|good|great|here|there|up|happy|glad|nice|fun|a|an|the|so|more|ready"
            r"|welcome|on|in|at|my|your|his|her|their|our|its|it|that|this|too)\b)"
            r"(?![a-z]+[^s]s\b)[^.;!?\n]+?)(?=\s*(?:[.;!?\n]|$))"
        ),
        _always_never,
        request_ok=True,
        to_assistant=True,
    ),
    Rule(
        "dont",
        "instruction",
        _r(
            rf"{_LEADIN}(?:please\s+)?(?P<v>(?:don{_A}?t|do\s+not)\s+(?:ever\s+)?"
            rf"(?!worry|mind|know|think|be\s+sorry|forget|get\s+me\s+wrong)[^.;!?\n]+?)"
            r"(?=\s*(?:[.;!?\n]|$))"
        ),
        _dont,
        to_assistant=True,
    ),
    Rule(
        "remember_to",
        "instruction",
        _r(
            rf"\b(?:remember|don{_A}?t\s+forget|do\s+not\s+forget)\s+to\s+{_PHRASE}{_END}"
        ),
        _slot("remember"),
        request_ok=True,
        to_assistant=True,
    ),
    Rule(
        "reply_language",
        "instruction",
        _r(
            r"\b(?:reply|respond|answer|write|talk|speak|chat)(?:\s+to\s+me)?\s+"
            r"(?:only\s+|always\s+)?in\s+(?P<v>(?-i:[A-Z])\w+)"
            r"|\byour\s+(?:answers|replies|responses|messages)\s+(?:to\s+me\s+)?"
            r"(?:only\s+|always\s+)?in\s+(?P<v2>(?-i:[A-Z])\w+)"
        ),
        lambda _m, v: "reply_language" if v.lower() in _LANGUAGES else None,
        request_ok=True,
    ),
    Rule(
        "answer_length",
        "instruction",
        _r(
            r"\b(?:keep\s+(?:your\s+|the\s+)?(?:answers?|replies|reply|responses?|it"
            r"|things|explanations?)\s+|be\s+(?:more\s+)?)(?P<v>short|brief|concise"
            r"|shorter|simple|simpler|detailed)\b"
        ),
        _answer_length,
        request_ok=True,
    ),
    # decisions
    Rule(
        "choice",
        "decision",
        _r(
            rf"(?:{_I}(?:{_A}ve|\s+have)?{_ADV}\s+(?:chose|chosen|picked(?!\s+up\b)|selected|went"
            rf"\s+with|opted\s+for|settled\s+on)|{_I}(?:{_A}ll|\s+will|{_A}re|\s+are)"
            rf"\s+(?:go|going)\s+with|\blet{_A}?s\s+go\s+with|\bdecided\s+to\s+(?:go\s+with"
            rf"|use|stick\s+with|switch\s+to))\s+{_PHRASE}"
            rf"(?:\s+(?:over|instead\s+of|rather\s+than)\s+(?P<o>[^.,;:!?\n]+?))?{_END}"
        ),
        _choice,
    ),
    Rule(
        "decided",
        "decision",
        _r(
            rf"{_I}(?:{_A}ve|\s+have)?{_ADV}\s+(?:decided|agreed|resolved)"
            rf"(?:\s+(?:to|on|that))?\s+{_PHRASE}{_END}"
        ),
        _classed("decided"),
    ),
    Rule(
        "plan",
        "decision",
        _r(
            rf"(?:(?:{_IM}|\bwe{_A}re|\bwe\s+are){_ADV}\s+(?:going\s+to|gonna"
            rf"|planning\s+to)|{_I}\s+(?:plan|intend)\s+to)\s+{_PHRASE}{_END}"
        ),
        _plan,
    ),
    # knowledge
    Rule(
        "uses",
        "knowledge",
        _r(
            rf"(?:{_I}{_ADV}\s+use|{_IM}{_ADV}\s+using|\bwe{_A}re{_ADV}\s+using)\s+"
            rf"{_PHRASE}{_END}"
        ),
        _classed("uses"),
    ),
    Rule(
        "possessive",
        "knowledge",
        _r(
            rf"\b(?:my|our)\s+{_POSSESSED}(?:\s+(?:is|are)|{_A}s)\s+"
            rf"(?:(?:with|on|in|at|into|through|via)\s+)?{_PHRASE}{_END}"
        ),
        _possessive,
    ),
    Rule(
        "possessive_verb",
        "knowledge",
        _r(
            rf"\b(?:my|our)\s+{_POSSESSED}\s+(?P<verb>lives?|sits?|goes|go|runs?|starts?"
            r"|begins?|opens?|ends?|closes?|finishes|falls?|(?:is|are)\s+(?:hosted|kept"
            r"|stored|held|based|banked|managed|handled|paid))\s+(?:on|in|into|at|with"
            rf"|to|through|via|by)\s+{_PHRASE}{_END}"
        ),
        _possessive,
    ),
    Rule(
        "for_me",
        "knowledge",
        _r(
            rf"^{_LEADIN}(?:the\s+)?(?P<np>[a-z][\w-]*(?:\s+[a-z][\w-]*)?)\s+for\s+"
            r"(?:me|us)\s+(?:is|are|(?P<verb>starts?|begins?|opens?|ends?|closes?"
            rf"|finishes))\s+(?:(?:on|in|at)\s+)?{_PHRASE}{_END}"
        ),
        _possessive,
    ),
    Rule(
        "we_verb",
        "knowledge",
        _r(
            rf"{_I}{_ADV}\s+(?:(?P<verb>deploy|host|bank)(?:\s+(?P<obj>(?:everything"
            r"|it|all|(?:my|our|the)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?)))?"
            r"|(?P<verb2>run|store|keep)\s+(?P<obj2>(?:my|our|the)\s+[a-z][\w-]*"
            r"(?:\s+[a-z][\w-]*)?))\s+(?:to|on|with|at|in|into)\s+"
            rf"{_PHRASE}{_END}"
        ),
        _we_verb,
    ),
    Rule(
        "count",
        "knowledge",
        _r(
            rf"{_I}{_ADV}\s+(?:have|employ|own)\s+(?P<v>{_NUMBER}\s+(?:[\w-]+\s+)?"
            r"(?P<noun>(?!(?:and|or|but|so|which|that|who|in|at)\b)[a-z]+))\b"
        ),
        _count,
    ),
    Rule(
        "fiscal_year",
        "knowledge",
        _r(
            rf"\b(?:our|my|the)\s+fiscal\s+year\s+(?:is|runs|starts|ends|goes)\s+"
            rf"{_PHRASE}{_END}"
        ),
        _const("fiscal_year"),
    ),
    Rule(
        "company_name",
        "knowledge",
        _r(
            rf"\b(?:our|my)\s+(?:company|business|firm|startup)(?:{_A}s\s+name\s+is"
            rf"|\s+is\s+(?:called|named))\s+{_NAME}"
        ),
        _const("company_name"),
    ),
    Rule(
        "business",
        "knowledge",
        _r(rf"{_ME}\s+(?:run|own)\s+(?:an?\s+|my\s+own\s+)?{_PHRASE}{_END}"),
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
    # open items
    Rule(
        "still_need",
        "unresolved",
        _r(rf"{_I}\s+still\s+(?:need|have)\s+to\s+{_PHRASE}{_END}"),
        _slot("todo"),
    ),
    Rule(
        "not_done",
        "unresolved",
        _r(
            rf"{_I}\s+(?:haven{_A}?t|have\s+not)\s+(?:yet\s+)?(?P<v>(?:finished|filed|paid"
            rf"|reviewed|submitted|sent|booked|completed|started|fixed|signed|closed)"
            rf"\s+[^.,;:!?\n]+?){_END}"
        ),
        _slot("todo"),
    ),
    Rule(
        "obligation",
        "unresolved",
        _r(
            rf"{_ME}{_ADV}\s+(?:have\s+to|must|need\s+to|(?:{_A}ve|\s+have)\s+got\s+to"
            rf"|gotta)\s+{_PHRASE}{_END}"
        ),
        _obligation,
    ),
    Rule(
        "not_managed",
        "unresolved",
        _r(
            rf"{_I}\s+(?:still\s+)?(?:haven{_A}?t|have\s+not)\s+(?:yet\s+)?(?:managed"
            r"|gotten\s+around|got\s+(?:a)?round|had\s+(?:the\s+)?(?:time|chance)"
            rf"|found\s+(?:the\s+)?time)\s+to\s+{_PHRASE}{_END}"
        ),
        _obligation,
    ),
    Rule(
        "note_to_self",
        "unresolved",
        _r(
            r"\b(?:note\s+to\s+self|open\s+item|reminder\s+to\s+self)\s*[:,-]\s*"
            rf"(?:{_ME}\s+(?:must|have\s+to|need\s+to|should)\s+)?{_PHRASE}{_END}"
        ),
        _obligation,
    ),
    Rule(
        "undecided",
        "unresolved",
        _r(
            rf"(?:(?:{_I}\s+(?:haven{_A}?t|have\s+not)\s+(?:yet\s+)?decided|{_IM}\s+"
            rf"(?:still\s+)?(?:not\s+sure|unsure|undecided)|{_I}\s+can{_A}?t\s+decide)"
            rf"(?:\s+yet)?\s+(?:about|on|whether|if|what|which|how|when|between)"
            rf"|{_IM}\s+(?:still\s+)?(?:deciding|considering|thinking\s+about)"
            rf"(?:\s+(?:whether|if))?)\s+{_PHRASE}{_END}"
        ),
        _slot("undecided"),
        open_item=True,
    ),
    Rule(
        "remind_me",
        "unresolved",
        _r(
            rf"(?:{_LEADIN}|\b(?:please|you|pls|and)\s+)remind\s+me\s+(?:to|about)\s+{_PHRASE}"
            rf"{_END}"
        ),
        _slot("reminder"),
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
        _slot("todo"),
    ),
)


def _trim(value: str) -> str:
    """Drop trailing time words and an article, cap length; stays a substring."""
    value = value.strip(" \t'’\"-")
    value = re.sub(
        r"(?:\s+(?:now|anymore|too|also|as\s+well|a\s+lot|so\s+much|very\s+much|lately"
        r"|these\s+days|nowadays|at\s+the\s+moment|right\s+now|for\s+now|instead"
        r"|already|though|anyway|really|lol|haha|today|again|yet|soon|later"
        r"|after\s+all|at\s+some\s+point|from\s+(?:now|here)\s+on|please))+$",
        "",
        value,
        flags=re.I,
    )
    value = re.sub(
        r"(?<=\S)\s+(?:to|of|in|on|at|with|for|about|from|into|by|and|or)$",
        "",
        value,
        flags=re.I,
    )
    value = re.sub(r"^(?:an?|some)\s+(?=\S)", "", value, flags=re.I)
    words = re.match(rf"\S+(?:\s+\S+){{0,{_MAX_VALUE_WORDS - 1}}}", value)
    return words.group() if words else ""


def _items(value: str) -> list[str]:
    parts = re.split(r"\s*,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+|\s*&\s*", value)
    return [p for p in parts if p and len(p.split()) <= 4]


# --------------------------------------------------------------------------
# Corrections that name only the new value
# --------------------------------------------------------------------------

_OLD = r"(?P<old>[^.,;:!?()\n]+?)"
_NEW = r"(?P<v>(?:[^.,;:!?()\n]|(?<=\d)[.,](?=\d))+?)"
_LEAD = (
    rf"(?:(?:it{_A}s|it\s+is|i{_A}m|i\s+am|we{_A}re|we\s+are|we\s+use|i\s+use|now"
    rf"|but|rather|instead|just|only|actually)[\s,]+)*"
)
# "we moved to K3", "I moved my main account to Chase", "we rewrote the API in
# Django": a change of what is used, whose slot is found from what is known.
_SWITCH = _r(
    rf"{_I}(?:{_A}ve|\s+have)?{_ADV}(?:\s+(?:finally|eventually|recently|since))?"
    r"\s+(?P<verb>switched|changed|migrated|converted|moved|upgraded|downgraded"
    r"|transferred|ported|rewrote|rewritten|rebuilt|gone\s+over|went\s+over)"
    r"(?:\s+(?:over|back))?(?:\s+(?P<obj>(?:all\s+)?(?:my|our|the)\s+[a-z][\w-]*"
    r"(?:\s+[a-z][\w-]*){0,2}?))?"
    rf"(?:\s+from\s+{_OLD})?\s+(?:to|into|onto|in)\s+{_NEW}{_END}"
)
# "switch to French instead, please", "let's do Dutch from here on": a request
# that changes a standing instruction.
_SWITCH_IMPERATIVE = _r(
    r"^(?:(?:actually|ok|okay|so|and|no|now|then|oh)[,\s]+)*(?:please\s+)?"
    r"(?:(?:switch|change|go)(?:\s+(?:back|over))?\s+to|let['’]?s\s+(?:do|use|switch"
    rf"\s+to|speak|write\s+in|talk\s+in))\s+{_NEW}{_END}"
)
_CORRECTION_RULES: tuple[re.Pattern[str], ...] = (
    _r(rf"\bnot\s+{_OLD}\s+any\s?more\b[\s,;:.!-]*{_LEAD}{_NEW}{_END}"),
    _r(rf"\bno\s+longer\s+{_OLD}[\s,;:.!-]+{_LEAD}{_NEW}{_END}"),
    _r(
        rf"^(?:(?:no|nope|actually|correction|update|sorry|wait)\b[\s,:!-]*)+"
        rf"(?:it{_A}s|it\s+is|that{_A}s|that\s+is)\s+(?:actually\s+)?{_NEW}{_END}"
    ),
    _r(rf"\b(?:it{_A}s|it\s+is)\s+{_NEW}\s+now\b"),
)


def _resolve_correction(
    match: re.Match[str],
    value: str,
    subject: str,
    earlier: Sequence[FactLike],
    recent: Sequence[FactLike],
) -> tuple[str, str] | None:
    """The (category, key) an updated value belongs to, or None when unknowable.

    A correction only helps if it lands on the slot it corrects, so the earlier
    fact with the old value wins; then a fact in the same value class; then, when
    nothing was named ("no, it's green now"), the subject's latest fact.
    """
    mine = [f for f in earlier if f.subject == subject]
    old = (match.groupdict().get("old") or "").strip()
    if old:
        for fact in reversed(mine):
            if fact.value.casefold() == old.casefold() or (
                old.casefold() in fact.value.casefold().split()
            ):
                return fact.category, fact.key
    cls = value_class(value) or (value_class(old) if old else None)
    if cls:
        for fact in reversed(mine):
            if fact.key == cls:
                return fact.category, fact.key
        return _CLASS_CATEGORY.get(cls, "knowledge"), cls
    if old:
        return ("knowledge", f"uses.{slug(old)}") if slug(old) else None
    # "no, it's green now" names no slot: only trust it right after a fact of this
    # batch, and never for words that describe a state rather than a value.
    if recent and recent[-1].subject == subject and len(value.split()) <= 3:
        same_kind = value_class(recent[-1].value) in (None, value_class(value))
        if value.lower() not in _STATE_WORDS and same_kind:
            return recent[-1].category, recent[-1].key
    return None


_KEY_NOISE = frozenset(
    """uses likes dislikes prefers choice decided plan todo reminder remember always
    never name count""".split()
)


def _same_kind(
    value: str, obj: str, sentence: str, mine: Sequence[FactLike]
) -> FactLike | None:
    """The known fact a new value replaces: same value kind, else named in words.

    A value of a known kind ('French', 'K3') replaces the latest fact whose value is
    of that kind; otherwise a fact whose key words appear in the object or the
    sentence ('moved my main account' -> 'main_account').
    """
    kind = value_key(value, "language")
    if kind:
        for fact in reversed(mine):
            if fact.key == kind or value_key(fact.value, "language") == kind:
                return fact
    words = {w.lower() for w in re.findall(r"[a-z]+", obj or sentence, re.I)}
    for fact in reversed(mine):
        parts = {p for p in re.split(r"[._]", fact.key) if len(p) > 2} - _KEY_NOISE
        if parts and parts <= words:
            return fact
    return None


def _resolve_switch(
    match: re.Match[str],
    value: str,
    sentence: str,
    subject: str,
    earlier: Sequence[FactLike],
) -> tuple[str, str] | None:
    """The (category, key) a change of what is used lands on, or None.

    The earlier fact it replaces wins, so the change supersedes it; failing that,
    the value's fixed slot, the slot named by the object ('the repos'), and only for
    verbs that mean a change of tool, 'uses.<value>'. A bare 'we moved to X' with
    nothing known is a house move, left to the place rules.
    """
    mine = [f for f in earlier if f.subject == subject]
    old = (match.groupdict().get("old") or "").strip()
    if old:
        for fact in reversed(mine):
            if fact.value.casefold() == old.casefold() or (
                old.casefold() in fact.value.casefold().split()
            ):
                return fact.category, fact.key
    obj = match.groupdict().get("obj") or ""
    replaced = _same_kind(value, obj, sentence if obj else "", mine)
    if replaced is not None:
        return replaced.category, replaced.key
    kind = value_key(value) or (value_key(old) if old else None)
    if kind:
        return _CLASS_CATEGORY.get(kind, "knowledge"), kind
    owned = re.sub(r"^(?:all\s+)?(?:my|our|the)\s+", "", obj, flags=re.I)
    owned_key = _np_slot(owned) if owned else None
    if owned_key:
        return "knowledge", owned_key
    if old and slug(old):
        return "knowledge", f"uses.{slug(old)}"
    verb = match.group("verb").lower()
    if verb.startswith(("moved", "transferred")) or not slug(value):
        return None
    return "knowledge", f"uses.{slug(value)}"


def _resolve_imperative_switch(
    value: str, subject: str, earlier: Sequence[FactLike]
) -> tuple[str, str] | None:
    """The slot a requested change lands on, or None when it is too vague to keep.

    It replaces the known fact of the same kind; with nothing known, only a named
    language is unambiguous (it can only mean the reply language).
    """
    mine = [f for f in earlier if f.subject == subject]
    replaced = _same_kind(value, "", "", mine)
    if replaced is not None:
        return replaced.category, replaced.key
    if value.split()[0].lower() in _LANGUAGES:
        return "instruction", "reply_language"
    return None


_STATE_WORDS = frozenset(
    """fine ok okay good better worse done over late ready working fixed solved gone
    sorted settled true false right wrong""".split()
)


_CLASS_CATEGORY = {"diet": "constraint", "language": "preference"}


# --------------------------------------------------------------------------
# Driver
# --------------------------------------------------------------------------


@dataclass
class _Hit:
    category: str
    key: str
    value: str
    confidence: float


def _speaker_subject(message: Message) -> str | None:
    """Whose first-person facts a turn states, or None when it states none.

    Assistant turns only count when a speaker is named (two people talking, as in
    LoCoMo); otherwise they are the assistant's own suggestions.
    """
    if message.role == "system":
        return None
    if message.speaker:
        return message.speaker.strip().lower()
    return "user" if message.role == "user" else None


def _usable(value: str) -> bool:
    """False for values that point elsewhere ("that", "your idea") or say nothing."""
    if not value:
        return False
    words = value.lower().replace("’", "'").split()
    # "making this" points back at something said before as much as "this" does
    pointer = len(words) <= 3 and words[-1] in {"this", "that", "it", "them"}
    return words[0] not in _VAGUE and not pointer and not _FILLER_OBJECTS.match(value)


def _confidence(text: str, *, open_item: bool = False) -> float:
    hedged = bool(_HEDGE.search(text))
    if open_item:
        # "not sure whether" is a plain statement of an open item, not a hedge on it
        return CONFIDENCE_HEDGED if hedged else CONFIDENCE_EXPLICIT
    if _CORRECTION.search(text):
        return _CONFIDENCE_HEDGED_CORRECTION if hedged else CONFIDENCE_CORRECTION
    return CONFIDENCE_HEDGED if hedged else CONFIDENCE_EXPLICIT


def _sentence_hits(
    sentence: str,
    subject: str,
    earlier: Sequence[FactLike] = (),
    recent: Sequence[FactLike] = (),
    *,
    to_assistant: bool = True,
) -> list[_Hit]:
    """Facts one sentence states; empty for questions, hypotheticals and the like."""
    text = sentence.strip()
    is_question = text.endswith("?") or bool(_QUESTION_START.match(text))
    is_request = is_question and bool(_REQUEST_START.match(text))
    if (is_question and not is_request) or _HYPOTHETICAL.search(_OPEN_IF.sub("", text)):
        return []
    uncertain = bool(_UNCERTAIN.search(text))
    hits: list[_Hit] = []
    confidence = {flag: _confidence(text, open_item=flag) for flag in (False, True)}
    for rule in RULES:
        if (is_request and not rule.request_ok) or (uncertain and not rule.open_item):
            continue
        if rule.to_assistant and not to_assistant:
            continue
        conf = confidence[rule.open_item]
        for match in rule.pattern.finditer(text):
            if rule.category != "instruction" and _negated_before(text, match.start()):
                continue
            raw = match.group("v") or match.groupdict().get("v2") or ""
            for item in _items(raw) if rule.multi else [raw]:
                value = _trim(item)
                key = rule.key(match, value) if _usable(value) else None
                if key:
                    hits.append(_Hit(rule.category, key, value, conf))
    if is_request or uncertain:
        return hits
    hits.extend(_switch_hits(text, subject, earlier, to_assistant=to_assistant))
    for pattern in _CORRECTION_RULES:
        for match in pattern.finditer(text):
            value = _trim(match.group("v") or "")
            slot = _usable(value) and _resolve_correction(
                match, value, subject, earlier, recent
            )
            if slot:
                hits.append(_Hit(slot[0], slot[1], value, confidence[False]))
    return hits


def _switch_hits(
    text: str, subject: str, earlier: Sequence[FactLike], *, to_assistant: bool
) -> list[_Hit]:
    """Changes of what is used, stated or requested, resolved against known facts."""
    hits: list[_Hit] = []
    for match in _SWITCH.finditer(text):
        if _negated_before(text, match.start()):
            continue
        value = _trim(match.group("v") or "")
        slot = _usable(value) and _resolve_switch(match, value, text, subject, earlier)
        if slot:
            hits.append(_Hit(slot[0], slot[1], value, _confidence(text)))
    match = _SWITCH_IMPERATIVE.search(text) if to_assistant else None
    if match:
        value = _trim(match.group("v") or "")
        slot = _usable(value) and _resolve_imperative_switch(value, subject, earlier)
        if slot:
            hits.append(_Hit(slot[0], slot[1], value, CONFIDENCE_CORRECTION))
    return hits


# "not sure if X" states an open item and "if possible" softens a request; neither
# is a hypothetical.
_OPEN_IF = re.compile(
    r"\b(?:sure|know|decided|decide|wonder|wondering|undecided|unsure)\s+"
    r"(?:whether|if)\b|\bif\s+(?:possible|you\s+can|needed|necessary)\b",
    re.I,
)


def _negated_before(text: str, start: int) -> bool:
    """A negation earlier in the same clause flips the fact ("I don't think I ...")."""
    clause = re.split(r"[,;]|\bbut\b", text[:start], flags=re.I)[-1]
    return bool(_NEGATED_BEFORE.search(clause))


def sentence_has_fact(sentence: str) -> bool:
    """Whether a sentence states any first-person fact the rules recognise."""
    return bool(_sentence_hits(sentence, "user"))


@dataclass(frozen=True)
class _Prior:
    subject: str
    category: str
    key: str
    value: str


def extract_candidates(
    messages: Sequence[Message], *, prior: Sequence[FactLike] = ()
) -> list[FactCandidate]:
    """Fact candidates the turns state, in transcript order.

    Args:
        messages: Turns to read. Only user turns, and turns with a named speaker,
            are read; system turns never are.
        prior: Facts already known (any objects with subject, category, key and
            value), so a correction such as "not K2 anymore, K3" can land on the
            slot it corrects even when the original statement is in an older batch.

    Returns:
        One candidate per fact and turn; a slot stated twice in one turn keeps the
        more confident statement.
    """
    found: list[FactLike] = []
    out: list[FactCandidate] = []
    for message in messages:
        subject = _speaker_subject(message)
        if subject is None:
            continue
        text = strip_injected_memory(message.content)
        if _JOKE.search(text):
            continue
        best: dict[tuple[str, str], tuple[_Hit, str]] = {}
        for sentence in split_sentences(text):
            earlier = [*prior, *found]
            hits = _sentence_hits(
                sentence, subject, earlier, found, to_assistant=subject == "user"
            )
            for hit in hits:
                hit.key = _settled_favorite(hit.key, subject, earlier)
                hit.category = _settled_category(hit, subject, earlier)
                slot = (hit.category, hit.key)
                if slot not in best or hit.confidence > best[slot][0].confidence:
                    best[slot] = (hit, sentence)
        for hit, sentence in best.values():
            candidate = FactCandidate(
                category=hit.category,
                key=hit.key,
                value=hit.value,
                subject=subject,
                confidence=hit.confidence,
                importance=CATEGORY_IMPORTANCE.get(hit.category, 0.5),
                source="extracted",
                session=message.session,
                turn_ids=[message.id],
                evidence=sentence,
            )
            out.append(candidate)
            found.append(_Prior(subject, hit.category, hit.key, hit.value))
    return out


def _settled_favorite(key: str, subject: str, earlier: Sequence[FactLike]) -> str:
    """A bare "X is my favourite (now)" updates the favourite last talked about."""
    if key != "favorite":
        return key
    for fact in reversed(earlier):
        if fact.subject == subject and fact.key.startswith("favorite_"):
            return fact.key
    return key


def _settled_category(hit: _Hit, subject: str, earlier: Sequence[FactLike]) -> str:
    # One slot, one category: "we chose K2" then "I use K3" must collide to supersede.
    for fact in reversed(earlier):
        if fact.subject == subject and fact.key == hit.key:
            return fact.category
    return hit.category
