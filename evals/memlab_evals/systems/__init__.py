"""Systems under test: memory recipes, the baselines they must beat, peer libraries.

Every system sees the same turns in the same order and answers one question: what
context would the responder be shown for this question now? Baselines work on raw
turns, so a recipe's numbers can be read against a known floor (`none`), a known
ceiling (`full`) and the usual cheap alternatives (the retrievers); all but
`full` get the same token budget. Names are short and stable, because they go
into run logs.

- `registry`   the one list of named systems: kind, the report's sentence, builder
- `specs`      names as written: ``--systems`` parsing, checks, recipe resolution
- `build`      `make_system`, a fresh system for one conversation
- `memory`     memory recipes over the real engine, and their ``+tools`` variant
- `baselines/` the raw-turn baselines, one module each over one base
- `libraries`  the peer libraries `mem0` and `langmem` (`memlab_evals.peers`)
- `types`      the `System` protocol, `Context`, `BuildCost`, `RunHealth`

``BASELINES``, ``RETRIEVAL_BASELINES`` and ``PEERS`` are read from the registry
each time they are asked for, so a system registered later is in them too.
"""

from __future__ import annotations

from memlab_evals.systems.build import make_system
from memlab_evals.systems.memory import (
    AgenticMemorySystem,
    MemorySystem,
    brain_usage,
    memory_config,
    memory_settings,
)
from memlab_evals.systems.registry import (
    BuildArgs,
    SystemEntry,
    entries,
    lookup,
    names,
    pick,
    register,
    unregister,
)
from memlab_evals.systems.specs import (
    TOOLS_SUFFIX,
    check_models,
    check_system,
    describe,
    is_baseline,
    is_peer,
    kind_of,
    needs_model,
    resolve,
    split_systems,
    split_tools,
    system_params,
)
from memlab_evals.systems.types import (
    BuildCost,
    Context,
    KeepsNoMemory,
    RunHealth,
    System,
)

_LISTS = {
    "BASELINES": lambda: names("baseline"),
    "RETRIEVAL_BASELINES": lambda: names("baseline", retrieval=True),
    "PEERS": lambda: names("peer"),
}


def __getattr__(name: str) -> tuple[str, ...]:
    """The registry's current lists under the names code has always imported."""
    if name in _LISTS:
        return _LISTS[name]()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "TOOLS_SUFFIX",
    "AgenticMemorySystem",
    "BuildArgs",
    "BuildCost",
    "Context",
    "KeepsNoMemory",
    "MemorySystem",
    "RunHealth",
    "System",
    "SystemEntry",
    "brain_usage",
    "check_models",
    "check_system",
    "describe",
    "entries",
    "is_baseline",
    "is_peer",
    "kind_of",
    "lookup",
    "make_system",
    "memory_config",
    "memory_settings",
    "names",
    "needs_model",
    "pick",
    "register",
    "resolve",
    "split_systems",
    "split_tools",
    "system_params",
    "unregister",
]
