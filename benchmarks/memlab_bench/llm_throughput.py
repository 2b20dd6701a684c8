"""Calls per second through the chat client at 1, 4 and 8 connections.

Answering and judging an eval is hundreds of short requests that each wait on a
server; their throughput is set by how many are in flight, not by this machine.
A loopback server that answers every request after a fixed delay isolates that:
with delay d, one connection cannot beat 1/d calls a second and n connections
should approach n/d until the client's own overhead shows.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

CONNECTIONS = (1, 4, 8)
CALLS = 48
DELAY_S = 0.05


class DelayedChatServer:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 that answers after a delay.

    It counts requests in flight, so a run can show the bound held.
    """

    def __init__(self, delay_s: float = DELAY_S) -> None:
        self.delay_s = delay_s
        self.requests = 0
        self.in_flight = 0
        self.peak = 0
        self._lock = threading.Lock()
        self._httpd: ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        """The endpoint, ending in /v1."""
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def __enter__(self) -> DelayedChatServer:
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                body = owner.answer()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                return

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        threading.Thread(target=self._httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    def answer(self) -> bytes:
        """Wait the delay, then a minimal chat completion."""
        with self._lock:
            self.requests += 1
            self.in_flight += 1
            self.peak = max(self.peak, self.in_flight)
        try:
            time.sleep(self.delay_s)
        finally:
            with self._lock:
                self.in_flight -= 1
        return json.dumps(
            {
                "id": "chatcmpl-bench",
                "object": "chat.completion",
                "created": 0,
                "model": "loopback",
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": "ok"},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": 8,
                    "completion_tokens": 1,
                    "total_tokens": 9,
                },
            }
        ).encode()


def measure_throughput(
    connections: Sequence[int] = CONNECTIONS,
    calls: int = CALLS,
    delay_s: float = DELAY_S,
) -> list[dict]:
    """Calls per second at each connection count, with the server's peak load."""
    import asyncio

    from memlab_evals.judging.bounded import Gate

    from memory_lab.llm_client.client import ChatClient

    rows = []
    with DelayedChatServer(delay_s) as server:
        for n in connections:
            client = ChatClient(
                server.base_url, "loopback", use_cache=False, max_connections=n
            )
            gate = Gate(n)

            async def run_all(
                c: ChatClient = client, g: Gate = gate, width: int = n
            ) -> float:
                # One untimed round first: the loop's client, its connection pool
                # and TLS context are built on first use, not per call.
                warm = [
                    [{"role": "user", "content": f"warm {i}"}] for i in range(width)
                ]
                await asyncio.gather(
                    *(g.run(lambda m=m: c.acomplete(m, max_tokens=4)) for m in warm)
                )
                server.peak = 0
                messages = [
                    [{"role": "user", "content": f"request {i}"}] for i in range(calls)
                ]
                started = time.perf_counter()
                await asyncio.gather(
                    *(g.run(lambda m=m: c.acomplete(m, max_tokens=4)) for m in messages)
                )
                return time.perf_counter() - started

            seconds = asyncio.run(run_all())
            client.close()
            rows.append(
                {
                    "connections": n,
                    "calls": calls,
                    "delay_ms": round(delay_s * 1000, 1),
                    "seconds": round(seconds, 3),
                    "calls_per_s": round(calls / seconds, 1),
                    "ceiling_calls_per_s": round(n / delay_s, 1),
                    "server_peak_in_flight": server.peak,
                    # Client overhead is CPU: a busy machine lowers the figures.
                    "load_average_1m": round(os.getloadavg()[0], 1),
                }
            )
    return rows


def markdown(rows: list[dict]) -> str:
    """The rows as a table, with what the ceiling means."""
    lines = [
        "# LLM client throughput (loopback server, fixed delay)",
        "",
        "| connections | calls | delay ms | seconds | calls/s | ceiling n/delay | "
        "server peak in flight | load average (1 min) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['connections']} | {r['calls']} | {r['delay_ms']} | {r['seconds']} "
            f"| {r['calls_per_s']} | {r['ceiling_calls_per_s']} "
            f"| {r['server_peak_in_flight']} | {r['load_average_1m']} |"
        )
    return "\n".join(lines)
