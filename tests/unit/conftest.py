"""Fixtures shared by the unit tests."""

import pytest

from memory_lab.triggers import unregister


@pytest.fixture
def named():
    """Trigger names registered by a test, forgotten after it."""
    names: list[str] = []
    yield names
    for name in names:
        unregister(name)
