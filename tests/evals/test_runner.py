"""The runner and the eval/score commands, end to end on tiny datasets."""

from __future__ import annotations

import argparse
import json
from datetime import timedelta

import pandas as pd
import pytest
from memlab_datasets import load_dataset
from memlab_datasets.types import Conversation, Dataset, Probe, Session
from memlab_evals import cli
from memlab_evals.running.log import RunLog
from memlab_evals.running.runner import Unit, run_eval, run_unit, strip_timing

from memory_lab.text import turn_line
from memory_lab.tokens import default_counter
from tests.helpers import CONTRACT_COLUMNS, T0, msg

TINY = "synthetic:conversations=2,sessions=2,turns-per-session=10"


def hand_conversation() -> Conversation:
    """Ten turns; two probes after turn m4 and one after the last, LoCoMo-style."""
    turns = [
        msg(
            i,
            f"turn {i} mentions {'lighthouse' if i == 2 else 'nothing special'}",
            tenant="hand",
            role="user" if i % 2 == 0 else "assistant",
            at=T0 + timedelta(minutes=i),
            speaker="Ana" if i % 2 == 0 else "Bot",
        )
        for i in range(10)
    ]
    probes = [
        Probe(
            id="p1",
            question="What was mentioned?",
            answer="lighthouse",
            evidence=["m2"],
            after_turn="m4",
            category=4,
            kind="recall",
        ),
        Probe(
            id="p2",
            question="Anything else?",
            answer="nothing special",
            evidence=["m3", "m-missing"],
            after_turn="m4",
            category=4,
            kind="recall",
        ),
        Probe(
            id="p3",
            question="What about the lighthouse?",
            answer="lighthouse",
            evidence=["m2"],
            after_turn="m9",
            category=1,
            kind="multi_hop",
        ),
    ]
    return Conversation(
        id="hand-1",
        tenant="hand",
        source="synthetic",
        speakers={"user": "Ana", "assistant": "Bot"},
        sessions=[Session(id="s1", started_at=T0, turn_ids=[t.id for t in turns])],
        turns=turns,
        probes=probes,
    )


def test_probes_are_answered_at_their_moment_with_the_right_history():
    conv = hand_conversation()
    run, records = run_unit(Unit(0, 0, conv, "full", (1500,)))[1500]
    assert [r.probe_id for r in records] == ["p1", "p2", "p3"]
    early, _, late = records
    assert early.context_items == [f"m{i}" for i in range(5)]  # nothing after m4
    assert late.context_items == [f"m{i}" for i in range(10)]
    # full renders the history exactly as history_tokens counts it
    assert all(r.context_tokens == r.history_tokens for r in records)
    assert early.history_tokens < late.history_tokens
    assert records[1].evidence_texts == [conv.turn("m3").content]  # dangling id skipped
    assert run.turns == 10 and len(run.ingest_ms) == 10
    assert run.turn_texts["m2"].endswith("lighthouse")
    assert run.turn_speakers["m1"] == "Bot"


def test_work_owed_before_a_probe_is_finished_untimed(monkeypatch):
    """Background memory work is settled before the clock starts, not billed to it."""
    from memlab_evals.running import runner
    from memlab_evals.systems import make_system

    now = [0.0]
    calls: list[str] = []
    monkeypatch.setattr(runner.time, "perf_counter", lambda: now[0])

    def slow_to_settle(name, **kwargs):
        system = make_system(name, **kwargs)
        context = system.context

        def settle() -> None:
            calls.append("settle")
            now[0] += 100.0  # a long flush of the worker's queue

        def timed_context(question):
            calls.append("context")
            now[0] += 0.002
            return context(question)

        system.settle = settle
        system.context = timed_context
        return system

    monkeypatch.setattr(runner, "make_system", slow_to_settle)
    _, records = run_unit(Unit(0, 0, hand_conversation(), "full", (1500,)))[1500]
    assert calls == ["settle", "context"] * 3
    assert [round(r.retrieve_ms) for r in records] == [2, 2, 2]


class RecordingEmbedder:
    """Stand-in model: each batch it is asked to embed, in order."""

    name, dim = "recording", 8

    def __init__(self) -> None:
        self.batches: list[list[str]] = []

    def embed(self, texts):
        import numpy as np

        self.batches.append(list(texts))
        rows = [
            np.random.default_rng(sum(t.encode())).normal(size=self.dim) for t in texts
        ]
        return np.asarray([r / np.linalg.norm(r) for r in rows], dtype=np.float32)


