"""Widget logic of the app, through Streamlit's AppTest (no browser).

Each test gets its own data folder, so cached engines never leak state between
tests; the clock, validation and eval-folder helpers are tested directly.
"""

from __future__ import annotations

import re
import socket
import time
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from streamlit.testing.v1 import AppTest

from app_ui.clock import OffsetClock, OffsetStore
from app_ui.settings import (
    APP_MAX_MESSAGE_CHARS,
    AppSettings,
    SettingsError,
    build_llm,
    validate_base_url,
    validate_tenant,
)
from memory_lab.jobs.ledger import JobLedger
from tests.helpers import start_app_mid_morning

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 120


@pytest.fixture
def data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    monkeypatch.setenv("MEMORY_LAB_DATA", str(folder))
    monkeypatch.setenv("MEMORY_LAB_RUNS", str(tmp_path / "runs"))
    return folder


def _app(tenant: str | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    if tenant is not None:
        at.text_input(key="tenant").set_value(tenant).run()
    return at


def _metric(at: AppTest, label: str) -> int:
    return int(next(m.value for m in at.metric if m.label == label))


def _active_facts(at: AppTest) -> int:
    line = next(c.value for c in at.caption if c.value.startswith("active: "))
    return int(re.match(r"active: (\d+)", line).group(1))


def _wait_for_memory_work(data: Path, timeout: float = 120) -> None:
    ledger = JobLedger(data / "memory.sqlite3")
    deadline = time.monotonic() + timeout
    while ledger.count() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert ledger.count() == 0, "memory work still pending"
    ledger.db.close()


def _after_memory_work(at: AppTest, data: Path, timeout: float = 120) -> AppTest:
    """Wait for the background worker to finish, then rerun, as the page's own
    refresh does in a browser (AppTest has no fragment timers)."""
    _wait_for_memory_work(data, timeout)
    return at.run()


def _chat(at: AppTest, text: str) -> AppTest:
    at.chat_input(key="chat_box").set_value(text).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _texts(elements) -> list[str]:
    return [str(e.value) for e in elements]


# --- the page ------------------------------------------------------------------


def test_first_run_shows_the_defaults_and_empty_tiers(data: Path) -> None:
    at = _app()
    assert at.text_input(key="tenant").value == "demo"
    assert at.multiselect(key="recipe").value == ["A", "C"]
    assert at.radio(key="brain").value.startswith("Rule-based")
    assert _metric(at, "Turns in window") == 0
    assert _metric(at, "Episodes") == 0
    assert _active_facts(at) == 0
    assert not at.error
    assert any("Brain: rule ·" in c for c in _texts(at.sidebar.caption))


def test_a_message_updates_window_and_facts_with_undoable_status_lines(
    data: Path,
) -> None:
    at = _chat(_app(), "Hi! My name is Lena Berg and I live in Oslo.")
    assert len(at.chat_message) == 2
    assert at.chat_message[1].name == "assistant"
    assert _metric(at, "Turns in window") == 2
    # Facts and their status lines are the worker's writes: read them once it is done.
    at = _after_memory_work(at, data)
    assert _active_facts(at) == 2
    lines = [c for c in _texts(at.caption) if c.startswith("Remembered ")]
    assert any("Lena Berg" in c for c in lines), lines
    undo = [b for b in at.button if b.label == "Undo"]
    assert len(undo) == 2

    undo[0].click().run()
    assert _active_facts(at) == 1
    assert any("(undone)" in c for c in _texts(at.caption))
    assert len([b for b in at.button if b.label == "Undo"]) == 1


@pytest.mark.slow
@pytest.mark.parametrize("text", ["   ", "\n\t"])
def test_an_empty_message_is_refused_and_the_chat_survives(
    data: Path, text: str
) -> None:
    at = _chat(_app(), "Our fiscal year runs January to December.")
    # The memory work landing between the two messages once made the page refresh
    # itself mid-run and swallow the refusal; wait for it so that path is taken.
    _wait_for_memory_work(data)
    _chat(at, text)
    assert any("empty" in e for e in _texts(at.error))
    assert len(at.chat_message) == 2
    assert _active_facts(at) == 1


def test_a_huge_paste_is_refused_with_the_limit_and_nothing_is_stored(
    data: Path,
) -> None:
    at = _chat(_app(), "x" * (APP_MAX_MESSAGE_CHARS + 1))
    errors = _texts(at.error)
    assert any(f"{APP_MAX_MESSAGE_CHARS:,}" in e for e in errors), errors
    assert len(at.chat_message) == 0
    assert _metric(at, "Turns in transcript") == 0
    _chat(at, "My name is Lena Berg.")
    assert len(at.chat_message) == 2


@pytest.mark.slow
@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("ftp://example.org/v1", "scheme must be http or https"),
        ("http://", "no host"),
        ("localhost:8000", "scheme must be http or https"),
    ],
)
def test_a_bad_llm_url_is_named_and_the_rule_based_brain_keeps_chatting(
    data: Path, url: str, says: str
) -> None:
    at = _app()
    at.radio(key="brain").set_value("OpenAI-compatible server").run()
    at.text_input(key="llm_url").set_value(url).run()
    assert any(says in e for e in _texts(at.sidebar.error)), _texts(at.sidebar.error)
    assert any("Brain: rule ·" in c for c in _texts(at.sidebar.caption))
    _chat(at, "My name is Lena Berg.")
    assert len(at.chat_message) == 2


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_an_unreachable_llm_server_falls_back_visibly(data: Path) -> None:
    at = _app()
    at.radio(key="brain").set_value("OpenAI-compatible server").run()
    url = f"http://127.0.0.1:{_closed_port()}/v1"
    at.text_input(key="llm_url").set_value(url).run()
    assert not at.sidebar.error
    _chat(at, "Hi! My name is Lena Berg and I live in Oslo.")
    warnings = _texts(at.warning)
    assert any("LLM unavailable" in w for w in warnings), warnings
    assert len(at.chat_message) == 2
    _after_memory_work(at, data)
    assert _active_facts(at) >= 1


