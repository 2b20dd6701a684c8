"""Running a recipe's triggers: each guarded, the largest span asked for wins.

Triggers may come from a notebook or a plug-in, so each call is checked: a
trigger that raises, names more turns than the window holds, answers with
something that is not a `Compress`, or is still deciding when the recipe's time
for the decision is up is refused with a `TriggerError` naming it. The caller
has stored the turn already, so refusing loses nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memory_lab.errors import TriggerError
from memory_lab.tokens import TokenCounter
from memory_lab.triggers.base import Compress, Trigger, WindowView
from memory_lab.triggers.recipe import Recipe
from memory_lab.triggers.registry import get_trigger
from memory_lab.types import Message, TriggerDecision


def decide(
    window: Sequence[Message],
    now: datetime,
    recipe: Recipe,
    counter: TokenCounter,
    embed: Callable[[Sequence[Message]], np.ndarray] | None = None,
) -> TriggerDecision:
    """Ask every trigger of the recipe (any-of); the largest span any asks for wins.

    Raises:
        TriggerError: for a trigger that is not registered, raises, returns a
            span outside the window, or is still deciding when the recipe's
            `decision_seconds` are up.
    """
    view = WindowView(window, now, counter, embed)
    asked = [(_registered(u.name), recipe.params_of(u.name)) for u in recipe.triggers]
    fired: list[tuple[str, int, str]] = []
    if any(trigger.time_limited for trigger, _ in asked):
        verdicts = _guarded(asked, view, recipe.decision_seconds)
    else:
        verdicts = _inline(asked, view)
    for trigger, verdict in verdicts:
        checked = _checked(trigger, verdict, view)
        if checked is not None and checked.count > 0:
            fired.append((trigger.name, checked.count, checked.reason))
    if not fired:
        return TriggerDecision(fire=False)
    return TriggerDecision(
        fire=True,
        triggers=[name for name, _, _ in fired],
        reasons=[why for _, _, why in fired],
        compress_count=max(n for _, n, _ in fired),
    )


def splits_between(recipe: Recipe, before: Message, after: Message) -> bool:
    """Whether any trigger of the recipe cuts episodes between the two turns.

    Raises:
        TriggerError: when a trigger's cut raises.
    """
    for use in recipe.triggers:
        trigger = _registered(use.name)
        if trigger.splits is None:
            continue
        try:
            if trigger.splits(before, after, recipe.params_of(use.name)):
                return True
        except Exception as exc:
            raise TriggerError(
                f"trigger {trigger.name!r} ({trigger.module}) raised "
                f"{type(exc).__name__} while cutting episodes: {exc}"
            ) from exc
    return False


def _registered(name: str) -> Trigger:
    trigger = get_trigger(name)
    if trigger is None:
        raise TriggerError(
            f"trigger {name!r} is not registered here; load the module that "
            "defines it (--plugin module.path) before running the recipe"
        )
    return trigger


def _inline(
    asked: list[tuple[Trigger, Any]], view: WindowView
) -> list[tuple[Trigger, Any]]:
    """Every decision in the caller's thread: for triggers that need no time limit.

    A Ctrl-C or exit raised while deciding goes on as itself, not as a refusal.
    """
    box: dict[str, Any] = {"verdicts": []}
    _decide_all(asked, view, box)
    if "error" in box and not isinstance(box["error"][1], Exception):
        raise box["error"][1]
    _raise_error(box)
    return box["verdicts"]


def _guarded(
    asked: list[tuple[Trigger, Any]], view: WindowView, seconds: float
) -> list[tuple[Trigger, Any]]:
    """Every decision, in one thread of their own, so one that never returns is cut off.

    One thread per turn, not per trigger: starting a thread costs about 0.1 ms,
    which per trigger was a tenth of an ordinary turn's ingest. It is a daemon
    thread: a runaway decision is abandoned, not joined at exit.
    """
    box: dict[str, Any] = {"verdicts": []}
    worker = threading.Thread(
        target=_decide_all, args=(asked, view, box), name="triggers", daemon=True
    )
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        trigger = box.get("running", asked[0][0])
        raise TriggerError(
            f"{_where(trigger)} took longer than {seconds:g} s to decide over "
            f"{len(view)} turns and was refused; the turns are stored"
        )
    _raise_error(box)
    return box["verdicts"]


def _decide_all(
    asked: list[tuple[Trigger, Any]], view: WindowView, box: dict[str, Any]
) -> None:
    """Each verdict in order into `box`; the first error stops it, kept in `box`."""
    for trigger, params in asked:
        box["running"] = trigger
        try:
            box["verdicts"].append((trigger, trigger.decide(view, params)))
        except BaseException as exc:  # reported by the caller, with the name
            box["error"] = (trigger, exc)
            return
    box.pop("running", None)


def _raise_error(box: dict[str, Any]) -> None:
    if "error" in box:
        trigger, exc = box["error"]
        raise TriggerError(
            f"{_where(trigger)} raised {type(exc).__name__}: {exc}; "
            "the turns are stored"
        ) from exc


def _where(trigger: Trigger) -> str:
    return f"trigger {trigger.name!r} ({trigger.module})"


def _checked(trigger: Trigger, verdict: Any, view: WindowView) -> Compress | None:
    """The verdict, if it is one the window can carry out.

    Raises:
        TriggerError: for an answer that is not `Compress` or None, or a count
            outside the window.
    """
    where = _where(trigger)
    if verdict is None:
        return None
    if not isinstance(verdict, Compress):
        raise TriggerError(
            f"{where} returned {type(verdict).__name__}, not Compress or None"
        )
    if isinstance(verdict.count, bool) or not isinstance(verdict.count, int):
        raise TriggerError(f"{where} returned a count that is not an int")
    if not 0 <= verdict.count <= len(view):
        raise TriggerError(
            f"{where} asked to compress {verdict.count} turns but the window "
            f"holds {len(view)}; refused, the turns are stored"
        )
    return verdict
