"""The app in a real browser: a real Streamlit server driven by Debian's chromium.

Checks what a stakeholder would: a message goes in, the facts and window panels
update, advancing the clock a day makes trigger C compress the window into an
episode. Screenshots are saved under tests/app/artifacts/; `make screenshots`
also copies the chat-and-facts view to docs/app.png for the README.
"""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from memory_lab.stores.chroma_telemetry import quiet_env
from tests.helpers import start_app_mid_morning

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# The command under test; a module constant so a local run can point it elsewhere.
SERVER_CMD = [sys.executable, "-m", "streamlit", "run", "app.py"]
# Every wait returns as soon as its signal shows, so the bound costs nothing when
# the page is quick. A demo visitor's first message opens a fresh engine, which
# loads its models before replying: at a load of 14 on 2 cores that took over 30 s.
STEP_MS = 60_000
# A memory write lands from the background worker; a fresh engine's first job
# loads its models, which on a loaded machine takes far longer than a page step.
MEMORY_MS = 4 * STEP_MS

pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("browser")]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_healthy(url: str, proc: subprocess.Popen, deadline_s: float) -> None:
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        if proc.poll() is not None:
            raise AssertionError(f"streamlit exited with {proc.returncode}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=1) as r:
                if r.read().strip() == b"ok":
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"streamlit did not become healthy within {deadline_s} s")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A Streamlit server on a free loopback port over a fresh data folder."""
    if not CHROMIUM.exists():
        pytest.skip(
            f"{CHROMIUM} is missing: install Debian's chromium "
            "(apt-get install -y chromium) to run the browser test"
        )
    start_app_mid_morning(tmp_path / "data")
    port = _free_port()
    env = {
        **quiet_env(),
        "MEMORY_LAB_DATA": str(tmp_path / "data"),
        "MEMORY_LAB_RUNS": str(tmp_path / "runs"),
    }
    cmd = [
        *SERVER_CMD,
        "--server.port", str(port),
        "--server.address", "127.0.0.1",
        "--server.headless", "true",
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    with serving(cmd, env, port, tmp_path / "server.log") as url:
        yield url


@contextmanager
def serving(
    cmd: list[str], env: dict[str, str], port: int, log_path: Path
) -> Iterator[str]:
    """Run an app server command until the block ends; its URL once healthy."""
    with log_path.open("w") as log:
        proc = subprocess.Popen(
            cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
        url = f"http://127.0.0.1:{port}"
        try:
            _wait_healthy(url, proc, 40)
            yield url
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()


def _send(page, text: str, expect_messages: int) -> None:
    box = page.locator('[data-testid="stChatInput"] textarea')
    box.fill(text)
    box.press("Enter")
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=\"stChatMessage\"]').length >= n",
        arg=expect_messages,
        timeout=STEP_MS,
    )
    _settle(page)


def _settle(page) -> None:
    """Wait until the script run finished (the status widget's running icon is gone)."""
    page.wait_for_timeout(300)
    page.wait_for_selector(
        '[data-testid="stStatusWidget"]', state="detached", timeout=STEP_MS
    )


def _tab(page, name: str) -> None:
    page.get_by_role("tab", name=name).click()
    # Park the pointer so no tooltip covers the screenshots.
    page.mouse.move(1, 1)
    page.wait_for_timeout(300)


def _metric(page, label: str) -> int:
    metric = page.locator('[data-testid="stMetric"]').filter(has_text=label).first
    value = metric.locator('[data-testid="stMetricValue"]').inner_text()
    return int(value.strip())


@contextmanager
def chromium() -> Iterator:
    """Debian's Chromium under Playwright, closed when the block ends."""
    from playwright.sync_api import sync_playwright

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def open_app(browser, url: str, *, height: int = 1000):
    """A new visitor (own cookies, own session) on the app, its first run done."""
    page = browser.new_context(viewport={"width": 1600, "height": height}).new_page()
    page.goto(url)
    # The first run loads the embedder and opens the stores: on a loaded
    # machine that alone can take most of a step's time.
    page.wait_for_selector('[data-testid="stChatInput"] textarea', timeout=4 * STEP_MS)
    _settle(page)
    return page


def test_chat_updates_facts_and_window_and_a_day_fires_trigger_c(server: str) -> None:
    from playwright.sync_api import expect

    with chromium() as browser:
        page = open_app(browser, server)

        _tab(page, "Facts")
        assert "active: 0" in page.get_by_text(re.compile(r"^active: \d")).inner_text()

        _send(page, "Hi! My name is Lena Berg and I live in Oslo.", 2)
        _send(page, "Our fiscal year runs January to December.", 4)

        # The reply carries its memory writes as status lines with Undo; the
        # writes land from the background worker, and the page refreshes itself.
        page.get_by_role("button", name="Undo").first.wait_for(timeout=MEMORY_MS)
        _settle(page)
        assert page.get_by_role("button", name="Undo").count() >= 1
        # The Facts panel may have read memory just before the write landed; the
        # page refreshes itself once that work is done.
        expect(page.get_by_text(re.compile(r"^active: [1-9]"))).to_be_visible(
            timeout=MEMORY_MS
        )
        _settle(page)
        page.screenshot(path=str(ARTIFACTS / "01_chat_and_facts.png"))

        _tab(page, "Window")
        assert _metric(page, "Turns in window") == 4
        assert _metric(page, "Window tokens") > 0
        page.screenshot(path=str(ARTIFACTS / "02_window.png"))

        _tab(page, "Episodes")
        assert _metric(page, "Episodes") == 0
        page.get_by_role("button", name="+1 day").click()
        page.mouse.move(1, 1)
        page.get_by_text(re.compile(r"Trigger fired: .*C:")).wait_for(timeout=STEP_MS)
        # The compression commits in the background; the page refreshes then.
        page.get_by_text(re.compile(r"By trigger: .*C")).wait_for(timeout=MEMORY_MS)
        _settle(page)
        assert _metric(page, "Episodes") >= 1
        assert page.get_by_text(re.compile(r"By trigger: .*C")).count() == 1
        page.screenshot(path=str(ARTIFACTS / "03_episodes_after_a_day.png"))

        _tab(page, "Window")
        assert _metric(page, "Turns in window") < 4

        _tab(page, "Timeline")
        assert _metric(page, "Trigger firings") >= 1
        page.screenshot(path=str(ARTIFACTS / "04_timeline.png"))

        _tab(page, "Context")
        page.get_by_text(re.compile(r"^Total \d+ / \d+ tokens")).wait_for()
        page.screenshot(path=str(ARTIFACTS / "05_context.png"))
    publish_to_docs({ARTIFACTS / "01_chat_and_facts.png": "app.png"})


def publish_to_docs(shots: dict[Path, str]) -> None:
    """Copy screenshots into docs/ under the README's names, only when asked.

    A test run leaves the checkout as it found it (a soak records the commit it
    tested, CI runs on a clean clone); `make screenshots` sets
    MEMORY_LAB_DOCS_SHOTS=1 to refresh the README's pictures.
    """
    if os.environ.get("MEMORY_LAB_DOCS_SHOTS") != "1":
        return
    docs = ROOT / "docs"
    docs.mkdir(exist_ok=True)
    for shot, name in shots.items():
        shutil.copyfile(shot, docs / name)