def test_an_invalid_recipe_parameter_is_named(data: Path) -> None:
    at = _app()
    at.number_input(key="p_a_keep_last").set_value(30).run()
    assert any("keep_last must be below max_messages" in e for e in _texts(at.error))


# --- tenants --------------------------------------------------------------------


@pytest.mark.slow
def test_two_tabs_on_different_tenants_never_see_each_others_memory(
    data: Path,
) -> None:
    alice = _chat(_app("alice"), "Hi! My name is Lena Berg and I live in Oslo.")
    _after_memory_work(alice, data)
    bob = _app("bob")
    assert _active_facts(alice) == 2
    assert _active_facts(bob) == 0
    assert len(bob.chat_message) == 0
    assert _metric(bob, "Turns in transcript") == 0
    _chat(bob, "Our fiscal year runs January to December.")
    alice.run()
    assert _metric(alice, "Turns in transcript") == 2
    assert all("fiscal" not in m.markdown[0].value for m in alice.chat_message)


def test_a_blank_tenant_is_refused(data: Path) -> None:
    at = _app("   ")
    assert any("Tenant" in e for e in _texts(at.sidebar.error))
    assert len(at.chat_input) == 0


# --- time and replay -----------------------------------------------------------


@pytest.mark.slow
def test_advancing_a_day_fires_trigger_c_and_makes_an_episode(data: Path) -> None:
    start_app_mid_morning(data)
    at = _chat(_app(), "Hi! My name is Lena Berg and I live in Oslo.")
    at.button(key="adv_1 hour").click().run()
    assert _metric(at, "Episodes") == 0
    at.button(key="adv_1 day").click().run()
    assert any(i.startswith("Trigger fired: C:") for i in _texts(at.info))
    _after_memory_work(at, data)
    assert _metric(at, "Episodes") == 1
    assert _metric(at, "Turns in window") == 0
    assert _metric(at, "Trigger firings") == 1
    assert any("By trigger: C" in c for c in _texts(at.caption))


@pytest.mark.slow
def test_the_clock_offset_survives_a_new_session(data: Path) -> None:
    at = _app()
    at.button(key="adv_1 week").click().run()
    again = _app()
    assert any("7 d 0 h ahead" in c for c in _texts(again.sidebar.caption))


