"""ChatClient against the scripted OpenAI-compatible server on 127.0.0.1.

Covers what makes model calls affordable and honest: the cache (a hit sends
nothing), bounded retries that obey `Retry-After`, the errors raised when an
endpoint stays down, the usage counts, the concurrency cap, the structured-output
probe, and that the API key never shows.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from pathlib import Path
from typing import Any

import pytest

from memory_lab.llm_client.client import (
    ChatClient,
    LLMRequestError,
    LLMUnavailableError,
    ResponseCache,
    response_format_for,
)
from memory_lab.llm_client.retry_policy import RetryPolicy, retry_after_s
from tests.integration.openai_server import (
    HTTP_500,
    Behaviour,
    FakeOpenAIServer,
    default_responder,
    http_error,
    ok,
    text,
    timeout,
)

SECRET = "sk-test-DO-NOT-SHOW-4242"
HELLO = [{"role": "user", "content": "Say hello."}]


class RetryAfterServer(FakeOpenAIServer):
    """The scripted server, plus a `Retry-After` header on its 429 and 503 answers."""

    retry_after: str | None = None

    def start(self) -> RetryAfterServer:
        super().start()
        assert self._httpd is not None
        server = self

        class Handler(self._httpd.RequestHandlerClass):  # type: ignore[name-defined]
            def send_response(self, code: int, message: str | None = None) -> None:
                super().send_response(code, message)
                if code in (429, 503) and server.retry_after is not None:
                    self.send_header("Retry-After", server.retry_after)

        # socketserver builds a handler per request from this attribute.
        self._httpd.RequestHandlerClass = Handler
        return self


@pytest.fixture(autouse=True)
def private_default_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep any client built without a cache away from the user's real one."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))


@pytest.fixture
def server() -> Iterator[RetryAfterServer]:
    with RetryAfterServer() as running:
        yield running


@pytest.fixture
def cache(tmp_path: Path) -> ResponseCache:
    return ResponseCache(tmp_path / "llm-cache.sqlite")


def make_client(
    server: FakeOpenAIServer, cache: ResponseCache | None, **kwargs: Any
) -> ChatClient:
    options: dict[str, Any] = {
        "api_key": SECRET,
        "timeout_s": 5.0,
        "backoff_s": 0.001,
        "max_backoff_s": 2.0,
        "cache": cache,
        "use_cache": cache is not None,
    }
    options.update(kwargs)
    return ChatClient(server.base_url, "fake-model", **options)


# -- cache ---------------------------------------------------------------------


@pytest.mark.slow
def test_a_cache_hit_sends_no_request(server, cache):
    client = make_client(server, cache)
    first = client.complete(HELLO, max_tokens=20)
    second = client.complete(HELLO, max_tokens=20)
    assert len(server.requests) == 1
    assert (first.cached, second.cached) == (False, True)
    assert second.text == first.text == "stub reply"
    assert second.prompt_tokens == first.prompt_tokens > 0
    usage = client.usage.snapshot()
    assert usage["calls"] == 1 and usage["cache_hits"] == 1
    # A hit costs nothing: tokens are counted once.
    assert usage["prompt_tokens"] == first.prompt_tokens


@pytest.mark.parametrize(
    "change",
    [
        {"messages": [{"role": "user", "content": "Say goodbye."}]},
        {"max_tokens": 21},
        {"temperature": 0.7},
        {"seed": 7},
        {"response_format": {"type": "json_object"}},
    ],
)
def test_a_different_request_misses(server, cache, change):
    client = make_client(server, cache)
    client.complete(HELLO, max_tokens=20)
    args = {"messages": HELLO, "max_tokens": 20} | change
    assert not client.complete(args.pop("messages"), **args).cached
    assert len(server.requests) == 2


def test_the_cache_persists_across_clients_and_ignores_the_key(server, cache):
    make_client(server, cache).complete(HELLO, max_tokens=20)
    other = make_client(server, ResponseCache(cache.path), api_key="another-key")
    assert other.complete(HELLO, max_tokens=20).cached
    assert len(server.requests) == 1
    assert SECRET.encode() not in cache.path.read_bytes()


def test_another_endpoint_or_model_misses(server, cache):
    make_client(server, cache).complete(HELLO, max_tokens=20)
    other_model = ChatClient(server.base_url, "other-model", cache=cache)
    assert not other_model.complete(HELLO, max_tokens=20).cached


def test_use_cache_false_bypasses_the_cache(server, cache):
    client = make_client(server, cache)
    client.complete(HELLO, max_tokens=20)
    assert not client.complete(HELLO, max_tokens=20, use_cache=False).cached
    uncached = make_client(server, None)
    uncached.complete(HELLO, max_tokens=20)
    assert not uncached.complete(HELLO, max_tokens=20).cached
    assert len(server.requests) == 4 and len(cache) == 1


def test_tool_calls_are_parsed_and_survive_the_cache(server, cache):
    tools = [
        {
            "type": "function",
            "function": {
                "name": "save_fact",
                "parameters": {
                    "type": "object",
                    "properties": {"city": {"type": "string"}},
                },
            },
        }
    ]
    server.script(ok({"city": "Oslo"}))
    client = make_client(server, cache)
    for _ in range(2):
        answer = client.complete(HELLO, max_tokens=50, tools=tools)
        assert answer.text == ""
        (call,) = answer.tool_calls
        assert (call.name, call.arguments) == ("save_fact", {"city": "Oslo"})
    assert answer.cached and answer.finish_reason == "tool_calls"


def test_the_cache_takes_concurrent_writers(cache):
    def write(worker: int) -> None:
        for i in range(25):
            cache.put(f"{worker}-{i}", {"text": str(i)})

    threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(cache) == 200
    assert cache.get("7-24") == {"text": "24"}


def test_the_cache_takes_writers_in_other_processes(cache):
    script = (
        "import sys\n"
        "from memory_lab.llm_client.response_cache import ResponseCache\n"
        "cache = ResponseCache(sys.argv[1])\n"
        "for i in range(40):\n"
        "    cache.put(f'{sys.argv[2]}-{i}', {'text': str(i)})\n"
        "    cache.get(f'{sys.argv[2]}-{i}')\n"
    )
    writers = [
        subprocess.Popen([sys.executable, "-c", script, str(cache.path), f"p{n}"])
        for n in range(3)
    ]
    for i in range(40):
        cache.put(f"parent-{i}", {"text": str(i)})
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0, 0]
    assert len(cache) == 160


# -- retries and errors --------------------------------------------------------


def test_retries_a_500_then_succeeds(server):
    server.script(HTTP_500, http_error(502), text("recovered"))
    client = make_client(server, None)
    assert client.complete(HELLO, max_tokens=20).text == "recovered"
    usage = client.usage.snapshot()
    assert len(server.requests) == 3
    assert (usage["calls"], usage["failures"], usage["retries"]) == (3, 2, 2)


@pytest.fixture
def waits(monkeypatch) -> list[float]:
    """The pauses the retry policy chose, recorded instead of timed."""
    chosen: list[float] = []
    original = RetryPolicy.wait_s

    def recording(self, state):
        chosen.append(original(self, state))
        return chosen[-1]

    monkeypatch.setattr(RetryPolicy, "wait_s", recording)
    return chosen


def test_a_429_waits_as_long_as_retry_after_says(server, waits):
    server.retry_after = "0.4"
    server.script(http_error(429), text("after the wait"))
    client = make_client(server, None)
    assert client.complete(HELLO, max_tokens=20).text == "after the wait"
    assert len(waits) == 1 and waits[0] >= 0.4


def test_without_retry_after_the_backoff_is_used(server, waits):
    server.script(http_error(429), text("quick"))
    make_client(server, None).complete(HELLO, max_tokens=20)
    # backoff_s=0.001 plus jitter up to itself
    assert len(waits) == 1 and waits[0] <= 0.002


def test_retry_after_is_capped_by_max_backoff(server, waits):
    server.retry_after = "3600"
    server.script(http_error(503), text("capped"))
    client = make_client(server, None, max_backoff_s=0.05)
    assert client.complete(HELLO, max_tokens=20).text == "capped"
    assert waits == [0.05]


def test_retry_after_parses_seconds_and_dates():
    class Response:
        def __init__(self, headers: dict[str, str]) -> None:
            self.headers = headers

    class Failure(Exception):
        def __init__(self, headers: dict[str, str]) -> None:
            self.response = Response(headers)

    later = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert retry_after_s(Failure({"retry-after": "2"})) == 2.0
    assert retry_after_s(Failure({"retry-after-ms": "250"})) == 0.25
    assert 25 < retry_after_s(Failure({"retry-after": later})) <= 30
    assert retry_after_s(Failure({"retry-after": "soon"})) is None
    assert retry_after_s(ValueError()) is None


def test_gives_up_after_max_attempts(server):
    server.script(HTTP_500, HTTP_500, HTTP_500, text("too late"))
    client = make_client(server, None, max_attempts=3)
    with pytest.raises(LLMUnavailableError, match="after 3 attempt"):
        client.complete(HELLO, max_tokens=20)
    assert len(server.requests) == 3
    usage = client.usage.snapshot()
    assert (usage["calls"], usage["failures"], usage["gave_up"]) == (3, 3, 1)


def test_a_timeout_is_retried(server):
    server.script(timeout(2.0))
    client = make_client(server, None, timeout_s=0.3)
    assert client.complete(HELLO, max_tokens=20).text == "stub reply"
    assert len(server.requests) == 2


def test_an_unreachable_endpoint_is_unavailable(server):
    url = server.base_url
    server.stop()
    client = ChatClient(url, "m", use_cache=False, max_attempts=2, backoff_s=0.001)
    with pytest.raises(LLMUnavailableError, match="APIConnectionError"):
        client.complete(HELLO, max_tokens=20)


def test_a_refused_request_is_not_retried(server):
    server.script(http_error(400))
    client = make_client(server, None)
    with pytest.raises(LLMRequestError):
        client.complete(HELLO, max_tokens=20)
    assert len(server.requests) == 1


# -- usage, async, secrets -----------------------------------------------------


def test_usage_adds_what_the_server_reported(server, cache):
    client = make_client(server, cache)
    client.complete(HELLO, max_tokens=20)
    client.complete([{"role": "user", "content": "Another one."}], max_tokens=20)
    client.complete(HELLO, max_tokens=20)
    usage = client.usage.snapshot()
    assert {"calls", "prompt_tokens", "completion_tokens", "cache_hits"} <= set(usage)
    assert usage["calls"] == 2 and usage["cache_hits"] == 1
    assert usage["prompt_tokens"] == sum(r.prompt_tokens for r in server.requests)
    assert usage["completion_tokens"] == sum(
        r.completion_tokens for r in server.requests
    )


def test_async_requests_respect_max_connections(server):
    in_flight = 0
    peak = 0
    lock = threading.Lock()

    def slow(body: dict[str, Any]) -> Behaviour:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        time.sleep(0.15)
        with lock:
            in_flight -= 1
        return default_responder(body)

    server.responder = slow
    client = make_client(server, None, max_connections=2)

    async def many() -> list[str]:
        asks = [
            client.acomplete([{"role": "user", "content": f"n{i}"}], max_tokens=5)
            for i in range(6)
        ]
        return [c.text for c in await asyncio.gather(*asks)]

    assert asyncio.run(many()) == ["stub reply"] * 6
    # A second event loop gets its own client and semaphore.
    assert asyncio.run(many()) == ["stub reply"] * 6
    assert peak == 2
    assert client.usage.snapshot()["calls"] == 12


def test_async_retries_and_cache(server, cache):
    server.script(HTTP_500)
    client = make_client(server, cache)
    first = asyncio.run(client.acomplete(HELLO, max_tokens=20))
    second = asyncio.run(client.acomplete(HELLO, max_tokens=20))
    assert (first.cached, second.cached) == (False, True)
    assert client.usage.snapshot()["retries"] == 1


def test_the_api_key_never_shows(server):
    server.script(HTTP_500, HTTP_500)
    client = make_client(server, None, max_attempts=2)
    with pytest.raises(LLMUnavailableError) as failure:
        client.complete(HELLO, max_tokens=20)
    shown = [repr(client), str(client), repr(vars(client)), str(failure.value)]
    shown.append(repr(client.usage))
    assert not any(SECRET in text_shown for text_shown in shown)
    # It is still what the server receives.
    assert client._sync.api_key == SECRET


# -- structured output ---------------------------------------------------------

SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}}}


def test_response_format_for_each_mode():
    assert response_format_for(SCHEMA, "json_schema", name="x") == {
        "type": "json_schema",
        "json_schema": {"name": "x", "schema": SCHEMA, "strict": False},
    }
    assert response_format_for(SCHEMA, "json_object_schema") == {
        "type": "json_object",
        "schema": SCHEMA,
    }
    assert response_format_for(SCHEMA, "json_object") == {"type": "json_object"}
    assert response_format_for(SCHEMA, "none") is None
    with pytest.raises(ValueError, match="structured_output"):
        response_format_for(SCHEMA, "xml")  # type: ignore[arg-type]


def test_detect_prefers_json_schema_when_it_works(server):
    client = make_client(server, None)
    assert client.detect_structured_output() == "json_schema"
    assert client.structured_output == "json_schema"


def like_llama_cpp(body: dict[str, Any]) -> Behaviour:
    """Rejects `json_schema` with a 500 and honours `json_object` with a schema."""
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return HTTP_500
    if fmt.get("type") == "json_object" and "schema" in fmt:
        return text('{"ok": true}')
    return text("Hello! How can I help?")


def prose_only(body: dict[str, Any]) -> Behaviour:
    return text("I am here.")


@pytest.mark.parametrize(
    ("responder", "expected"),
    [(like_llama_cpp, "json_object_schema"), (prose_only, "none")],
)
def test_detect_falls_through_modes(server, responder, expected):
    server.responder = responder
    client = make_client(server, None)
    assert client.detect_structured_output() == expected
    # One probe per mode tried, no retries, nothing cached.
    assert len(server.requests) <= 4
    assert client.response_format_for(SCHEMA) == response_format_for(SCHEMA, expected)


def test_a_misspelt_request_option_is_refused_not_dropped(server):
    client = make_client(server, None)
    with pytest.raises(TypeError, match="temprature"):
        client.complete(HELLO, max_tokens=5, temprature=0.5)  # type: ignore[call-arg]
    assert server.requests == []
