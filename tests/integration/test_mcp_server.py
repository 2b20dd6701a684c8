"""`memory-lab mcp` as a client sees it: real server processes, the SDK's own client.

Each server is `python -m memlab_cli.main mcp ...` in its own process, spoken to
over stdio with `stdio_client` + `ClientSession`, or over streamable HTTP with
the SDK's HTTP client; only the refused HTTP requests are sent with httpx.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import mcp_types
import psutil
import pytest
from mcp import ClientSession, StdioServerParameters, stdio_client
from mcp.client.streamable_http import streamable_http_client

from tests.helpers import memory_lab_cli

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]
TOOLS = {
    "memory_add",
    "memory_recall",
    "memory_search",
    "memory_save",
    "memory_update",
    "memory_forget",
    "memory_confirm",
    "memory_list",
    "memory_link",
    "memory_unlink",
    "memory_links",
}
# Words no test turn shares, so a search for one finds one turn.
PRODUCE = (
    "marzipan kumquat persimmon rutabaga jicama kohlrabi salsify tomatillo "
    "durian rambutan mangosteen cherimoya"
).split()
CALL_TIMEOUT_S = 120


def _server_args(data: Path, tenant: str, *extra: str) -> list[str]:
    return [
        "-m",
        "memlab_cli.main",
        "mcp",
        "--data",
        str(data),
        "--tenant",
        tenant,
        *extra,
    ]


@asynccontextmanager
async def stdio_session(
    data: Path, tenant: str, errlog: Path
) -> AsyncIterator[ClientSession]:
    """A session with a new server process on `data`; it stops when the block ends."""
    params = StdioServerParameters(
        command=sys.executable, args=_server_args(data, tenant), cwd=REPO
    )
    with errlog.open("a") as err:
        async with stdio_client(params, errlog=err) as (read, write):
            async with ClientSession(
                read, write, read_timeout_seconds=CALL_TIMEOUT_S
            ) as session:
                await session.initialize()
                yield session


async def call(session: ClientSession, name: str, **arguments: Any) -> Any:
    """A tool's result as data: its structured result, else its JSON text."""
    result = await session.call_tool(name, arguments)
    assert not result.is_error, (name, result.content)
    if result.structured_content is not None:
        return result.structured_content.get("result", result.structured_content)
    return json.loads(result.content[0].text)


async def refused(session: ClientSession, name: str, **arguments: Any) -> str:
    """The one line a refused call is answered with."""
    result = await session.call_tool(name, arguments)
    assert result.is_error, (name, arguments, result.content)
    text = result.content[0].text
    assert "\n" not in text, text
    return text


async def recall(session: ClientSession, query: str) -> str:
    return await call(session, "memory_recall", query=query, budget=2000)


def _turn(word: str) -> dict:
    return {"role": "user", "content": f"I keep a {word} in my desk drawer."}


