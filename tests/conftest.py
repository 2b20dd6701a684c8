"""Fixtures for every test folder, and the Hypothesis profiles.

The test command CI runs must give the same verdict on every run, so its
property tests draw the same examples each time ("ci", derandomized: the seed is
a hash of the test). Finding new failing examples is the soak's job: `make soak`
runs with the "explore" profile and a recorded seed per round, so anything it
finds replays.

Every named lock is checked against the declared lock order
(`memory_lab.concurrency.lock_order`): the variable is set before the library
is first imported, so its module-level locks are checked too, and processes the
tests start inherit it. A test during which any thread, its own or a
background one, took two locks out of order fails, with both stacks.
"""

import os

os.environ.setdefault("MEMORY_LAB_LOCK_ORDER", "check")

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

from memory_lab.concurrency import lock_order  # noqa: E402
from tests.servers import chroma_url, postgres_url  # noqa: E402, F401

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("MEMORY_LAB_HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _locks_taken_in_the_declared_order():
    """Fail the test if any thread broke the lock order while it ran.

    The thread that broke it was refused with `LockOrderError`; a background
    thread (the memory worker retrying a job) may have swallowed that.
    """
    checker = lock_order.CHECKER
    before = 0 if checker is None else len(checker.violations)
    yield
    if checker is not None and len(checker.violations) > before:
        broken = checker.violations[before:]
        pytest.fail(
            f"{len(broken)} lock order violation(s); the first:\n"
            + broken[0].describe(),
            pytrace=False,
        )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test on a shared server (Postgres, a Chroma server) counts as slow.

    The server starts for the first such test a worker runs, which costs more than
    the rest of `make test-fast` together; `make test` runs them.
    """
    for item in items:
        if any(m.args == ("servers",) for m in item.iter_markers("xdist_group")):
            item.add_marker(pytest.mark.slow)
