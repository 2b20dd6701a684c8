"""The owner's control over an open memory: export it, purge it for real.

`OwnerControl` is a base of `memory_lab.api.Memory`, kept apart so each module
stays short; use it through `Memory`. `memory_lab.owner` does the same on a
folder's files without opening a memory.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from memory_lab.errors import require_tenant

if TYPE_CHECKING:
    from memory_lab.engine import MemoryEngine
    from memory_lab.owner.selection import Selection
    from memory_lab.owner.tombstones import Tombstone


class OwnerControl:
    """The part of `Memory` its owner controls it through (see the module)."""

    _engine: MemoryEngine

    def export(
        self,
        tenant: str,
        out: str | Path | TextIO | None = None,
        *,
        wait: bool = True,
    ) -> dict[str, int]:
        """Everything held about `tenant`, as JSON lines in `out` (if given).

        `out` is a path (written whole or not at all) or an open text stream.
        With `wait` the memory work owed so far is done first, so the export
        holds what it wrote; without, the owed work is exported as owed jobs.

        Returns:
            How many records of each kind were exported.

        Raises:
            MemoryLabError: for a memory held in this process only, or a tenant
                with no data.
        """
        from memory_lab.owner.export import export_tenant, write_export
        from memory_lab.owner.holdings import engine_holdings

        tenant = require_tenant(tenant)
        if wait:
            self._engine.flush()
        export = export_tenant(
            engine_holdings(self._engine), tenant, now=self._engine.clock.now()
        )
        if isinstance(out, str | Path):
            write_export(export, Path(out))
        elif out is not None:
            out.writelines(line + "\n" for line in export.lines())
        return dict(export.header.counts)

    def purge(
        self,
        tenant: str,
        *,
        fact: str | None = None,
        chat: str | None = None,
        episode: str | None = None,
        before: datetime | None = None,
        requested_by: str = "api",
    ) -> Tombstone:
        """Remove content for real (unlike `forget`); without a selector, all of it.

        A fact (with its history and the turns it was read from), a chat, an
        episode or every turn before a time. The records leave every read at
        once; a folder's files are rewritten when it is next opened.

        Returns:
            The tombstone: who asked, when, what was selected, and how many
            records each tier lost; never the content.

        Raises:
            PurgeRequestError: when the selection names nothing held.
        """
        from memory_lab.owner.selection import Selection

        selection = Selection(fact=fact, chat=chat, episode=episode, before=before)
        self.check_purge(tenant, selection)
        return self._engine.purge(tenant, selection, requested_by=requested_by)

    def check_purge(self, tenant: str, selection: Selection) -> None:
        """Refuse, before anything changes, a purge that selects nothing held.

        Raises:
            PurgeRequestError: naming what is not held.
        """
        from memory_lab.owner.held import check_held

        check_held(self._engine.deps, require_tenant(tenant), selection)

    def finish_purges(self) -> list[Tombstone]:
        """Finish purges a killed process left running on these stores."""
        return self._engine.finish_purges()
