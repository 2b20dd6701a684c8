"""The name table the trigger, system and data-set registries share."""

from __future__ import annotations

import importlib
import sys
import threading
from collections import namedtuple

import pytest

from memory_lab.name_registry import NameRegistry

Toy = namedtuple("Toy", "name module")

TABLE_MODULE = """
from collections import namedtuple
from memory_lab.name_registry import NameRegistry

class ToyError(Exception):
    pass

Toy = namedtuple("Toy", "name module")
ASKED = []

def builtins():
    ASKED.append(1)
    return ["toy_builtin"]

TABLE = NameRegistry(
    "toy", error=ToyError, source=lambda t: t.module, key=str.lower,
    builtins=builtins,
)
"""
REGISTERS = (
    "import toy_table\n"
    "toy_table.TABLE.add({name!r}, toy_table.Toy({name!r}, __name__))\n"
)


@pytest.fixture
def toy(tmp_path, monkeypatch):
    """A registry in a module of its own, with a built-in and two plug-ins."""
    (tmp_path / "toy_table.py").write_text(TABLE_MODULE)
    (tmp_path / "toy_builtin.py").write_text(REGISTERS.format(name="b"))
    (tmp_path / "toy_plugin.py").write_text(REGISTERS.format(name="p"))
    (tmp_path / "toy_broken.py").write_text("raise RuntimeError('no luck')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    names = ("toy_table", "toy_builtin", "toy_plugin", "toy_broken")
    yield importlib.import_module("toy_table")
    for name in names:
        sys.modules.pop(name, None)


def test_a_name_another_module_holds_is_refused_unless_replaced():
    table = NameRegistry(
        "toy", error=KeyError, source=lambda t: t.module, key=str.lower
    )
    table.add("Q", Toy("q", "one"))
    with pytest.raises(KeyError, match="toy 'q' is already registered by one"):
        table.add("q", Toy("q", "two"))
    table.add("q", Toy("q", "one"))  # the same module again: a cell run twice
    table.add("q", Toy("q", "two"), replace=True)
    assert table.get(" Q ") == Toy("q", "two")
    table.remove("Q")
    assert table.get("q") is None and table.names() == ()


def test_the_builtins_are_imported_once_on_first_read(toy):
    assert toy.ASKED == []
    assert toy.TABLE.names() == ("b",)
    assert [t.module for t in toy.TABLE.entries()] == ["toy_builtin"]
    assert toy.ASKED == [1]


def test_a_plugin_adds_its_names_and_a_broken_one_is_named(toy):
    assert toy.TABLE.load_plugins(["toy_plugin"]) == ["p"]
    assert toy.TABLE.load_plugins(["toy_plugin"]) == []  # imported once
    assert toy.TABLE.names() == ("b", "p")
    with pytest.raises(
        toy.ToyError, match="cannot load plugin 'toy_broken': RuntimeError: no luck"
    ):
        toy.TABLE.load_plugin("toy_broken")


WATCHED_TABLE = """
import threading
from collections import namedtuple
from memory_lab.concurrency.lock_order import held_locks
from memory_lab.name_registry import NameRegistry

class ToyError(Exception):
    pass

Toy = namedtuple("Toy", "name module")
HELD_AT_IMPORT = []
STARTED, RELEASE = threading.Event(), threading.Event()
BUILTINS = ["toy_slow"]

TABLE = NameRegistry(
    "toy", error=ToyError, source=lambda t: t.module, key=str.lower,
    builtins=lambda: list(BUILTINS),
)
"""
SLOW_BUILTIN = """
import toy_watched as t
t.HELD_AT_IMPORT.append(t.held_locks())
t.STARTED.set()
assert t.RELEASE.wait(60), "the test never let the import finish"
t.TABLE.add("slow", t.Toy("slow", __name__))
"""


@pytest.fixture
def watched(tmp_path, monkeypatch):
    """A registry whose one built-in notes the locks held while it is imported,
    and finishes importing only when the test releases it."""
    (tmp_path / "toy_watched.py").write_text(WATCHED_TABLE)
    (tmp_path / "toy_slow.py").write_text(SLOW_BUILTIN)
    (tmp_path / "toy_broken.py").write_text("raise RuntimeError('no luck')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    table = importlib.import_module("toy_watched")
    yield table
    table.RELEASE.set()
    for name in ("toy_watched", "toy_slow", "toy_broken"):
        sys.modules.pop(name, None)


def test_the_builtins_are_imported_with_no_lock_held(watched):
    watched.RELEASE.set()
    assert watched.TABLE.names() == ("slow",)
    assert watched.HELD_AT_IMPORT == [[]]


def test_a_reader_during_discovery_waits_for_the_whole_table(watched):
    seen: list[tuple[str, ...]] = []
    first = _read_names(watched.TABLE, seen)
    assert watched.STARTED.wait(60), "discovery never began"
    second = _read_names(watched.TABLE, seen)
    # Not a wait for work to finish: the second reader must still be waiting,
    # since the built-in it needs is half imported.
    second.join(0.2)
    assert second.is_alive() and seen == []
    watched.RELEASE.set()
    first.join(60)
    second.join(60)
    assert seen == [("slow",), ("slow",)]
    assert len(watched.HELD_AT_IMPORT) == 1, "imported once"


def test_a_builtin_that_fails_to_import_is_named_to_every_reader(watched):
    watched.BUILTINS[:] = ["toy_broken"]
    message = "cannot load built-in toy module 'toy_broken': RuntimeError: no luck"
    with pytest.raises(watched.ToyError, match=message):
        watched.TABLE.names()
    with pytest.raises(watched.ToyError, match=message):
        watched.TABLE.get("slow")
    watched.BUILTINS[:] = []
    assert watched.TABLE.names() == ()


def _read_names(table, into: list) -> threading.Thread:
    reader = threading.Thread(target=lambda: into.append(table.names()))
    reader.start()
    return reader
