"""The generated blocks of the README and its docs/ pages match the result files.

Three kinds of check: the committed pages are what the committed files render;
each generator renders the values of a small hand-made file; and a value changed
in a copy of a committed file makes the copied pages stale.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from memlab_evals.readme import (
    extraction,
    peers,
    results,
    scaling,
    speed,
    tables,
    tail,
)
from memlab_evals.readme.tables import TRIGGER_README_COLUMNS, trigger_block

ROOT = Path(__file__).resolve().parents[2]
RECIPES = ("A", "B", "C")
SYSTEMS = (*RECIPES, "full", "rag-hybrid", "none")


def test_the_committed_readme_is_the_committed_results():
    assert tables.main([str(ROOT / "README.md"), "--check"]) == 0


def pages_text(root: Path) -> str:
    """The README and every docs/ page under `root`, one after another."""
    return "\n".join(
        page.read_text(encoding="utf-8") for page in tables.pages(root / "README.md")
    )


def test_every_block_in_the_registry_is_on_a_page():
    text = pages_text(ROOT)
    for name in tables.BLOCKS:
        assert f"<!-- {name}:begin -->" in text and f"<!-- {name}:end -->" in text


@pytest.mark.slow
def test_a_stale_docs_page_fails_the_check(tmp_path: Path):
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    for folder in ("evals/results", "benchmarks/results"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    page = tmp_path / "docs" / "triggers.md"
    text = page.read_text(encoding="utf-8")
    begin = text.index("<!-- triggers:begin -->")
    edited = text[:begin] + text[begin:].replace("| A |", "| A* |", 1)
    page.write_text(edited, encoding="utf-8")
    assert tables.main([str(tmp_path / "README.md"), "--check"]) == 1
    assert tables.main([str(tmp_path / "README.md")]) == 0
    assert page.read_text(encoding="utf-8") == text


# Hand-made result files -------------------------------------------------------


def write_summary(
    root: Path, folder: str, run: str, rows: list[dict], **common
) -> Path:
    """A summary.csv whose `all` rows are `rows`, plus one category row per system."""
    path = root / "evals" / "results" / folder / run / "summary.csv"
    path.parent.mkdir(parents=True, exist_ok=True)
    full = [
        {"category": "all", "n": 10, "dataset": "x", **common, **row} for row in rows
    ]
    pd.DataFrame(full).to_csv(path, index=False)
    return path


def run_rows(evidence: float, **extra) -> list[dict]:
    """One `all` row per system, the recipes at `evidence`, `full` at 1."""
    rows = []
    for system in SYSTEMS:
        rows.append(
            {
                "system": system,
                "evidence_recall": 1.0 if system == "full" else evidence,
                "evidence_recall_ci_low": 1.0 if system == "full" else evidence - 0.1,
                "evidence_recall_ci_high": 1.0 if system == "full" else evidence + 0.1,
                "answer_recall": 0.8 if system == "full" else 0.6,
                "stale_answer_rate": float("nan"),
                "hallucinated_memory_rate": 0.004 if system in RECIPES else None,
                "extraction_recall": 0.4 if system in RECIPES else None,
                "extraction_precision": 0.7 if system in RECIPES else None,
                "compression_ratio": 1.0 if system == "full" else 16.0,
                "context_tokens_mean": 24_000.0 if system == "full" else 1_234.4,
                **extra,
            }
        )
    return rows


def test_a_run_table_renders_the_summary_and_its_intervals(tmp_path: Path):
    write_summary(tmp_path, "main", "main-locomo-1500", run_rows(0.5432))
    write_summary(tmp_path, "main", "main-locomo-600", run_rows(0.4111))
    block = results.locomo_block(tmp_path)
    assert block.index("At 1,500 tokens") < block.index("At 600 tokens")
    assert "| A | 0.543 [0.443, 0.643] | 0.600 |" in block
    assert "| full | 1.000 | 0.800 |" in block  # a point interval is left out
    assert "0.411 [0.311, 0.511]" in block and "1,234 |" in block
    assert "stale answer" not in block  # no system has one
    assert "10 questions per system" in block
    assert "evidence word overlap" not in block


def test_the_word_overlap_column_follows_evidence_recall_when_the_file_has_it(
    tmp_path: Path,
):
    write_summary(
        tmp_path,
        "main",
        "main-synthetic-600",
        run_rows(0.5, evidence_word_overlap=0.7777),
    )
    block = results.synthetic_block(tmp_path)
    assert (
        "| system | evidence recall | evidence word overlap | answer recall |" in block
    )
    assert "| A | 0.500 [0.400, 0.600] | 0.778 | 0.600 |" in block


def test_stale_answers_are_counted_over_the_update_probes(tmp_path: Path):
    rows = run_rows(0.5, stale_answer_rate=0.25)
    path = write_summary(tmp_path, "main", "main-synthetic-600", rows)
    table = pd.read_csv(path)
    updates = table.assign(category="6", n=8)
    pd.concat([table, updates]).to_csv(path, index=False)
    block = results.synthetic_block(tmp_path)
    assert "| stale answer |" in block.splitlines()[4]
    assert "at 600 tokens A 2, B 2, C 2 of 8" in block


def write_goal(root: Path, rows: list[tuple]) -> None:
    columns = ["run", "dataset", "budget", "metric", "recipe", "recipe_mean"]
    columns += ["retriever", "retriever_mean", "difference", "ci_low", "ci_high"]
    columns += ["n", "verdict"]
    path = root / results.GOAL_CSV
    path.parent.mkdir(parents=True, exist_ok=True)
    pd.DataFrame(rows, columns=columns).to_csv(path, index=False)


GOAL = [
    ("s", "synthetic:x=1", 600, "evidence_recall", "B", 0.9, "rag-embed", 0.8)
    + (0.1, -0.01, 0.2, 80, "tied"),
    ("l", "locomo:dev.json", 600, "evidence_recall", "C", 0.5, "rag-hybrid", 0.61)
    + (-0.11, -0.2, -0.05, 700, "behind"),
    ("l", "locomo:dev.json", 1500, "answer_recall", "A", 0.6123, "rag-hybrid", 0.5)
    + (0.1123, 0.05, 0.2, 700, "ahead"),
]


def test_the_goal_table_renders_the_goal_file(tmp_path: Path):
    write_goal(tmp_path, GOAL)
    block = results.goal_block(tmp_path)
    lines = [line for line in block.splitlines() if line.startswith("| ")]
    assert lines[1] == (
        "| LoCoMo dev, 1,500 | answer recall | A 0.612 | `rag-hybrid` 0.500 "
        "| +0.112 [+0.050, +0.200] | **ahead** |"
    )
    assert lines[2].startswith("| LoCoMo dev, 600 |") and lines[2].endswith("behind |")
    assert lines[3].startswith("| synthetic main set, 600 |")
    assert "Of 3 cells: ahead in 1, tied in 1, behind in 1." in block
    assert "Behind: LoCoMo dev, 600 (evidence recall)." in block
    assert "synthetic main set 80 (evidence recall)" in block


def test_the_share_of_full_is_read_from_the_larger_budget(tmp_path: Path):
    rows = run_rows(0.9)
    for row, answers in zip(rows, (0.64, 0.612, 0.584), strict=False):
        row["answer_recall"] = answers
    write_summary(tmp_path, "main", "main-locomo-1500", rows)
    write_summary(tmp_path, "main", "main-locomo-600", run_rows(0.1))
    block = results.against_full_block(tmp_path)
    assert "keeps 0.900 of its evidence recall (target 0.85: met)" in block
    assert "A 0.800, B 0.765, C 0.730 (0.640, 0.612, 0.584 against 0.800" in block
    assert "target 0.75: met by A and B, missed by C" in block
    assert "for the parse 0.78: met by A, missed by B and C" in block
    assert "19.44x fewer context tokens (target 15x: met by all)" in block


def test_the_runs_block_reads_commit_start_and_wall_time(tmp_path: Path):
    for folder in ("main", "main-rules"):
        for run in ("main-locomo-600", "main-synthetic-600"):
            path = write_summary(tmp_path, folder, run, run_rows(0.5))
            (path.parent / "report.md").write_text(
                "- executor: local, workers: 2; git commit `abcdef1234+dirty`; "
                "started 2026-01-02T03:04:05+00:00\n- wall time: memory 12.5 s\n"
            )
    block = results.runs_block(tmp_path)
    assert (
        "| `main-rules/` | synthetic main set, 600 | `abcdef1` with uncommitted "
        "changes | 2026-01-02 03:04 UTC | memory 12.5 s |"
    ) in block


def test_the_tail_block_sets_each_recipe_before_beside_after(tmp_path: Path):
    for folder, evidence, commit in (
        ("main-before-tail", 0.5, "1111111aaaa"),
        ("main", 0.5432, "2222222bbbb+dirty"),
    ):
        for run in ("main-locomo-600", "main-synthetic-600"):
            path = write_summary(tmp_path, folder, run, run_rows(evidence))
            (path.parent / "report.md").write_text(
                f"- executor: local; git commit `{commit}`; started 2026-01-02\n"
            )
    write_summary(tmp_path, "main", "main-synthetic-1500", run_rows(0.9))
    block = tail.tail_block(tmp_path)
    assert "before (at `1111111`) → after (at `2222222` with uncommitted" in block
    lines = [line for line in block.splitlines() if line.startswith("| ")]
    assert lines[1] == (
        "| `x`, 600 | evidence recall | 0.500 → 0.543 (+0.043) "
        "| 0.500 → 0.543 (+0.043) | 0.500 → 0.543 (+0.043) |"
    )
    # A budget without a before run is left out: a header and 2 runs x 2 metrics.
    assert len(lines) == 1 + 4 and ", 1,500 |" not in block


def write_extraction(root: Path) -> None:
    for folder, recall in (("main", 0.35), ("main-rules", 0.05)):
        for run in ("main-locomo-1500", "main-locomo-600", "main-synthetic-1500"):
            rows = run_rows(0.7, extraction_recall=recall, stale_answer_rate=0.125)
            write_summary(root, folder, run, rows)
        rows = run_rows(0.7, extraction_recall=recall, stale_answer_rate=0.0625)
        write_summary(root, folder, "main-synthetic-600", rows)
    for name, recall, forbidden in (
        ("statements-parse", 0.367, 2),
        ("statements-rules", 0.072, 0),
        ("statements-b-parse", 0.256, 6),
        ("statements-b-rules", 0.044, 0),
        ("statements-c-parse", 0.275, 1),
        ("statements-c-rules", 0.067, 0),
        ("statements-d-parse", 0.221, 3),
        ("statements-d-rules", 0.076, 0),
    ):
        path = root / extraction.EXTRACTION / f"{name}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            f"x: recall {recall} (1/2), precision 0.5 (1/2), forbidden values "
            f"stored: {forbidden}\n  family 1/2\n"
        )


def test_the_extractor_table_renders_both_runs_and_statement_sets(tmp_path: Path):
    write_extraction(tmp_path)
    block = extraction.extractor_block(tmp_path)
    rows = [line for line in block.splitlines() if line.startswith("| ")]
    assert "LoCoMo 1,500: A / B evidence" in rows[0]
    assert "synthetic stale answers 600 / 1,500" in rows[0]
    assert rows[1].startswith("| rules alone (`--extractor rules`) | 0.050 / 0.700 |")
    assert "| 0.700 / 0.700, 0.600 / 0.600 |" in rows[2]
    assert (
        "| 0.062 / 0.125 | 0.004 | 0.367 / 0.500, 2 | 0.256 / 0.500, 6 "
        "| 0.275 / 0.500, 1 | 0.221 / 0.500, 3 |"
    ) in rows[2]
    assert "0.050 with the rules alone and 0.350 with the parse" in block


def write_json(root: Path, path: Path, data: dict) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(json.dumps(data))


MACHINE = {
    "cpu": "CPU",
    "cores": 2,
    "ram_gb": 8.0,
    "date": "2026-01-02T03:04:05+00:00",
    "git_commit": "1234567abc",
    "load_average": [1.0, 2.0, 3.0],
}


def quick_bench(p95: float, extracted: float) -> dict:
    ingest = []
    for system, compressions in (("A", 3), ("B", 1), ("C", 0)):
        ingest.append(
            {
                "system": system,
                "turns": 40,
                "compressions": compressions,
                "total": {"p50_ms": p95 / 2, "p95_ms": p95},
                "turn_ms": {"n": 40 - compressions, "p95": p95},
                "compression_turn_ms": {"n": compressions},
                "compression_vs_turn": {"p95": 0.5, "max": 0.6, "met": True},
                "background_ms": {
                    "compress_job": {"n": compressions, "p50_ms": 2e4, "p95_ms": 3e4}
                },
            }
        )
    burst = {
        "system": "A",
        "messages": 400,
        "ingest_s": 2.0,
        "drain_after_burst_s": 1.5,
        "max_pending_jobs": 100,
        "max_turns_awaiting_compression": 90,
        "turns_compressed_per_s": 200.0,
        "turns_extracted_per_s": extracted,
    }
    return {
        "command": "memory-lab bench --quick",
        "machine": MACHINE,
        "seconds": 26.0,
        "ingest": ingest,
        "burst": [burst],
    }


def test_the_targets_list_renders_each_file_it_reads(tmp_path: Path):
    write_extraction(tmp_path)
    write_goal(tmp_path, GOAL)
    write_json(tmp_path, extraction.QUICK, quick_bench(3.264, 42.0))
    block = extraction.targets_block(tmp_path)
    assert "extraction recall 0.350 at precision 0.700" in block
    assert "recall met, precision met" in block
    assert "C 0.500 against `rag-hybrid` 0.610, paired -0.110" in block
    assert "0.062 at 600 tokens, 0.125 at 1,500 tokens (target 0.05: missed)" in block
    assert "ingest p95 3.26 ms (recipe A; target 25 ms: met)" in block
    assert "42.0 turns per second of job time under a 400-message burst" in block
    assert "(target 50: missed)" in block
    assert "commit `1234567`; 2026-01-02 03:04 UTC" in block


def full_bench(ingest_p95: float) -> dict:
    quick = quick_bench(ingest_p95, 80.0)
    for row in quick["ingest"]:
        row["compression_turn_ms"]["n"] = 39
    sizes = [
        {
            "episodes": n,
            "facts": n,
            "episode_search": {"p95_ms": 20.0},
            "fact_read": {"p95_ms": fact},
            "retrieval_and_assembly": {"p95_ms": p95},
        }
        for n, fact, p95 in ((1_000, 0.97, 28.266), (100_000, 86.4, 41.856))
    ]

    def points(tokens: tuple[float, float, float], stored: float) -> list[dict]:
        return [
            {
                "turns": turns,
                "context_tokens_mean": t,
                "stored_tokens": stored,
                "context_latency": {"p50_ms": 30.0},
            }
            for turns, t in zip((100, 1_000, 10_000), tokens, strict=True)
        ]

    growth = [
        {
            "system": s,
            "points": points((1500, 1500, 1500), 700),
            "flat_within_5pct": True,
        }
        for s in ("A", "B")
    ]
    growth.append(
        {
            "system": "C",
            "points": points((1393, 1500, 1500), 700),
            "flat_within_5pct": False,
        }
    )
    growth.append(
        {
            "system": "full",
            "points": points((2000, 20000, 250000), 2500),
            "flat_within_5pct": False,
        }
    )
    burst = [dict(quick["burst"][0], system=s, messages=1_000) for s in ("A", "B", "C")]
    return {
        "command": "memory-lab bench --full",
        "machine": MACHINE,
        "seconds": 2889.0,
        "peak_rss_mb": 2087.9,
        "ingest": quick["ingest"],
        "burst": burst,
        "retrieval": {"sizes": sizes},
        "growth": growth,
        "locomo_eval": {"seconds": 720.3, "error": None},
    }


FAULTS = {
    "kills": 1000,
    "lost": 0,
    "duplicated": 0,
    "inconsistent": 0,
    "per_phase": {"ingest": 84, "compression": 85, "random_time": 243},
    "conversations": 191,
    "turns_per_conversation": 40,
    "problems": [],
    "seconds": 3670.7,
    "command": "memory-lab bench --faults --kills 1000",
    "machine": MACHINE,
    "code_commit": "9b76970",
    "note": "The machine was shared.",
}


def _main_locomo(root: Path, budget: int, p95: dict[str, float]) -> None:
    """A main-job LoCoMo summary: per-conversation rows, then the overall one."""
    path = root / str(speed.MAIN_LOCOMO).format(budget=budget)
    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        {"system": system, "retrieve_ms_p95": value * scale}
        for scale in (10.0, 1.0)
        for system, value in p95.items()
    ]
    pd.DataFrame(rows).to_csv(path, index=False)


def test_the_speed_table_renders_the_bench_files(tmp_path: Path):
    write_json(tmp_path, speed.FULL, full_bench(26.5))
    write_json(tmp_path, speed.FAULTS, FAULTS)
    _main_locomo(tmp_path, 600, {"A": 21.0, "B": 12.0, "C": 30.0, "rag-hybrid": 10.0})
    _main_locomo(tmp_path, 1500, {"A": 4.0, "B": 2.0, "C": 1.0, "rag-hybrid": 1.0})
    times = {
        "seconds": {"synthetic": 60.2, "locomo": 110.0},
        "total_seconds": 170.2,
        "workers": 2,
        "cores": 2,
        "vector_cache": "on",
        "vectors_kept_before": 0,
        "git_commit": "abcdef0123",
    }
    write_json(tmp_path, speed.MAIN_TIMES, times)
    block = speed.speed_block(tmp_path)
    assert (
        "A 2.10x, B 1.20x, C 3.00x (21.0 ms, 12.0 ms, 30.0 ms against 10.0 ms)" in block
    )
    assert "A 4.00x, B 2.00x, C 1.00x" in block
    assert "| at 600: yes; at 1,500: no |" in block
    assert (
        "| `make run` (the main job) <= 3 minutes on 2 cores | 170 s (synthetic 60.2 s, "
        "locomo 110 s; 2 workers; vector cache empty beforehand: every vector made; "
        "commit abcdef0) | yes |"
    ) in block
    rows = {line.split(" | ")[0]: line for line in block.splitlines() if "|" in line}
    ingest = rows["| ingest p95 <= 25 ms per turn (rule-based brain, local embeddings)"]
    assert "A 26.5 ms, B 26.5 ms, C 26.5 ms (p50 13.2 ms)" in ingest
    assert ingest.endswith("| no |")
    assert "A p95 0.50x, max 0.60x (39 compression turns)" in block
    assert "41.9 ms at 100,000 episodes + 100,000 facts (28.3 ms at 1,000)" in block
    assert "1.48x (41.9 ms / 28.3 ms); fact read p95 0.97 ms at 1,000" in block
    assert "kills 1,000, lost 0, duplicated 0, inconsistent 0" in block
    assert "84-85 kills per phase + 243 at random moments, 3,671 s" in block
    assert (
        "C +7.7% (C has 1,393 tokens at 100 turns and moves +0.0% from 1,000)" in block
    )
    assert "| A and B yes; C no |" in block
    assert "| 720 s | no |" in block
    assert "0.6% of `full`'s context tokens" in block and "store 28.0%" in block
    assert "code at `9b76970`, branch head `1234567` when it ended" in block
    assert (
        "Noted with the results: `bench-faults.json`: The machine was shared." in block
    )


def test_the_llm_speed_sentence_renders_the_llm_bench(tmp_path: Path):
    write_json(tmp_path, speed.LLM_QUICK, quick_bench(8.728, 50.0))
    block = speed.llm_speed_block(tmp_path)
    assert "0.50x (A, 3 compression turns) and 0.50x (B, 1 compression turn)" in block
    assert "(8.73 ms and 8.73 ms)" in block
    assert "20.0-30.0 s (A, p50 to p95) and 20.0-30.0 s (B) each" in block
    assert "C did not compress in 40 turns." in block


def test_the_scaling_and_executor_tables_render_their_files(tmp_path: Path):
    rows = [
        {
            "store": store,
            "processes": n,
            "turns_per_s": 30.0 / n,
            "ingest_only_turns_per_s": 30.0 + n,
            "ratio_vs_1": 1.0 / n,
        }
        for store in ("sqlite", "servers")
        for n in (1, 2)
    ]
    bench = {
        "rows": rows,
        "turns_per_process": 120,
        "recipe": "default",
        "brain": "rule-based",
        "uptime_before": "up 5:47, load average: 5.57, 6.44, 5.80",
        "command": "memory-lab bench --ingest-scaling",
        "machine": MACHINE,
    }
    write_json(tmp_path, scaling.SCALING, bench)
    block = scaling.scaling_block(tmp_path)
    assert "| store | 1 process | 2 processes |" in block
    assert "| SQLite (one data folder) | 30.0 turns/s | x0.50 |" in block
    assert "Postgres + Chroma server 31.0, 32.0" in block
    assert "load average 5.57, 6.44, 5.80 at the start" in block
    executors = {
        "dataset": "synthetic:x=1",
        "systems": "A,window",
        "budget": 600,
        "units": 8,
        "workers": 2,
        "local_s": 35.73,
        "ray_s": 190.04,
        "ray_over_local": 5.32,
        "identical_logs": False,
        "command": "memory-lab bench --executors",
        "machine": MACHINE,
    }
    write_json(tmp_path, scaling.EXECUTORS, executors)
    block = scaling.executors_block(tmp_path)
    assert "| local, 2 processes | 35.7 s | 1.00 |" in block
    assert "| Ray, in-process cluster of 2 CPUs | 190 s | 5.32 |" in block
    assert "8 units (A, window on `synthetic:x=1`, budget 600)" in block
    assert "the two run logs were DIFFERENT" in block


def test_the_peers_table_renders_the_summary_and_the_failures(tmp_path: Path):
    rows = run_rows(0.5)
    for row in rows:
        row.update(
            status="errors" if row["system"] == "C" else "ok",
            answer_f1=0.0212,
            judged_accuracy=0.9167,
            brain_calls=4.0,
            llm_calls=16.0,
            llm_prompt_tokens=14644.0,
            llm_completion_tokens=1382.0,
            ingest_ms_p50=7.04,
            ingest_ms_p95=28665.2,
            retrieve_ms_p50=33.5,
            retrieve_ms_p95=977.3,
        )
    folder = tmp_path / peers.PEERS_RUN
    write_summary(tmp_path, "peers-smollm2", ".", rows)
    log = {
        "config": {
            "dataset": "synthetic:conversations=1",
            "budget": 600,
            "git_commit": "7cd2a6fa7b",
            "started_at": "2026-11-24T10:27:01+00:00",
        },
        "llm": {"seconds": {"memory": 1162.7, "answer_and_judge": 843.1}},
        "conversations": [
            {"system": "A", "conversation": "c0", "turns": 36, "errors": {}},
            {"system": "C", "conversation": "c0", "turns": 36, "errors": {"x": 2}},
        ],
    }
    (folder / "run.json").write_text(json.dumps(log))
    block = peers.peers_block(tmp_path)
    assert (
        "| C | errors | 0.500 | 0.600 | 0.021 | 0.917 | 0.004 | 4 + 12 "
        "| 14,644 / 1,382 | 7 / 28,665 | 34 / 977 | 1,234 |"
    ) in block
    assert "(36 turns in 1 conversation), budget 600, commit `7cd2a6f`" in block
    assert "wall time memory 1,163 s, answer and judge 843 s" in block
    assert "Failures by kind (`run.json`): C x 2." in block


def test_the_trigger_table_shows_the_larger_budget_per_dataset(tmp_path: Path):
    rows = []
    for dataset in ("synthetic", "locomo"):
        for budget in (600, 1500):
            for system in ("A", "D"):
                row = dict.fromkeys(TRIGGER_README_COLUMNS, 0.5)
                row.update(dataset=dataset, budget=budget, system=system)
                rows.append(row)
    csv = tmp_path / tables.TRIGGERS_CSV
    csv.parent.mkdir(parents=True)
    pd.DataFrame(rows).to_csv(csv, index=False)
    block = trigger_block(tmp_path)
    assert "at 1,500 tokens" in block and "**locomo**" in block
    assert block.count("| A |") == 2  # one row per dataset, the larger budget only


# A changed copy of a committed file -------------------------------------------


@pytest.fixture()
def repo_copy(tmp_path: Path) -> Path:
    """The pages and every committed result file, copied, and fresh as copied."""
    shutil.copy(ROOT / "README.md", tmp_path / "README.md")
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    for folder in ("evals/results", "benchmarks/results"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    assert tables.main([str(tmp_path / "README.md"), "--check"]) == 0
    return tmp_path


def edit_csv(path: str, system: str, column: str, value: float, **where):
    def edit(root: Path) -> None:
        table = pd.read_csv(root / path)
        hit = table["system"] == system if system else True
        for key, wanted in where.items():
            hit &= table[key].astype(str) == str(wanted)
        table.loc[hit, column] = value
        table.to_csv(root / path, index=False)

    return edit


def edit_json(path: str, change: Callable[[dict], None]):
    def edit(root: Path) -> None:
        data = json.loads((root / path).read_text())
        change(data)
        (root / path).write_text(json.dumps(data))

    return edit


def edit_text(path: str, old: str, new: str):
    """Replace the first match of the regular expression `old` with `new`."""

    def edit(root: Path) -> None:
        text = (root / path).read_text()
        assert re.search(old, text), old
        (root / path).write_text(re.sub(old, new, text, count=1))

    return edit


MAIN = "evals/results/main"
BENCH = "benchmarks/results"
CHANGES = {
    "goal": (
        edit_csv(
            f"{MAIN}/main-goal.csv", "", "recipe_mean", 0.4321, run="main-locomo-1500"
        ),
        # Whichever recipe is best, its figure sits before the retriever's.
        "0.432 | `rag-hybrid`",
    ),
    "main-locomo": (
        edit_csv(
            f"{MAIN}/main-locomo-1500/summary.csv",
            "A",
            "evidence_recall",
            0.1234,
            category="all",
        ),
        "| A | 0.123 [",
    ),
    "main-synthetic": (
        edit_csv(
            f"{MAIN}/main-synthetic-600/summary.csv",
            "B",
            "context_tokens_mean",
            4321.0,
            category="all",
        ),
        "| 4,321 |",
    ),
    "tail": (
        edit_csv(
            "evals/results/main-before-tail/main-synthetic-600/summary.csv",
            "A",
            "evidence_recall",
            0.1111,
            category="all",
        ),
        "| 0.111 → ",
    ),
    "extractors": (
        edit_csv(
            "evals/results/main-rules/main-locomo-600/summary.csv",
            "A",
            "answer_recall",
            0.2222,
            category="all",
        ),
        ", 0.222 / ",
    ),
    "main-runs": (
        edit_text(
            f"{MAIN}/main-locomo-600/report.md",
            r"git commit `[0-9a-f]+",
            "git commit `fedcba9",
        ),
        "`fedcba9`",
    ),
    "statement sets": (
        edit_text(
            "evals/results/extraction/statements-b-parse.txt",
            r"forbidden values stored: \d+",
            "forbidden values stored: 9",
        ),
        ", 9 |",
    ),
    "speed": (
        edit_json(
            f"{BENCH}/bench-full.json",
            lambda d: d["ingest"][0]["total"].update(p95_ms=23.456),
        ),
        "A 23.5 ms, B",
    ),
    "faults": (
        edit_json(f"{BENCH}/bench-faults.json", lambda d: d.update(lost=3)),
        "lost 3,",
    ),
    "speed-llm": (
        edit_json(
            f"{BENCH}/llm/bench-quick.json",
            lambda d: d["ingest"][0]["compression_vs_turn"].update(p95=0.77),
        ),
        "0.77x (A,",
    ),
    "targets": (
        edit_json(
            f"{BENCH}/bench-quick.json",
            lambda d: d["burst"][0].update(turns_extracted_per_s=12.3),
        ),
        "12.3 turns per second",
    ),
    "ingest-scaling": (
        edit_json(
            f"{BENCH}/bench-ingest-scaling.json",
            lambda d: d["rows"][0].update(turns_per_s=99.9),
        ),
        "| 99.9 turns/s |",
    ),
    "executors": (
        edit_json(f"{BENCH}/bench-executors.json", lambda d: d.update(ray_s=123.4)),
        "| 123 s |",
    ),
    "peers": (
        edit_csv(
            "evals/results/peers-smollm2/summary.csv",
            "A",
            "answer_f1",
            0.913,
            category="all",
        ),
        "| 0.913 |",
    ),
    "triggers": (
        edit_csv(
            "evals/results/triggers/triggers.csv",
            "A",
            "evidence_recall",
            0.4321,
            budget=1500,
        ),
        "| A | 0.432 |",
    ),
    "judge": (
        edit_json(
            "evals/results/judge-check/smollm2/judge-calibration.json",
            lambda d: d.update(items=121),
        ),
        "121 items",
    ),
}


@pytest.mark.slow
@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_changed_result_file_makes_the_readme_stale(repo_copy: Path, change: str):
    edit, shown = CHANGES[change]
    readme = repo_copy / "README.md"
    assert shown not in pages_text(repo_copy)
    edit(repo_copy)
    assert tables.main([str(readme), "--check"]) == 1
    assert tables.main([str(readme)]) == 0
    assert tables.main([str(readme), "--check"]) == 0
    assert shown in pages_text(repo_copy)