@pytest.mark.slow
def test_replay_steps_and_jumps_to_a_turn(data: Path) -> None:
    at = _app()
    at.button(key="replay_next").click().run()
    assert _metric(at, "Turns in transcript") == 1
    at.number_input(key="replay_to").set_value(12).run()
    at.button(key="replay_go").click().run()
    assert not at.exception
    assert _metric(at, "Turns in transcript") == 12
    at = _after_memory_work(at, data)
    assert _active_facts(at) >= 1
    # The built-in conversation spans days, so the replayed time fires trigger C.
    at.number_input(key="replay_to").set_value(44).run()
    at.button(key="replay_go").click().run()
    at = _after_memory_work(at, data)
    assert _metric(at, "Episodes") >= 1
    assert _metric(at, "Turns in transcript") == 44


@pytest.mark.slow
def test_a_stale_open_item_is_offered_as_a_prompt_that_sends_itself(
    data: Path,
) -> None:
    at = _app()
    at.button(key="replay_go").click().run()
    _wait_for_memory_work(data)
    at.button(key="adv_1 week").click().run()
    _wait_for_memory_work(data)
    at.button(key="adv_1 week").click().run()
    at = _after_memory_work(at, data)
    offered = [b for b in at.button if (b.key or "").startswith("suggest_")]
    assert offered, "no proactive suggestion after two idle weeks"
    before = len(at.chat_message)
    prompt = offered[0].label
    offered[0].click().run()
    assert not at.exception
    assert len(at.chat_message) == min(before + 2, 60)
    assert prompt in [m.markdown[0].value for m in at.chat_message]


def test_the_context_panel_shows_blocks_against_the_budget(data: Path) -> None:
    at = _after_memory_work(_chat(_app(), "Please always reply in Swedish."), data)
    at.text_input(key="context_query").set_value("what language?").run()
    bars = [p for p in at.get("progress") if "Total" in str(p.proto.text)]
    assert bars, "no total budget bar"
    labels = [e.label for e in at.expander]
    assert any(lbl.startswith("facts: ") for lbl in labels), labels


def test_episode_search_reports_distances(data: Path) -> None:
    at = _chat(_app(), "Our fiscal year runs January to December.")
    at.button(key="adv_1 day").click().run()
    at = _after_memory_work(at, data)
    at.text_input(key="episode_query").set_value("fiscal year").run()
    hits = next(d for d in at.dataframe if "distance" in d.value.columns)
    assert len(hits.value) == 1
    assert 0.0 <= hits.value["distance"].iloc[0] < 1.0


# --- evals ----------------------------------------------------------------------


def test_the_evals_panel_shows_a_run_folders_tables_and_report(
    data: Path, tmp_path: Path
) -> None:
    run = tmp_path / "runs" / "run-1"
    run.mkdir(parents=True)
    (run / "summary.csv").write_text("recipe,recall\nA,0.5\nA+C,0.75\n")
    (run / "report.md").write_text("# Trigger comparison\n\n![plot](frontier.png)\n")
    at = _app()
    at.selectbox(key="eval_pick").set_value(str(run)).run()
    table = next(d for d in at.dataframe if "recall" in d.value.columns)
    assert list(table.value["recipe"]) == ["A", "A+C"]
    report = next(m.value for m in at.markdown if "Trigger comparison" in m.value)
    assert "frontier.png" not in report
    at.text_input(key="eval_path").set_value(str(tmp_path / "nope")).run()
    assert any("no such folder" in e for e in _texts(at.error))


# --- the pieces behind the widgets ---------------------------------------------


@pytest.mark.parametrize(
    "url", ["http://127.0.0.1:8000/v1", "https://api.example.org/v1", "http://h"]
)
def test_good_urls_pass(url: str) -> None:
    assert validate_base_url(url) == url


@pytest.mark.parametrize(
    "url", ["", "127.0.0.1:8000", "file:///etc/passwd", "http://:80", "http://h:xx/v1"]
)
def test_bad_urls_fail_naming_the_field(url: str) -> None:
    with pytest.raises(SettingsError, match="LLM base URL"):
        validate_base_url(url)


def test_an_empty_model_name_is_refused() -> None:
    with pytest.raises(SettingsError, match="model"):
        build_llm("http://127.0.0.1:1/v1", " ")


