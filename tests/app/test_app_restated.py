"""The chat shows which replies restate memory (and so add nothing to it)."""

from __future__ import annotations

from pathlib import Path

from tests.app.test_app_logic import _app, _chat, _texts
from tests.app.test_app_logic import (
    data as data,  # noqa: F401  (the fixture)
)


def test_an_offline_reply_is_captioned_as_restating_memory(data: Path) -> None:
    at = _chat(_app(), "I live in Oslo, in a flat near the harbour.")
    user, assistant = at.chat_message
    assert "Restates memory" in _texts(assistant.caption)
    assert not any("restates memory" in c.lower() for c in _texts(user.caption))
