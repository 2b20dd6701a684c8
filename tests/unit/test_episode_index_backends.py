"""An episode-index backend is one module and one registration.

The toy backend below keeps vectors in a dict, shared by every store opened on
the same `toy://` URL (as a server's collections are). It is registered here,
in the test, and nowhere else: a `Memory` opened with `episodes="toy://..."`
compresses into it, searches it, exports from it and purges it, and no module
of memory-lab names it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np
import pytest

from memory_lab import Memory
from memory_lab.errors import MemoryLabError
from memory_lab.stores import locations
from memory_lab.stores.base import EpisodeStore
from memory_lab.stores.locations import (
    IndexBackend,
    StoreSpec,
    StoreURLError,
    register_index_backend,
    unregister_index_backend,
)
from memory_lab.types import Episode

SHELVES: dict[str, dict[str, dict[str, tuple[Episode, np.ndarray]]]] = {}
"""Every toy index's records: collection -> tenant -> id -> (episode, vector)."""


class DictEpisodeIndex:
    """Episodes with exact cosine search over vectors kept in a dict."""

    def __init__(self, where: str | Path, embedder, collection: str) -> None:
        self.where = str(where)
        self._embedder = embedder
        key = f"{where}/{collection}"
        self._held = SHELVES.setdefault(key, defaultdict(dict))

    def add(self, tenant: str, episodes: Sequence[Episode]) -> None:
        new = [e for e in episodes if e.id not in self._held[_tenant(tenant)]]
        if new:
            vectors = self._embedder.embed([e.render() for e in new])
            for episode, vector in zip(new, vectors, strict=True):
                self._held[tenant][episode.id] = (episode, vector)

    def get(self, tenant: str, ids: Sequence[str] | None = None) -> list[Episode]:
        held = self._held[_tenant(tenant)]
        chosen = held if ids is None else [i for i in dict.fromkeys(ids) if i in held]
        found = [held[i][0] for i in chosen]
        return sorted(found, key=lambda e: (e.first_seq, e.last_seq, e.id))

    def search(
        self, tenant: str, query: str, *, top_k: int, max_distance: float
    ) -> list[tuple[Episode, float]]:
        held = self._held[_tenant(tenant)]
        if top_k <= 0 or not held:
            return []
        q = self._embedder.embed([query])[0]
        scored = [
            (episode, max(1.0 - float(vector @ q), 0.0))
            for episode, vector in held.values()
        ]
        ranked = sorted(scored, key=lambda hit: (hit[1], hit[0].id))
        return [hit for hit in ranked if hit[1] <= max_distance][:top_k]

    def count(self, tenant: str) -> int:
        return len(self._held[_tenant(tenant)])

    def remove(self, tenant: str, ids: Sequence[str]) -> int:
        held = self._held[_tenant(tenant)]
        return sum(held.pop(i, None) is not None for i in set(ids))

    def drop(self, tenant: str) -> None:
        self._held.pop(_tenant(tenant), None)

    def close(self) -> None:
        """Nothing to release: the dict outlives the store, as a server would."""


def _tenant(tenant: str) -> str:
    if not tenant or not tenant.strip():
        raise MemoryLabError("a tenant is required")
    return tenant


def _check(url: str) -> None:
    if not url.removeprefix("toy://"):
        raise StoreURLError(f"toy index URL {url!r} names no shelf")


@pytest.fixture
def toy() -> Iterator[IndexBackend]:
    backend = register_index_backend(
        IndexBackend("toy", ("toy",), DictEpisodeIndex, check=_check)
    )
    yield backend
    unregister_index_backend("toy")
    SHELVES.clear()


TURNS = [
    "My sister Jo runs a bakery in Ghent.",
    "A bakery, how lovely.",
    "I play the cello on Sundays.",
    "Nice.",
    "We adopted a greyhound called Pip.",
    "Lovely name.",
    "I work as a nurse at the city hospital.",
    "That is demanding work.",
]


def _turns() -> list[dict]:
    return [
        {"role": "user" if n % 2 == 0 else "assistant", "content": text}
        for n, text in enumerate(TURNS)
    ]


def _shelf() -> dict[str, dict[str, tuple[Episode, np.ndarray]]]:
    [(name, shelf)] = [(k, v) for k, v in SHELVES.items() if k.endswith(".episodes")]
    assert name.startswith("toy://shelf/")
    return shelf


def test_the_toy_satisfies_the_protocol_and_is_not_built_in(toy):
    operations = {n for n in vars(EpisodeStore) if not n.startswith("_")}
    assert {"add", "get", "search", "count", "remove", "drop", "close"} <= operations
    assert operations <= set(dir(DictEpisodeIndex))
    assert "toy" not in {b.name for b in locations.BUILT_IN_INDEXES}
    assert locations.index_backend("toy://shelf") is toy


def test_a_memory_compresses_into_searches_and_purges_the_toy_index(toy, tmp_path):
    recipe = "A(max_messages=4,keep_last=2)"
    with Memory.open(tmp_path / "m", recipe=recipe, episodes="toy://shelf") as memory:
        memory.add("ada", _turns())
        memory.flush()
        held = _shelf()["ada"]
        assert held, "compression wrote no episode into the toy index"
        assert memory.stats("ada")["episodes"] == len(held)
        hits = memory.search("ada", "cello on Sundays", k=20)
        assert any(h.tier == "episodes" for h in hits)
        assert not (tmp_path / "m" / "chroma").exists()
        assert memory.export("ada")["episode"] == len(held)
        memory.purge("ada", requested_by="test")
        assert _shelf().get("ada", {}) == {}
        assert memory.search("ada", "cello on Sundays", k=20) == []


def test_a_second_memory_on_the_same_url_reads_the_same_index(toy, tmp_path):
    recipe = "A(max_messages=4,keep_last=2)"
    with Memory.open(tmp_path / "m", recipe=recipe, episodes="toy://shelf") as memory:
        memory.add("ada", _turns())
        memory.flush()
        held = len(_shelf()["ada"])
    with Memory.open(tmp_path / "m", recipe=recipe, episodes="toy://shelf") as again:
        assert again.stats("ada")["episodes"] == held


def test_registration_refuses_a_taken_name_or_scheme_and_urls_are_checked(toy):
    with pytest.raises(MemoryLabError, match="named 'toy'"):
        register_index_backend(IndexBackend("toy", ("toy2",), DictEpisodeIndex))
    with pytest.raises(MemoryLabError, match="scheme 'http' is taken"):
        register_index_backend(IndexBackend("other", ("http",), DictEpisodeIndex))
    with pytest.raises(MemoryLabError, match="not callable"):
        register_index_backend(IndexBackend("other", ("other",), "no_colon"))
    with pytest.raises(StoreURLError, match="names no shelf"):
        StoreSpec(episodes="toy://")
    with pytest.raises(StoreURLError, match="unknown scheme 'ftp'.*toy://"):
        StoreSpec(episodes="ftp://host")
    with pytest.raises(MemoryLabError, match="built in"):
        unregister_index_backend("chroma")


def test_unregistered_the_toy_url_is_refused_by_name():
    with pytest.raises(StoreURLError, match="unknown scheme 'toy'"):
        StoreSpec(episodes="toy://shelf")
