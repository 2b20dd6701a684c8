"""A demo live-data source: the tenant's open items, read from a JSON file.

It shows how an app plugs current data into the context: `open_items.json` in
the data folder maps a tenant to its current values, e.g.
`{"alice": {"open_items": "invoice INV-7, due 10 March"}}`. Edit the file and
the next reply sees the new values, ahead of (and instead of) anything memory
holds under the same key. A missing file or tenant means nothing is live.
"""

from __future__ import annotations

import json
from pathlib import Path

from memory_lab.api import Memory

NAME = "demo open items"
"""How the context labels the values (`live from demo open items`)."""
KEYS = ("open_items",)
FILE = "open_items.json"


def open_items(folder: Path):
    """The fetch: the tenant's values from `folder/open_items.json`."""
    path = folder / FILE

    def fetch(tenant: str) -> dict[str, str]:
        if not path.is_file():
            return {}
        held = json.loads(path.read_text(encoding="utf-8")).get(tenant) or {}
        return {k: v for k, v in held.items() if k in KEYS}

    return fetch


def register_demo_source(memory: Memory, folder: Path) -> None:
    """Register the demo source on a memory once (memories are cached)."""
    if NAME not in memory.live.names():
        memory.live.register(NAME, KEYS, open_items(folder), timeout_s=0.5)
