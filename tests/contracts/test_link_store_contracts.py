"""The fact-link store contract, run on SQLite, Postgres and the in-memory reference."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from memory_lab.stores.memory import InMemoryFactLinkStore
from memory_lab.stores.sql_links import SqlFactLinkStore
from memory_lab.stores.tenancy import TenantMismatchError
from memory_lab.types import FactLink
from tests.contracts.conftest import SQL_BACKENDS, Backend, _backend, _sql_backends
from tests.helpers import T0


@pytest.fixture(params=SQL_BACKENDS)
def links(request, tmp_path: Path) -> Iterator[Backend]:
    yield from _backend(
        request,
        _sql_backends(request, tmp_path, SqlFactLinkStore, InMemoryFactLinkStore),
    )


def link(tenant: str, id: str, source: str, target: str, **kw) -> FactLink:
    fields = {"type": "relates_to", "created_at": T0} | kw
    return FactLink(id=id, tenant=tenant, source=source, target=target, **fields)


def test_links_are_read_from_either_end_in_creation_order(links):
    store = links.open()
    later = T0 + timedelta(minutes=1)
    store.insert("a", link("a", "l2", "f1", "f2", created_at=later))
    store.insert("a", link("a", "l1", "f3", "f1", type="caused_by"))
    store.insert("a", link("a", "l3", "f4", "f5"))
    assert [k.id for k in store.links("a", "f1")] == ["l1", "l2"]
    assert [k.id for k in store.links("a", "f2")] == ["l2"]
    assert [k.id for k in store.links("a")] == ["l1", "l3", "l2"]
    assert store.links("a", "f1")[0] == link("a", "l1", "f3", "f1", type="caused_by")


def test_ending_keeps_the_row_and_persists(links):
    store = links.open()
    store.insert("a", link("a", "l1", "f1", "f2"))
    ended = link("a", "l1", "f1", "f2", ended_at=T0 + timedelta(hours=1))
    store.end("a", ended)
    assert links.open().links("a", "f1") == [ended]
    with pytest.raises(KeyError):
        store.end("a", link("a", "nope", "f1", "f2", ended_at=T0))


def test_tenants_never_see_each_others_links(links):
    store = links.open()
    store.insert("a", link("a", "l1", "f1", "f2"))
    assert store.links("b", "f1") == [] and store.links("b") == []
    with pytest.raises(TenantMismatchError):
        store.insert("b", link("a", "l2", "f1", "f2"))
    with pytest.raises(KeyError):
        store.end("b", link("b", "l1", "f1", "f2", ended_at=T0))
    with pytest.raises(ValueError, match="already exists"):
        store.insert("a", link("a", "l1", "f1", "f2"))
