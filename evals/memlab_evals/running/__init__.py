"""Running systems over conversations and writing down what each one did.

A run feeds every system the same turns under a manual clock, logs the context it
would inject at each probe, and keeps it all in one versioned log that scorers,
reports and the app read. The trigger meter is here, not with the reports,
because it watches a recipe while the turns go in; the statement set is here
because it runs a real engine over held-out sentences, with no model to ask.

- `runner`         one work unit per system and conversation; `run_eval`, `run_evals`
- `records`        what a unit writes down: each probe's record, the whole run's
- `provenance`     what a run is stamped with: commit, versions, trigger digests
- `executors`      where units run: this process, a local process pool or Ray
- `log`            the versioned run log (`RunLog`), the one record every reader takes
- `llm_records`    what the models did, kept in the log: answers, verdicts, cost
- `trigger_meter`  what a recipe's triggers did, turn by turn, during a run
- `sweep`          parameter sweeps over recipes, as DataFrames a notebook plots
- `statement_set`  the held-out statement set through the offline brain
"""
