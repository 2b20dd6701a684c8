"""One table of named plug-ins: its lock, its built-ins found once, its plug-ins.

Triggers (`memory_lab.triggers.registry`), systems (`memlab_evals.systems`) and
data sets (`memlab_datasets.registry`) each keep a table of names that the
command line, the app and the run log read. Each registry validates its own
entries; this is what they share: a name claimed by one module is refused to
another unless it asks to replace it, the built-in modules are imported on first
use, and ``--plugin MODULE`` and entry points import modules that register more,
with one error that names what could not be loaded.

No module is imported while the table's lock is held: an import runs plug-in
code, which may take locks of its own or start threads that register. A module
registers through `add`, which holds the lock only to write its entry.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import threading
from collections.abc import Callable, Iterable
from typing import Any, Generic, TypeVar

from memory_lab.concurrency.lock_order import named_lock

Entry = TypeVar("Entry")


class NameRegistry(Generic[Entry]):
    """Entries by name, discovered once; safe to read from any thread.

    Args:
        what: What an entry is, for messages ("trigger", "data set").
        error: The exception type a caller's users see for a bad plug-in.
        source: The module that defines an entry (a notebook cell run twice
            re-registers from the same module, which is no clash).
        key: How a name is normalised (upper- or lower-case); applied to every
            name given, so lookups ignore case where registration does.
        builtins: The modules whose import registers the built-in entries;
            None when the caller registers them itself.
        entry_point_group: The entry point group installed distributions add
            entries through; None for none.
        lock: The lock over the table (and over who is discovering); held
            only to read or write them, never across an import.
    """

    def __init__(
        self,
        what: str,
        *,
        error: type[Exception],
        source: Callable[[Entry], str],
        key: Callable[[str], str] = str,
        builtins: Callable[[], Iterable[str]] | None = None,
        entry_point_group: str | None = None,
        lock: Any = None,
    ) -> None:
        self.what = what
        self.entry_point_group = entry_point_group
        self._error = error
        self._source = source
        self._key = key
        self._builtins = builtins
        # Guards `_entries`, `_discovered` and `_discoverer`.
        self._lock = (
            lock if lock is not None else named_lock("plugins.registry", reentrant=True)
        )
        self._entries: dict[str, Entry] = {}
        self._discovered = builtins is None and entry_point_group is None
        self._discoverer: int | None = None
        """The thread importing the built-ins and entry points now, if any."""
        self._discovery_ended = threading.Condition(self._lock)

    def key(self, name: str) -> str:
        """The name as the table holds it."""
        return self._key(str(name).strip())

    def add(self, name: str, entry: Entry, *, replace: bool = False) -> Entry:
        """Hold `entry` under `name`.

        Raises:
            The registry's error: when another module holds the name and
                `replace` is False.
        """
        key = self.key(name)
        with self._lock:
            old = self._entries.get(key)
            if (
                old is not None
                and not replace
                and self._source(old) != self._source(entry)
            ):
                raise self._error(
                    f"{self.what} {key!r} is already registered by "
                    f"{self._source(old)}; pick another name or pass replace=True"
                )
            self._entries[key] = entry
        return entry

    def remove(self, name: str) -> None:
        """Forget `name` (tests and notebooks that clean up after themselves)."""
        with self._lock:
            self._entries.pop(self.key(name), None)

    def get(self, name: str) -> Entry | None:
        """The entry under `name`, or None."""
        self.discover()
        with self._lock:
            return self._entries.get(self.key(name))

    def names(self) -> tuple[str, ...]:
        """Every name, sorted."""
        self.discover()
        with self._lock:
            return tuple(sorted(self._entries))

    def entries(self) -> tuple[Entry, ...]:
        """Every entry, by name."""
        self.discover()
        with self._lock:
            return tuple(self._entries[n] for n in sorted(self._entries))

    def discover(self) -> None:
        """Import the built-in modules and the entry points, once per process.

        The imports run outside the lock. A thread that reads while another
        imports waits until the whole table is there; a read from inside those
        imports (a module that asks at import) sees it as far as it has come.
        A failed import is not remembered as done: the next read tries again,
        so every reader gets the error naming the module, never a table that
        silently lacks it.

        Raises:
            The registry's error: naming the module or entry point that could
                not be imported.
        """
        if self._discovered:
            return
        me = threading.get_ident()
        with self._lock:
            while not self._discovered and self._discoverer not in (None, me):
                self._discovery_ended.wait()
            if self._discovered or self._discoverer == me:
                return
            self._discoverer = me
        done = False
        try:
            for module in self._builtins() if self._builtins else ():
                self._import_builtin(module)
            self.load_entry_points()
            done = True
        finally:
            with self._lock:
                self._discovered = done
                self._discoverer = None
                self._discovery_ended.notify_all()

    def _import_builtin(self, module: str) -> None:
        try:
            importlib.import_module(module)
        except Exception as exc:
            raise self._error(
                f"cannot load built-in {self.what} module {module!r}: "
                f"{type(exc).__name__}: {exc}"
            ) from None

    def load_plugin(self, module: str) -> list[str]:
        """Import a module that registers entries; the names it added, sorted.

        Raises:
            The registry's error: naming the module and why it could not be
                imported.
        """
        self.discover()
        before = set(self.names())
        try:
            importlib.import_module(module)
        except Exception as exc:
            raise self._error(
                f"cannot load plugin {module!r}: {type(exc).__name__}: {exc}"
            ) from None
        return sorted(set(self.names()) - before)

    def load_plugins(self, modules: Iterable[str]) -> list[str]:
        """Import each module in turn; the names they added, sorted.

        Importing twice is harmless (a module is imported once).
        """
        before = set(self.names())
        for module in modules:
            self.load_plugin(module)
        return sorted(set(self.names()) - before)

    def load_entry_points(self) -> list[str]:
        """Load every entry point of the group; the names they added, sorted.

        Raises:
            The registry's error: naming the entry point that could not be
                loaded.
        """
        if self.entry_point_group is None:
            return []
        with self._lock:
            before = set(self._entries)
        for entry in importlib.metadata.entry_points(group=self.entry_point_group):
            try:
                entry.load()
            except Exception as exc:
                raise self._error(
                    f"cannot load {self.what} entry point {entry.name!r} "
                    f"({entry.value}): {type(exc).__name__}: {exc}"
                ) from None
        with self._lock:
            return sorted(set(self._entries) - before)
