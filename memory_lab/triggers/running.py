"""Running a recipe's triggers: each guarded, the largest span asked for wins.

Triggers may come from a notebook or a plug-in, so each call is checked: a
trigger that raises, names more turns than the window holds, answers with
something that is not a `Compress`, or takes longer than the recipe allows is
refused with a `TriggerError` naming it. The caller has stored the turn
already, so refusing loses nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

import numpy as np

from memory_lab.config import Recipe
from memory_lab.errors import TriggerError
from memory_lab.tokens import TokenCounter
from memory_lab.triggers.base import Compress, Trigger, WindowView
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
            span outside the window or runs past `recipe.decision_seconds`.
    """
    view = WindowView(window, now, counter, embed)
    fired: list[tuple[str, int, str]] = []
    for use in recipe.triggers:
        trigger = _registered(use.name)
        verdict = _guarded(trigger, view, recipe.params_of(use.name), recipe)
        if verdict is not None and verdict.count > 0:
            fired.append((trigger.name, verdict.count, verdict.reason))
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


def _guarded(
    trigger: Trigger, view: WindowView, params: Any, recipe: Recipe
) -> Compress | None:
    """One decision, in a thread of its own so that one that never returns is cut off.

    A daemon thread: a runaway decision is abandoned, not joined at exit.
    """
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["verdict"] = trigger.decide(view, params)
        except BaseException as exc:  # reported below, with the trigger's name
            box["error"] = exc

    worker = threading.Thread(target=run, name=f"trigger-{trigger.name}", daemon=True)
    worker.start()
    worker.join(recipe.decision_seconds)
    where = f"trigger {trigger.name!r} ({trigger.module})"
    if worker.is_alive():
        raise TriggerError(
            f"{where} took longer than {recipe.decision_seconds:g} s to decide over "
            f"{len(view)} turns and was refused; the turns are stored"
        )
    if "error" in box:
        exc = box["error"]
        raise TriggerError(
            f"{where} raised {type(exc).__name__}: {exc}; the turns are stored"
        ) from exc
    verdict = box.get("verdict")
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
