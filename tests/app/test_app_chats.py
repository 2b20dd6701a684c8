"""Chats in the app, through AppTest: memory crosses chats, the list does not lose any.

Facts are the background worker's writes, so a question in the second chat is
asked only after the ledger says the work of the first is done.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from memory_lab.chats.catalog import MAX_QUERY_CHARS
from tests.app.test_app_logic import (
    APP,
    TIMEOUT,
    _app,
    _chat,
    _texts,
    _wait_for_memory_work,
)
from tests.app.test_app_logic import (
    data as data,  # noqa: F401  (the fixture)
)


def _pick(at: AppTest) -> str:
    return next(r for r in at.radio if r.key.startswith("chat_pick_")).value


def _options(at: AppTest) -> list[str]:
    radio = next(r for r in at.radio if r.key.startswith("chat_pick_"))
    return [str(o) for o in radio.options]


def _button(at: AppTest, label: str):
    return next(b for b in at.button if b.label == label)


def _replies(at: AppTest) -> list[str]:
    return [str(m.markdown[0].value) for m in at.chat_message if m.name == "assistant"]


@pytest.mark.slow
def test_a_fact_said_in_one_chat_is_answered_in_another_with_its_source(
    data: Path,
) -> None:
    at = _chat(_app(), "I live in Oslo, in a flat near the harbour.")
    first = _pick(at)
    _wait_for_memory_work(data)
    _button(at, "New chat").click().run()
    second = _pick(at)
    assert second != first and len(at.chat_message) == 0
    assert at.query_params["chat"] == second

    at = _chat(at, "Which city do I live in?")
    [reply] = _replies(at)
    assert "Oslo" in reply
    assert any(
        "Recalled from your other chats: 'I live in Oslo" in c
        for c in _texts(at.caption)
    ), _texts(at.caption)
    assert _options(at)[0] == "Which city do I live in?"

    # Switching back shows the first chat's turns, untouched.
    radio = next(r for r in at.radio if r.key.startswith("chat_pick_"))
    radio.set_value(first).run()
    assert _pick(at) == first
    assert "I live in Oslo" in str(at.chat_message[0].markdown[0].value)


@pytest.mark.slow
def test_an_unknown_chat_id_in_the_url_is_named_and_nothing_is_created(
    data: Path,
) -> None:
    held = _options(_chat(_app(), "Hello there"))
    # A link opens a new session: the id in its URL is read then.
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params["chat"] = "chat-does-not-exist"
    at.run()
    assert any("No chat with id 'chat-does-not-exist'" in e for e in _texts(at.error))
    assert _options(at) == held and at.query_params["chat"] == _pick(at) == "main"


@pytest.mark.slow
def test_a_link_to_a_chat_opens_it(data: Path) -> None:
    at = _chat(_app(), "First chat here")
    first = _pick(at)
    _button(at, "New chat").click().run()
    _chat(at, "Second chat here")
    linked = AppTest.from_file(APP, default_timeout=TIMEOUT)
    linked.query_params["chat"] = first
    linked.run()
    assert _pick(linked) == first and not linked.error
    assert "First chat here" in str(linked.chat_message[0].markdown[0].value)


@pytest.mark.slow
def test_renaming_searching_trashing_and_restoring(data: Path) -> None:
    at = _chat(_app(), "The Kestrel invoice is overdue")
    thread = _pick(at)

    at.text_input(key=f"rename_demo_{thread}").set_value("   ").run()
    _button(at, "Rename").click().run()
    assert any("Chat title: enter a name" in e for e in _texts(at.error))
    at.text_input(key=f"rename_demo_{thread}").set_value("Invoices").run()
    _button(at, "Rename").click().run()
    assert _options(at) == ["Invoices"]
    assert any("Renamed to 'Invoices'" in s for s in _texts(at.success))

    at.text_input(key="chat_search").set_value("k" * 10_000).run()
    assert any(f"at most {MAX_QUERY_CHARS} characters" in e for e in _texts(at.error))
    at.text_input(key="chat_search").set_value("kestrel overdue").run()
    hits = [b for b in at.button if b.key and b.key.startswith("hit_")]
    assert hits and all("Invoices" in b.label for b in hits)

    _button(at, "Move to trash").click().run()
    assert any("Moved 'Invoices' to the trash" in i for i in _texts(at.info))
    assert "Invoices" not in _options(at)
    at.text_input(key="chat_search").set_value("kestrel").run()
    assert not [b for b in at.button if b.key and b.key.startswith("hit_")]

    _button(at, "Restore").click().run()
    assert _pick(at) == thread
    assert "Kestrel invoice" in str(at.chat_message[0].markdown[0].value)


@pytest.mark.slow
def test_the_same_message_is_answered_with_and_without_memory(data: Path) -> None:
    at = _chat(_app(), "My favourite tea is genmaicha.")
    _wait_for_memory_work(data)
    at.toggle(key="compare_without_memory").set_value(True).run()
    at = _chat(at, "What is my favourite tea?")
    assert "genmaicha" in _replies(at)[-1]
    assert "Without memory, the same brain answers:" in _texts(at.caption)
    shown = [str(m.value) for m in at.chat_message[-1].markdown]
    assert any("Memory holds nothing" in s for s in shown), shown
    # The memoryless answer is shown, not stored: two questions, two replies.
    at.run()
    assert [m.name for m in at.chat_message] == ["user", "assistant"] * 2


@pytest.mark.slow
@pytest.mark.parametrize("title", ["", "x" * 81])
def test_bad_titles_keep_the_old_title(data: Path, title: str) -> None:
    at = _chat(_app(), "Plan the garden")
    thread = _pick(at)
    at.text_input(key=f"rename_demo_{thread}").set_value(title).run()
    _button(at, "Rename").click().run()
    assert any("Chat title" in e for e in _texts(at.error))
    assert _options(at) == ["Plan the garden"] and _pick(at) == thread
