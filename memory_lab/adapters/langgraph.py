"""`MemoryLabStore`: a LangGraph `BaseStore` whose items live in a memory-lab memory.

    from memory_lab.adapters.langgraph import MemoryLabStore

    with MemoryLabStore.from_conn_string("./memory") as store:
        graph = builder.compile(store=store)

The items are kept by `Memory.items` (`memory_lab.items`) in the memory's own
database: the SQLite file of a folder, the in-process database of ":memory:",
or the Postgres schema of a `postgresql://` URL. Semantic search runs on the
memory's local embedder unless `index={"dims", "embed", "fields"}` names
another, exactly as LangGraph's stores take it.

What a delete keeps: nothing of the item. `delete` (a put of None) removes the
row for real, value and vectors, as a purge does; the tenant's event log gets
one `item_deleted` event naming the namespace and the key, never the value.

Everything here goes through the public API (`memory_lab.api.Memory` and
`memory_lab.items`), like any outside agent's code would.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from langchain_core.embeddings import Embeddings
from langgraph.store.base import (
    BaseStore,
    GetOp,
    IndexConfig,
    InvalidNamespaceError,
    Item,
    ListNamespacesOp,
    Op,
    PutOp,
    Result,
    SearchItem,
    SearchOp,
    ensure_embeddings,
    get_text_at_path,
    tokenize_path,
    validate_op_namespace,
)

from memory_lab.api import Memory
from memory_lab.errors import TenantRequiredError, require_tenant
from memory_lab.items import ItemStore, ItemWrite, NamespaceMatch, StoredItem

__all__ = ["MemoryLabStore"]


class MemoryLabStore(BaseStore):
    """A LangGraph store over one `Memory`, every item inside a tenant.

    How a namespace maps onto a tenant:

    - with `tenant="alice"` given, every namespace lives inside tenant alice,
      as it is: `("memories",)` and `("alice", "memories")` are two of
      alice's namespaces, and no namespace of this store reaches another
      tenant;
    - without it, a namespace's first label is its tenant: `("alice",
      "memories")` is alice's, `("bob",)` is bob's. An operation that names
      no first label (a search over `()`, `list_namespaces()` without a
      prefix, or with "*" first) would span tenants and is refused with
      `TenantRequiredError`.

    Either way a search on `("alice",)` never reads bob's items, and an item
    kept one way is found the other: `("alice", "memories")` is the same
    namespace of tenant alice read with `tenant="alice"`.

    Search without a query lists items as LangGraph's in-memory store does
    (namespaces in the order they were first put to, then items as first put);
    with one, by cosine similarity, best first, with `score` set. Items the
    index skipped (`index=False`, no text at the fields) follow the scored ones.
    Reads of a batch see the store as it was before the batch's puts, which are
    applied last (the last put of a key wins), as in LangGraph's stores.
    """

    supports_ttl = False

    def __init__(
        self,
        memory: Memory,
        index: IndexConfig | None = None,
        tenant: str | None = None,
    ) -> None:
        """Keep items in `memory`.

        Args:
            memory: An open memory; the store does not close it.
            index: `{"dims", "embed", "fields"}` as LangGraph's stores take
                them. Without `embed` (or without `index`) items are embedded
                by the memory's local embedder, over `fields` (default: the
                whole value).
            tenant: The tenant every namespace lives in; None: each
                namespace's first label.

        Raises:
            ValueError: for `dims` that differ from the memory's embedder
                when no `embed` is given.
        """
        self.memory = memory
        self.tenant = None if tenant is None else require_tenant(tenant)
        config: dict[str, Any] = dict(index or {})
        items = memory.items
        self.embeddings: Embeddings | None = None
        if config.get("embed") is not None:
            self.embeddings = ensure_embeddings(config["embed"])
            if "dims" not in config:
                raise ValueError("index: give 'dims' with 'embed'")
            items = items.with_embedder(_IndexEmbedder(int(config["dims"])))
        elif config.get("dims", items.embedder.dim) != items.embedder.dim:
            raise ValueError(
                f"index: dims {config['dims']} without an 'embed'; the memory's "
                f"embedder ({items.embedder.name}) makes {items.embedder.dim}"
            )
        config.setdefault("dims", items.embedder.dim)
        fields = list(config.get("fields") or ["$"])
        config["fields"] = fields
        self.index_config: dict[str, Any] = config
        """The index as given, with its defaults filled in."""
        self._fields = [_path(f) for f in fields]
        self._items: ItemStore = items

    @classmethod
    @contextmanager
    def from_conn_string(
        cls,
        location: str | Path,
        index: IndexConfig | None = None,
        *,
        tenant: str | None = None,
    ) -> Iterator[MemoryLabStore]:
        """A store over the memory at `location`, opened now and closed at exit.

        Args:
            location: A folder, ":memory:" or a `postgresql://` URL.
            index: As for the constructor.
            tenant: As for the constructor.
        """
        memory = Memory.open(location)
        try:
            yield cls(memory, index, tenant=tenant)
        finally:
            memory.close()

    def setup(self) -> None:
        """Nothing left to do: the memory makes and migrates its tables on open.

        Kept so code written for LangGraph's SQL stores runs unchanged; calling
        it again is harmless.
        """

    # --- batches ---------------------------------------------------------------------

    def batch(self, ops: Iterable[Op]) -> list[Result]:
        """Run `ops`: reads in order on the state before the batch, then the puts."""
        plan = self._plan(ops)
        texts, queries = plan.texts(), plan.queries()
        made = self._embed_texts(texts) if texts else None
        asked = {q: self._embed_query(q) for q in queries}
        return self._run(plan, made, asked)

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        """`batch` off the event loop; an async `embed` is awaited on it."""
        plan = self._plan(ops)
        texts, queries = plan.texts(), plan.queries()
        made = await self._aembed_texts(texts) if texts else None
        vectors = await asyncio.gather(*(self._aembed_query(q) for q in queries))
        asked = dict(zip(queries, vectors, strict=True))
        return await asyncio.to_thread(self._run, plan, made, asked)

    def _plan(self, ops: Iterable[Op]) -> _Plan:
        """Check every op (nothing runs if one is bad) and gather what to embed."""
        plan = _Plan()
        for i, op in enumerate(ops):
            if not isinstance(op, GetOp | PutOp | SearchOp | ListNamespacesOp):
                raise ValueError(f"unknown operation type: {type(op).__name__}")
            validate_op_namespace(op)
            if isinstance(op, PutOp):
                namespace = tuple(op.namespace)
                _check_put_namespace(namespace)
                tenant = self._tenant_of(namespace, "put")
                # The last put of a key wins, in the place of its first.
                plan.puts[(tenant, namespace, str(op.key))] = (op, self._texts(op))
            elif isinstance(op, SearchOp):
                self._tenant_of(op.namespace_prefix, "search")
            elif isinstance(op, ListNamespacesOp):
                self._listing_tenant(op)
            plan.ops.append((i, op))
        return plan

    def _texts(self, op: PutOp) -> list[str]:
        if op.value is None or op.index is False:
            return []
        paths = self._fields if op.index is None else [_path(f) for f in op.index]
        return [text for path in paths for text in get_text_at_path(op.value, path)]

    def _run(
        self,
        plan: _Plan,
        made: np.ndarray | None,
        asked: dict[str, np.ndarray],
    ) -> list[Result]:
        results: list[Result] = [None] * len(plan.ops)
        for slot, (_, op) in enumerate(plan.ops):
            if isinstance(op, GetOp):
                results[slot] = self._get(op)
            elif isinstance(op, SearchOp):
                results[slot] = self._search(op, asked)
            elif isinstance(op, ListNamespacesOp):
                results[slot] = self._list(op)
        writes: dict[str, list[ItemWrite]] = {}
        start = 0
        for (tenant, namespace, key), (op, texts) in plan.puts.items():
            vectors = None
            if made is not None and texts:
                vectors = made[start : start + len(texts)]
                start += len(texts)
            writes.setdefault(tenant, []).append(
                ItemWrite(namespace, key, op.value, texts, vectors)
            )
        if writes:
            self._items.write_tenants(writes)
        return results

    def _get(self, op: GetOp) -> Item | None:
        if not op.namespace:
            return None  # no item is ever put there
        tenant = self._tenant_of(op.namespace, "get")
        found = self._items.get(tenant, op.namespace, str(op.key))
        return None if found is None else _as_item(found)

    def _search(self, op: SearchOp, asked: dict[str, np.ndarray]) -> list[SearchItem]:
        tenant = self._tenant_of(op.namespace_prefix, "search")
        found = self._items.search(
            tenant,
            op.namespace_prefix,
            query_vector=asked.get(op.query) if op.query else None,
            filter=op.filter,
            limit=op.limit,
            offset=op.offset,
        )
        return [_as_search_item(f) for f in found]

    def _list(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        match = [
            NamespaceMatch(c.match_type, tuple(c.path))
            for c in op.match_conditions or ()
        ]
        return self._items.list_namespaces(
            self._listing_tenant(op),
            match=match,
            max_depth=op.max_depth,
            limit=op.limit,
            offset=op.offset,
        )

    # --- tenants ---------------------------------------------------------------------

    def _tenant_of(self, namespace: tuple[str, ...], what: str) -> str:
        if self.tenant is not None:
            return self.tenant
        if not namespace:
            raise TenantRequiredError(
                f"{what}: this store takes each namespace's first label as its "
                "tenant, and the namespace is empty; start it with the tenant "
                "or open the store with tenant="
            )
        return require_tenant(namespace[0])

    def _listing_tenant(self, op: ListNamespacesOp) -> str:
        if self.tenant is not None:
            return self.tenant
        for condition in op.match_conditions or ():
            path = tuple(condition.path)
            if condition.match_type == "prefix" and path and path[0] != "*":
                return require_tenant(path[0])
        raise TenantRequiredError(
            "list_namespaces: this store takes each namespace's first label as "
            "its tenant; give a prefix starting with the tenant (not '*') or "
            "open the store with tenant="
        )

    # --- embeddings ------------------------------------------------------------------

    def _embed_texts(self, texts: list[str]) -> np.ndarray:
        if self.embeddings is None:
            return self._items.embedder.embed(texts)
        return _vectors(self.embeddings.embed_documents(texts), len(texts))

    def _embed_query(self, query: str) -> np.ndarray:
        if self.embeddings is None:
            return self._items.embedder.embed([query])[0]
        return _vectors([self.embeddings.embed_query(query)], 1)[0]

    async def _aembed_texts(self, texts: list[str]) -> np.ndarray:
        if self.embeddings is None:
            return await asyncio.to_thread(self._items.embedder.embed, texts)
        return _vectors(await self.embeddings.aembed_documents(texts), len(texts))

    async def _aembed_query(self, query: str) -> np.ndarray:
        if self.embeddings is None:
            return await asyncio.to_thread(self._embed_query, query)
        return _vectors([await self.embeddings.aembed_query(query)], 1)[0]

    def __repr__(self) -> str:
        tenant = "first label" if self.tenant is None else repr(self.tenant)
        return f"MemoryLabStore({self.memory!r}, tenant={tenant})"


@dataclass
class _Plan:
    """A batch checked: its ops in order, and its puts by tenant and key."""

    ops: list[tuple[int, Op]] = field(default_factory=list)
    puts: dict[tuple[str, tuple[str, ...], str], tuple[PutOp, list[str]]] = field(
        default_factory=dict
    )

    def texts(self) -> list[str]:
        """Every text the puts index, in put order."""
        return [t for _, texts in self.puts.values() for t in texts]

    def queries(self) -> list[str]:
        """The distinct queries of the searches."""
        asked = (op.query for _, op in self.ops if isinstance(op, SearchOp))
        return list(dict.fromkeys(q for q in asked if q))


class _IndexEmbedder:
    """The name and size of an `index`'s vectors, as `ItemStore` tags them.

    The adapter embeds with the index's `embed` itself (awaiting an async one),
    so `ItemStore` only checks and tags what it is given; its own `embed` is
    never called.
    """

    def __init__(self, dims: int) -> None:
        self.dim = dims
        self.name = f"langgraph-index-{dims}d"

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise RuntimeError("the LangGraph adapter embeds with the index's embed")


def _vectors(made: Any, count: int) -> np.ndarray:
    array = np.asarray(made, dtype=np.float32)
    if array.ndim != 2 or len(array) != count:
        raise ValueError(
            f"index embed: expected {count} vectors, got an array of shape "
            f"{array.shape}"
        )
    return array


def _path(field_path: str) -> str | list[str]:
    # "$" (the whole value) stays as it is; other paths are read token by token.
    return field_path if field_path == "$" else tokenize_path(field_path)


def _check_put_namespace(namespace: tuple[str, ...]) -> None:
    # What `BaseStore.put` checks before batching; an op given to `batch`
    # directly gets the same.
    if not namespace:
        raise InvalidNamespaceError("Namespace cannot be empty.")
    if namespace[0] == "langgraph":
        raise InvalidNamespaceError(
            f'Root label for namespace cannot be "langgraph". Got: {namespace}'
        )


def _as_item(found: StoredItem) -> Item:
    return Item(
        value=found.value,
        key=found.key,
        namespace=found.namespace,
        created_at=found.created_at,
        updated_at=found.updated_at,
    )


def _as_search_item(found: StoredItem) -> SearchItem:
    return SearchItem(
        namespace=found.namespace,
        key=found.key,
        value=found.value,
        created_at=found.created_at,
        updated_at=found.updated_at,
        score=found.score,
    )
