"""Deleting a fact or an episode in the app: gone from memory, listed in the
trash, restored from it, and undone from its status line."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from app_ui import actions
from memory_lab import ManualClock, Memory
from memory_lab.errors import MemoryLabError
from tests.app.test_app_logic import (
    APP,
    TIMEOUT,
    _active_facts,
    _after_memory_work,
    _app,
    _chat,
    _metric,
    _texts,
)
from tests.app.test_app_logic import (
    data as data,  # noqa: F401  (the fixture)
)
from tests.helpers import start_app_mid_morning

T0 = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def _trash_rows(at: AppTest) -> list[str]:
    table = next(d for d in at.dataframe if "restorable until" in d.value.columns)
    return list(table.value["what"])


def _no_trash_table(at: AppTest) -> bool:
    return not any("restorable until" in d.value.columns for d in at.dataframe)


def test_a_deleted_fact_leaves_memory_and_comes_back_from_the_trash(
    data: Path,
) -> None:
    at = _chat(_app(), "Hi! My name is Lena Berg and I live in Oslo.")
    at = _after_memory_work(at, data)
    assert _active_facts(at) == 2
    assert _no_trash_table(at)

    picked = at.selectbox(key="fact_pick")
    label = picked.format_func(picked.value)
    at.button(key="fact_trash").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert _active_facts(at) == 1
    assert any("Moved to the trash: fact" in s for s in _texts(at.success))
    [row] = _trash_rows(at)
    assert row.split(".", 1)[1].split(" = ")[0] in label

    at.button(key="trash_restore").click().run()
    assert _active_facts(at) == 2
    assert any(s.startswith("Restored: fact") for s in _texts(at.success))
    assert _no_trash_table(at)


@pytest.mark.slow
def test_a_deleted_episode_leaves_the_tier_and_can_be_restored(data: Path) -> None:
    start_app_mid_morning(data)
    at = _chat(_app(), "Hi! My name is Lena Berg and I live in Oslo.")
    at.button(key="adv_1 day").click().run()
    at = _after_memory_work(at, data)
    assert _metric(at, "Episodes") == 1

    at.button(key="episode_trash").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert _metric(at, "Episodes") == 0
    assert len(_trash_rows(at)) == 1

    at.button(key="trash_restore").click().run()
    assert _metric(at, "Episodes") == 1
    assert _no_trash_table(at)


def test_undoing_a_trash_event_restores_the_item_for_its_tenant_only(
    tmp_path: Path,
) -> None:
    with Memory.open(tmp_path / "d", clock=ManualClock(T0)) as memory:
        memory.chat("ana", "Hi! My name is Lena Berg and I live in Oslo.")
        memory.flush()
        fact = memory.facts("ana")[0]
        event = memory.trash.delete_fact("ana", fact.id)
        with pytest.raises(MemoryLabError, match="not tenant 'bob'"):
            actions.undo(memory, "bob", event.model_dump(mode="json"))
        assert fact.id not in {f.id for f in memory.facts("ana")}
        back = actions.undo(memory, "ana", event.model_dump(mode="json"))
        assert back.kind == "restored_from_trash"
        assert fact.id in {f.id for f in memory.facts("ana")}
        assert memory.trash.items("ana") == []


def _retention_caption(at: AppTest) -> str:
    return next(c for c in _texts(at.sidebar.caption) if c.startswith("Retention"))


def test_the_retention_policy_and_what_it_removed_are_shown(
    data: Path, monkeypatch
) -> None:
    monkeypatch.setenv(
        "MEMORY_LAB_RETENTION",
        '{"raw_turns_days": 1, "facts_days": {"unresolved": 3}}',
    )
    start_app_mid_morning(data)
    at = _chat(_app(), "Hi! My name is Lena Berg and I live in Oslo.")
    at = _after_memory_work(at, data)
    line = _retention_caption(at)
    assert line.startswith(
        "Retention (every 24 h): raw turns 1 d, unresolved facts 3 d."
    )
    assert "Retention removed nothing" in line
    # A day on, trigger C summarises the turns and retention removes the older
    # one of the two (the newest turn is always kept).
    at.button(key="adv_1 day").click().run()
    at = _after_memory_work(at, data)
    assert "Retention removed 1 turn;" in _retention_caption(at)
    assert _metric(at, "Episodes") == 1


def test_a_bad_retention_policy_is_named_on_the_page(data: Path, monkeypatch) -> None:
    monkeypatch.setenv("MEMORY_LAB_RETENTION", '{"facts_days": {"helth": 3}}')
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert any(
        "MEMORY_LAB_RETENTION" in e and "helth" in e for e in _texts(at.error)
    ), _texts(at.error)


@pytest.mark.slow
def test_forget_me_asks_first_then_deletes_everything_of_the_tenant(
    data: Path,
) -> None:
    at = _chat(_app(), "Hi! My name is Lena Berg and I live in Oslo.")
    at = _after_memory_work(at, data)
    assert _active_facts(at) == 2
    assert at.button(key="forget_me").disabled
    at.checkbox(key="forget_me_sure").check().run()
    at.button(key="forget_me").click().run()
    assert not at.exception, [e.value for e in at.exception]
    [done] = [s for s in _texts(at.success) if s.startswith("Deleted everything")]
    assert "held about 'demo': 2 turns, 2 fact rows" in done
    assert _active_facts(at) == 0
    assert _metric(at, "Turns in window") == 0
    assert len(at.chat_message) == 0
    assert at.checkbox(key="forget_me_sure").disabled  # nothing left to delete
