"""Real database servers for tests: a Chroma server and a Postgres cluster.

The servers themselves are started by `memlab_bench.servers` (the ingest-scaling
benchmark starts its own the same way). The session fixtures here share one of
each per test process, and skip when the server is not installed; tests that use
them are marked `xdist_group("servers")`, so one worker runs them all.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from memlab_bench.servers import (
    ServerUnavailableError,
    chroma_server,
    postgres_server,
)


def _started(server) -> Iterator[str]:
    with ExitStack() as stack:
        try:
            url = stack.enter_context(server())
        except ServerUnavailableError as err:
            pytest.skip(str(err))
        yield url


@pytest.fixture(scope="session")
def chroma_url() -> Iterator[str]:
    """One Chroma server for the test process."""
    yield from _started(chroma_server)


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """One Postgres cluster for the test process."""
    yield from _started(postgres_server)
