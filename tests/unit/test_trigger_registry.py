"""The trigger protocol: registering, loading plug-ins, and refusing bad triggers."""

from __future__ import annotations

import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from pydantic import Field

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.errors import TriggerError
from memory_lab.recipes import recipe, recipe_parts
from memory_lab.tokens import default_counter
from memory_lab.triggers import (
    Compress,
    PluginError,
    TriggerParams,
    WindowView,
    get_trigger,
    load_entry_points,
    load_plugin,
    register,
    trigger_names,
)
from memory_lab.triggers.running import decide
from tests.helpers import T0, msg

COUNTER = default_counter()


class EveryParams(TriggerParams):
    every: int = Field(default=3, ge=1, description="Compress this many at a time.")


def _every(view: WindowView, p: EveryParams) -> Compress | None:
    """Compress the oldest `every` turns once there are that many."""
    return Compress(p.every, "every") if len(view) >= p.every else None


def test_the_shipped_triggers_are_found_without_being_imported():
    assert {"A", "B", "C", "D"} <= set(trigger_names())
    assert get_trigger("d").module == "memory_lab.triggers.topic_shift"


def test_a_registered_trigger_is_a_recipe_with_its_parameters(named):
    named.append("EVERY")
    register("every", EveryParams, _every)
    assert recipe_parts("A+every") == ["A", "EVERY"]
    rec = recipe("A+EVERY(every=5)")
    assert rec.name == "A+EVERY" and rec.params_of("EVERY").every == 5
    assert recipe("EVERY(every_every=2)").params_of("EVERY").every == 2
    d = decide([msg(i) for i in range(5)], T0, rec, COUNTER)
    assert d.fire and d.triggers == ["EVERY"] and d.compress_count == 5


def test_the_decorator_leaves_the_function_usable(named):
    named.append("DECO")

    @register("DECO", EveryParams)
    def deco(view, p):
        return None

    assert deco(WindowView([], T0, COUNTER), EveryParams()) is None
    assert get_trigger("DECO").decide is deco


def test_bad_registrations_are_refused_with_the_reason(named):
    with pytest.raises(PluginError, match="letters"):
        register("A+B", EveryParams, _every)
    with pytest.raises(PluginError, match="TriggerParams"):
        register("X1", dict, _every)
    with pytest.raises(PluginError, match="already registered"):
        register("A", EveryParams, _every)

    class NoDefault(TriggerParams):
        needed: int

    with pytest.raises(PluginError, match="defaults"):
        register("X2", NoDefault, _every)


def test_an_ambiguous_bare_parameter_asks_for_its_prefix(named):
    named.append("EVERY2")
    register("EVERY2", EveryParams, _every)

    class Other(TriggerParams):
        every: int = 4

    named.append("EVERY3")
    register("EVERY3", Other, _every)
    with pytest.raises(ValueError, match="prefix it"):
        recipe("EVERY2+EVERY3(every=2)")
    assert recipe("EVERY2+EVERY3(every3_every=2)").params_of("EVERY3").every == 2


@pytest.mark.parametrize(
    ("verdict", "message"),
    [
        (Compress(99, "too many"), "window holds 4"),
        (Compress(-1, "negative"), "window holds 4"),
        ("all of them", "not Compress"),
    ],
)
def test_an_answer_outside_the_window_is_refused(named, verdict, message):
    named.append("BAD")
    register("BAD", EveryParams, lambda view, p: verdict)
    with pytest.raises(TriggerError, match=f"'BAD'.*{message}"):
        decide([msg(i) for i in range(4)], T0, recipe("BAD"), COUNTER)


def test_a_trigger_that_raises_is_refused_naming_it(named):
    named.append("BOOM")

    def boom(view, p):
        raise ZeroDivisionError("no")

    register("BOOM", EveryParams, boom)
    with pytest.raises(TriggerError, match="'BOOM'.*ZeroDivisionError"):
        decide([msg(0)], T0, recipe("A+BOOM"), COUNTER)


def _never_returns(view: WindowView, p: EveryParams) -> Compress | None:
    while True:
        time.sleep(0.05)


