"""Data sets as plug-ins: the registry, `load_dataset` through it, and ``--plugin``."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from memlab_datasets import load_dataset, registry
from memlab_datasets.loading import named_dataset
from memlab_datasets.registry import LoadOptions
from memlab_datasets.types import Dataset

from memory_lab.errors import DatasetError

TOY_PLUGIN = '''
"""A toy data set: one conversation, one turn per line of the file."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

from memlab_datasets.registry import register
from memlab_datasets.types import Conversation, Dataset, Probe, Session
from memory_lab.types import Message


@register("toy", "One conversation, a turn per line of a text file.")
def load_toy(argument, options):
    lines = Path(argument).read_text(encoding="utf-8").splitlines()
    t0 = datetime(2024, 1, 1, tzinfo=UTC)
    turns = [
        Message(id=f"t{i}", tenant="toy", session="s1", role="user", content=line,
                timestamp=t0 + timedelta(minutes=i))
        for i, line in enumerate(lines)
    ]
    probe = Probe(id="toy:q", question="What came first?", answer=lines[0],
                  evidence=["t0"], after_turn=turns[-1].id, category=4, kind="recall")
    conv = Conversation(
        id="toy", tenant="toy", source="toy",
        speakers={"user": "u", "assistant": "a"},
        sessions=[Session(id="s1", started_at=t0, turn_ids=[t.id for t in turns])],
        turns=turns, probes=[probe],
    )
    return Dataset.build("toy", [conv])
'''


@pytest.fixture
def toy_plugin(tmp_path, monkeypatch):
    """A plug-in module in tmp_path, importable as `toy_data_plugin`; cleaned up."""
    (tmp_path / "toy_data_plugin.py").write_text(TOY_PLUGIN, encoding="utf-8")
    (tmp_path / "lines.txt").write_text("the kettle\nthe fern\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path / "lines.txt"
    registry.unregister("toy")
    sys.modules.pop("toy_data_plugin", None)


def test_built_ins_are_registered():
    assert {"synthetic", "locomo", "longmemeval"} <= set(registry.names())
    assert registry.get("LoCoMo").name == "locomo"
    assert "'locomo:PATH'" in registry.usages()


def test_named_dataset_reads_the_registry():
    assert named_dataset("synthetic") == ("synthetic", "")
    assert named_dataset("synthetic:seed=3") == ("synthetic", "seed=3")
    assert named_dataset("locomo:x.json") == ("locomo", "x.json")
    assert named_dataset("longmemeval:a.json:limit=2") == (
        "longmemeval",
        "a.json:limit=2",
    )
    # A bare name that needs a path, or a name nobody registered, is a path.
    assert named_dataset("locomo") == (None, "locomo")
    assert named_dataset("nobody:x.json") == (None, "nobody:x.json")


def test_a_registered_loader_gets_the_argument_and_options(tmp_path):
    seen = []
    base = load_dataset("synthetic:conversations=1,sessions=1")

    def fake(argument, options):
        seen.append((argument, options))
        return base

    registry.register("fake-set", "For this test.", fake)
    try:
        assert load_dataset("fake-set:some/path.json:k=v", audit="a.json") is base
    finally:
        registry.unregister("fake-set")
    assert seen == [("some/path.json:k=v", LoadOptions(audit=Path("a.json")))]
    assert "fake-set" not in registry.names()


@pytest.mark.parametrize(
    ("name", "load", "message"),
    [
        ("Bad Name", lambda a, o: None, "use letters"),
        ("one-arg", lambda a: None, r"must take \(argument, options\)"),
        ("not-callable", "nope", "must be callable"),
        ("locomo", lambda a, o: None, "already registered"),
    ],
)
def test_bad_registrations_fail_at_once(name, load, message):
    with pytest.raises(DatasetError, match=message):
        registry.register(name, "x", load)


def test_a_loader_that_returns_no_dataset_is_named():
    registry.register("broken-set", "x", lambda argument, options: [])
    try:
        with pytest.raises(DatasetError, match="'broken-set'.*returned list"):
            load_dataset("broken-set:x")
    finally:
        registry.unregister("broken-set")


def test_unknown_file_message_lists_the_registered_names(tmp_path):
    with pytest.raises(DatasetError, match="'longmemeval:PATH"):
        load_dataset(str(tmp_path / "nothing.json"))


def test_plugin_module_makes_its_data_set_nameable(toy_plugin, capsys):
    from memlab_cli.main import main

    assert registry.get("toy") is None
    status = main(
        ["datasets", "describe", "--plugin", "toy_data_plugin", f"toy:{toy_plugin}"]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    assert "conversations" in out and "toy" in out
    data = load_dataset(f"toy:{toy_plugin}")
    assert isinstance(data, Dataset)
    assert data.conversations[0].turns[1].content == "the fern"


@pytest.mark.slow
def test_eval_plugin_flag_registers_the_data_set_before_loading(
    toy_plugin, tmp_path, capsys, monkeypatch
):
    """``eval --plugin MODULE --dataset toy:PATH`` resolves the plug-in's name."""
    from memlab_cli.main import main

    monkeypatch.setenv("MEMORY_LAB_VECTOR_CACHE", "off")
    out = tmp_path / "run"
    status = main(
        [
            "eval",
            "--plugin",
            "toy_data_plugin",
            "--dataset",
            f"toy:{toy_plugin}",
            "--systems",
            "full",
            "--budget",
            "300",
            "--out",
            str(out),
            "--quiet",
        ]
    )
    assert status == 0, capsys.readouterr().err
    assert (out / "summary.csv").exists()
    from memlab_evals.running.log import RunLog

    log = RunLog.load(out / "run.json")
    assert log.config.source == "toy"  # the plug-in's own name, not a guess
    assert log.config.plugins == ["toy_data_plugin"]
    assert {p.probe_id for p in log.probes} == {"toy:q"}


def test_a_plugin_that_cannot_be_imported_is_named(capsys):
    from memlab_cli.main import main

    status = main(["datasets", "describe", "--plugin", "no_such_module_x", "synthetic"])
    assert status == 1
    assert "cannot load plugin 'no_such_module_x'" in capsys.readouterr().err
