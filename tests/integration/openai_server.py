"""A scriptable OpenAI-compatible chat server on 127.0.0.1 for integration tests.

It speaks the `POST /v1/chat/completions` wire format that the openai SDK uses, so
the brain is tested through its real HTTP client. Each test queues behaviours (a
good answer, a 500, a 429 with `Retry-After`, a hang, broken JSON, the wrong shape,
a refusal);
when the queue is empty a default responder builds an answer from the request's
schema. Every request body is recorded for the test to inspect.
"""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal

Kind = Literal[
    "ok",
    "text",
    "http_error",
    "timeout",
    "malformed",
    "malformed_body",
    "wrong_shape",
    "refusal",
    "tool_calls",
]


@dataclass(frozen=True)
class Behaviour:
    """What the server does with one request.

    Attributes:
        kind: `ok` answers `content` in the place the request's method expects
            (message content, or a tool call when the request has `tools`);
            `text` answers `content` as plain message content; `http_error`
            fails with `status`;
            `timeout` sleeps `delay_s` before answering; `malformed` answers
            content that is not JSON; `malformed_body` sends a body that is not
            JSON at all; `wrong_shape` answers valid JSON that fits no schema;
            `refusal` declines, as OpenAI's structured outputs do (no content,
            the reason in `message.refusal`); `tool_calls` calls the named
            functions, whatever tools the request offers.
        content: For `ok` a dict (sent as JSON) or a string (sent verbatim);
            for `text` the reply text; for `refusal` the reason; for
            `tool_calls` a list of (name, arguments) pairs, arguments a dict
            (sent as JSON) or a string (sent verbatim, so it can be broken).
        delay_s: For `timeout`, how long to hang.
        status: For `http_error`, the HTTP status code.
        retry_after: For `http_error`, a `Retry-After` header value to send.
    """

    kind: Kind
    content: Any = None
    delay_s: float = 5.0
    status: int = 500
    retry_after: str | None = None


def ok(content: Any) -> Behaviour:
    """Answer `content` where the request's structured-output method expects it."""
    return Behaviour("ok", content)


def text(reply: str) -> Behaviour:
    """Answer plain text, as a chat model does without structured output."""
    return Behaviour("text", reply)


def http_error(status: int, retry_after: str | None = None) -> Behaviour:
    """Fail with an OpenAI-style error body, the given status and `Retry-After`."""
    return Behaviour("http_error", status=status, retry_after=retry_after)


def refusal(reason: str = "I can't help with that.") -> Behaviour:
    """Decline to answer, with the reason where OpenAI puts it."""
    return Behaviour("refusal", reason)


def tool_calls(*calls: tuple[str, Any]) -> Behaviour:
    """Call functions by name: each call a (name, arguments) pair."""
    return Behaviour("tool_calls", list(calls))


HTTP_500 = http_error(500)
MALFORMED = Behaviour("malformed")
MALFORMED_BODY = Behaviour("malformed_body")
WRONG_SHAPE = Behaviour("wrong_shape")


def timeout(delay_s: float = 5.0) -> Behaviour:
    """Hang for `delay_s` seconds, longer than the client's timeout."""
    return Behaviour("timeout", delay_s=delay_s)


Responder = Callable[[dict[str, Any]], Behaviour]


@dataclass
class RecordedRequest:
    """One request the server received, and the usage it reported back."""

    path: str
    body: dict[str, Any]
    prompt_tokens: int = 0
    completion_tokens: int = 0
    at: float = 0.0
    behaviour: Behaviour | None = None

    @property
    def method(self) -> str:
        """Structured-output method the request used, or `plain`."""
        return request_method(self.body)

    @property
    def text(self) -> str:
        """All message contents joined, for assertions about the prompt."""
        return "\n".join(str(m.get("content") or "") for m in self.body["messages"])


def request_method(body: dict[str, Any]) -> str:
    """`json_schema`, `json_object_schema` (llama.cpp's dialect), `json_mode`,
    `function_calling` or `plain`."""
    if body.get("tools"):
        return "function_calling"
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return "json_schema"
    if fmt.get("type") == "json_object":
        return "json_object_schema" if "schema" in fmt else "json_mode"
    return "plain"


