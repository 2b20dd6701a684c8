"""`MemoryLabStore`, the LangGraph store over a memory: every operation on a folder,
on ':memory:' and on Postgres, LangGraph's in-memory store as the reference for
orders, and a real graph that puts and searches through it."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import uuid
from collections.abc import Callable, Iterator
from contextlib import closing
from datetime import timedelta
from pathlib import Path
from typing import TypedDict

import pytest
from langgraph.graph import END, START, StateGraph
from langgraph.runtime import Runtime
from langgraph.store.base import (
    BaseStore,
    GetOp,
    InvalidNamespaceError,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore

from memory_lab import ManualClock, Memory
from memory_lab.adapters.langgraph import MemoryLabStore
from memory_lab.errors import TenantRequiredError
from tests.helpers import T0

BACKENDS = [
    "folder",
    "memory",
    pytest.param("postgres", marks=pytest.mark.xdist_group("servers")),
]

ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def letters(texts: list[str]) -> list[list[float]]:
    """A custom `embed`: how often each letter occurs (so 'aaa' is near 'aab')."""
    return [[float(t.lower().count(c)) for c in ALPHABET] for t in texts]


async def aletters(texts: list[str]) -> list[list[float]]:
    """The same, as an async `embed`."""
    await asyncio.sleep(0)
    return letters(texts)


LETTERS = {"dims": len(ALPHABET), "embed": letters}


@pytest.fixture(params=BACKENDS)
def location(request, tmp_path: Path) -> str:
    if request.param == "folder":
        return str(tmp_path / "memory")
    if request.param == "memory":
        return ":memory:"
    return request.getfixturevalue("postgres_url")


@pytest.fixture(params=[b for b in BACKENDS if b != "memory"])
def shared_location(request, tmp_path: Path) -> str:
    """A location a second memory can open: a folder or Postgres."""
    if request.param == "folder":
        return str(tmp_path / "memory")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def who() -> Callable[[str], str]:
    """Tenant names of this test alone: Postgres runs share one schema."""
    run = uuid.uuid4().hex[:8]
    return lambda name: f"{name}-{run}"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock(T0)


@pytest.fixture
def memory(location: str, clock: ManualClock) -> Iterator[Memory]:
    with Memory.open(location, clock=clock) as opened:
        yield opened


def _keys(found) -> list[str]:
    return [item.key for item in found]


# --- put, get, delete ----------------------------------------------------------------


def test_put_get_and_update_keep_created_at(memory, clock, who):
    store = MemoryLabStore(memory)
    ns = (who("alice"), "profile")
    store.put(ns, "prefs", {"theme": "dark", "size": 3})
    first = store.get(ns, "prefs")
    assert first is not None
    assert first.value == {"theme": "dark", "size": 3}
    assert first.namespace == ns and first.key == "prefs"
    assert first.created_at == first.updated_at == T0

    clock.set(T0 + timedelta(hours=1))
    store.put(ns, "prefs", {"theme": "light"})
    second = store.get(ns, "prefs")
    assert second.value == {"theme": "light"}
    assert second.created_at == T0
    assert second.updated_at == T0 + timedelta(hours=1)
    assert store.get((who("alice"), "other"), "prefs") is None
    assert store.get(ns, "missing") is None


def test_a_returned_value_is_a_copy(memory, who):
    store = MemoryLabStore(memory)
    ns = (who("alice"),)
    store.put(ns, "k", {"tags": ["a"]})
    store.search(ns)[0].value["tags"].append("changed")
    store.get(ns, "k").value["tags"].append("changed")
    assert store.search(ns)[0].value == {"tags": ["a"]}
    assert store.get(ns, "k").value == {"tags": ["a"]}


def test_delete_removes_the_item_and_logs_only_its_namespace_and_key(
    memory, location, who
):
    store = MemoryLabStore(memory)
    tenant = who("alice")
    ns = (tenant, "notes")
    store.put(ns, "secret", {"text": "Marigold-4471 is my locker code"})
    store.put(ns, "kept", {"text": "I like tea"})
    store.delete(ns, "secret")
    store.delete(ns, "never-there")  # nothing held: nothing logged

    assert store.get(ns, "secret") is None
    assert _keys(store.search(ns)) == ["kept"]
    assert _keys(store.search(ns, query="locker code")) == ["kept"]
    deleted = [e for e in memory.events(tenant) if e.kind == "item_deleted"]
    assert len(deleted) == 1
    assert deleted[0].refs == [f"{tenant}.notes", "secret"]
    assert all("Marigold" not in e.model_dump_json() for e in memory.events(tenant))
    if location != ":memory:" and "://" not in location:
        # The folder's file holds no row of it (read beside the open memory).
        with closing(sqlite3.connect(Path(location) / "memory.sqlite3")) as conn:
            rows = conn.execute("SELECT key, value FROM items").fetchall()
        assert rows == [("kept", '{"text": "I like tea"}')]


def test_put_of_none_in_a_batch_deletes(memory, who):
    store = MemoryLabStore(memory)
    ns = (who("alice"),)
    store.put(ns, "k", {"v": 1})
    store.batch([PutOp(ns, "k", None)])
    assert store.get(ns, "k") is None


def test_reads_of_a_batch_see_the_store_before_its_puts(memory, who):
    store = MemoryLabStore(memory)
    ns = (who("alice"), "docs")
    store.put(ns, "k1", {"v": 1})
    results = store.batch(
        [
            GetOp(ns, "k1"),
            PutOp(ns, "k2", {"v": 2}),
            SearchOp(ns),
            ListNamespacesOp(
                match_conditions=(MatchCondition("prefix", (ns[0],)),), limit=10
            ),
            GetOp(ns, "k2"),
            PutOp(ns, "k2", {"v": 3}),
        ]
    )
    assert results[0].value == {"v": 1}
    assert results[1] is None and results[5] is None
    assert _keys(results[2]) == ["k1"]
    assert results[3] == [ns]
    assert results[4] is None
    assert store.get(ns, "k2").value == {"v": 3}  # the last put of a key wins


# --- search: filters and order -------------------------------------------------------


DOCS = [
    ("doc1", {"text": "red apple", "color": "red", "score": 4.5, "ok": True}),
    ("doc2", {"text": "red car", "color": "red", "score": 3.0, "ok": False}),
    ("doc3", {"text": "green apple", "color": "green", "score": 4.0, "ok": True}),
    ("doc4", {"text": "blue car", "color": "blue", "score": 3.5}),
    ("doc5", {"text": "a hat", "meta": {"size": "L", "tags": ["x", "y"]}}),
]


def test_search_filters_match_and_compare(memory, who):
    store = MemoryLabStore(memory)
    ns = (who("alice"), "things")
    for key, value in DOCS:
        store.put(ns, key, value)

    def keys(**filter):
        return sorted(_keys(store.search(ns, filter=filter)))

    assert keys(color="red") == ["doc1", "doc2"]
    assert keys(color={"$eq": "red"}) == ["doc1", "doc2"]
    assert keys(color={"$ne": "red"}) == ["doc3", "doc4", "doc5"]
    assert keys(score={"$gt": 3.5}) == ["doc1", "doc3"]
    assert keys(score={"$gte": 3.5}) == ["doc1", "doc3", "doc4"]
    assert keys(score={"$lt": 3.5}) == ["doc2"]
    assert keys(score={"$lte": 3.5}) == ["doc2", "doc4"]
    assert keys(score={"$gt": 3.0, "$lt": 4.5}) == ["doc3", "doc4"]
    assert keys(score={"$gte": 4.0}, color="green") == ["doc3"]
    assert keys(ok=True) == ["doc1", "doc3"]
    assert keys(ok=False) == ["doc2"]
    assert keys(meta={"size": "L"}) == ["doc5"]
    assert keys(**{"meta.size": "L"}) == ["doc5"]
    assert keys(meta={"tags": ["x", "y"]}) == ["doc5"]
    assert keys(color="red' OR '1'='1") == []
    with pytest.raises(ValueError, match="unknown operator"):
        store.search(ns, filter={"score": {"$near": 3}})


def test_search_without_a_query_lists_as_the_in_memory_store(memory, who):
    ours, reference = MemoryLabStore(memory), InMemoryStore()
    tenant = who("alice")
    puts = [
        ((tenant, "b"), "k1", {"n": 1}),
        ((tenant, "a"), "k2", {"n": 2}),
        ((tenant, "b"), "k3", {"n": 3}),
        ((tenant, "a", "deep"), "k4", {"n": 4}),
        ((tenant, "b"), "k1", {"n": 5}),  # an update keeps its place
        ((tenant, "a"), "k5", {"n": 6}),
    ]
    for store in (ours, reference):
        for ns, key, value in puts:
            store.put(ns, key, value)
        store.delete((tenant, "b"), "k3")
        store.put((tenant, "b"), "k3", {"n": 7})  # back, as new: last of its namespace

    def listing(store, prefix, **kw):
        return [(i.namespace, i.key, i.value) for i in store.search(prefix, **kw)]

    for prefix in [(tenant,), (tenant, "a"), (tenant, "b"), (tenant, "c")]:
        assert listing(ours, prefix) == listing(reference, prefix)
        assert all(i.score is None for i in ours.search(prefix))
    for limit, offset in [(2, 0), (2, 2), (3, 4), (10, 6)]:
        assert listing(ours, (tenant,), limit=limit, offset=offset) == listing(
            reference, (tenant,), limit=limit, offset=offset
        )
    assert listing(ours, (tenant,), filter={"n": {"$gt": 3}}, limit=2) == listing(
        reference, (tenant,), filter={"n": {"$gt": 3}}, limit=2
    )


def test_a_prefix_stops_at_a_label_boundary(memory, who):
    store = MemoryLabStore(memory, tenant=who("alice"))
    for ns in [("foo",), ("foo", "child"), ("foobar",), ("Foo",), ("user_1",)]:
        store.put(ns, "k", {"v": 1})
    assert {i.namespace for i in store.search(("foo",))} == {("foo",), ("foo", "child")}
    assert {i.namespace for i in store.search(("fo",))} == set()
    assert {i.namespace for i in store.search(("user_1",))} == {("user_1",)}
    assert len(store.search((), limit=100)) == 5


# --- search by meaning ---------------------------------------------------------------


def test_semantic_search_with_the_memory_embedder(memory, who):
    store = MemoryLabStore(memory)
    ns = (who("alice"), "memories")
    store.put(ns, "food", {"text": "I love Italian food, especially pizza and pasta"})
    store.put(ns, "pet", {"text": "My dog Rex likes long walks in the park"})
    store.put(ns, "work", {"text": "I work as a nurse at the city hospital"})
    store.put(ns, "hidden", {"text": "pizza pizza pizza"}, index=False)

    food = store.search(ns, query="What meals do I enjoy eating?")
    assert _keys(food)[0] == "food"
    assert food[-1].key == "hidden" and food[-1].score is None
    scored = [i.score for i in food[:-1]]
    assert all(isinstance(s, float) for s in scored)
    assert scored == sorted(scored, reverse=True)
    assert _keys(store.search(ns, query="pets and animals"))[0] == "pet"
    assert _keys(store.search(ns, query="my job and where I work"))[0] == "work"
    assert _keys(store.search(ns, query="pets", limit=1, offset=1)) == [
        _keys(store.search(ns, query="pets"))[1]
    ]
    assert _keys(store.search(ns, query="pets", filter={"text": {"$ne": "x"}}))


def test_semantic_search_with_a_custom_embed_and_fields(memory, who):
    index = {**LETTERS, "fields": ["title"]}
    ours, reference = MemoryLabStore(memory, index), InMemoryStore(index=index)
    ns = (who("alice"), "docs")
    puts = [
        ("d1", {"title": "aaaa", "body": "zzzz"}, None),
        ("d2", {"title": "zzzz", "body": "aaab"}, None),
        ("d3", {"title": "bbbb", "body": "aaaa"}, ["body"]),
        ("d4", {"title": "aaaa bbbb"}, False),
        ("d5", {"title": "ab", "tags": ["zzz", "yyy"]}, ["tags[*]"]),
        ("d6", {"body": "no title here"}, None),
    ]
    for store in (ours, reference):
        for key, value, index_as in puts:
            store.put(ns, key, value, index=index_as)
    for query in ["aaa", "zz", "bbb", "yyyy", "ab"]:
        got = ours.search(ns, query=query, limit=10)
        want = reference.search(ns, query=query, limit=10)
        assert _keys(got) == _keys(want), query
        for g, w in zip(got, want, strict=True):
            assert (g.score is None) == (w.score is None)
            if g.score is not None:
                assert g.score == pytest.approx(w.score, abs=1e-5)
    assert _keys(ours.search(ns, query="aaa"))[:2] == ["d1", "d3"]
    assert ours.index_config["dims"] == 26 and ours.index_config["fields"] == ["title"]


def test_an_embed_of_the_wrong_size_stores_nothing(memory, who):
    store = MemoryLabStore(memory, {"dims": 3, "embed": letters})
    with pytest.raises(ValueError, match="expected 1 of 3"):
        store.put((who("alice"),), "k", {"text": "abc"})
    assert store.get((who("alice"),), "k") is None


# --- namespaces ----------------------------------------------------------------------


def test_list_namespaces_matches_as_the_in_memory_store(memory, who):
    tenant = who("alice")
    ours, reference = MemoryLabStore(memory, tenant=tenant), InMemoryStore()
    namespaces = [
        ("a", "b", "c"),
        ("a", "b", "d", "e"),
        ("a", "b", "d", "i"),
        ("a", "b", "f"),
        ("a", "c", "f"),
        ("b", "a", "f"),
        ("users", "123"),
        ("users", "456", "settings"),
        ("admin", "users", "789"),
        ("uid", "users", "alice"),
        ("uid", "users", "malice"),
    ]
    for store in (ours, reference):
        for ns in namespaces:
            store.put(ns, "k", {"v": 1})

    cases = [
        {},
        {"prefix": ("a", "b")},
        {"prefix": ("a",), "suffix": ("f",)},
        {"suffix": ("f",)},
        {"suffix": ("alice",)},
        {"prefix": ("a", "*", "f")},
        {"prefix": ("uid", "*", "alice")},
        {"suffix": ("*", "f")},
        {"prefix": ("a", "b"), "max_depth": 3},
        {"max_depth": 2},
        {"max_depth": 1},
        {"prefix": ("a",), "limit": 2},
        {"prefix": ("a",), "offset": 3},
        {"limit": 3, "offset": 2},
        {"prefix": ("nope",)},
    ]
    for kw in cases:
        assert ours.list_namespaces(**kw) == reference.list_namespaces(**kw), kw
    assert ours.list_namespaces(prefix=("a", "b"), max_depth=3) == [
        ("a", "b", "c"),
        ("a", "b", "d"),
        ("a", "b", "f"),
    ]
    assert ours.list_namespaces(prefix=("uid", "*", "alice")) == [
        ("uid", "users", "alice")
    ]


def test_list_namespaces_by_first_label_stays_in_its_tenant(memory, who):
    store = MemoryLabStore(memory)
    alice, bob = who("alice"), who("bob")
    for ns in [(alice, "a"), (alice, "b", "c"), (bob, "a"), (bob, "z")]:
        store.put(ns, "k", {"v": 1})
    assert store.list_namespaces(prefix=(alice,)) == [(alice, "a"), (alice, "b", "c")]
    assert store.list_namespaces(prefix=(alice,), suffix=("a",)) == [(alice, "a")]
    assert store.list_namespaces(prefix=(alice,), max_depth=1) == [(alice,)]
    for kw in ({}, {"suffix": ("a",)}, {"prefix": ("*", "a")}):
        with pytest.raises(TenantRequiredError):
            store.list_namespaces(**kw)


@pytest.mark.parametrize(
    "bad",
    [("",), ("alice", ""), ("alice.smith",), ("a", "b.c"), ("a\x00b",)],
)
def test_invalid_namespaces_are_refused_and_nothing_is_stored(memory, who, bad):
    store = MemoryLabStore(memory, tenant=who("alice"))
    with pytest.raises(InvalidNamespaceError):
        store.put(bad, "k", {"v": 1})
    with pytest.raises(InvalidNamespaceError):
        store.batch([PutOp(("fine",), "k", {"v": 1}), PutOp(bad, "k", {"v": 1})])
    with pytest.raises(InvalidNamespaceError):
        store.get(bad, "k")
    with pytest.raises(InvalidNamespaceError):
        store.search(bad)
    with pytest.raises(InvalidNamespaceError):
        store.delete(bad, "k")
    with pytest.raises(InvalidNamespaceError):
        store.list_namespaces(prefix=bad)
    with pytest.raises(InvalidNamespaceError):
        store.put((), "k", {"v": 1})
    assert store.search((), limit=100) == []
    assert store.list_namespaces() == []


# --- tenants -------------------------------------------------------------------------


def test_a_namespace_never_reads_another_tenants_items(memory, who):
    store = MemoryLabStore(memory)
    alice, bob = who("alice"), who("bob")
    store.put((alice, "memories"), "1", {"text": "Alice loves pizza", "n": 1})
    store.put((bob, "memories"), "1", {"text": "Bob loves pizza", "n": 1})
    store.put((bob, "memories"), "2", {"text": "Bob's pizza is the best pizza"})

    found = store.search((alice,), query="pizza", limit=100)
    assert [(i.namespace, i.key) for i in found] == [((alice, "memories"), "1")]
    assert _keys(store.search((alice,), filter={"n": 1})) == ["1"]
    assert store.get((alice, "memories"), "2") is None
    assert store.get((alice, "memories"), "1").value["text"] == "Alice loves pizza"
    with pytest.raises(TenantRequiredError):
        store.search((), query="pizza")

    # Bound to a tenant, the same namespaces are that tenant's alone.
    as_alice = MemoryLabStore(memory, tenant=alice)
    as_bob = MemoryLabStore(memory, tenant=bob)
    assert _keys(as_alice.search((alice, "memories"))) == ["1"]
    assert as_alice.search((bob,)) == []
    as_alice.put(("shared",), "k", {"who": "alice"})
    as_bob.put(("shared",), "k", {"who": "bob"})
    assert as_alice.get(("shared",), "k").value == {"who": "alice"}
    assert as_bob.get(("shared",), "k").value == {"who": "bob"}
    assert [i.value for i in as_bob.search((), limit=100)][-1] == {"who": "bob"}
    assert all(i.namespace[0] != alice for i in as_bob.search((), limit=100))
    as_bob.delete(("shared",), "k")
    assert as_alice.get(("shared",), "k").value == {"who": "alice"}


def test_a_batch_over_two_tenants_stores_all_or_nothing(memory, who):
    store = MemoryLabStore(memory)
    alice, bob = (who("alice"), "n"), (who("bob"), "n")
    with pytest.raises(TypeError):
        store.batch([PutOp(alice, "k", {"v": 1}), PutOp(bob, "k", {"v": {1, 2}})])
    assert store.get(alice, "k") is None and store.get(bob, "k") is None
    with pytest.raises(TenantRequiredError):
        store.batch([PutOp(alice, "k", {"v": 1}), PutOp((" ", "n"), "k", {"v": 2})])
    assert store.get(alice, "k") is None
    store.batch([PutOp(alice, "k", {"v": 1}), PutOp(bob, "k", {"v": 2})])
    assert store.get(alice, "k").value == {"v": 1}
    assert store.get(bob, "k").value == {"v": 2}


def test_a_blank_tenant_is_refused(memory):
    with pytest.raises(TenantRequiredError):
        MemoryLabStore(memory, tenant=" ")


# --- async, persistence, other writers ----------------------------------------------


def test_abatch_runs_every_operation(memory, who):
    store = MemoryLabStore(memory, {"dims": 26, "embed": aletters})
    ns = (who("alice"), "docs")

    async def scenario():
        await store.aput(ns, "d1", {"text": "aaaa"})
        await store.aput(ns, "d2", {"text": "zzzz"})
        await store.aput(ns, "d3", {"text": "aazz"})
        results = await store.abatch(
            [
                GetOp(ns, "d1"),
                SearchOp(ns, query="zzz", limit=2),
                ListNamespacesOp(
                    match_conditions=(MatchCondition("prefix", (ns[0],)),)
                ),
                PutOp(ns, "d4", {"text": "bbbb"}),
            ]
        )
        await store.adelete(ns, "d2")
        return results, await store.aget(ns, "d2"), await store.asearch(ns, query="b")

    (got, ranked, listed, put), gone, after = asyncio.run(scenario())
    assert got.value == {"text": "aaaa"}
    # The whole value is embedded ('{"text": "zzzz"}'), so no score is 1.
    assert _keys(ranked) == ["d2", "d3"] and ranked[0].score > ranked[1].score
    assert listed == [ns] and put is None
    assert gone is None
    assert _keys(after)[0] == "d4"


def test_items_persist_across_reopen_of_a_folder(tmp_path, clock):
    folder = tmp_path / "memory"
    with MemoryLabStore.from_conn_string(folder) as store:
        store.setup()
        store.put(("alice", "memories"), "food", {"text": "I love sushi"})
        store.put(("alice", "memories"), "pet", {"text": "I have a cat"})
        store.put(("alice", "custom"), "x", {"text": "aaaa"})
        before = store.get(("alice", "memories"), "food")
    with MemoryLabStore.from_conn_string(folder) as store:
        store.setup()
        again = store.get(("alice", "memories"), "food")
        assert again == before
        found = store.search(("alice", "memories"), query="Japanese raw fish dish")
        assert _keys(found) == ["food", "pet"] and found[0].score > found[1].score
        assert store.list_namespaces(prefix=("alice",)) == [
            ("alice", "custom"),
            ("alice", "memories"),
        ]
    # The vectors of another embedder are not compared with this one's.
    with MemoryLabStore.from_conn_string(
        folder, {**LETTERS, "fields": ["text"]}
    ) as store:
        assert [i.score for i in store.search(("alice",), query="aaaa")] == [None] * 3
        store.put(("alice", "custom"), "x", {"text": "aaaa"})
        assert store.search(("alice",), query="aaaa")[0].score == pytest.approx(1.0)


def test_a_second_memory_on_the_same_store_sees_writes_at_once(shared_location, who):
    location = shared_location
    tenant = who("alice")
    with Memory.open(location) as one, Memory.open(location) as two:
        first, second = MemoryLabStore(one), MemoryLabStore(two)
        first.put((tenant, "n"), "k1", {"text": "hello"})
        assert _keys(second.search((tenant,))) == ["k1"]  # cached from here on
        first.put((tenant, "n"), "k2", {"text": "world"})
        first.put((tenant, "n"), "k1", {"text": "changed"})
        assert [i.value["text"] for i in second.search((tenant,))] == [
            "changed",
            "world",
        ]
        first.delete((tenant, "n"), "k2")
        assert _keys(second.search((tenant,), query="world")) == ["k1"]
        second.put((tenant, "m"), "k3", {"text": "from two"})
        assert first.list_namespaces(prefix=(tenant,)) == [(tenant, "m"), (tenant, "n")]


def test_from_conn_string_opens_and_closes_the_memory(location, who):
    with MemoryLabStore.from_conn_string(location, tenant=who("alice")) as store:
        store.put(("notes",), "k", {"v": 1})
        assert store.get(("notes",), "k").value == {"v": 1}
        memory = store.memory
    with pytest.raises(Exception):  # noqa: B017 - closed: any use fails
        memory.items.get(who("alice"), ("notes",), "k")


@pytest.mark.slow
def test_many_random_writes_read_as_the_in_memory_store_reads(tmp_path):
    """Updates, deletes and re-puts fold into the cached ranking (and its
    rebuilds once dead slots pile up) exactly as a fresh read would see them."""
    rng = random.Random(11)
    index = {**LETTERS, "fields": ["text", "tags[*]"]}
    namespaces = [("t", "a"), ("t", "b"), ("t", "b", "c"), ("t", "d")]
    folder = tmp_path / "memory"
    with Memory.open(folder) as memory, Memory.open(folder) as other:
        ours = MemoryLabStore(memory, index, tenant="t")
        # Another opener's cache learns of each write from the revision and
        # reads the tenant again; `ours` folds its own writes in.
        fresh = MemoryLabStore(other, index, tenant="t")
        reference = InMemoryStore(index=index)

        made_texts = iter(range(10**6))

        def word(letters: str = "abcdef") -> str:
            return "".join(rng.choice(letters) for _ in range(rng.randint(1, 6)))

        def text(letters: str) -> str:
            # A number (no letter: no weight) makes each text new: the
            # in-memory store fails on one text given twice in a batch.
            return f"{word(letters)} {next(made_texts)}"

        def value(ns: tuple[str, ...]) -> dict:
            made: dict = {"text": text("abcdef"), "n": rng.randint(0, 9)}
            # Items of ("t", "d") have three vectors each. Always two tags: the
            # in-memory store keeps a vector of a path a new value lacks.
            if ns == ("t", "d"):
                made["tags"] = [text("defuvw"), text("uvw")]
            return made

        for step in range(1500):
            ns, key = rng.choice(namespaces), f"k{rng.randint(0, 24)}"
            roll = rng.random()
            if roll < 0.6:
                made = value(ns)
                for store in (ours, reference):
                    store.put(ns, key, made)
            elif roll < 0.8:
                for store in (ours, reference):
                    store.delete(ns, key)
            else:
                ops = [PutOp(ns, f"k{i}", value(ns)) for i in (1, 2)]
                ops.append(PutOp(rng.choice(namespaces), key, None))
                for store in (ours, reference):
                    store.batch(ops)
            if step % 25:
                continue
            query = word("abcdefuvw")
            flt = rng.choice([None, {"n": {"$gte": 5}}, {"n": {"$ne": 3}}])
            limit, offset = rng.randint(1, 8), rng.randint(0, 4)
            # Pages of one namespace match exactly. Across namespaces the two
            # order namespaces differently once one was emptied (the in-memory
            # store keeps an emptied namespace's place), so there only the
            # items and the order of scores are compared. Scores equal but for
            # rounding (float32 here, float64 there) count as ties; equal
            # scores are in list order.
            for ns in [("t", "a"), ("t", "b", "c"), ("t", "d")]:
                page = {"filter": flt, "limit": limit, "offset": offset}
                want = reference.search(ns, **page)
                listed = ours.search(ns, filter=flt, limit=1000)
                ranked = ours.search(ns, query=query, filter=flt, limit=1000)
                assert _ties(ranked) == _ties(
                    reference.search(ns, query=query, filter=flt, limit=1000)
                )
                place = {key: i for i, key in enumerate(_keys(listed))}
                for score in {i.score for i in ranked}:
                    keys = [i.key for i in ranked if i.score == score]
                    assert [place[k] for k in keys] == sorted(place[k] for k in keys)
                for store in (ours, fresh):
                    got = store.search(ns, **page)
                    assert [(i.key, i.value) for i in got] == [
                        (i.key, i.value) for i in want
                    ]
                    assert (
                        store.search(ns, query=query, **page)
                        == (ranked[offset : offset + limit])
                    )
            for prefix in [("t",), ("t", "b")]:
                got = ours.search(prefix, query=query, filter=flt, limit=1000)
                want = reference.search(prefix, query=query, filter=flt, limit=1000)
                scores = [i.score for i in got if i.score is not None]
                assert scores == sorted(scores, reverse=True)
                mine = {(i.namespace, i.key): i.score for i in got}
                theirs = {(i.namespace, i.key): i.score for i in want}
                assert mine.keys() == theirs.keys()
                for at, score in mine.items():
                    assert score == pytest.approx(theirs[at], abs=1e-5)
            # The in-memory store also lists namespaces left empty; a SQL
            # store lists those holding items, as this one does.
            held = {i.namespace for i in reference.search(("t",), limit=1000)}
            assert ours.list_namespaces() == sorted(held)


def _ties(found) -> list[tuple[float | None, frozenset[str]]]:
    """Keys in order of score, those scored alike (to 1e-5) as one set."""
    groups: list[tuple[float | None, set[str]]] = []
    for item in found:
        last = groups[-1][0] if groups else "none yet"
        alike = (item.score is None and last is None) or (
            item.score is not None
            and isinstance(last, float)
            and abs(last - item.score) < 1e-5
        )
        if alike:
            groups[-1][1].add(item.key)
        else:
            groups.append((item.score, {item.key}))
    return [(None if s is None else round(s, 3), frozenset(k)) for s, k in groups]


# --- in a graph ----------------------------------------------------------------------


class ChatState(TypedDict):
    user: str
    said: str
    recalled: list[str]


def remember(state: ChatState, runtime: Runtime) -> dict:
    store = runtime.store
    assert store is not None
    store.put((state["user"], "memories"), str(uuid.uuid4()), {"text": state["said"]})
    return {}


def recall(state: ChatState, *, store: BaseStore) -> dict:
    found = store.search((state["user"], "memories"), query=state["said"], limit=2)
    return {"recalled": [item.value["text"] for item in found]}


def test_the_store_serves_a_compiled_graph(memory, who):
    builder = StateGraph(ChatState)
    builder.add_node("remember", remember)
    builder.add_node("recall", recall)
    builder.add_edge(START, "remember")
    builder.add_edge("remember", "recall")
    builder.add_edge("recall", END)
    store = MemoryLabStore(memory)
    graph = builder.compile(store=store)
    alice, bob = who("alice"), who("bob")

    graph.invoke({"user": alice, "said": "I moved to Lyon last spring", "recalled": []})
    graph.invoke({"user": bob, "said": "My favourite food is ramen", "recalled": []})
    out = graph.invoke(
        {"user": alice, "said": "I adopted a grey cat called Miso", "recalled": []}
    )
    assert out["recalled"][0] == "I adopted a grey cat called Miso"
    assert out["recalled"][1] == "I moved to Lyon last spring"
    assert len(store.search((alice,), limit=100)) == 2
    assert len(store.search((bob,), limit=100)) == 1

    async def ainvoke():
        return await graph.ainvoke(
            {"user": bob, "said": "Where can I get good noodles?", "recalled": []}
        )

    assert asyncio.run(ainvoke())["recalled"][1] == "My favourite food is ramen"
