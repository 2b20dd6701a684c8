"""Closed-class English the parser brain needs beside the parse.

The parse says which word is the subject, the verb and the object; it cannot say
that "quit" ends what "joined" began, that a wife is a person linked to the
speaker, or that "honestly" carries no content. Those are properties of English
words, not of any conversation, so they are listed here, by lemma, once.
"""

from __future__ import annotations

RELATION_NOUNS = frozenset(
    """wife husband partner spouse fiance fiancee girlfriend boyfriend mom mum mother
    dad father parent parents brother sister sibling siblings son daughter kid kids
    child children baby grandma grandmother grandpa grandfather grandparent
    grandparents grandad granddad gran granny nan nana grandson granddaughter
    grandchild grandkids stepbrother stepsister aunt uncle cousin nephew niece friend
    bestie roommate flatmate
    housemate neighbour neighbor boss manager colleague coworker teammate mentor
    coach doctor therapist landlord landlady stepmom stepdad stepson stepdaughter
    in-law""".split()
)
"""People a speaker names by their tie to them ("my sister", "our landlord")."""

ENDING_VERBS = frozenset(
    """quit leave stop sell cancel drop end close retire resign divorce abandon
    ditch dump finish""".split()
)
"""Verbs that end what their object was ("I quit the choir", "we sold the Golf")."""

UNCHANGED_PASTS = frozenset(
    "quit cut put set shut hit let split spread shed bet burst cast rid".split()
)
"""Verbs whose past is their present form: after "I" the tagger reads "I quit
the gym" as present, though chat nearly always means it happened."""

ENDING_PHRASALS = frozenset(
    {("give", "up"), ("break", "up"), ("split", "up"), ("drop", "out")}
)

PARTING_PHRASALS = frozenset({("break", "up"), ("split", "up")})
"""Endings of a tie between the subject's own conjuncts: "Sophie and I broke up"
ends the tie to Sophie."""

CHANGE_VERBS = frozenset(
    """go rise increase climb jump drop fall decrease change move push shift
    reschedule postpone bump raise lower cut switch bring up""".split()
)
"""Verbs that move a thing's value ("the budget went up to 380", "the meeting got
pushed to the 9th"): with a "to" object they restate the subject's value."""

REPLACE_VERBS = frozenset("change switch swap replace".split())
"""Verbs whose object names the slot being replaced ("we changed accountants"): with
no "to" value the clause names no new value; a later "it's Johan Ek" may."""

STATE_FRAMES: dict[tuple[str, str], str] = {
    ("live", "in"): "home_city",
    ("move", "to"): "home_city",
    ("relocate", "to"): "home_city",
    ("settle", "in"): "home_city",
    ("base", "in"): "home_city",
    ("work", "at"): "employer",
    ("work", "for"): "employer",
    ("join", ""): "employer",
    ("work", "as"): "job_title",
    ("bear", "in"): "birthplace",
    ("raise", "in"): "hometown",
    ("grow", "in"): "hometown",
}
"""Verb frames that state one current value of a slot: moving somewhere is living
there, so a later move supersedes the earlier city. The slot names are the ones
the rest of memory uses (`home_city`, `employer`); being born, raised or growing
up somewhere is where a person is from, beside where they live now. `join` counts
as a job only with an organisation object (see `facts`)."""

FILLERS = frozenset(
    """actually honestly basically literally really just now currently still also
    too anyway anyways btw lol haha yeah well so totally definitely probably maybe
    finally recently already again even kinda sorta pretty""".split()
)
"""Words trimmed from a value's edges: they say how, not what."""

DIRECTIONS = frozenset("up down out over back there here away".split())
"""Adverbs of direction that end a phrase without naming anything ("a vet up
in Inverness"): trimmed from a value's end."""

REACTION_VERBS = frozenset(
    """thank hope guess think know mean see say feel wonder agree bet suppose believe
    imagine remember forget understand appreciate love like hate miss wish want
    need let tell ask hear glad get""".split()
)
"""Verbs whose clause is a reaction or a frame around another clause; their own
object is a fact only when it is a thing (see `facts`)."""

PREFERENCE_VERBS = frozenset("love like enjoy prefer adore hate dislike".split())

PLAN_VERBS = frozenset("plan intend aim hope want try decide".split())
"""Verbs that take the real activity as their complement: "I plan to run"."""

HYPOTHETICAL_MARKERS = frozenset(
    """if unless wish someday suppose supposing imagine whether hopefully
    pretend""".split()
)
"""Words that make their clause a supposition, not a statement."""

WEIGHING_VERBS = frozenset(
    "consider contemplate debate ponder weigh dream fantasise fantasize".split()
)
"""Verbs that only weigh or imagine what they take: "I'm considering moving to
Galway", "we're considering a move", "dreaming of a cottage in Devon" state no
move and no cottage, nor anything under them."""

CHOOSING_VERBS = frozenset("decide choose pick tear weigh debate dither".split())
"""Verbs whose "between" objects are options still open: "we're deciding between
a beagle and a whippet", "torn between Leeds and York"."""

WISHING_VERBS = frozenset("want wish hope fancy".split())
"""Verbs of a wish: said in the past ("I've always wanted to visit Peru") the
wish is told because it has not come true."""

HYPOTHETICAL_MODALS = frozenset("would could might may should 'd ought".split())
"""Modals of possibility and advice: "I might learn Japanese" states nothing yet."""

REPORTING_VERBS = frozenset(
    """say tell think suggest reckon believe claim insist recommend want expect
    advise warn keep ask wonder""".split()
)
"""Verbs that put someone else's words or wishes around a clause."""

PRONOUN_OBJECTS = frozenset(
    """it this that these those them him her you me us something anything
    everything nothing one stuff thing things lot""".split()
)
"""Objects that name nothing by themselves: a value needs a thing."""

UNREALISED_ADVERBS = frozenset("almost nearly apparently supposedly allegedly".split())
"""Adverbs that keep their clause from stating a fact: "we almost bought a house"
did not happen, "apparently he's a spy" is hearsay."""

UNREALISED_VERBS = frozenset(
    "mean forget fail neglect refuse avoid hesitate pretend struggle".split()
)
"""Verbs whose complement did not happen: "I keep meaning to clean my desk",
"I forgot to call the bank"."""

QUANTIFIERS = frozenset(
    """most all some half part rest lot lots bit much none each both many few
    sort sorts kind kinds type types bunch ton tons couple number variety load
    loads heap heaps""".split()
)
"""Heads that only measure or sort their "of" object ("most of the morning", "all
sorts of desserts")."""

GENERAL_NOUNS = frozenset(
    """way ways time times moment moments fun love luck support help difference
    impact chance chances sense idea ideas part job work living place end point
    """.split()
)
"""Nouns too general to be a value on their own ("show my support", "find a way"):
kept only when a name, a number or a complement narrows them ("love for horses")."""

TIME_NOUNS = frozenset(
    """morning afternoon evening night day week weekend month year hour minute
    moment while time today tonight yesterday tomorrow childhood lifetime age
    spring summer autumn winter""".split()
)
"""Nouns that say when, not what: never a value by themselves (matched by lemma,
so "minutes" and "years" are times too)."""

MEASURE_NOUNS = frozenset(
    """mile km kilometre kilometer metre meter foot inch kilo kg gram stone litre
    liter step lap rep percent""".split()
)
"""Units that say how much, not what: "I'm up to 10 miles" states no thing."""

REQUEST_NOUNS = frozenset("advice tip recommendation suggestion help idea".split())
"""What a person asks for ("looking for recommendations for a laptop"): never a
fact of theirs, however narrowed."""