def test_tools_answer_and_refusals_change_nothing(tmp_path: Path) -> None:
    async def scenario() -> None:
        async with stdio_session(tmp_path / "data", "ada", tmp_path / "err") as s:
            tools = (await s.list_tools()).tools
            assert {t.name for t in tools} == TOOLS
            for t in tools:
                assert t.input_schema["type"] == "object", t.name
                assert t.description, t.name
                assert "tenant" not in t.input_schema.get("properties", {}), t.name
            schema = {t.name: t.input_schema for t in tools}
            assert schema["memory_add"]["required"] == ["messages"]
            assert schema["memory_forget"]["required"] == ["fact_id"]

            ids = await call(
                s,
                "memory_add",
                messages=[
                    {"role": "user", "content": "I moved to Lyon last spring."},
                    {
                        "role": "assistant",
                        "content": "Noted, Lyon it is.",
                        "timestamp": "2026-05-01T10:00:00+02:00",
                    },
                ],
            )
            assert len(ids) == 2 and all(isinstance(i, str) for i in ids)
            saved = await call(
                s,
                "memory_save",
                category="preference",
                key="reply_language",
                value="Swedish",
            )
            fact_id = saved["refs"][0]
            text = await recall(s, "Where do I live, and in which language to reply?")
            assert "Swedish" in text and "Lyon" in text

            hits = await call(s, "memory_search", query="Lyon", k=5)
            turn = next(h for h in hits if h["tier"] == "turns" and "Lyon" in h["text"])
            assert turn["source"] and turn["source"][0] in ids
            assert turn["date"] and {"tier", "text", "source", "date"} <= set(turn)

            before = await call(s, "memory_list")
            bad = _turn("zanzibarquux")
            problems = {
                "unknown tool": await refused(s, "memory_teleport", query="x"),
                "missing": await refused(s, "memory_recall"),
                "wrong type": await refused(s, "memory_add", messages="zanzibarquux"),
                "wrong item": await refused(
                    s, "memory_add", messages=[bad, {"role": "user", "content": 7}]
                ),
                "empty": await refused(
                    s, "memory_add", messages=[bad, {"role": "user", "content": ""}]
                ),
                "blank": await refused(
                    s, "memory_add", messages=[bad, {"role": "user", "content": "  "}]
                ),
                "too big": await refused(
                    s,
                    "memory_add",
                    messages=[bad, {"role": "user", "content": "zanzibarquux " * 8000}],
                ),
                "no messages": await refused(s, "memory_add", messages=[]),
                "a tenant": await refused(s, "memory_list", tenant="someone-else"),
                "unknown fact": await refused(s, "memory_forget", fact_id="f_nope"),
                "unknown fact to confirm": await refused(
                    s, "memory_confirm", fact_id="f_nope"
                ),
            }
            assert "memory_teleport" in problems["unknown tool"]
            assert "query" in problems["missing"]
            assert "messages" in problems["wrong type"]
            assert "messages[1].content" in problems["wrong item"]
            assert "messages[1].content" in problems["empty"]
            assert "messages[1].content" in problems["blank"]
            assert "messages[1].content" in problems["too big"]
            assert "65536" in problems["too big"]
            assert "messages" in problems["no messages"]
            assert "tenant" in problems["a tenant"]
            assert "f_nope" in problems["unknown fact"]
            assert "f_nope" in problems["unknown fact to confirm"]
            # Still serving, and nothing of the refused calls was kept. The worker
            # may meanwhile have read facts from the accepted turns, so the list
            # can grow; it never loses a fact nor gains one from a refused call.
            after = await call(s, "memory_list")
            assert {f["id"] for f in before} <= {f["id"] for f in after}
            assert not any("zanzibarquux" in f["value"] for f in after)
            hits = await call(s, "memory_search", query="zanzibarquux", k=20)
            assert not any("zanzibarquux" in h["text"] for h in hits)

            await call(s, "memory_forget", fact_id=fact_id)
            assert "Swedish" not in await recall(
                s, "Which language do I want replies in?"
            )
            assert all(f["id"] != fact_id for f in await call(s, "memory_list"))

    anyio.run(scenario)
    assert "memory closed" in (tmp_path / "err").read_text()


def test_restart_keeps_facts_and_a_second_tenant_sees_nothing(tmp_path: Path) -> None:
    data, err = tmp_path / "data", tmp_path / "err"

    async def scenario() -> None:
        async with stdio_session(data, "ada", err) as s:
            await call(s, "memory_add", messages=[_turn("kumquat")])
            await call(
                s, "memory_save", category="preference", key="drink", value="espresso"
            )
        async with stdio_session(data, "ada", err) as s:
            facts = await call(s, "memory_list")
            assert [(f["key"], f["value"]) for f in facts] == [("drink", "espresso")]
            text = await recall(s, "What is in my desk drawer, and what do I drink?")
            assert "kumquat" in text and "espresso" in text
        async with stdio_session(data, "bo", err) as s:
            assert await call(s, "memory_list") == []
            assert await call(s, "memory_search", query="kumquat espresso", k=20) == []
            text = await recall(s, "What is in my desk drawer, and what do I drink?")
            assert "kumquat" not in text and "espresso" not in text

    anyio.run(scenario)


def test_every_acknowledged_turn_survives_sigkill(tmp_path: Path) -> None:
    data, err = tmp_path / "data", tmp_path / "err"
    acked: dict[str, str] = {}

    async def add_then_kill() -> None:
        async with stdio_session(data, "ada", err) as s:
            server = _server_process(data)
            for word in PRODUCE:
                (turn_id,) = await call(s, "memory_add", messages=[_turn(word)])
                acked[word] = turn_id
            server.kill()  # at once after the last acknowledgement
            server.wait(timeout=10)

    async def check() -> None:
        async with stdio_session(data, "ada", err) as s:
            for word, turn_id in acked.items():
                hits = await call(s, "memory_search", query=word, k=20)
                held = {i for h in hits for i in h["source"]}
                assert turn_id in held, (word, hits)

    anyio.run(add_then_kill)
    assert len(acked) == len(PRODUCE)
    assert "memory closed" not in err.read_text()  # killed, not closed
    anyio.run(check)


