"""Fixtures for integration tests: real servers on the loopback interface."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.integration.openai_server import FakeOpenAIServer


@pytest.fixture
def openai_server() -> Iterator[FakeOpenAIServer]:
    """A fresh scriptable OpenAI-compatible server, stopped after the test."""
    with FakeOpenAIServer() as server:
        yield server
