"""`main --dataset NAME:ARGUMENT`: registered data sets after the defaults."""

from __future__ import annotations

import pytest
from memlab_datasets import registry
from memlab_evals import cli
from memlab_evals.main_plan import MAIN_SYNTHETIC, added_datasets

DEFAULTS = [("synthetic", MAIN_SYNTHETIC)]


def test_an_added_data_set_is_labelled_by_its_registered_name():
    spec = "longmemeval:data/longmemeval_s.json:sample=50,seed=0"
    assert added_datasets([spec], DEFAULTS) == [("longmemeval", spec)]


def test_a_plugin_data_set_can_be_added(tmp_path):
    registry.register("toy-main", "For this test.", lambda argument, options: None)
    try:
        assert added_datasets(["toy-main:x.txt"], DEFAULTS) == [
            ("toy-main", "toy-main:x.txt")
        ]
    finally:
        registry.unregister("toy-main")


@pytest.mark.parametrize(
    ("specs", "message"),
    [
        (["nobody:x.json"], "name a registered data set"),
        (["data/longmemeval_s.json"], "name a registered data set"),
        (["synthetic:seed=3"], "already runs 'synthetic'"),
        (["longmemeval:a.json", "longmemeval:b.json"], "already runs 'longmemeval'"),
    ],
)
def test_specs_the_job_cannot_take_are_refused(specs, message):
    with pytest.raises(ValueError, match=message):
        added_datasets(specs, DEFAULTS)


def test_main_runs_the_added_data_set_after_the_defaults(monkeypatch, tmp_path):
    from memlab_cli.main import build_parser

    args = build_parser().parse_args(["main", "--dataset", "longmemeval:lme.json"])
    assert args.dataset == ["longmemeval:lme.json"]
    ran: list[str] = []

    def record(spec, *_, **__):
        ran.append(spec)
        return {}

    monkeypatch.setattr(cli, "evaluate_budgets", record)
    monkeypatch.setattr(cli, "_publish_goal", lambda rows, runs: None)
    monkeypatch.setattr(cli, "_publish_times", lambda *a: None)
    assert cli.main_job(runs=tmp_path, datasets=args.dataset) == 0
    assert ran[0] == MAIN_SYNTHETIC
    assert ran[-1] == "longmemeval:lme.json"