def request_schema(body: dict[str, Any]) -> dict[str, Any] | None:
    """The JSON schema the request asks the answer to follow, if it sends one."""
    if body.get("tools"):
        return body["tools"][0]["function"].get("parameters")
    fmt = body.get("response_format") or {}
    if fmt.get("type") == "json_schema":
        return fmt["json_schema"].get("schema")
    if fmt.get("type") == "json_object":
        return fmt.get("schema")
    return None


def sample_from_schema(
    schema: dict[str, Any], root: dict[str, Any] | None = None
) -> Any:
    """A small value that validates against `schema` (objects, arrays, scalars)."""
    root = root or schema
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return sample_from_schema(root.get("$defs", {})[name], root)
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            return sample_from_schema(schema[key][0], root)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = kind[0]
    if kind == "object" or "properties" in schema:
        props = schema.get("properties", {})
        return {k: sample_from_schema(v, root) for k, v in props.items()}
    if kind == "array":
        return []
    if kind in ("number", "integer"):
        return 0.5 if kind == "number" else 1
    if kind == "boolean":
        return False
    if kind == "null":
        return None
    return "stub"


def default_responder(body: dict[str, Any]) -> Behaviour:
    """A sensible answer: a schema-shaped object when one is asked for, else text."""
    method = request_method(body)
    if method == "plain":
        return text("stub reply")
    schema = request_schema(body)
    return ok(sample_from_schema(schema) if schema else {})


def _count(text_value: str) -> int:
    # A stable, crude token count: the brain's usage totals only need to match
    # what the server reported, not any real tokenizer.
    return max(1, len(text_value.split()))


