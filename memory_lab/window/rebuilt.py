"""A thread's running summary rebuilt from the episodes left, with no brain.

A purge rewrites the stored summary this way; reads show it this way while an
episode of the thread is in the trash (`jobs.committed`).
"""

from __future__ import annotations

from memory_lab.types import Episode

LOST = "(removed by a purge)"
"""The summary of an episode some of whose turns were purged."""


def rebuilt_summary(episodes: list[Episode], limit: int) -> str:
    """A running summary from the episodes left, newest lines first, no brain.

    Lines as compression writes them; no longer than `limit` characters (the
    summary it replaces, which its budget had kept short). Lost episodes have
    nothing to add.
    """
    lines = [
        f"[{e.start.date().isoformat()}] {e.summary}"
        for e in episodes
        if e.summary != LOST
    ]
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + (1 if kept else 0)
        if size > limit:
            break
        kept.append(line)
    return "\n".join(reversed(kept))
