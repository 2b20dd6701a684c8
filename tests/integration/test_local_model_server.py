"""The real llama.cpp server on the packaged SmolLM2 model, through LocalModelServer.

This is the one test that runs the LLM stack against an actual model: the chat
client's wire format, llama.cpp's grammar-constrained JSON, the structured-output
probe, and a clean start and stop of the server process. SmolLM2-135M's answers are
not checked for truth, only for shape. One server serves the module; the xdist group
keeps the module on one worker so it is started once.
"""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

from memory_lab.llm_client.client import ChatClient
from memory_lab.llm_client.local_server import (
    MODEL_FILE,
    LocalModelServer,
    LocalServerError,
    default_model_path,
)

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("llama_server")]

PERSON = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "age": {"type": "integer"},
        "likes_tea": {"type": "boolean"},
    },
    "required": ["name", "age", "likes_tea"],
}


@pytest.fixture(scope="module")
def server(local_model: LocalModelServer) -> LocalModelServer:
    return local_model


@pytest.fixture
def client(server: LocalModelServer) -> ChatClient:
    return ChatClient(
        server.base_url, server.model or "", use_cache=False, timeout_s=120
    )


def test_the_model_ships_with_the_package():
    path = default_model_path()
    assert path.name == MODEL_FILE
    assert path.stat().st_size > 50_000_000


def test_the_server_reports_its_model(server):
    assert server.running
    assert server.base_url == f"http://127.0.0.1:{server.port}/v1"
    assert server.model == "SmolLM2-135M-Instruct.Q4_1"
    assert server.start_seconds is not None and server.start_seconds < 120


def test_a_chat_completion(client):
    answer = client.complete(
        [{"role": "user", "content": "What is the capital of France?"}],
        max_tokens=24,
    )
    assert answer.text.strip()
    assert answer.prompt_tokens > 5
    assert 0 < answer.completion_tokens <= 24
    assert client.usage.snapshot()["calls"] == 1


def test_json_object_with_a_schema_is_valid_json_of_that_shape(client):
    answer = client.complete(
        [
            {"role": "system", "content": "Answer with JSON only."},
            {"role": "user", "content": "Anna is 31 and loves tea. Describe her."},
        ],
        max_tokens=80,
        response_format={"type": "json_object", "schema": PERSON},
    )
    value = json.loads(answer.text)
    assert set(value) == {"name", "age", "likes_tea"}
    assert isinstance(value["name"], str)
    assert isinstance(value["age"], int) and not isinstance(value["age"], bool)
    assert isinstance(value["likes_tea"], bool)


def test_a_forced_tool_call_comes_back_parsed(client):
    tool = {
        "type": "function",
        "function": {"name": "describe_person", "parameters": PERSON},
    }
    answer = client.complete(
        [{"role": "user", "content": "Anna is 31 and loves tea."}],
        max_tokens=80,
        tools=[tool],
        tool_choice={"type": "function", "function": {"name": "describe_person"}},
    )
    (call,) = answer.tool_calls
    assert call.name == "describe_person"
    assert set(call.arguments) == {"name", "age", "likes_tea"}


def test_the_probe_finds_llama_cpp_json_object_schema(client):
    assert client.detect_structured_output() == "json_object_schema"


def test_stop_leaves_no_process_and_frees_the_port():
    server = LocalModelServer(port=0, n_ctx=512).start()
    pid, port = server.pid, server.port
    assert pid is not None
    server.stop()
    server.stop()  # idempotent
    assert not server.running
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)  # nothing left in the server's process group
    with socket.socket() as sock, pytest.raises(ConnectionRefusedError):
        sock.connect(("127.0.0.1", port))


def test_a_server_that_dies_reports_its_log(tmp_path: Path):
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"this is not a GGUF file" * 100)
    server = LocalModelServer(broken, startup_timeout_s=60)
    with pytest.raises(LocalServerError, match="exited with status") as failure:
        server.start()
    assert "Failed to load model" in str(failure.value)  # quoted from the log
    assert not server.running
