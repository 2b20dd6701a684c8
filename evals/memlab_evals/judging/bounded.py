"""Run many model calls at once, never more than a set number in flight.

Answering and judging are I/O bound: hundreds of requests that each wait on a
server. One semaphore bounds them all, whatever endpoint each goes to, so
`--max-connections` is the load a server sees.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class Gate:
    """An asyncio semaphore made in the loop that uses it, with a peak count."""

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        self.limit = limit
        self.in_flight = 0
        self.peak = 0
        self._semaphore: asyncio.Semaphore | None = None

    async def run(self, call: Callable[[], Awaitable[T]]) -> T:
        """Await `call()` once a slot is free."""
        if self._semaphore is None:
            self._semaphore = asyncio.Semaphore(self.limit)
        async with self._semaphore:
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
            try:
                return await call()
            finally:
                self.in_flight -= 1


def run_async(main: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run(main)`, also from a thread that already runs a loop.

    A notebook's kernel runs an event loop, where `asyncio.run` refuses to start;
    there the coroutine runs on a fresh loop in a helper thread.
    """
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main)
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, main).result()
