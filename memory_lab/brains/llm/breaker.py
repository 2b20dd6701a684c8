"""A circuit breaker: stop paying for an endpoint that keeps failing.

Every call to a dead or hanging endpoint costs its whole retry budget (attempts
times the timeout, plus backoff). A replay or an eval makes thousands of calls,
so without a breaker a down endpoint turns minutes into hours. After
`failures_to_open` consecutive calls that gave up, the breaker opens: calls are
refused at once (the brain falls back, and says so) until `cooldown_s` has
passed; then one trial call is let through. Its success closes the breaker, its
failure opens it for another cool-down.

Time is the process's monotonic clock, not the memory's clock: a replay moves
the memory's clock through months of conversation in seconds.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from memory_lab.concurrency.lock_order import named_lock

BreakerState = Literal["closed", "open", "half_open"]


@dataclass(frozen=True)
class BreakerStatus:
    """What the breaker says about one call it was asked about.

    Attributes:
        allowed: Whether the call may go to the endpoint.
        retry_in_s: With the breaker open, seconds until a trial call is let through.
        failures: Consecutive failed calls that opened it.
    """

    allowed: bool
    retry_in_s: float = 0.0
    failures: int = 0


class CircuitBreaker:
    """Counts consecutive failed calls and refuses calls while the endpoint rests.

    Args:
        failures_to_open: Consecutive failed calls that open the breaker.
        cooldown_s: How long it stays open before one trial call.
        monotonic: Time source in seconds; injectable for tests.
    """

    def __init__(
        self,
        failures_to_open: int = 1,
        cooldown_s: float = 60.0,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        if failures_to_open < 1:
            raise ValueError("failures_to_open must be at least 1")
        self.failures_to_open = failures_to_open
        self.cooldown_s = cooldown_s
        self._now = monotonic
        self._lock = named_lock("llm.breaker")  # guards failures and opening
        self._failures = 0
        self._opened_at: float | None = None
        self._trial_in_flight = False
        self.times_opened = 0

    @property
    def state(self) -> BreakerState:
        """`closed` (calls go through), `open` (refused) or `half_open` (trial)."""
        with self._lock:
            return self._state()

    def _state(self) -> BreakerState:
        if self._opened_at is None:
            return "closed"
        if self._now() - self._opened_at < self.cooldown_s:
            return "open"
        return "half_open"

    def rest_left(self) -> float:
        """Seconds the breaker stays open; 0 when calls may go through.

        A read for status displays: unlike `ask`, it never claims the trial call.
        """
        with self._lock:
            if self._state() != "open":
                return 0.0
            assert self._opened_at is not None
            return max(0.0, self.cooldown_s - (self._now() - self._opened_at))

    def ask(self) -> BreakerStatus:
        """May a call go to the endpoint now? In half-open, only one at a time."""
        with self._lock:
            state = self._state()
            if state == "closed":
                return BreakerStatus(True)
            if state == "half_open" and not self._trial_in_flight:
                self._trial_in_flight = True
                return BreakerStatus(True, failures=self._failures)
            assert self._opened_at is not None
            left = max(0.0, self.cooldown_s - (self._now() - self._opened_at))
            return BreakerStatus(False, retry_in_s=left, failures=self._failures)

    def succeeded(self) -> None:
        """The endpoint answered: close the breaker and forget past failures."""
        with self._lock:
            self._failures = 0
            self._opened_at = None
            self._trial_in_flight = False

    def failed(self) -> None:
        """A call gave up; open the breaker at the threshold (or after a trial)."""
        with self._lock:
            self._failures += 1
            trial = self._trial_in_flight
            self._trial_in_flight = False
            if trial or self._failures >= self.failures_to_open:
                if self._opened_at is None or trial:
                    self.times_opened += 1
                self._opened_at = self._now()
