"""``--plugin MODULE``: import modules that register triggers or data sets first.

A researcher's trigger lives in their own module (``my_triggers.py`` beside the
notebook, or an installed package); naming it with ``--plugin`` makes its
triggers recipes for that run, exactly like the built-in A, B, C and D. Installed
distributions can instead declare a ``memory_lab.triggers`` entry point, which
is loaded without a flag. A module that calls `memlab_datasets.registry.register`
makes its data set a name for ``--dataset NAME:PATH`` the same way (``datasets
describe`` takes ``--plugin`` too, on its own sub-command).
"""

from __future__ import annotations

import argparse
import sys

from memory_lab.triggers import load_plugins

PLUGIN_COMMANDS = ("eval", "replay", "bench", "main", "triggers")


def add_plugin_flag(parser: argparse.ArgumentParser) -> None:
    """Add ``--plugin MODULE`` (repeatable) to a command."""
    parser.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first, so the triggers it registers can be named in "
        "recipes and the data sets it registers in --dataset (repeatable; e.g. "
        "--plugin my_triggers, then --systems 'E,A+E')",
    )


def load_requested(args: argparse.Namespace) -> tuple[str, ...]:
    """Import the modules ``--plugin`` named; they are also imported by workers.

    The current folder is searched first, as ``python -m`` would, so a module
    beside the user's notebook is found without installing it.

    Raises:
        PluginError: naming the module that could not be imported.
    """
    plugins = tuple(getattr(args, "plugin", None) or ())
    if plugins and "" not in sys.path:
        sys.path.insert(0, "")
    load_plugins(plugins)
    return plugins