def test_no_systems_retrieval_time_holds_a_question_embedding(monkeypatch):
    """The questions are embedded once, before the first turn, for every system."""
    from memlab_evals.running import runner
    from memlab_evals.systems import make_system

    from memory_lab import embeddings
    from memory_lab.embeddings import CachingEmbedder

    model = RecordingEmbedder()
    shared = CachingEmbedder(model)
    monkeypatch.setattr(embeddings, "default_embedder", lambda: shared)
    monkeypatch.setattr(runner, "default_embedder", lambda: shared)
    made_while_asked: list[int] = []

    def watched(name, **kwargs):
        system = make_system(name, **kwargs)
        context = system.context

        def timed_context(question):
            before = shared.computed
            out = context(question)
            made_while_asked.append(shared.computed - before)
            return out

        system.context = timed_context
        return system

    monkeypatch.setattr(runner, "make_system", watched)
    conv = hand_conversation()
    _, records = run_unit(Unit(0, 0, conv, "rag-embed", (1500,)))[1500]
    questions = list(dict.fromkeys(p.question for p in conv.probes))
    assert model.batches[0] == questions
    assert len(records) == 3 and made_while_asked == [0, 0, 0]
    assert not any(q in batch for batch in model.batches[1:] for q in questions)


def test_stored_tokens_and_facts_come_from_the_system(tmp_path):
    conv = hand_conversation()
    run, records = run_unit(
        Unit(0, 0, conv, "A(a_max_messages=4,a_keep_last=1)", (300,))
    )[300]
    assert run.compressions >= 1
    assert run.episodes
    assert run.brain
    assert all(0 < r.context_tokens <= 300 for r in records)
    assert all(r.stored_tokens > 0 for r in records)
    _, baseline = run_unit(Unit(0, 1, conv, "rag-bm25", (300,)))[300]
    counter = default_counter()
    assert baseline[-1].stored_tokens >= counter.count(conv.turns[0].content) * 10


def test_a_probe_after_an_unknown_turn_is_refused():
    conv = hand_conversation()
    bad = conv.model_copy(
        update={"probes": [conv.probes[0].model_copy(update={"after_turn": "m99"})]}
    )
    with pytest.raises(ValueError, match="m99"):
        run_unit(Unit(0, 0, bad, "none", (100,)))


def test_log_order_is_conversation_then_system_as_given():
    conv = hand_conversation()
    other = conv.model_copy(update={"id": "hand-2"})
    data = Dataset.build("hand", [conv, other])
    log = run_eval(data, "none,full", 200, progress=False)
    assert [(r.conversation, r.system) for r in log.conversations] == [
        ("hand-1", "none"),
        ("hand-1", "full"),
        ("hand-2", "none"),
        ("hand-2", "full"),
    ]
    assert log.config.systems == ["none", "full"]
    assert log.config.dataset_hash == data.content_hash
    assert len(log.probes) == 2 * 2 * 3


@pytest.mark.slow  # two worker processes each load Chroma and the embedder
def test_results_do_not_depend_on_the_worker_count():
    data = load_dataset(TINY)
    systems = "A,B(b_high_water=300,b_low_water=100),rag-bm25"
    one = run_eval(data, systems, 300, workers=1, progress=False)
    two = run_eval(data, systems, 300, workers=2, progress=False)
    assert one.config.workers == 1 and two.config.workers == 2
    assert strip_timing(one) == strip_timing(two)
    assert len(one.probes) == 3 * sum(len(c.probes) for c in data.conversations)


@pytest.mark.parametrize(
    ("systems", "budget", "workers"),
    [("A,nope", 300, 1), ("A", 0, 1), ("A", 300, 0)],
)
def test_bad_run_arguments_are_refused(systems, budget, workers):
    data = Dataset.build("hand", [hand_conversation()])
    with pytest.raises(ValueError):
        run_eval(data, systems, budget, workers=workers, progress=False)


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="memory-lab")
    sub = p.add_subparsers(dest="command", required=True)
    cli.register_eval(sub)
    cli.register_score(sub)
    return p


def run_cli(*argv: str) -> int:
    args = parser().parse_args(list(argv))
    return args.func(args)


