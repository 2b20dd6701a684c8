"""Fixtures shared by the app tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _main_module_restored() -> Iterator[None]:
    """Put back the real `__main__` after a test that ran the app with AppTest.

    AppTest runs its script as `__main__` and leaves it there; a later test in the
    same process that starts a process with multiprocessing's spawn would make
    the child re-run that script (one from `AppTest.from_function` fails there).
    """
    main = sys.modules.get("__main__")
    yield
    if main is not None:
        sys.modules["__main__"] = main
