"""`memory-lab app --demo` in a real browser: two visitors, two memories.

Two browser contexts are two visitors (separate cookies, separate Streamlit
sessions). A fact one of them says never shows in the other's memory, each gets
a folder of its own, and a visitor's folder is deleted once their tab is closed.
"""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.test_browser import (
    ARTIFACTS,
    CHROMIUM,
    MEMORY_MS,
    _free_port,
    _send,
    _settle,
    _tab,
    chromium,
    open_app,
    serving,
)

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]

MEMORY_LAB = Path(sys.executable).with_name("memory-lab")


@pytest.fixture
def demo_server(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """`memory-lab app --demo` on a free loopback port; its sessions' root folder."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium")
    root = tmp_path / "demo"
    port = _free_port()
    env = {
        **os.environ,
        "MEMORY_LAB_DEMO_ROOT": str(root),
        "MEMORY_LAB_DATA": str(tmp_path / "shared-data"),
        "MEMORY_LAB_RUNS": str(tmp_path / "runs"),
    }
    cmd = [str(MEMORY_LAB), "app", "--demo", "--port", str(port)]
    with serving(cmd, env, port, tmp_path / "server.log") as url:
        yield url, root


def _folder(page) -> Path:
    caption = page.get_by_text(re.compile(r"· data: ")).inner_text()
    return Path(caption.split("· data: ", 1)[1].strip())


def _active(page) -> int:
    line = page.get_by_text(re.compile(r"^active: \d")).inner_text()
    return int(re.search(r"active: (\d+)", line).group(1))


def test_two_visitors_never_see_each_others_memory(demo_server) -> None:
    from playwright.sync_api import expect

    url, root = demo_server
    with chromium() as browser:
        first, second = open_app(browser, url), open_app(browser, url)
        assert first.get_by_text("Demo mode: this memory is yours alone").count()
        mine, theirs = _folder(first), _folder(second)
        assert mine != theirs
        assert mine.parent == theirs.parent == root and mine.is_dir()

        _send(first, "My favourite colour is teal.", 2)
        # The fact lands from the background worker; the reply's status line
        # with its Undo button is the app's own signal that it did.
        first.get_by_role("button", name="Undo").first.wait_for(timeout=MEMORY_MS)
        _settle(first)
        _tab(first, "Facts")
        # The page refreshes itself once the work owed when it read memory is done.
        expect(first.get_by_text(re.compile(r"^active: [1-9]"))).to_be_visible(
            timeout=MEMORY_MS
        )
        assert first.get_by_text(re.compile("teal", re.I)).count() >= 1
        first.screenshot(path=str(ARTIFACTS / "demo_01_first_visitor.png"))

        # A reload would be a new session with a new memory; ask instead.
        _send(second, "What is my favourite colour?", 2)
        reply = second.locator('[data-testid="stChatMessage"]').nth(1).inner_text()
        assert "teal" not in reply.lower(), reply
        _tab(second, "Facts")
        assert _active(second) == 0
        assert second.get_by_text(re.compile("teal", re.I)).count() == 0
        assert _folder(second) == theirs
        second.screenshot(path=str(ARTIFACTS / "demo_02_second_visitor.png"))

        first.context.close()
        # Streamlit releases the session's memory once the browser is gone.
        deadline = time.monotonic() + 90
        while mine.exists() and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not mine.exists(), "the closed session's folder was not deleted"
        assert theirs.is_dir()