class FakeOpenAIServer:
    """Loopback OpenAI-compatible server; use as a context manager.

    Example:
        with FakeOpenAIServer() as server:
            server.script(HTTP_500, ok({"summary": "..."}))
            ChatOpenAI(base_url=server.base_url, ...)
    """

    def __init__(self, responder: Responder = default_responder) -> None:
        self.responder = responder
        self.requests: list[RecordedRequest] = []
        self._queue: deque[Behaviour | Responder] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- scripting -----------------------------------------------------------------

    def script(self, *behaviours: Behaviour | Responder) -> None:
        """Queue behaviours (or per-request callables) for the next requests."""
        with self._lock:
            self._queue.extend(behaviours)

    def reset(self) -> None:
        """Forget queued behaviours and recorded requests."""
        with self._lock:
            self._queue.clear()
            self.requests.clear()

    def _next(self, body: dict[str, Any]) -> Behaviour:
        with self._lock:
            item = self._queue.popleft() if self._queue else self.responder
        return item(body) if callable(item) else item

    # -- lifecycle -----------------------------------------------------------------

    @property
    def port(self) -> int:
        """The port the OS gave us."""
        if self._httpd is None:
            raise RuntimeError("server not started")
        return self._httpd.server_address[1]

    @property
    def base_url(self) -> str:
        """What to pass to ChatOpenAI as `base_url`."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeOpenAIServer:
        """Bind to an ephemeral port on 127.0.0.1 and serve in a daemon thread."""
        server = self

        class Handler(_Handler):
            owner = server

        self._stopping.clear()
        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        # A short poll interval keeps `stop()` (and so each test's teardown) quick.
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Wake hanging handlers, stop serving and release the port."""
        self._stopping.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._httpd = None
        self._thread = None

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- answering -----------------------------------------------------------------

    def handle(self, path: str, body: dict[str, Any]) -> tuple[int, bytes]:
        """Status and body for one chat completion request."""
        status, payload, _ = self.answer(path, body)
        return status, payload

    def answer(
        self, path: str, body: dict[str, Any]
    ) -> tuple[int, bytes, dict[str, str]]:
        """Status, body and extra headers for one chat completion request."""
        record = RecordedRequest(path=path, body=body, at=time.monotonic())
        with self._lock:
            self.requests.append(record)
        behaviour = self._next(body)
        record.behaviour = behaviour
        if behaviour.kind == "http_error":
            error = {"error": {"message": "scripted failure", "type": "server_error"}}
            headers = (
                {"Retry-After": behaviour.retry_after}
                if behaviour.retry_after is not None
                else {}
            )
            return behaviour.status, json.dumps(error).encode(), headers
        if behaviour.kind == "timeout":
            # Wait on the stop event so shutting the server down is never held up.
            self._stopping.wait(behaviour.delay_s)
            behaviour = default_responder(body)
        if behaviour.kind == "malformed_body":
            return 200, b'{"id": "chatcmpl-1", "choices": [ {"message": ', {}
        if behaviour.kind == "tool_calls":
            record.prompt_tokens = _count(json.dumps(body.get("messages", [])))
            record.completion_tokens = _count(json.dumps(behaviour.content))
            completion = self._completion(body, "", False, record)
            message = completion["choices"][0]["message"]
            message["content"] = None
            message["tool_calls"] = [
                {
                    "id": f"call_{len(self.requests)}_{i}",
                    "type": "function",
                    "function": {
                        "name": name,
                        "arguments": args
                        if isinstance(args, str)
                        else json.dumps(args),
                    },
                }
                for i, (name, args) in enumerate(behaviour.content)
            ]
            completion["choices"][0]["finish_reason"] = "tool_calls"
            return 200, json.dumps(completion).encode(), {}
        if behaviour.kind == "refusal":
            content = ""
        elif behaviour.kind == "malformed":
            content = '{"summary": "cut off mid-'
        elif behaviour.kind == "wrong_shape":
            content = json.dumps({"unexpected": ["not", "the", "schema"], "n": 3})
        elif isinstance(behaviour.content, str):
            content = behaviour.content
        else:
            content = json.dumps(behaviour.content)
        as_tool = (
            behaviour.kind not in ("text", "refusal")
            and request_method(body) == "function_calling"
        )
        record.prompt_tokens = _count(json.dumps(body.get("messages", [])))
        record.completion_tokens = _count(content or str(behaviour.content or ""))
        reason = behaviour.content if behaviour.kind == "refusal" else None
        completion = self._completion(body, content, as_tool, record, reason)
        return 200, json.dumps(completion).encode(), {}

    @staticmethod
    def _completion(
        body: dict[str, Any],
        content: str,
        as_tool: bool,
        record: RecordedRequest,
        refused: str | None = None,
    ) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "refusal": refused}
        if refused is not None:
            message["content"] = None
            finish = "stop"
        elif as_tool:
            name = body["tools"][0]["function"]["name"]
            message["content"] = None
            message["tool_calls"] = [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": name, "arguments": content},
                }
            ]
            finish = "tool_calls"
        else:
            message["content"] = content
            finish = "stop"
        return {
            "id": f"chatcmpl-{len(content)}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "message": message,
                    "finish_reason": finish,
                    "logprobs": None,
                }
            ],
            "usage": {
                "prompt_tokens": record.prompt_tokens,
                "completion_tokens": record.completion_tokens,
                "total_tokens": record.prompt_tokens + record.completion_tokens,
            },
        }


class _Handler(BaseHTTPRequestHandler):
    owner: FakeOpenAIServer
    protocol_version = "HTTP/1.1"

    def do_POST(self) -> None:  # noqa: N802 - the name http.server dispatches to
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length)
        if self.path.rstrip("/") != "/v1/chat/completions":
            self._send(404, b'{"error": {"message": "not found"}}')
            return
        try:
            body = json.loads(raw or b"{}")
        except json.JSONDecodeError:
            self._send(400, b'{"error": {"message": "request body is not JSON"}}')
            return
        status, payload, headers = self.owner.answer(self.path, body)
        self._send(status, payload, headers)

    def _send(
        self, status: int, payload: bytes, headers: dict[str, str] | None = None
    ) -> None:
        try:
            self.send_response(status)
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):
            # The client gave up (its timeout); nothing left to answer.
            pass

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        # Keep pytest output clean; the recorded requests are the log.
        return
