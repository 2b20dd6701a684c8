"""Fixtures for integration tests: real servers on the loopback interface."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from memory_lab.llm_client.local_server import LocalModelServer
from tests.integration.openai_server import FakeOpenAIServer


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAIServer]:
    """A fresh scriptable OpenAI-compatible server, stopped after the test."""
    with FakeOpenAIServer() as server:
        yield server


@pytest.fixture(scope="module")
def local_model() -> Iterator[LocalModelServer]:
    """The packaged SmolLM2 behind llama.cpp's server, started once per module."""
    with LocalModelServer(n_ctx=4096) as running:
        yield running
