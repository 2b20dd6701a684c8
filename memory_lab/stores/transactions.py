"""Transactions that nest by joining: the one rule both SQL databases follow.

A job's fact writes, its episode and its completion must commit together even
though each store opens its own `write()`. So a transaction opened inside another
on the same thread joins the outer one instead of starting its own, and only the
outermost commits or rolls back. A write cannot join a read: it would write
inside a snapshot promised to be read-only.

`SqliteDatabase` and `PostgresDatabase` differ only in how a transaction begins
and ends and in the connection they hand out; those are the hooks below.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from memory_lab.concurrency.lock_order import named_lock


class JoinedTransactions:
    """`read()` and `write()` over one connection guarded by a lock in the process."""

    def _start_transactions(self) -> None:
        # Guards the connection and the depth of its open transaction.
        self._lock = named_lock("database", reentrant=True)
        self._depth = 0  # open transactions on this connection (nested ones join)
        self._writing = False

    # -- hooks ---------------------------------------------------------------------

    def _begin(self, *, write: bool) -> None:
        raise NotImplementedError

    def _commit(self) -> None:
        raise NotImplementedError

    def _rollback(self) -> None:
        """Abandon the open transaction; must not raise if none is open."""
        raise NotImplementedError

    def _handle(self) -> Any:
        raise NotImplementedError

    # -- transactions --------------------------------------------------------------

    @contextmanager
    def write(self) -> Iterator[Any]:
        """A write transaction that holds the database's write lock from its start.

        Inside another `write` on the same thread it joins that transaction, so
        stores sharing this database commit (or roll back) together.
        """
        with self._lock:
            if self._depth:
                if not self._writing:
                    raise RuntimeError("a write cannot join a read transaction")
                yield self._handle()
                return
            self._writing = True
            with self._outermost(write=True) as handle:
                yield handle

    @contextmanager
    def read(self) -> Iterator[Any]:
        """A read transaction: all its queries see one snapshot.

        Inside another transaction on the same thread it joins it (and reads a
        write's own changes).
        """
        with self._lock:
            if self._depth:
                yield self._handle()
                return
            with self._outermost(write=False) as handle:
                yield handle

    @contextmanager
    def _outermost(self, *, write: bool) -> Iterator[Any]:
        # A failed COMMIT can leave the transaction open: never keep a
        # half-applied batch.
        self._depth += 1
        try:
            self._begin(write=write)
            yield self._handle()
            self._commit()
        except BaseException:
            self._rollback()
            raise
        finally:
            self._writing = False
            self._depth -= 1
