"""The report is written with its plots, the mapping, the answer key and the targets."""

from __future__ import annotations

from memlab_evals.reports.aggregate import summarize
from memlab_evals.reports.report import UNSCORED, print_table, write_report
from rich.console import Console

from tests.evals.test_aggregate import conv, make_log, probe


def test_report_files_are_written_with_plots(tmp_path):
    log = make_log()
    path = write_report(log, summarize(log), tmp_path / "out")
    text = path.read_text()
    assert path.name == "report.md"
    for png in ("frontier.png", "categories.png"):
        data = (tmp_path / "out" / png).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000
        assert f"]({png})" in text
    assert "| 5 | adversarial | abstention |" in text  # the category mapping
    assert "corrections `none`" in text
    assert UNSCORED in text
    assert "stale_answer_rate" in text and "## Against the project's targets" in text
    assert "Every trap kind present: NO" in text  # the hand-built log has no traps


def test_locomo_report_states_missed_targets(tmp_path):
    log = make_log()
    log = log.model_copy(
        update={"config": log.config.model_copy(update={"dataset": "locomo:dev.json"})}
    )
    text = write_report(log, summarize(log), tmp_path).read_text()
    assert "evidence_recall: a recipe and one of" in text  # no retriever ran
    # full injects 100 tokens per probe, A about 67: nowhere near 15x
    assert "Token target MISSED" in text


def test_the_goal_line_is_a_paired_comparison_with_the_best_retriever(tmp_path):
    log = make_log()
    extra = [probe("rag-bm25", i, 4 if i < 6 else 1, held=True) for i in range(10)]
    config = log.config.model_copy(
        update={"systems": [*log.config.systems, "rag-bm25"]}
    )
    log = log.model_copy(
        update={
            "config": config,
            "probes": log.probes + extra,
            "conversations": log.conversations + [conv("rag-bm25", 0, [])],
        }
    )
    text = write_report(log, summarize(log), tmp_path).read_text()
    # A holds the evidence on 6 of 10 probes, rag-bm25 on all 10
    assert "evidence_recall target NOT met: A - rag-bm25 = -0.400" in text
    assert "over 10 paired probes: **behind**" in text


def test_print_table_shows_the_all_rows():
    console = Console(record=True, width=250)
    print_table(summarize(make_log()), console)
    out = console.export_text()
    assert "full" in out and "evidence" in out and UNSCORED in out