@pytest.fixture(scope="module")
def eval_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("eval") / "run"
    status = run_cli(
        "eval",
        "--dataset",
        TINY,
        "--systems",
        "A,full,window,rag-bm25,none",
        "--budget",
        "300",
        "--out",
        str(out),
        "--quiet",
    )
    assert status == 0
    return out


@pytest.mark.slow
def test_eval_writes_the_three_files_with_the_contract_columns(eval_dir):
    for name in ("run.json", "summary.csv", "report.md"):
        assert (eval_dir / name).stat().st_size > 0
    summary = pd.read_csv(eval_dir / "summary.csv")
    assert set(CONTRACT_COLUMNS) <= set(summary.columns)
    alls = summary[summary["category"] == "all"]
    assert list(alls["system"]) == ["A", "full", "window", "rag-bm25", "none"]
    log = RunLog.load(eval_dir / "run.json")
    assert log.config.budget == 300
    assert log.config.recipes["A"]["triggers"][0]["params"]["max_messages"] == 20
    assert log.config.triggers["A"]["module"] == "memory_lab.triggers.message_count"
    assert log.scorers  # scorer versions are stamped on the log
    full = summary[(summary["system"] == "full") & (summary["category"] == "all")]
    assert full["compression_ratio"].iloc[0] == pytest.approx(1.0)


@pytest.mark.slow
def test_score_reproduces_the_summary_without_rerunning(eval_dir, capsys):
    before = (eval_dir / "summary.csv").read_text()
    run_json = (eval_dir / "run.json").read_bytes()
    (eval_dir / "summary.csv").unlink()
    (eval_dir / "report.md").unlink()
    assert run_cli("score", str(eval_dir)) == 0
    assert (eval_dir / "summary.csv").read_text() == before
    assert (eval_dir / "report.md").exists()
    assert (eval_dir / "run.json").read_bytes() == run_json
    assert "full" in capsys.readouterr().out  # the table is printed


@pytest.mark.slow
def test_gate_fails_on_a_planted_regression(eval_dir, tmp_path, capsys):
    thresholds = tmp_path / "gate.json"
    thresholds.write_text(
        json.dumps(
            {
                "version": 1,
                "dataset": "synthetic",
                "systems": {
                    "none": {
                        "all": {
                            "evidence_recall": {
                                "direction": "higher",
                                "baseline": 0.9,
                                "tolerance": 0.01,
                            },
                        }
                    }
                },
            }
        )
    )
    assert run_cli("score", str(eval_dir), "--gate", str(thresholds)) == 1
    err = capsys.readouterr().err
    assert "evidence_recall" in err and "none" in err


def test_score_of_a_folder_without_a_run_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="run.json"):
        run_cli("score", str(tmp_path))


def test_eval_refuses_an_unknown_system_before_loading_anything(tmp_path):
    with pytest.raises(ValueError, match="rag-bm52"):
        run_cli(
            "eval",
            "--dataset",
            "locomo:/no/such/file.json",
            "--systems",
            "A,rag-bm52",
            "--out",
            str(tmp_path / "x"),
        )
    assert not (tmp_path / "x").exists()


def test_corrections_need_a_locomo_dataset(tmp_path):
    with pytest.raises(ValueError, match="LoCoMo"):
        run_cli(
            "eval",
            "--dataset",
            TINY,
            "--systems",
            "none",
            "--corrections",
            "audit",
            "--out",
            str(tmp_path / "x"),
        )


@pytest.mark.slow
def test_main_job_writes_a_run_per_dataset(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no ../shared/... here: synthetic only
    monkeypatch.delenv("MEMORY_LAB_LOCOMO", raising=False)
    monkeypatch.setattr(cli, "MAIN_SYSTEMS", "full,none")
    monkeypatch.setattr(cli, "MAIN_SYNTHETIC", "synthetic:conversations=1")
    assert cli.main_job() == 0
    for budget in cli.MAIN_BUDGETS:
        out = tmp_path / "runs" / f"main-synthetic-{budget}"
        names = {p.name for p in out.iterdir()}
        assert {"run.json", "summary.csv", "report.md"} <= names
    assert not list((tmp_path / "runs").glob("main-locomo*"))


def test_main_synthetic_set_is_over_ten_times_the_largest_budget():
    count = default_counter().count
    data = load_dataset(cli.MAIN_SYNTHETIC)
    for conv in data.conversations:
        history = sum(count(turn_line(m)) for m in conv.turns)
        assert history >= 10 * max(cli.MAIN_BUDGETS), conv.id
