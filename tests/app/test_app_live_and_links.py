"""The app's demo live source and the Facts tab's links, through AppTest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_ui.live_demo import FILE, NAME
from tests.app.test_app_logic import _after_memory_work

APP = str(Path(__file__).resolve().parents[2] / "app.py")


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("MEMORY_LAB_DATA", str(folder))
    monkeypatch.setenv("MEMORY_LAB_RUNS", str(tmp_path / "runs"))
    return folder


def _app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.text_input(key="tenant").set_value("alice").run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _chat(at: AppTest, text: str, data: Path) -> AppTest:
    """Send a message and read the page once the worker has stored what it said.

    "Remember that ..." is written by the background worker, so a test that reads
    the facts waits for the job ledger to empty, as the page's refresh does.
    """
    at.chat_input(key="chat_box").set_value(text).run()
    assert not at.exception, [e.value for e in at.exception]
    at = _after_memory_work(at, data)
    assert not at.exception, [e.value for e in at.exception]
    return at


@pytest.mark.slow
def test_the_demo_source_leads_the_context_and_replaces_memory(data: Path) -> None:
    at = _chat(_app(), "Remember that my open items are invoice INV-1.", data)
    at.text_input(key="context_query").set_value("what are my open items?").run()
    assert "INV-1" in _block(at, "facts")
    assert not any(e.label.startswith("live: ") for e in at.expander)
    (data / FILE).write_text(
        json.dumps({"alice": {"open_items": "invoice INV-7, due 10 March"}}),
        encoding="utf-8",
    )
    at.run()
    live = [e for e in at.expander if e.label.startswith("live: ")]
    assert len(live) == 1, [e.label for e in at.expander]
    shown = "\n".join(str(t.value) for t in live[0].text)
    assert "invoice INV-7, due 10 March" in shown and f"live from {NAME}" in shown
    # The remembered value left the facts (the turn that said it may still
    # show in the window).
    assert "INV-1" not in _block(at, "facts")


def _block(at: AppTest, kind: str) -> str:
    return "\n".join(
        str(t.value)
        for e in at.expander
        if e.label.startswith(f"{kind}: ")
        for t in e.text
    )


@pytest.mark.slow
def test_two_facts_are_linked_in_the_facts_tab(data: Path) -> None:
    at = _chat(_app(), "Remember that my favourite drink is tea.", data)
    at = _chat(at, "Remember that my home city is Oslo.", data)
    source, target = at.selectbox(key="link_source").options[:2]
    at.selectbox(key="link_source").set_value(source)
    at.selectbox(key="link_target").set_value(
        at.selectbox(key="link_target").options[1]
    )
    at.selectbox(key="link_type").set_value("relates_to")
    at.button(key="link_go").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert any(str(s.value).startswith("Linked") for s in at.success)
    (table,) = [d.value for d in at.dataframe if "link" in d.value.columns]
    assert list(table["link"]) == ["relates to"]
    assert {"drink" in s or "home city" in s for s in table["from"]} == {True}