def test_a_too_long_tenant_is_refused() -> None:
    with pytest.raises(SettingsError, match="at most"):
        validate_tenant("t" * 65)


def test_settings_carry_recipe_parameters_into_the_config() -> None:
    config = AppSettings(
        recipe_spec="A+B", params=(("a_max_messages", 6), ("a_keep_last", 2))
    ).config()
    assert config.recipe.name == "A+B"
    assert config.recipe.params_of("A").max_messages == 6
    assert config.limits.max_message_chars == APP_MAX_MESSAGE_CHARS


@settings(max_examples=50, deadline=None)
@given(steps=st.lists(st.integers(min_value=0, max_value=10**7), max_size=8))
def test_offsets_add_up_and_persist(tmp_path_factory, steps: list[int]) -> None:
    folder = tmp_path_factory.mktemp("clock")
    store = OffsetStore(folder)
    clock = OffsetClock(store, "t")
    before = clock.now()
    for s in steps:
        clock.advance(timedelta(seconds=s))
    assert clock.offset == timedelta(seconds=sum(steps))
    assert OffsetStore(folder).get("t") == timedelta(seconds=sum(steps))
    assert OffsetStore(folder).get("other") == timedelta(0)
    assert clock.now() >= before + timedelta(seconds=sum(steps))


def test_the_clock_never_runs_backwards(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="backwards"):
        OffsetStore(tmp_path).add("t", timedelta(seconds=-1))


def test_a_damaged_clock_file_reads_as_no_offset(tmp_path: Path) -> None:
    (tmp_path / "app_clock.json").write_text("{not json")
    assert OffsetStore(tmp_path).get("t") == timedelta(0)


# --- facts tab controls and the day-by-day view -----------------------------------


def _table(at: AppTest, column: str):
    """The first table with this column (AppTest does not expose widget keys)."""
    return next(d.value for d in at.dataframe if column in d.value.columns)


def _statuses(at: AppTest) -> dict[str, str]:
    table = _table(at, "confidence")
    return dict(zip(table["value"], table["status"], strict=True))


@pytest.mark.slow
def test_the_facts_tab_forgets_confirms_and_restores(data: Path) -> None:
    at = _after_memory_work(_chat(_app(), "I live in Oslo."), data)
    box = at.selectbox(key="fact_pick")
    assert any("home_city = Oslo" in o for o in box.options)
    at.button(key="fact_confirm").click().run()
    assert any(s.startswith("Confirmed") for s in _texts(at.success))
    at.button(key="fact_forget").click().run()
    assert any(s.startswith("Forgot") for s in _texts(at.success))
    assert _active_facts(at) == 0
    at.multiselect(key="fact_status").set_value(["active", "forgotten"]).run()
    assert at.button(key="fact_restore").disabled is False
    at.button(key="fact_restore").click().run()
    assert any(s.startswith("Restored") for s in _texts(at.success))
    assert _active_facts(at) == 1


def test_flagged_contradictions_are_listed_and_settled(data: Path) -> None:
    at = _after_memory_work(_chat(_app(), "Remember that I live in Oslo."), data)
    _after_memory_work(_chat(at, "I live in Bergen."), data)
    flagged = _table(at, "disputes")
    assert list(flagged["value"]) == ["Bergen"]
    assert list(flagged["disputes"]) == ["Oslo"]
    at.button(key="flag_accept").click().run()
    assert any(s.startswith("Restored") for s in _texts(at.success))
    assert any("Nothing to review" in c for c in _texts(at.caption))
    values = {v for v, s in _statuses(at).items() if s == "active"}
    assert "Bergen" in values and "Oslo" not in values


def test_the_episodes_tab_shows_each_finished_day(data: Path) -> None:
    start_app_mid_morning(data)
    at = _chat(_app(), "We decided to go with quarterly VAT reporting.")
    at.button(key="adv_1 day").click().run()
    _after_memory_work(at, data)
    labels = [e.label for e in at.expander]
    assert "Day by day" in labels
    assert any(m.startswith("**Day ") for m in _texts(at.markdown))
    assert any("Decided:" in m and "quarterly VAT" in m for m in _texts(at.markdown))
