"""The window panel's session line: what state the chat's session is in, and why."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_ui.tiers import session_line

APP = str(Path(__file__).resolve().parents[2] / "app.py")


def _snapshot(since: str, now: str = "2025-03-03T15:00:00+00:00") -> dict:
    return {
        "now": now,
        "session": {
            "session": "s1",
            "state": "idle",
            "since": since,
            "reason": "no turn for 30 min",
        },
    }


def test_the_line_names_the_session_its_state_since_when_and_why():
    line = session_line(_snapshot("2025-03-03T14:05:00+00:00"))
    assert line == "Session s1: idle since 14:05 (no turn for 30 min)"


def test_a_state_from_another_day_shows_its_date():
    line = session_line(_snapshot("2025-03-01T14:05:00+00:00"))
    assert "since 2025-03-01 14:05" in line


def test_no_session_no_line():
    assert session_line({"now": "2025-03-03T15:00:00+00:00", "session": None}) is None


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("MEMORY_LAB_DATA", str(folder))
    monkeypatch.setenv("MEMORY_LAB_RUNS", str(tmp_path / "runs"))
    return folder


def _session_lines(at: AppTest) -> list[str]:
    return [str(c.value) for c in at.caption if str(c.value).startswith("Session ")]


def test_the_page_shows_the_session_open_then_idle_after_an_hour(data: Path):
    at = AppTest.from_file(APP, default_timeout=120).run()
    assert not at.exception, [e.value for e in at.exception]
    assert _session_lines(at) == []
    at.chat_input(key="chat_box").set_value("My name is Lena.").run()
    (line,) = _session_lines(at)
    assert ": open since " in line and "(first turn of the session)" in line
    at.button(key="adv_1 hour").click().run()
    (line,) = _session_lines(at)
    assert ": idle since " in line and "(no turn for 1 h)" in line
    at.button(key="close_session").click().run()
    (line,) = _session_lines(at)
    assert ": closed since " in line and "(closed on request)" in line
