"""The `--store` and `--episodes-store` flags, defined once for every command."""

from __future__ import annotations

import argparse


def add_store_flags(p: argparse.ArgumentParser) -> None:
    """`--store` and `--episodes-store`: memory on servers instead of local files."""
    g = p.add_argument_group(
        "stores", "where memory lives (default: local files in the data folder)"
    )
    g.add_argument(
        "--store",
        metavar="URL",
        help="postgresql://user@host:port/db for the transcript, facts, events "
        "and job ledger (env MEMORY_LAB_STORE)",
    )
    g.add_argument(
        "--episodes-store",
        metavar="URL",
        help="http://host:port of a Chroma server for the episodes "
        "(env MEMORY_LAB_EPISODES_STORE)",
    )
