"""What an eval measures of a recipe's triggers, on real engines and tiny runs."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap
from datetime import timedelta
from pathlib import Path

import pandas as pd
import pytest
from memlab_evals.reports.trigger_columns import trigger_columns
from memlab_evals.running.log import ConversationRun, EpisodeStat, TriggerTrace
from memlab_evals.scorers.base import ProbeCase
from memlab_evals.scorers.trigger_effects import summary_only, tier_shares
from memlab_evals.systems import make_system

from memory_lab.context.tiers import context_tiers
from memory_lab.recipes import recipe
from memory_lab.tokens import default_counter
from memory_lab.types import ContextBlock, ContextBundle
from tests.helpers import T0, msg, probe_record

ROOT = Path(__file__).resolve().parents[2]


def _block(kind: str, lines: list[str]) -> ContextBlock:
    text = f'<memory type="{kind}">\n' + "\n".join(lines) + "\n</memory>"
    return ContextBlock(kind=kind, text=text, tokens=1, budget=1)


def test_the_episodes_block_is_split_into_summaries_and_excerpts():
    bundle = ContextBundle(
        blocks=[
            _block("facts", ["- user.city: Oslo"]),
            _block(
                "episodes",
                [
                    "- [Mar 3; turns m1..m4] We planned the garden.",
                    "Decisions: tomatoes",
                    "  + user: the tomatoes go by the fence",
                    "- [Mar 4; turns m5..m6] Taxes.",
                ],
            ),
            _block("window", ["user: hello"]),
        ],
        total_tokens=3,
        budget=100,
    )
    tiers = context_tiers(bundle)
    assert tiers["excerpts"] == "  + user: the tomatoes go by the fence"
    assert "Decisions: tomatoes" in tiers["episodes"] and "Taxes" in tiers["episodes"]
    assert tiers["facts"] == "- user.city: Oslo" and tiers["window"] == "user: hello"
    assert "summary" not in tiers


def test_evidence_is_credited_to_the_tier_holding_most_of_it():
    probe = probe_record(
        evidence_texts=["The tomatoes go by the fence", "My city is Oslo"],
        context_tiers={
            "excerpts": "the tomatoes go by the fence",
            "summary": "tomatoes",
            "facts": "city Oslo",
        },
        summary_only_context="tomatoes planted; city Oslo",
    )
    shares = tier_shares(ProbeCase(probe, None, "synthetic"))
    assert shares["evidence_from_excerpts"] == pytest.approx(0.5)
    assert shares["evidence_from_facts"] == pytest.approx(0.5)
    assert shares["evidence_from_summary"] == 0.0
    assert sum(shares.values()) == pytest.approx(1.0)
    only = summary_only(ProbeCase(probe, None, "synthetic"))
    # the summary holds a third of the first turn's words (not held) and all of
    # the second's (held): one of two evidence turns
    assert only == pytest.approx(0.5)
    bare = probe_record(evidence_texts=["x y"])
    assert math.isnan(summary_only(ProbeCase(bare, None, "synthetic")))
    assert all(math.isnan(v) for v in tier_shares(ProbeCase(bare, None, "s")).values())


def _run(system: str, turns: int, trace: TriggerTrace | None, **kw) -> ConversationRun:
    return ConversationRun(
        system=system,
        conversation=f"c{turns}",
        turns=turns,
        ingest_ms=[],
        trigger=trace,
        **kw,
    )


def test_rates_are_pooled_over_turns_not_averaged_over_conversations():
    from memlab_evals.running.log import RunConfig, RunLog

    short = _run(
        "A",
        100,
        TriggerTrace(
            wait_turns=[1, 2],
            wait_minutes=[1.0, 3.0],
            prefix_changes=10,
            brain_reads={"summarize_tokens": 100, "extract_tokens": 900},
        ),
        compressions=10,
        episodes=[
            EpisodeStat(
                id="e",
                original_tokens=1,
                summary_tokens=1,
                original_message_count=2,
                coherence=0.5,
            )
        ],
    )
    long = _run(
        "A",
        900,
        TriggerTrace(
            wait_turns=[3], wait_minutes=[5.0], brain_reads={"condense_tokens": 200}
        ),
        compressions=0,
    )
    log = RunLog(
        config=RunConfig(
            dataset="synthetic",
            dataset_hash="h",
            systems=["A", "full"],
            budget=1,
            workers=1,
            git_commit="",
            started_at="",
            memory_lab_version="",
        ),
        conversations=[short, long, _run("full", 1000, None)],
        probes=[],
    )
    row = trigger_columns(log, "A")
    assert row["compressions_per_1k_turns"] == pytest.approx(10.0)
    assert row["brain_input_tokens_per_1k_turns"] == pytest.approx(1200.0)
    assert row["compress_input_tokens_per_1k_turns"] == pytest.approx(300.0)
    assert math.isnan(row["brain_cost_per_1k_turns"])  # no price given
    assert row["wait_turns_p50"] == 2.0 and row["wait_minutes_p95"] == pytest.approx(
        4.8
    )
    assert row["episode_coherence"] == 0.5
    assert row["prefix_changes_per_1k_turns"] == pytest.approx(10.0)
    assert all(math.isnan(v) for v in trigger_columns(log, "full").values())


def test_a_recipe_reports_its_waits_reads_and_prefix_changes(tmp_path: Path):
    turns = [
        msg(
            i,
            f"note {i}: the {'garden' if i < 6 else 'taxes'} need work",
            tenant="t",
            at=T0 + timedelta(minutes=10 * i),
        )
        for i in range(12)
    ]
    system = make_system(
        "A(a_max_messages=5,a_keep_last=2)",
        budget=400,
        tenant="t",
        start=T0,
        data_dir=tmp_path / "d",
        counter=default_counter(),
    )
    try:
        for turn in turns:
            system.ingest(turn)
        trace = system.trigger_trace()
        # A fires at 5 turns keeping 2, so turns wait 4, 3, 2 and then 3, 2, 1...
        assert trace.wait_turns[:3] == [5, 4, 3]
        assert trace.wait_minutes[:3] == [40.0, 30.0, 20.0]
        assert system.cost().compressions >= 3
        assert trace.brain_reads["summarize_calls"] >= 3
        assert trace.brain_reads["summarize_tokens"] > 0
        assert trace.prefix_changes >= system.cost().compressions
        only = system.summary_only_context("taxes")
        ctx = system.context("taxes")
        assert ctx.tiers and set(ctx.tiers) <= {
            "window",
            "summary",
            "episodes",
            "excerpts",
            "facts",
        }
        assert "  + " not in only  # no verbatim excerpts
    finally:
        system.close()


@pytest.mark.slow
def test_eval_runs_a_plugin_trigger_in_worker_processes(tmp_path: Path):
    (tmp_path / "half_window.py").write_text(
        textwrap.dedent(
            """
            from pydantic import Field
            from memory_lab.triggers import Compress, TriggerParams, register

            class Half(TriggerParams):
                size: int = Field(default=8, ge=2)

            @register("HALF", Half)
            def half(view, p):
                \"\"\"Compress the older half of a full window.\"\"\"
                return Compress(p.size // 2, "half") if len(view) >= p.size else None
            """
        )
    )
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "memlab_cli.main",
            "eval",
            "--plugin",
            "half_window",
            "--dataset",
            "synthetic:conversations=2,sessions=2,turns-per-session=8",
            "--systems",
            "HALF(size=6),A+HALF,full",
            "--budget",
            "400",
            "--workers",
            "2",
            "--out",
            str(out),
            "--quiet",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "PYTHONPATH": str(ROOT)},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    table = pd.read_csv(out / "summary.csv")
    rows = table[table["category"] == "all"].set_index("system")
    assert rows.loc["HALF(size=6)", "compressions_per_1k_turns"] > 0
    assert math.isnan(rows.loc["full", "compressions_per_1k_turns"])
    log = json.loads((out / "run.json").read_text())
    assert log["config"]["plugins"] == ["half_window"]
    assert log["config"]["triggers"]["HALF"]["module"] == "half_window"
    assert log["config"]["recipes"]["HALF(size=6)"]["triggers"][0]["params"] == {
        "size": 6
    }


def test_a_notebook_trigger_cannot_be_sent_to_worker_processes():
    from memlab_evals.running.runner import _check_reachable

    with pytest.raises(ValueError, match="'NB'.*__main__.*workers=1"):
        _check_reachable(
            {"NB": {"module": "__main__"}}, type("E", (), {"name": "local"})(), 2
        )
    _check_reachable(
        {"NB": {"module": "__main__"}}, type("E", (), {"name": "local"})(), 1
    )


def test_a_recipe_spec_with_an_unprefixed_parameter_is_d_with_it():
    assert recipe("D(threshold=0.35)").params_of("D").threshold == 0.35


@pytest.mark.slow
def test_the_triggers_command_writes_one_table_over_datasets_and_budgets(
    tmp_path: Path,
):
    from memlab_cli.main import main

    out = tmp_path / "t"
    tiny = "synthetic:conversations=1,sessions=2,turns-per-session=10"
    code = main(
        [
            "triggers",
            "--out",
            str(out),
            "--systems",
            "A,D,A+D,rag-hybrid",
            "--budgets",
            "300,600",
            "--dataset",
            f"tiny={tiny}",
            "--workers",
            "1",
        ]
    )
    assert code == 0
    table = pd.read_csv(out / "triggers.csv")
    assert list(table["budget"].unique()) == [300, 600]
    assert set(table["system"]) == {"A", "D", "A+D", "rag-hybrid"}
    recipes = table[table["system"] != "rag-hybrid"]
    assert recipes["compressions_per_1k_turns"].notna().all()
    assert table[table["system"] == "rag-hybrid"]["wait_turns_p50"].isna().all()
    assert (out / "triggers.png").stat().st_size > 0
    assert "## tiny at 300 tokens" in (out / "triggers.md").read_text()
    assert (out / "triggers-tiny-600" / "report.md").exists()


def test_plugin_triggers_join_the_default_comparisons():
    from memlab_evals.cli import main_systems
    from memlab_evals.reports.trigger_table import default_systems

    assert default_systems().split(",") == [
        *["A", "B", "C", "D", "A+D", "B+D", "C+D", "A+B+C", "rag-hybrid"]
    ]
    assert default_systems(["E"]).split(",")[:5] == ["A", "B", "C", "D", "E"]
    assert "C+E" in default_systems(["E"]).split(",")
    assert main_systems(["E"]).split(",")[:4] == ["A", "B", "C", "E"]
