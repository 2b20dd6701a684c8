"""When a failed chat request is worth repeating, and how long to wait first.

Kept apart from the client so the policy can be read, and tested, on its own. It is
tenacity underneath, with the openai SDK's own retries switched off, so every
attempt passes through here and is counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

import openai
from tenacity import (
    AsyncRetrying,
    RetryCallState,
    Retrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)

from memory_lab.llm_client.completion import LLMUsage


def retry_after_s(exc: BaseException) -> float | None:
    """Seconds the server asked us to wait (`retry-after-ms` or `Retry-After`)."""
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    try:
        if (ms := headers.get("retry-after-ms")) is not None:
            return max(0.0, float(ms) / 1000)
        if (value := headers.get("retry-after")) is None:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            when = parsedate_to_datetime(value)
            return max(0.0, (when - datetime.now(UTC)).total_seconds())
    except (TypeError, ValueError):
        return None


def is_retryable(exc: BaseException) -> bool:
    """Timeouts, lost connections, 408/409/429 and 5xx: worth another attempt."""
    if isinstance(exc, openai.APIConnectionError):  # includes APITimeoutError
        return True
    if isinstance(exc, openai.APIStatusError):
        return exc.status_code in (408, 409, 429) or exc.status_code >= 500
    return False


@dataclass(frozen=True)
class RetryPolicy:
    """Bounded attempts, exponential backoff with jitter, and `Retry-After` obeyed.

    Attributes:
        max_attempts: Attempts per completion, the first included.
        backoff_s: First pause; it doubles each time, plus jitter up to itself, so
            clients that failed together do not retry together.
        max_backoff_s: Cap on any pause, a server's `Retry-After` included, so a
            run never stalls on one request longer than this.
        usage: Where failures and retries are counted.
    """

    max_attempts: int
    backoff_s: float
    max_backoff_s: float
    usage: LLMUsage

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def retrying(self, attempts: int | None = None) -> Retrying:
        """A tenacity loop for sync calls; `attempts` overrides `max_attempts`."""
        return Retrying(**self._settings(attempts))

    def async_retrying(self, attempts: int | None = None) -> AsyncRetrying:
        """The same loop for coroutines (it sleeps with asyncio)."""
        return AsyncRetrying(**self._settings(attempts))

    def wait_s(self, state: RetryCallState) -> float:
        """The backoff, but never less than the server's `Retry-After`."""
        backoff = wait_exponential_jitter(
            initial=self.backoff_s, max=self.max_backoff_s, jitter=self.backoff_s
        )(state)
        exc = state.outcome.exception() if state.outcome else None
        asked = retry_after_s(exc) if exc is not None else None
        return min(max(backoff, asked or 0.0), self.max_backoff_s)

    def _settings(self, attempts: int | None) -> dict[str, Any]:
        return {
            "stop": stop_after_attempt(attempts or self.max_attempts),
            "wait": self.wait_s,
            "retry": retry_if_exception(self._note_failure),
            "before_sleep": lambda _state: self.usage.add(retries=1),
            "reraise": True,
        }

    def _note_failure(self, exc: BaseException) -> bool:
        # The retry predicate is the one hook tenacity calls for every failed
        # attempt, the last and the non-retryable ones included.
        if isinstance(exc, openai.OpenAIError):
            self.usage.add(failures=1)
        return is_retryable(exc)
