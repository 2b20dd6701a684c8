"""The one list of named data sets that ``--dataset NAME:ARGUMENT`` resolves through.

`load_dataset`, ``memory-lab datasets describe`` and ``memory-lab eval`` all ask
this registry which names exist, so a new data set is one module and one call to
`register`, like a trigger (`memory_lab.triggers.registry`). Names come from:

- the built-ins (``synthetic``, ``locomo``, ``longmemeval``), registered by
  `memlab_datasets.loading`, which the package imports first, so they are
  there whichever module is imported;
- a call to `register` anywhere: a notebook cell, or a module named with
  ``--plugin MODULE`` on the commands that take it (``eval``, ``replay``,
  ``bench``, ``main``, ``triggers``, ``datasets describe``).

A loader is ``load(argument, options) -> Dataset``: ``argument`` is the text after
``NAME:`` (a path, knobs, or a path followed by ``:options``), ``options`` the
load-time choices that are not part of the spec (`LoadOptions`). Its signature is
checked when it registers, so a plug-in that breaks it fails there, not deep in a
run. The lock guards the name table only; a loader never runs while it is held.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, overload

from memory_lab.errors import DatasetError
from memory_lab.name_registry import NameRegistry

if TYPE_CHECKING:
    from memlab_datasets.types import Dataset

_NAME = re.compile(r"^[a-z][a-z0-9_-]*$")


@dataclass(frozen=True)
class LoadOptions:
    """Load-time choices that travel beside a spec rather than inside it."""

    audit: Path | None = None
    """An audit file with answer-key corrections (LoCoMo's loader reads it)."""
    apply_corrections: bool = True
    """Whether the audit's corrections replace the original answers."""


Loader = Callable[[str, LoadOptions], "Dataset"]


@dataclass(frozen=True)
class DatasetKind:
    """A registered data set: its name, one line of help, and its loader."""

    name: str
    summary: str
    load: Loader
    usage: str
    """How to name it on the command line, e.g. ``locomo:PATH``."""
    needs_argument: bool
    """Whether a bare ``NAME`` (no ``:ARGUMENT``) is this data set; when it is
    not, a bare name is read as a file path, as before the registry existed."""
    module: str


_kinds: NameRegistry[DatasetKind] = NameRegistry(
    "data set", error=DatasetError, source=lambda kind: kind.module, key=str.lower
)
"""The name table; its lock guards the names only, and loaders run outside it."""


@overload
def register(
    name: str,
    summary: str,
    load: None = None,
    *,
    usage: str = "",
    needs_argument: bool = True,
    replace: bool = False,
) -> Callable[[Loader], Loader]: ...


@overload
def register(
    name: str,
    summary: str,
    load: Loader,
    *,
    usage: str = "",
    needs_argument: bool = True,
    replace: bool = False,
) -> DatasetKind: ...


def register(
    name: str,
    summary: str,
    load: Loader | None = None,
    *,
    usage: str = "",
    needs_argument: bool = True,
    replace: bool = False,
) -> Callable[[Loader], Loader] | DatasetKind:
    """Register a data set under `name`; usable as a decorator on the loader.

    ``register("toy", "Toy set", load_toy)`` registers at once and returns the
    `DatasetKind`; ``@register("toy", "Toy set")`` above ``def load_toy(argument,
    options)`` does the same and leaves the function as it was.

    Args:
        name: Lower-case letters, digits, ``-`` and ``_``, starting with a letter;
            matched without regard to case.
        summary: One line for help texts and error messages.
        load: ``(argument: str, options: LoadOptions) -> Dataset``.
        usage: How to name it (default ``NAME:PATH``).
        needs_argument: False when a bare ``NAME`` is meaningful (``synthetic``).
        replace: Allow re-registering a name another module registered.

    Raises:
        DatasetError: for a bad name, a loader that cannot take
            ``(argument, options)``, or a name already taken elsewhere.
    """
    if load is None:

        def wrap(fn: Loader) -> Loader:
            register(
                name,
                summary,
                fn,
                usage=usage,
                needs_argument=needs_argument,
                replace=replace,
            )
            return fn

        return wrap
    key = str(name).strip().lower()
    if not _NAME.match(key):
        raise DatasetError(
            f"data set name {name!r}: use letters, digits, '-' and '_', "
            "starting with a letter"
        )
    if not callable(load):
        raise DatasetError(f"data set {key!r}: its loader must be callable")
    try:
        inspect.signature(load).bind("argument", LoadOptions())
    except TypeError:
        raise DatasetError(
            f"data set {key!r}: its loader must take (argument, options)"
        ) from None
    except ValueError:  # a builtin without a signature: trust it
        pass
    module = getattr(load, "__module__", "") or ""
    kind = DatasetKind(
        name=key,
        summary=" ".join(str(summary).split()),
        load=load,
        usage=usage or f"{key}:PATH",
        needs_argument=needs_argument,
        module=module,
    )
    _kinds.add(key, kind, replace=replace)
    return kind


def unregister(name: str) -> None:
    """Forget a data set (tests and notebooks that clean up after themselves)."""
    _kinds.remove(name)


def get(name: str) -> DatasetKind | None:
    """The data set registered under `name` (any case), or None."""
    return _kinds.get(name)


def names() -> tuple[str, ...]:
    """Every registered name, sorted."""
    return _kinds.names()


def usages() -> str:
    """Every registered name as it is written on the command line, for messages."""
    return ", ".join(f"'{k.usage}'" for k in _kinds.entries())


def load(kind: DatasetKind, argument: str, options: LoadOptions) -> Dataset:
    """Run a registered loader, checking that it returned a `Dataset`.

    Raises:
        DatasetError: from the loader, or when it returns something else.
    """
    from memlab_datasets.types import Dataset

    dataset = kind.load(argument, options)
    if not isinstance(dataset, Dataset):
        raise DatasetError(
            f"data set {kind.name!r} ({kind.module}) returned "
            f"{type(dataset).__name__}, not a Dataset"
        )
    return dataset


def load_plugins(modules: tuple[str, ...] | list[str]) -> list[str]:
    """Import modules that register data sets; the names they added, sorted.

    Importing twice is harmless (a module is imported once).

    Raises:
        DatasetError: naming the module that could not be imported.
    """
    return _kinds.load_plugins(modules)
