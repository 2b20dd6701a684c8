"""The episode store as reads see it: only episodes whose compression committed.

A compression writes its episodes to the search index first and commits them to
the ledger after; a crash in between leaves an episode in the index that the
ledger does not know. Reads go through this view, so such a half-written episode
is never searched, counted or shown (its turns are still in the window), and
the retried job commits the same episode ids later. Episodes their owner moved
to the trash (`owner.trash_bin`) are left out of reads the same way.

Searches are remembered per episode revision: a question is searched once per
state of the tenant's episodes, however many contexts are built for it (an eval
builds one per budget, with and without excerpts), and any commit, trash move or
purge, by any engine or process, moves the revision and so forgets them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from memory_lab.errors import require_tenant
from memory_lab.jobs.ledger import JobLedger
from memory_lab.stores import sql_erase
from memory_lab.stores.base import EpisodeStore
from memory_lab.types import Episode
from memory_lab.window.rebuilt import rebuilt_summary

SEARCHES_KEPT = 256
"""Searches remembered per store: a question's contexts at every budget reuse one."""


class CommittedEpisodeStore:
    """An `EpisodeStore` over a search index, filtered by the job ledger."""

    def __init__(self, index: EpisodeStore, ledger: JobLedger) -> None:
        self.index = index
        self.ledger = ledger
        self._hidden: Callable[[str], set[str]] = lambda tenant: set()
        self._search_at = functools.lru_cache(maxsize=SEARCHES_KEPT)(self._search)

    def hide_with(self, hidden: Callable[[str], set[str]]) -> None:
        """Leave out of reads the episode ids `hidden(tenant)` names (the trash)."""
        self._hidden = hidden
        self._search_at.cache_clear()

    def add(self, tenant: str, episodes: Sequence[Episode]) -> None:
        """Store episodes outside any job (bulk loads, tools): index, then commit."""
        self.index.add(tenant, episodes)
        self.ledger.commit_episodes(require_tenant(tenant), episodes)

    def revision(self, tenant: str) -> int:
        """Moves with every commit, trash move or purge of the tenant's episodes."""
        return self.ledger.episodes_revision(tenant)

    def get(self, tenant: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """Committed episodes, read from the ledger (the index may hold more)."""
        found = self.ledger.episodes(tenant, ids)
        hidden = self._hidden(tenant)
        return [e for e in found if e.id not in hidden] if hidden else found

    def search(
        self, tenant: str, query: str, *, top_k: int, max_distance: float
    ) -> list[tuple[Episode, float]]:
        """The index's nearest episodes, keeping only committed ones.

        The revision is read before the search, so a commit racing it can only
        leave its result under the older revision, which the next read passes by.
        """
        revision = self.revision(tenant)
        return list(self._search_at(tenant, query, top_k, max_distance, revision))

    def _search(
        self, tenant: str, query: str, top_k: int, max_distance: float, revision: int
    ) -> tuple[tuple[Episode, float], ...]:
        search_ids = getattr(self.index, "search_ids", None)
        if search_ids is not None:
            return self._search_by_ids(search_ids, tenant, query, top_k, max_distance)
        hits = self.index.search(tenant, query, top_k=top_k, max_distance=max_distance)
        if not hits:
            return ()
        committed = self.ledger.committed_ids(tenant, [e.id for e, _ in hits])
        committed -= self._hidden(tenant)
        return tuple((e, d) for e, d in hits if e.id in committed)

    def _search_by_ids(
        self,
        search_ids: Callable[..., list[tuple[str, float]]],
        tenant: str,
        query: str,
        top_k: int,
        max_distance: float,
    ) -> tuple[tuple[Episode, float], ...]:
        """The index's hits as ids, their records read from the ledger.

        The ledger keeps its records decoded, so a hit costs a look-up, not a
        record fetched from the index and decoded per question; an id the
        ledger has not committed is left out, as `_search` leaves it out.
        """
        hits = search_ids(tenant, query, top_k=top_k, max_distance=max_distance)
        if not hits:
            return ()
        hidden = self._hidden(tenant)
        found = {
            e.id: e
            for e in self.ledger.episodes(tenant, [i for i, _ in hits])
            if e.id not in hidden
        }
        return tuple((found[i], d) for i, d in hits if i in found)

    def summary_seen(self, tenant: str, thread: str, summary: str) -> str:
        """The thread's running summary as reads may show it.

        With an episode of the thread in the trash, the summary (prose over
        every compressed turn) is rebuilt from the episodes left, as a purge
        rebuilds it; the stored one is untouched, so a restore gives it back.
        """
        hidden = self._hidden(tenant)
        if not hidden:
            return summary
        episodes = [e for e in self.ledger.episodes(tenant) if e.thread == thread]
        if not any(e.id in hidden for e in episodes):
            return summary
        kept = [e for e in episodes if e.id not in hidden]
        return rebuilt_summary(kept, len(summary))

    def count(self, tenant: str) -> int:
        """How many committed episodes the tenant has, the trashed left out."""
        return self.ledger.episode_count(tenant) - len(self._hidden(tenant))

    def reconcile(self) -> int:
        """Re-index committed episodes the index lacks; returns how many.

        The index is written before the commit, so this finds nothing unless the
        index lost writes (or was deleted, to be rebuilt from the ledger). Equal
        counts are taken as agreement; orphans of a crashed job only exist until
        the job is retried, which commits them.
        """
        added = 0
        for tenant in self.ledger.episode_tenants():
            if self.index.count(tenant) == self.ledger.episode_count(tenant):
                continue
            committed = self.ledger.episodes(tenant)
            present = {e.id for e in self.index.get(tenant, [e.id for e in committed])}
            missing = [e for e in committed if e.id not in present]
            self.index.add(tenant, missing)
            added += len(missing)
        if added:
            self._search_at.cache_clear()
        return added

    def remove(self, tenant: str, ids: Sequence[str]) -> int:
        """Delete committed episodes for good, from the ledger and the index.

        Returns how many the ledger held. (A purge rewrites more than this, so
        its tiers remove the rows and the index records themselves.)
        """
        tenant = require_tenant(tenant)
        held = sorted(e.id for e in self.ledger.episodes(tenant, ids))
        with self.ledger.db.write() as conn:
            sql_erase.delete_rows(conn, "episodes", tenant, held)
        self.index.remove(tenant, ids)
        self._search_at.cache_clear()
        return len(held)

    def drop(self, tenant: str) -> None:
        """Delete every committed episode of the tenant, and all its index records."""
        self.remove(tenant, [e.id for e in self.ledger.episodes(tenant)])
        self.index.drop(tenant)

    def close(self) -> None:
        """Release the index."""
        self._search_at.cache_clear()
        self.index.close()
