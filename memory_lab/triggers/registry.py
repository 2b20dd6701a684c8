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

import importlib
import importlib.metadata
import inspect
import pkgutil
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import overload

from memory_lab.errors import MemoryLabError
from memory_lab.triggers.base import Decide, Splits, Trigger, TriggerParams

ENTRY_POINT_GROUP = "memory_lab.triggers"
_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
_INFRASTRUCTURE = frozenset({"base", "registry", "running"})

_triggers: dict[str, Trigger] = {}
_lock = threading.RLock()
_discovered = False


class PluginError(MemoryLabError):
    """A plug-in module could not be loaded, or registered a bad trigger."""


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
    with _lock:
        old = _triggers.get(key)
        if old is not None and not replace and old.module != module:
            raise PluginError(
                f"trigger {key!r} is already registered by {old.module}; "
                "pick another name or pass replace=True"
            )
        _triggers[key] = trigger
    return trigger


def unregister(name: str) -> None:
    """Forget a trigger (tests and notebooks that clean up after themselves)."""
    with _lock:
        _triggers.pop(str(name).strip().upper(), None)


def get_trigger(name: str) -> Trigger | None:
    """The trigger registered under `name` (any case), or None."""
    _discover()
    return _triggers.get(str(name).strip().upper())


def trigger_names() -> tuple[str, ...]:
    """Every registered name, sorted (built-ins A, B, C, D first by name)."""
    _discover()
    with _lock:
        return tuple(sorted(_triggers))


def all_triggers() -> tuple[Trigger, ...]:
    """Every registered trigger, by name."""
    _discover()
    with _lock:
        return tuple(_triggers[n] for n in sorted(_triggers))


def load_plugin(path: str) -> list[str]:
    """Import a module that registers triggers; the names it added now, sorted.

    Raises:
        PluginError: naming the module and why it could not be imported.
    """
    _discover()
    before = set(_triggers)
    try:
        importlib.import_module(path)
    except Exception as exc:
        raise PluginError(
            f"cannot load plugin {path!r}: {type(exc).__name__}: {exc}"
        ) from None
    return sorted(set(_triggers) - before)


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
    before = set(_triggers)
    for entry in importlib.metadata.entry_points(group=ENTRY_POINT_GROUP):
        try:
            entry.load()
        except Exception as exc:
            raise PluginError(
                f"cannot load trigger entry point {entry.name!r} "
                f"({entry.value}): {type(exc).__name__}: {exc}"
            ) from None
    return sorted(set(_triggers) - before)


def _discover() -> None:
    """Import the package's own trigger modules and the entry points, once."""
    global _discovered
    if _discovered:
        return
    with _lock:
        if _discovered:
            return
        _discovered = True
        for info in pkgutil.iter_modules([str(Path(__file__).parent)]):
            if info.name.startswith("_") or info.name in _INFRASTRUCTURE:
                continue
            importlib.import_module(f"{__package__}.{info.name}")
        load_entry_points()
