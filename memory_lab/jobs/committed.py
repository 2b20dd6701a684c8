"""The episode store as reads see it: only episodes whose compression committed.

A compression writes its episodes to the search index first and commits them to
the ledger after; a crash in between leaves an episode in the index that the
ledger does not know. Reads go through this view, so such a half-written episode
is never searched, counted or shown (its turns are still in the window), and
the retried job commits the same episode ids later.
"""

from __future__ import annotations

from collections.abc import Sequence

from memory_lab.errors import require_tenant
from memory_lab.jobs.ledger import JobLedger
from memory_lab.stores.base import EpisodeStore
from memory_lab.types import Episode


class CommittedEpisodeStore:
    """An `EpisodeStore` over a search index, filtered by the job ledger."""

    def __init__(self, index: EpisodeStore, ledger: JobLedger) -> None:
        self.index = index
        self.ledger = ledger

    def add(self, tenant: str, episodes: Sequence[Episode]) -> None:
        """Store episodes outside any job (bulk loads, tools): index, then commit."""
        self.index.add(tenant, episodes)
        self.ledger.commit_episodes(require_tenant(tenant), episodes)

    def get(self, tenant: str, ids: Sequence[str] | None = None) -> list[Episode]:
        """Committed episodes, read from the ledger (the index may hold more)."""
        return self.ledger.episodes(tenant, ids)

    def search(
        self, tenant: str, query: str, *, top_k: int, max_distance: float
    ) -> list[tuple[Episode, float]]:
        """The index's nearest episodes, keeping only committed ones."""
        hits = self.index.search(tenant, query, top_k=top_k, max_distance=max_distance)
        if not hits:
            return hits
        committed = self.ledger.committed_ids(tenant, [e.id for e, _ in hits])
        return [(e, d) for e, d in hits if e.id in committed]

    def count(self, tenant: str) -> int:
        """How many committed episodes the tenant has."""
        return self.ledger.episode_count(tenant)

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
        return added

    def reopen(self) -> None:
        """Reload the index from disk (another process added vectors)."""
        reopen = getattr(self.index, "reopen", None)
        if reopen is not None:
            reopen()

    def close(self) -> None:
        """Release the index."""
        close = getattr(self.index, "close", None)
        if close is not None:
            close()
