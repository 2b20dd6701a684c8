"""The offline brain's parser extraction: facts from a dependency parse.

- `pipeline`: spaCy's small English pipeline, loaded once from its package.
- `lexicon`: closed-class English the parse cannot supply (relation nouns,
  ending and change verbs, fillers, modals).
- `clauses`: asserted clauses and whom each is about; questions, negations,
  suppositions and reported words are dropped here.
- `facts`: a clause's (category, key, value), keys from lemmas.
- `extract`: the driver, turns to candidates; endings land on the key they end.
- `merge`: the rules where they still add, and one fact per statement.
"""
