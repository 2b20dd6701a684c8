"""The offline brain's parser extraction: facts from a dependency parse.

- `pipeline`: spaCy's small English pipeline, loaded once from its package.
- `lexicon`: closed-class English the parse cannot supply (relation nouns,
  ending and change verbs, fillers, modals).
- `clauses`: asserted clauses and whom each is about; questions, negations,
  suppositions and reported words are dropped here.
- `runons`: a turn parsed again where chat's text misled the parse: run-on
  clause breaks, `dropped_subjects` ("joined a club, so excited") and
  `contractions` ("my wife's a nurse").
- `facts`: a clause's (category, key, value), keys from lemmas (`keys`); with
  `frames` (ages, roles at an employer, names given by a verb), `names` (names
  by apposition), `titles` (a quoted title whole) and `pronouns` ("he", "she"
  across turns).
- `change`: whether a clause states a change, or reports an event.
- `extract`: the driver, turns to candidates; endings land on the key they end.
- `merge`: the rules where they still add, and one fact per statement.
- `parse_cache`: parses kept on disk by text and parser version.
"""
