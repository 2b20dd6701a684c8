"""Word lists the rules consult, and the slot helpers built on them.

Data tables, not logic: what counts as a language, a vague pointer word, a value of
a known kind, or a word that never names a person or a place. Kept apart from the
patterns so a list can grow without touching a regular expression.
"""

from __future__ import annotations

import re

SLUG_DROP = frozenset(
    """a an the my our your his her their its some any this that these those to of
    in on at for with and or very lot lots really just also""".split()
)
SPELLING = {
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
    kept = [SPELLING.get(t, t) for t in tokens if t not in SLUG_DROP]
    cleaned = [re.sub(r"[^\w+#]+", "_", t).strip("_") for t in kept[:words]]
    return "_".join(t for t in cleaned if t)


LANGUAGES = """swedish english german french spanish norwegian danish finnish dutch
italian portuguese polish russian chinese mandarin cantonese japanese korean arabic
hindi turkish greek ukrainian icelandic estonian czech hungarian hebrew persian farsi
urdu bengali vietnamese thai indonesian""".split()
NATIONALITIES = """american british canadian australian indian irish scottish mexican
brazilian swede dane norwegian finn""".split()
DAYS = "monday tuesday wednesday thursday friday saturday sunday".split()
MONTHS = """january february march april may june july august september october
november december""".split()

# Values whose kind is known get a fixed slot, so "I use K2" and "actually I
# switched to K3" land on the same key even though they share no words.
VALUE_CLASSES: dict[str, frozenset[str]] = {
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
        "language": " ".join(LANGUAGES),
    }.items()
}

NOT_NAMES = frozenset(
    """i the a an not just so very really sorry fine good great okay ok here there
    back home done ready happy sure glad still also actually currently now today
    tomorrow yesterday tired busy new from in at on well yes no hey hi hello thanks
    mr mrs ms dr same look looky right over out up down me us you we they everyone
    everybody all""".split()
    + LANGUAGES
    + NATIONALITIES
    + DAYS
    + MONTHS
)
VAGUE = frozenset(
    """it that this them those these you him her one both all so too there here
    what which something anything everything nothing stuff things your their his
    it's they're he's she's we're you're i'm that's how why when where who yet do
    then""".split()
)
FILLER_OBJECTS = re.compile(
    r"^(?:to\s+(?:hear|see|think|know|say|help|chat|talk)|the\s+idea|hearing|seeing)\b",
    re.I,
)
NOT_PLACES = frozenset([*DAYS, *MONTHS, "i"])


def _spellings(value: str) -> list[str]:
    """A value's words, and runs of two or three of them written as one.

    A known name is known however it is spaced or hyphenated: "VS Code",
    "vs-code" and "vscode" are one editor, "Git Hub" one code host.
    """
    words = [w.lower() for w in re.findall(r"[\w+#-]+", value)]
    parts = [p for w in words for p in w.split("-") if p]
    joined = [
        "".join(parts[i : i + n]) for n in (2, 3) for i in range(len(parts) - n + 1)
    ]
    return [*words, *parts, *joined]


def value_class(value: str) -> str | None:
    """The fixed slot a value belongs to (e.g. 'K3' -> 'accounting_standard')."""
    words = _spellings(value)
    for key, members in VALUE_CLASSES.items():
        if any(w in members for w in words):
            return key
    return None


VERSION = re.compile(r"^(?P<name>[A-Za-z][\w+#.-]*?)\s*v?\d+(?:\.\d+)+\b")


def value_key(value: str, hint: str = "") -> str | None:
    """The fixed slot a value implies, or None: its class, or its version slot.

    'Python 3.11' names a version rather than a language, so it gets its own slot
    ('python_version') and a later upgrade supersedes it. A language class is only
    trusted when `hint` (the words that introduced the value) mentions language,
    because 'Swedish' is as often a nationality as a language.
    """
    version = VERSION.match(value.strip())
    if version:
        return f"{slug(version.group('name'), words=1)}_version"
    cls = value_class(value)
    if cls == "language" and "language" not in hint.lower():
        return None
    return cls


# Words that follow a number without being something counted ("3 more days").
COUNT_IGNORED = frozenset(
    """minutes hours days weeks months years times questions problems things ideas
    issues options reasons ways more less""".split()
)

# "I can't wait", "I can't believe": turns of phrase, not inabilities.
CANNOT_IGNORED = frozenset(
    """believe wait stand remember imagine thank tell say decide help find figure seem
    get stop eat understand see hear recall think wrap""".split()
)

# Lone nouns that other rules own or that are too vague to be a slot ("my day is
# Monday-shaped"); with a modifier they can be ("financial year", "business account").
NP_BLOCKED_ALONE = frozenset(
    """name names birthday budget job role title position profession occupation
    company business firm startup plan plans idea ideas point guess question answer
    advice thought thoughts bad life day week weekend year month night morning evening
    mind heart head turn fault pleasure gosh god goodness""".split()
)
# Openings that make the phrase someone else's slot or not a current one.
NP_BLOCKED_FIRST = frozenset(
    "fav favorite favourite fave own only first last next old former".split()
)
NP_STOP = frozenset(
    """and or but i it he she they we you that this who which what when where there
    here not no so to of in on at for with from as by if than then just also said
    says thinks told still really""".split()
)
START_VERBS = frozenset("starts begins opens start begin open".split())
END_VERBS = frozenset("ends closes finishes end close finish".split())

# Where "we deploy/host/bank/run/store/keep ... on X" lands when nothing names it.
WE_VERB_SLOTS = {
    "deploy": "deploy_target",
    "host": "hosting",
    "bank": "bank",
    "run": "platform",
    "store": "storage",
    "keep": "storage",
}

# Slots that name the same thing in other words: "moved our business account to X"
# changes the bank that "we bank with Y" stated, so both must land on one key.
SLOT_ALIASES = {
    "main_account": "bank",
    "business_account": "bank",
    "bank_account": "bank",
    "current_account": "bank",
    "checking_account": "bank",
    "main_bank": "bank",
}

# "I have to say", "I must admit": turns of phrase, not tasks.
OBLIGATION_IGNORED = frozenset(
    """say admit tell thank agree ask be go leave run confess mention apologize
    apologise wait see know think warn hand give get hear share laugh dash""".split()
)

# Key parts too generic to identify the fact a change of tool replaces.
KEY_NOISE = frozenset(
    """uses likes dislikes prefers choice decided plan todo reminder remember always
    never name count""".split()
)

# Words that describe a state, not a value: "it's fine now" corrects nothing.
STATE_WORDS = frozenset(
    """fine ok okay good better worse done over late ready working fixed solved gone
    sorted settled true false right wrong""".split()
)

# The category a value of a known kind belongs to when no earlier fact says.
CLASS_CATEGORY = {"diet": "constraint", "language": "preference"}
