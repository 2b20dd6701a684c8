"""The one list of named systems every consumer reads: CLI, main job, report, bench.

A name maps to its kind, the sentence the report prints for it, and the builder
that makes a fresh one for a conversation. Baselines register themselves from
their own modules (`memlab_evals.systems.baselines`, found by listing that
package) and the peer libraries from `memlab_evals.systems.libraries`; a call to
`register` anywhere (a notebook cell, a test) adds one more. Memory recipes are
not listed here: their names are specs over the trigger registry
(`memlab_evals.systems.specs` resolves them).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Literal

from memory_lab.config import DEFAULT_EXTRACTOR, Extractor, LLMSettings
from memory_lab.name_registry import NameRegistry
from memory_lab.recipes import recipe_parts
from memory_lab.stores.locations import StoreSpec
from memory_lab.tokens import TokenCounter

if TYPE_CHECKING:
    from memlab_evals.systems.types import System

Kind = Literal["recipe", "baseline", "peer"]
KINDS: tuple[Kind, ...] = ("recipe", "baseline", "peer")
_REGISTERED_BY = (
    "memlab_evals.systems.baselines",
    "memlab_evals.systems.libraries",
)
"""Modules whose import registers the built-in systems."""


@dataclass(frozen=True)
class BuildArgs:
    """What a builder gets: one conversation's budget, counter, clock and stores."""

    budget: int
    """Context tokens (``full`` ignores it)."""
    counter: TokenCounter
    tenant: str
    """The conversation's tenant (memory recipes only)."""
    start: datetime
    """Time of the first turn; a recipe's manual clock starts there."""
    data_dir: Path | None = None
    """A folder of the system's own; None keeps stores in memory."""
    llm: LLMSettings | None = None
    """The model endpoint for recipes and peers; None keeps the rule-based brain."""
    stores: StoreSpec | None = None
    extractor: Extractor = DEFAULT_EXTRACTOR


@dataclass(frozen=True)
class SystemEntry:
    """One system: its short stable name (it goes into logs) and how to make it."""

    name: str
    kind: Kind
    description: str
    """One line, the report's sentence for the system."""
    build: Callable[[BuildArgs], System]
    retrieval: bool = False
    """Retrieval over raw turns: the best of these is what a recipe must beat."""
    order: int = 50
    """Where it is listed among its kind, lowest first (ties by name)."""
    module: str = ""
    """The module that defines it; default the builder's."""

    @property
    def source(self) -> str:
        """The defining module, so a re-run notebook cell may register again."""
        return self.module or getattr(self.build, "__module__", "") or ""


_entries: NameRegistry[SystemEntry] = NameRegistry(
    "system",
    error=ValueError,
    source=lambda entry: entry.source,
    builtins=lambda: _REGISTERED_BY,
)


def register(entry: SystemEntry, *, replace: bool = False) -> SystemEntry:
    """Add a named system; every consumer sees it from then on.

    Raises:
        ValueError: for an empty name, a kind that is not one, a comma or
            parenthesis in the name (they would break ``--systems`` lists), a
            recipe's name, or a name another module took, without `replace`.
    """
    if not entry.name or any(c in entry.name for c in ",()") or " " in entry.name:
        raise ValueError(f"system name {entry.name!r}: no commas, spaces or brackets")
    if entry.kind not in KINDS:
        raise ValueError(f"system {entry.name!r}: kind must be one of {KINDS}")
    if recipe_parts(entry.name) is not None:
        raise ValueError(f"system {entry.name!r} would hide the recipe of that name")
    _entries.add(entry.name, entry, replace=replace)
    return entry


def unregister(name: str) -> None:
    """Forget a system (tests and notebooks that clean up after themselves)."""
    _entries.remove(name)


def lookup(name: str) -> SystemEntry | None:
    """The entry registered under exactly `name`, or None (recipes are not here)."""
    return _entries.get(name)


def entries(kind: Kind | None = None) -> tuple[SystemEntry, ...]:
    """Registered entries of a kind (all when None), in listing order."""
    found = [e for e in _entries.entries() if kind in (None, e.kind)]
    return tuple(sorted(found, key=lambda e: (KINDS.index(e.kind), e.order, e.name)))


def names(
    kind: Kind | None = None, *, retrieval: bool | None = None
) -> tuple[str, ...]:
    """Registered names of a kind, in listing order; `retrieval` filters on it."""
    return tuple(e.name for e in entries(kind) if retrieval in (None, e.retrieval))


def pick(*chosen: str) -> tuple[str, ...]:
    """Registered names a caller runs on purpose as a subset, checked to exist.

    Raises:
        ValueError: naming the ones the registry does not hold.
    """
    missing = [n for n in chosen if lookup(n) is None]
    if missing:
        raise ValueError(f"no such systems: {', '.join(missing)}")
    return chosen
