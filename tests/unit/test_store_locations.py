"""Store URLs: which schemes select which server, and what is refused."""

from __future__ import annotations

import pytest

from memory_lab.stores.locations import (
    ChromaServer,
    StoreSpec,
    StoreURLError,
    chroma_server,
    namespace_key,
)


def test_default_spec_is_all_local():
    assert not StoreSpec().remote


@pytest.mark.parametrize(
    "url, server",
    [
        ("http://127.0.0.1:8000", ChromaServer("127.0.0.1", 8000)),
        ("http://chroma.internal", ChromaServer("chroma.internal", 8000)),
        ("https://chroma.example:9443/", ChromaServer("chroma.example", 9443, True)),
    ],
)
def test_chroma_urls_give_host_and_port(url, server):
    assert chroma_server(url) == server
    assert StoreSpec(episodes=url).remote


@pytest.mark.parametrize(
    "spec",
    [
        {"store": "mysql://db/memory"},
        {"store": "/srv/memory.sqlite3"},
        {"episodes": "localhost:8000"},
        {"episodes": "postgresql://db/memory"},
        {"episodes": "http://host:8000/db"},
        {"episodes": "http://host:port"},
        {"namespace": " "},
    ],
)
def test_unknown_schemes_and_bad_urls_are_refused_at_construction(spec):
    with pytest.raises(StoreURLError):
        StoreSpec(**spec)


def test_a_refused_url_never_shows_its_password():
    with pytest.raises(StoreURLError) as err:
        StoreSpec(store="mysql://me:hunter2@db/memory")
    assert "hunter2" not in str(err.value)


def test_namespaces_become_distinct_safe_names():
    assert namespace_key("memory_lab") == "memory_lab"
    keys = {
        namespace_key(n) for n in ("Replay-A", "replay_a", "replay-a", "9lives", "pg_x")
    }
    assert len(keys) == 5
    assert not namespace_key("pg_x").startswith("pg_")
    long = namespace_key("memory-lab-replay-" + "x" * 80)
    assert len(long) <= 63
    for key in keys | {long}:
        assert key[0].isalpha()
        assert set(key) <= set("abcdefghijklmnopqrstuvwxyz0123456789_")
