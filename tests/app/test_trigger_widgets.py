"""The sidebar's recipe widgets come from the trigger registry's parameter models.

The specs are checked without Streamlit, for the shipped triggers and for one
registered here; then AppTest shows a choice in the sidebar reaching the engine.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Literal

import pytest
from pydantic import Field
from streamlit.testing.v1 import AppTest

import app_ui.engines
from app_ui.trigger_widgets import (
    WidgetSpec,
    recipe_spec,
    trigger_label,
    trigger_specs,
    widget_specs,
)
from memory_lab.recipes import recipe
from memory_lab.triggers import (
    Compress,
    TriggerParams,
    WindowView,
    all_triggers,
    get_trigger,
    register,
    unregister,
)

APP = str(Path(__file__).resolve().parents[2] / "app.py")
TIMEOUT = 120


def _specs(name: str) -> dict[str, WidgetSpec]:
    return {s.name: s for s in trigger_specs(get_trigger(name))}


# --- the shipped triggers ------------------------------------------------------


def test_message_count_fields_become_bounded_int_inputs() -> None:
    specs = _specs("A")
    assert list(specs) == ["a_max_messages", "a_keep_last"]
    top = specs["a_max_messages"]
    assert (top.kind, top.default, top.min_value, top.max_value, top.step) == (
        "int",
        20,
        2,
        None,
        1,
    )
    assert (top.label, top.key) == ("max messages", "p_a_max_messages")
    assert top.help.startswith("Window size that fires the trigger.")
    assert "`a_max_messages`" in top.help
    assert specs["a_keep_last"].min_value == 0
    assert not top.optional


def test_time_period_has_a_choice_an_optional_number_and_a_text() -> None:
    specs = _specs("C")
    gran = specs["c_granularity"]
    assert (gran.kind, gran.options, gran.default) == ("choice", ("day", "week"), "day")
    idle = specs["c_idle_gap_minutes"]
    assert (idle.kind, idle.optional, idle.off, idle.default) == (
        "int",
        True,
        False,
        180,
    )
    assert idle.min_value == 1
    assert idle.off_key == "off_c_idle_gap_minutes"
    assert (specs["c_timezone"].kind, specs["c_timezone"].default) == ("text", "UTC")


def test_topic_shift_threshold_is_a_float_inside_its_open_bounds() -> None:
    specs = _specs("D")
    th = specs["d_threshold"]
    assert (th.kind, th.default, th.step, th.format) == ("float", 0.4, 0.01, "%.2f")
    # gt=0.0 and lt=2.0 exclude the ends; number_input's bounds include them.
    assert th.min_value == pytest.approx(0.01)
    assert th.max_value == pytest.approx(1.99)
    cap = specs["d_max_messages"]
    assert (cap.kind, cap.optional, cap.default, cap.min_value) == ("int", True, 40, 2)


def test_every_trigger_gets_unique_keys_and_defaults_that_make_its_recipe() -> None:
    keys: list[str] = []
    for trigger in all_triggers():
        specs = [s for s in trigger_specs(trigger) if s.kind != "fixed"]
        keys += [s.key for s in specs] + [s.off_key for s in specs if s.optional]
        values = {s.name: None if s.off else s.default for s in specs}
        made = recipe(trigger.name).with_params(**values)
        assert made.params_of(trigger.name) == trigger.params()
    assert len(keys) == len(set(keys))


def test_labels_and_the_spec_read_as_recipes_are_named() -> None:
    assert trigger_label(get_trigger("A")).startswith("A: at a message count")
    assert recipe_spec(["D", "a", "C"]) == "A+C+D"


# --- a trigger registered after the app was written ---------------------------


class EchoParams(TriggerParams):
    """Parameters of a plug-in trigger with one field of every kind."""

    every: int = Field(default=5, gt=1, lt=100, description="Turns between cuts.")
    weight: float = Field(default=2.5, ge=0.0, description="How hard it cuts.")
    loud: bool = Field(default=False, description="Shout the reason.")
    mode: Literal["fast", "slow"] | None = Field(default=None, description="Pace.")
    tag: str = "echo"
    skip: tuple[int, ...] = ()


def echo(view: WindowView, p: EchoParams) -> Compress | None:
    """Z: compress every few turns (a test plug-in)."""
    return Compress(len(view), "Z: echo") if len(view) >= p.every else None


@pytest.fixture
def plugin() -> Iterator[str]:
    register("ZECHO", EchoParams, echo)
    try:
        yield "ZECHO"
    finally:
        unregister("ZECHO")


def test_a_registered_trigger_gets_widgets_from_its_model(plugin: str) -> None:
    trigger = get_trigger(plugin)
    assert trigger in all_triggers()
    assert (
        trigger_label(trigger) == "ZECHO: Z: compress every few turns (a test plug-in)."
    )
    specs = {s.name: s for s in trigger_specs(trigger)}
    every = specs["zecho_every"]
    assert (every.kind, every.min_value, every.max_value) == ("int", 2, 99)
    weight = specs["zecho_weight"]
    assert (weight.kind, weight.min_value, weight.step) == ("float", 0.0, 0.1)
    assert (specs["zecho_loud"].kind, specs["zecho_loud"].default) == ("bool", False)
    mode = specs["zecho_mode"]
    assert (mode.kind, mode.optional, mode.off) == ("choice", True, True)
    assert mode.default == "fast"  # what the widget shows once "off" is unticked
    assert (specs["zecho_tag"].kind, specs["zecho_tag"].label) == ("text", "tag")
    assert specs["zecho_skip"].kind == "fixed"


def test_specs_need_no_registration_and_no_prefix() -> None:
    assert [s.name for s in widget_specs(EchoParams)][:2] == ["every", "weight"]


# --- the sidebar, through AppTest ---------------------------------------------


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list:
    """Every memory the app asks for, so a test can read the recipe it runs."""
    monkeypatch.setenv("MEMORY_LAB_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("MEMORY_LAB_RUNS", str(tmp_path / "runs"))
    memories: list = []
    real = app_ui.engines.cached_memory

    def spy(data_dir, settings):
        memory = real(data_dir, settings)
        memories.append(memory)
        return memory

    # memory_for looks cached_memory up in its module on every run: it gets the spy.
    monkeypatch.setattr(app_ui.engines, "cached_memory", spy)
    return memories


def _app() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def test_choosing_d_in_the_sidebar_puts_it_in_the_engines_recipe(built: list) -> None:
    at = _app()
    assert built[-1].config.recipe.name == "A+C"
    at.multiselect(key="recipe").set_value(["A", "C", "D"]).run()
    at.number_input(key="p_d_threshold").set_value(0.3).run()
    at.checkbox(key="off_d_max_messages").check().run()
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]
    chosen = built[-1].config.recipe
    assert chosen.name == "A+C+D"
    d = chosen.params_of("D")
    assert (d.threshold, d.max_messages, d.recent) == (0.3, None, 3)
    assert chosen.params_of("A").max_messages == 20
    assert any("recipe A+C+D" in s.value for s in at.subheader)
    # With nothing chosen the chat keeps the default recipe and says so.
    at.multiselect(key="recipe").set_value([]).run()
    assert any("pick at least one trigger" in w.value for w in at.sidebar.warning)
    assert built[-1].config.recipe.name == "A+C"


@pytest.mark.slow
def test_a_registered_trigger_is_offered_and_its_widgets_reach_the_engine(
    built: list, plugin: str
) -> None:
    at = _app()
    assert plugin in at.multiselect(key="recipe").options[-1]
    at.multiselect(key="recipe").set_value(["A", plugin]).run()
    at.number_input(key="p_zecho_every").set_value(7).run()
    at.checkbox(key="off_zecho_mode").uncheck().run()
    at.selectbox(key="p_zecho_mode").set_value("slow").run()
    assert not at.exception, [e.value for e in at.exception]
    chosen = built[-1].config.recipe
    assert chosen.name == f"A+{plugin}"
    assert chosen.params_of(plugin) == EchoParams(every=7, mode="slow")
    assert any("`zecho_skip` = ()" in c.value for c in at.sidebar.caption)
