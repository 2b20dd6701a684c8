"""The edges of memory-lab: the one `memory-lab` command, replay and conversation IO.

The library (`memory_lab`) knows nothing of this package; this package wires the
library, the datasets, the evals and the benchmarks together for a user.
"""
