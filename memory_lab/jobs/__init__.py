"""Memory work off the turn: a durable job ledger and a background worker.

- `ledger`: jobs, thread watermarks and committed episodes in the transcript's
  SQLite file (the truth about what is compressed and what is owed).
- `planning`: the turn's share: decide the triggers, record the jobs.
- `work`: the worker's share: compression and extraction jobs.
- `worker`: the thread that runs them; `engine.flush()` waits for it.
- `committed`: the episode store as reads see it (committed episodes only).
- `phases`: named points the fault benchmark kills a process at.
"""
