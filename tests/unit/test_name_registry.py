"""The name table the trigger, system and data-set registries share."""

from __future__ import annotations

import importlib
import sys
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
