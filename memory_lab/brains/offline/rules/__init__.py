"""Fact extraction by rules: first-person statements to fact candidates.

The offline brain needs facts without a model, so it matches common phrasings
("my name is", "I'm allergic to", "we decided to", "actually I switched to")
sentence by sentence. It favours precision over recall: a sentence that is a
question, a hypothetical, a joke, hedged by uncertainty or negated before the
match yields nothing, because a wrong fact in memory costs more than a missed
one: memory must never invent what the user did not say.

Every value is a verbatim span of the cited turn and every evidence string is the
sentence it came from, so a reviewer can always find the words in the transcript.
Keys are short slots (`name`, `home_city`, `allergy.peanuts`) so that a later
statement of the same slot, above all a correction, supersedes the earlier one.

The parts, each importing only those above it:

- `vocabulary`: word lists and the slot helpers `slug`, `value_class`, `value_key`.
- `patterns`: the regular-expression fragments the rules are written in.
- `filters`: questions, hypotheticals, jokes, hedges, negation; confidence bands.
- `rule`: one rule, how it reads a sentence, and its examples.
- `keys`: how a match becomes a slot, or is rejected.
- `table`: the rules, one module per fact category.
- `corrections`: changes and corrections resolved against known facts.
- `candidates`: the driver, from turns to `FactCandidate`s.

Sentence splitting and removal of pasted-back memory live in `memory_lab.text`,
because the summariser reads sentences the same way.
"""

from memory_lab.brains.offline.rules.candidates import (
    CATEGORY_IMPORTANCE,
    extract_candidates,
    sentence_has_fact,
)
from memory_lab.brains.offline.rules.filters import (
    CONFIDENCE_CORRECTION,
    CONFIDENCE_EXPLICIT,
    CONFIDENCE_HEDGED,
)
from memory_lab.brains.offline.rules.rule import Example, Rule
from memory_lab.brains.offline.rules.table import RULES
from memory_lab.brains.offline.rules.vocabulary import (
    slug,
    value_class,
    value_key,
)

__all__ = [
    "CATEGORY_IMPORTANCE",
    "CONFIDENCE_CORRECTION",
    "CONFIDENCE_EXPLICIT",
    "CONFIDENCE_HEDGED",
    "RULES",
    "Example",
    "Rule",
    "extract_candidates",
    "sentence_has_fact",
    "slug",
    "value_class",
    "value_key",
]
