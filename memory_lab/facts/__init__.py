"""The structured-fact tier: small exact facts with provenance and a lifecycle.

`reconciliation` decides each write (pure); `memory.FactMemory` applies it to a
store and runs decay, expiry and consolidation (`grouping` finds facts of one
kind by meaning, `folding` plans the folds); `gathering` lists a person's values
of the kinds a question asks about, dated; `timeline` answers as-of queries
on valid and record time, `valid_time` dates statements, `dedup` finds the stored
fact a paraphrase restates; `commands` parses "remember / forget that ..." and
`explicit` carries them out; `links` joins facts (relates_to, caused_by, and
supersedes read from the rows), `phrasing` says a fact as a sentence ("You live
in a flat near the harbour": `inflection`, `evidence` and `person` beside it) and
`summary` gives a fact's one-line summary;
`suggestions` and `tools` are what an assistant builds on top.
"""