def test_a_trigger_that_never_returns_is_cut_off(named):
    named.append("SLOW")

    register("SLOW", EveryParams, _never_returns)
    rec = recipe("SLOW").model_copy(update={"decision_seconds": 0.3})
    with pytest.raises(TriggerError, match="'SLOW' .*longer than 0.3 s"):
        decide([msg(0)], T0, rec, COUNTER)


def test_only_triggers_registered_without_a_time_limit_decide_in_the_callers_thread(
    named,
):
    """The built-in triggers skip the hand-off; any other is still time-limited."""
    named += ["HERE", "AWAY", "SLOW2"]
    threads: dict[str, threading.Thread] = {}

    def seen(name):
        def decision(view, p):
            threads[name] = threading.current_thread()
            return None

        return decision

    register("HERE", EveryParams, seen("HERE"), time_limited=False)
    register("AWAY", EveryParams, seen("AWAY"))
    decide([msg(0)], T0, recipe("HERE"), COUNTER)
    assert threads.pop("HERE") is threading.current_thread()
    decide([msg(0)], T0, recipe("HERE+AWAY"), COUNTER)
    assert threads["HERE"] is threads["AWAY"] is not threading.current_thread()
    assert not any(get_trigger(n).time_limited for n in ("A", "B", "C", "D"))

    register("SLOW2", EveryParams, _never_returns)
    rec = recipe("A+SLOW2").model_copy(update={"decision_seconds": 0.3})
    with pytest.raises(TriggerError, match="'SLOW2' .*longer than 0.3 s"):
        decide([msg(0)], T0, rec, COUNTER)


def test_a_trigger_deciding_in_the_callers_thread_is_refused_when_it_raises(named):
    named.append("BOOM3")

    def boom(view, p):
        raise ZeroDivisionError("no")

    register("BOOM3", EveryParams, boom, time_limited=False)
    with pytest.raises(TriggerError, match="'BOOM3'.*ZeroDivisionError"):
        decide([msg(0)], T0, recipe("A+BOOM3"), COUNTER)


def test_a_refused_trigger_loses_no_turn(named, tmp_path: Path):
    named.append("BOOM2")

    def boom(view, p):
        if len(view) >= 2:
            raise RuntimeError("broken")
        return None

    register("BOOM2", EveryParams, boom)
    engine = MemoryEngine(
        tmp_path, config=MemoryConfig(recipe=recipe("BOOM2")), clock=ManualClock(T0)
    )
    try:
        engine.ingest("t1", [msg(0, "first", tenant="t1")])
        with pytest.raises(TriggerError, match="'BOOM2'.*broken"):
            engine.ingest("t1", [msg(1, "second", tenant="t1")])
        kept = [m.content for m in engine.transcript.messages("t1")]
        assert kept == ["first", "second"]
    finally:
        engine.close()


def test_a_plugin_module_registers_its_triggers(tmp_path: Path, monkeypatch, named):
    (tmp_path / "my_triggers.py").write_text(
        textwrap.dedent(
            """
            from memory_lab.triggers import Compress, TriggerParams, register

            class P(TriggerParams):
                n: int = 2

            @register("PLUG", P)
            def plug(view, p):
                return Compress(p.n, "plug") if len(view) > p.n else None
            """
        )
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    named.append("PLUG")
    assert load_plugin("my_triggers") == ["PLUG"]
    assert get_trigger("PLUG").module == "my_triggers"
    with pytest.raises(PluginError, match="cannot load plugin 'no_such_module'"):
        load_plugin("no_such_module")
    sys.modules.pop("my_triggers", None)


def test_an_installed_entry_point_registers_its_trigger(
    tmp_path: Path, monkeypatch, named
):
    (tmp_path / "ep_trigger.py").write_text(
        "from memory_lab.triggers import Compress, TriggerParams, register\n"
        "class P(TriggerParams):\n    n: int = 2\n"
        "register('EPT', P, lambda view, p: None)\n"
    )
    info = tmp_path / "ep_trigger-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: ep-trigger\nVersion: 1.0\n"
    )
    (info / "entry_points.txt").write_text("[memory_lab.triggers]\nEPT = ep_trigger\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    named.append("EPT")
    assert "EPT" in load_entry_points()
    assert recipe("EPT").name == "EPT"
    sys.modules.pop("ep_trigger", None)
