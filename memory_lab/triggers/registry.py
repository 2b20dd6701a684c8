"""The one list of triggers every part of memory-lab reads.

Recipes, sweeps, the CLI's ``--systems``, the app's sidebar and the run log all
ask this registry which triggers exist and what parameters they take, so a new
trigger is one module and nothing else. Triggers come from four places:

- the modules of this package (A, B, C, D), found by listing the package;
- a call to `register` anywhere, a notebook cell included;
- ``--plugin module.path`` on the commands that run recipes (`load_plugin`);
- the ``memory_lab.triggers`` entry point group of any installed distribution.
"""

from __future__ import annotations

import inspect
import pkgutil
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import overload

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.errors import MemoryLabError
from memory_lab.name_registry import NameRegistry
from memory_lab.triggers.base import Decide, Splits, Trigger, TriggerParams

ENTRY_POINT_GROUP = "memory_lab.triggers"
_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
_INFRASTRUCTURE = frozenset({"base", "recipe", "registry", "running"})


class PluginError(MemoryLabError):
    """A plug-in module could not be loaded, or registered a bad trigger."""


def _builtin_modules() -> Iterator[str]:
    """The package's own trigger modules (A, B, C, D), found by listing it."""
    for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if not info.name.startswith("_") and info.name not in _INFRASTRUCTURE:
            yield f"{__package__}.{info.name}"


_triggers: NameRegistry[Trigger] = NameRegistry(
    "trigger",
    error=PluginError,
    source=lambda trigger: trigger.module,
    key=str.upper,
    builtins=_builtin_modules,
    entry_point_group=ENTRY_POINT_GROUP,
    lock=named_lock("triggers.registry", reentrant=True),
)


@overload
def register(
    name: str,
    params: type[TriggerParams],
    decide: None = None,
    *,
    splits: Splits | None = None,
    summary: str = "",
    replace: bool = False,
    time_limited: bool = True,
) -> Callable[[Decide], Decide]: ...


@overload
def register(
    name: str,
    params: type[TriggerParams],
    decide: Decide,
    *,
    splits: Splits | None = None,
    summary: str = "",
    replace: bool = False,
    time_limited: bool = True,
) -> Trigger: ...


def register(
    name: str,
    params: type[TriggerParams],
    decide: Decide | None = None,
    *,
    splits: Splits | None = None,
    summary: str = "",
    replace: bool = False,
    time_limited: bool = True,
) -> Callable[[Decide], Decide] | Trigger:
    """Register a trigger under `name`; usable as a decorator on the decision.

    ``register("Q", QuietParams, quiet)`` registers at once and returns the
    `Trigger`; ``@register("Q", QuietParams)`` above ``def quiet(view, p)`` does
    the same and leaves the function as it was.

    Args:
        name: Letters, digits and underscores, starting with a letter; matched
            without regard to case and stored upper-case (``q`` is ``Q``).
        params: Its parameter model, a `TriggerParams` subclass whose fields all
            have defaults.
        decide: The decision (see `memory_lab.triggers.base`).
        splits: Optional cut between two consecutive turns when a span is made
            into episodes.
        summary: One line for help texts; default the decision's docstring.
        replace: Allow re-registering a name (a notebook cell run twice does it
            for you when the definition comes from the same module).
        time_limited: Decide in a thread of its own, refused after the
            recipe's `decision_seconds` (the default); False decides in the
            caller's thread with no limit, which is faster (`Trigger.time_limited`).

    Raises:
        PluginError: for a bad name, a parameter model that is not one, a
            decision that is not callable, or a name already taken elsewhere.
    """
    if decide is None:

        def wrap(fn: Decide) -> Decide:
            register(
                name,
                params,
                fn,
                splits=splits,
                summary=summary,
                replace=replace,
                time_limited=time_limited,
            )
            return fn

        return wrap
    key = str(name).strip().upper()
    if not _NAME.match(key):
        raise PluginError(
            f"trigger name {name!r}: use letters, digits and underscores, "
            "starting with a letter"
        )
    if not (isinstance(params, type) and issubclass(params, TriggerParams)):
        raise PluginError(f"trigger {key!r}: params must be a TriggerParams subclass")
    if not callable(decide):
        raise PluginError(f"trigger {key!r}: decide must be callable")
    try:
        params()
    except Exception as exc:  # a model whose defaults do not validate
        raise PluginError(
            f"trigger {key!r}: its parameters need valid defaults ({exc})"
        ) from None
    module = getattr(decide, "__module__", "") or ""
    doc = (inspect.getdoc(decide) or "").strip().splitlines()
    trigger = Trigger(
        name=key,
        params=params,
        decide=decide,
        splits=splits,
        module=module,
        summary=summary or (doc[0] if doc else ""),
        time_limited=time_limited,
    )
    _triggers.add(key, trigger, replace=replace)
    return trigger


def unregister(name: str) -> None:
    """Forget a trigger (tests and notebooks that clean up after themselves)."""
    _triggers.remove(name)


def get_trigger(name: str) -> Trigger | None:
    """The trigger registered under `name` (any case), or None."""
    return _triggers.get(name)


def trigger_names() -> tuple[str, ...]:
    """Every registered name, sorted (built-ins A, B, C, D first by name)."""
    return _triggers.names()


def all_triggers() -> tuple[Trigger, ...]:
    """Every registered trigger, by name."""
    return _triggers.entries()


def load_plugin(path: str) -> list[str]:
    """Import a module that registers triggers; the names it added now, sorted.

    Raises:
        PluginError: naming the module and why it could not be imported.
    """
    return _triggers.load_plugin(path)


def load_plugins(paths: tuple[str, ...] | list[str]) -> list[str]:
    """Load each plug-in module in turn; the triggers they define, by name.

    Loading twice is harmless (a module is imported once) and names the same
    triggers, so callers need not know whether a command loaded them already.
    """
    for path in paths:
        load_plugin(path)
    return [
        t.name
        for t in all_triggers()
        if any(t.module == p or t.module.startswith(p + ".") for p in paths)
    ]


def load_entry_points() -> list[str]:
    """Load every ``memory_lab.triggers`` entry point; the names they added.

    Done once on first use of the registry; call it again after installing a
    distribution into a running process.

    Raises:
        PluginError: naming the entry point that could not be loaded.
    """
    return _triggers.load_entry_points()
