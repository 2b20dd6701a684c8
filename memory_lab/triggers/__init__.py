"""Compression triggers: a protocol, a registry, and the ones that ship.

A trigger is a parameter model (`TriggerParams`) and one pure decision over a
read-only view of the window and the clock (`WindowView`), returning which of the
oldest turns to compress and why (`Compress`), or None. `register` adds one;
everything that names recipes reads the registry, so a new trigger is one module
(see `memory_lab.triggers.base` for a worked example). Shipped:

- A (`message_count`): at a message count, compress all but the newest few.
- B (`token_count`): above a token high-water mark, compress down to low water.
- C (`time_period`): compress each finished day or week, and after an idle gap.
- D (`topic_shift`): compress the span before the turns whose meaning leaves it.

Any registered triggers combine any-of (``A+D``); the largest span asked for wins.
"""

from memory_lab.triggers.base import Compress, Trigger, TriggerParams, WindowView
from memory_lab.triggers.registry import (
    PluginError,
    all_triggers,
    get_trigger,
    load_entry_points,
    load_plugin,
    load_plugins,
    register,
    trigger_names,
    unregister,
)

__all__ = [
    "Compress",
    "PluginError",
    "Trigger",
    "TriggerParams",
    "WindowView",
    "all_triggers",
    "get_trigger",
    "load_entry_points",
    "load_plugin",
    "load_plugins",
    "register",
    "trigger_names",
    "unregister",
]