def _server_process(data: Path) -> psutil.Process:
    """The server process this test started on `data`."""
    found = [
        p
        for p in psutil.Process().children(recursive=True)
        if str(data) in " ".join(p.cmdline())
    ]
    assert len(found) == 1, found
    return found[0]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _wait_for_token(log: Path, server: subprocess.Popen, timeout: float = 120) -> str:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for line in log.read_text().splitlines():
            if "bearer token" in line:
                return line.rsplit(" ", 1)[-1]
        assert server.poll() is None, log.read_text()
        time.sleep(0.2)
    raise AssertionError(f"no token printed: {log.read_text()}")


def _wait_for_port(url: str, server: subprocess.Popen, timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            httpx.get(url, timeout=2)
            return
        except httpx.TransportError:
            assert server.poll() is None
            time.sleep(0.2)
    raise AssertionError(f"{url} never answered")


def test_http_needs_the_bearer_token(tmp_path: Path) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}/mcp"
    log = tmp_path / "err"
    env = {k: v for k, v in os.environ.items() if not k.startswith("MEMORY_LAB_")}
    with log.open("w") as err:
        server = subprocess.Popen(
            [
                sys.executable,
                *_server_args(tmp_path / "data", "ada", "--http", "--port", str(port)),
            ],
            cwd=REPO,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
    try:
        token = _wait_for_token(log, server)
        _wait_for_port(url, server)
        request = mcp_types.JSONRPCRequest(
            jsonrpc="2.0",
            id=1,
            method="tools/call",
            params={"name": "memory_add", "arguments": {"messages": [_turn("durian")]}},
        )
        body = request.model_dump_json(by_alias=True, exclude_none=True)
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        for auth in (
            None,
            "Bearer not-the-token",
            f"Basic {token}",
            f"Bearer {token}x",
        ):
            sent = headers | ({"Authorization": auth} if auth else {})
            answer = httpx.post(url, content=body, headers=sent, timeout=10)
            assert answer.status_code == 401, (auth, answer.text)

        async def authorised() -> None:
            client = httpx2.AsyncClient(
                headers={"Authorization": f"Bearer {token}"}, timeout=60
            )
            async with (
                client,
                streamable_http_client(url, http_client=client) as (read, write),
                ClientSession(read, write, read_timeout_seconds=CALL_TIMEOUT_S) as s,
            ):
                await s.initialize()
                assert {t.name for t in (await s.list_tools()).tools} == TOOLS
                hits = await call(s, "memory_search", query="durian", k=20)
                assert not any("durian" in h["text"] for h in hits)
                await call(s, "memory_add", messages=[_turn("rambutan")])
                assert "rambutan" in await recall(s, "What is in my desk drawer?")

        anyio.run(authorised)
        server.send_signal(signal.SIGTERM)
        assert server.wait(timeout=60) == 0
        stderr = log.read_text()
        assert "memory closed" in stderr and "warning" not in stderr.lower()
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()


@pytest.mark.parametrize("stop", ["eof", "sigterm"])
def test_stdio_keeps_stdout_for_the_protocol_and_closes(
    tmp_path: Path, stop: str
) -> None:
    """Nothing but protocol on stdout; the memory closes at EOF and on SIGTERM."""
    log = tmp_path / "err"
    with log.open("w") as err:
        server = subprocess.Popen(
            [sys.executable, *_server_args(tmp_path / "data", "ada")],
            cwd=REPO,
            stdin=subprocess.DEVNULL if stop == "eof" else subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=err,
        )
    try:
        if stop == "sigterm":
            deadline = time.monotonic() + 120
            while "serving" not in log.read_text():
                assert time.monotonic() < deadline and server.poll() is None
                time.sleep(0.2)
            server.send_signal(signal.SIGTERM)
        out, _ = server.communicate(timeout=120)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()
    assert server.returncode == 0, log.read_text()
    assert out == b""
    assert "memory closed" in log.read_text()


def test_a_file_as_data_exits_2_in_one_line(tmp_path: Path) -> None:
    afile = tmp_path / "not-a-folder"
    afile.write_text("x")
    done = memory_lab_cli("mcp", "--data", str(afile), "--tenant", "ada")
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "is a file" in lines[0], done.stderr
