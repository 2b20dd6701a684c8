"""Where the eval's models live and how to call them.

One `Endpoint` type for the brain, the answer model and the judge, whichever edge
built it; `CallOptions` are the knobs every client shares (connections, cache,
timeouts, structured output), so one run's clients behave alike.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import SecretStr

from memlab_evals.running.llm_records import EndpointInfo
from memory_lab.llm_client.client import ChatClient, LLMUsage, ResponseCache


@dataclass(frozen=True)
class Endpoint:
    """One OpenAI-compatible endpoint and model; the key is never shown."""

    base_url: str
    model: str
    api_key: SecretStr | None = None

    @property
    def key(self) -> str | None:
        """The key itself, for the client that sends it."""
        return self.api_key.get_secret_value() if self.api_key else None

    @property
    def label(self) -> str:
        """`model @ url`: what logs and captions show (never the key)."""
        return f"{self.model} @ {self.base_url}"

    def info(self) -> EndpointInfo:
        """The log's record of it, without the key."""
        return EndpointInfo(base_url=self.base_url, model=self.model)

    def __repr__(self) -> str:
        shown = "'***'" if self.api_key else "None"
        return (
            f"Endpoint(base_url={self.base_url!r}, model={self.model!r}, "
            f"api_key={shown})"
        )


@dataclass(frozen=True)
class CallOptions:
    """How the eval's clients call their endpoints.

    Attributes:
        max_connections: Requests in flight at once, over all endpoints.
        use_cache: False sends every request and stores nothing (`--no-cache`).
        cache_path: The response cache file; None uses the default one.
        structured_output: The judge's JSON dialect (see `memory_lab.llm_client`).
        timeout_s: Per-request timeout.
        max_attempts: Attempts per request, the first included.
        backoff_s: First pause between attempts.
    """

    max_connections: int = 4
    use_cache: bool = True
    cache_path: Path | None = None
    structured_output: str = "json_object_schema"
    timeout_s: float = 60.0
    max_attempts: int = 4
    backoff_s: float = 0.5

    def __post_init__(self) -> None:
        if self.max_connections < 1:
            raise ValueError(
                f"--max-connections must be at least 1, got {self.max_connections}"
            )

    def cache(self) -> ResponseCache | None:
        """The shared cache, or None when it is bypassed."""
        return ResponseCache(self.cache_path) if self.use_cache else None

    def cache_label(self) -> str:
        """What the run log records as the cache."""
        if not self.use_cache:
            return "off"
        cache = self.cache()
        return str(cache.path) if cache is not None else "off"

    def client(
        self,
        endpoint: Endpoint,
        *,
        usage: LLMUsage | None = None,
        cache: ResponseCache | None = None,
    ) -> ChatClient:
        """A client for `endpoint` counting into `usage`."""
        return ChatClient(
            endpoint.base_url,
            endpoint.model,
            api_key=endpoint.key,
            timeout_s=self.timeout_s,
            max_attempts=self.max_attempts,
            backoff_s=self.backoff_s,
            structured_output=self.structured_output,
            cache=cache,
            use_cache=self.use_cache,
            max_connections=self.max_connections,
            usage=usage,
        )
