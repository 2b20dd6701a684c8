"""Chats in a real browser: memory crosses chats, and the list keeps every chat.

A stakeholder's path: say a fact in one chat, open a new chat and ask for it
(the answer names the chat it came from), switch back, search, delete a chat
and restore it, and see the same question answered with and without memory.
Each step is saved as `chats-N-*.png`, copied to docs/ for the README by
`make screenshots`.
"""

from __future__ import annotations

import re

import pytest

from tests.app.test_browser import (
    ARTIFACTS,
    MEMORY_MS,
    STEP_MS,
    _send,
    _settle,
    chromium,
    open_app,
    publish_to_docs,
)
from tests.app.test_browser import server as server  # noqa: F401  (the fixture)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

FACT = "I live in Oslo, in a flat near the harbour."
QUESTION = "Which city do I live in?"


def _shot(page, name: str) -> None:
    page.mouse.move(1, 1)
    page.wait_for_timeout(200)
    page.screenshot(path=str(ARTIFACTS / name))


def _chat_list(page):
    return page.locator('[data-testid="stRadio"]').filter(has_text=FACT[:12]).first


def _messages(page):
    return page.locator('[data-testid="stChatMessage"]')


def _expander(page, title: re.Pattern | str) -> None:
    page.locator('[data-testid="stExpander"] summary').filter(has_text=title).click()
    page.wait_for_timeout(200)


def test_two_chats_share_memory_and_the_list_loses_nothing(server: str) -> None:
    from playwright.sync_api import expect

    with chromium() as browser:
        page = open_app(browser, server, height=1100)

        # 1. A fact in the first chat; its memory write lands in the background.
        _send(page, FACT, 2)
        page.get_by_role("button", name="Undo").first.wait_for(timeout=MEMORY_MS)
        _settle(page)
        _shot(page, "chats-1-first-chat.png")

        # 2. A new chat asks for it: answered, and the reply names its chat.
        page.get_by_role("button", name="New chat").click()
        expect(_messages(page)).to_have_count(0, timeout=STEP_MS)
        _settle(page)
        _send(page, QUESTION, 2)
        reply = _messages(page).nth(1)
        expect(reply).to_contain_text("Oslo", timeout=STEP_MS)
        expect(reply).to_contain_text("Recalled from your other chats: 'I live in Oslo")
        _shot(page, "chats-2-recalled-in-a-new-chat.png")

        # 3. Back to the first chat: its turns as they were.
        _chat_list(page).get_by_text(FACT, exact=True).click()
        expect(_messages(page).first).to_contain_text(FACT, timeout=STEP_MS)
        _settle(page)
        _shot(page, "chats-3-switched-back.png")

        # 4. Search across chats.
        _expander(page, "Search chats")
        box = page.get_by_label("Search all chats")
        box.fill("k" * 10_000)
        box.press("Enter")
        expect(
            page.get_by_text(re.compile(r"Search: at most \d+ characters"))
        ).to_be_visible(timeout=STEP_MS)
        box.fill("harbour")
        box.press("Enter")
        hits = page.get_by_role("button", name=re.compile(r"· user: .*harbour"))
        expect(hits).to_have_count(1, timeout=STEP_MS)
        _settle(page)
        _shot(page, "chats-4-search.png")

        # 5. Delete the second chat to the trash, then restore it.
        _chat_list(page).get_by_text(QUESTION, exact=True).click()
        expect(_messages(page).first).to_contain_text(QUESTION, timeout=STEP_MS)
        _settle(page)
        _expander(page, "Rename or delete this chat")
        page.get_by_role("button", name="Move to trash").click()
        expect(_chat_list(page).get_by_text(QUESTION, exact=True)).to_have_count(
            0, timeout=STEP_MS
        )
        _settle(page)
        _expander(page, "Trash (1)")
        _shot(page, "chats-5-in-the-trash.png")
        page.get_by_role("button", name="Restore").click()
        expect(_chat_list(page).get_by_text(QUESTION, exact=True)).to_have_count(
            1, timeout=STEP_MS
        )
        expect(_messages(page).nth(1)).to_contain_text("Oslo", timeout=STEP_MS)
        _settle(page)
        _shot(page, "chats-6-restored.png")

        # 6. The same question with and without memory.
        page.get_by_text("Also answer without memory").click()
        _settle(page)
        _send(page, QUESTION, 4)
        last = _messages(page).nth(3)
        expect(last).to_contain_text(
            "Without memory, the same brain answers:", timeout=STEP_MS
        )
        text = last.inner_text()
        assert "Oslo" in text.split("Without memory")[0], text
        assert "Memory holds nothing" in text.split("Without memory")[1], text
        _shot(page, "chats-7-with-and-without-memory.png")
    publish_to_docs({shot: shot.name for shot in sorted(ARTIFACTS.glob("chats-*.png"))})
