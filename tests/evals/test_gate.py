"""The gate fails on planted regressions, passes on equal numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from memlab_evals.reports.gate import apply_gate, main, thresholds_from
from pydantic import ValidationError


def summary(recall: float = 0.61, tokens: float = 1000.0, halluc=0.02) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {
                "system": "A",
                "dataset": "synthetic",
                "category": "all",
                "n": 10,
                "evidence_recall": recall,
                "context_tokens_mean": tokens,
                "hallucinated_memory_rate": halluc,
            },
            {
                "system": "A",
                "dataset": "synthetic",
                "category": "4",
                "n": 6,
                "evidence_recall": recall,
                "context_tokens_mean": tokens,
                "hallucinated_memory_rate": float("nan"),
            },
        ]
    )


def write(tmp_path: Path, systems: dict) -> Path:
    path = tmp_path / "t.json"
    path.write_text(json.dumps({"version": 1, "systems": systems}))
    return path


RULES = {
    "A": {
        "all": {
            "evidence_recall": {
                "direction": "higher",
                "baseline": 0.61,
                "tolerance": 0.03,
            },
            "context_tokens_mean": {
                "direction": "lower",
                "baseline": 1000,
                "rel_tolerance": 0.1,
            },
            "hallucinated_memory_rate": {
                "direction": "lower",
                "baseline": 0.02,
                "tolerance": 0.03,
            },
        }
    }
}


def test_equal_numbers_pass(tmp_path):
    assert apply_gate(summary(), write(tmp_path, RULES)) == []


def test_moves_within_tolerance_and_in_the_good_direction_pass(tmp_path):
    assert apply_gate(summary(0.59, 1090, 0.0), write(tmp_path, RULES)) == []
    assert apply_gate(summary(0.99, 10, 0.0), write(tmp_path, RULES)) == []


def test_planted_regressions_fail_with_how_much(tmp_path):
    messages = apply_gate(summary(0.52, 1200, 0.10), write(tmp_path, RULES))
    assert "A evidence_recall 0.61 -> 0.52 (-0.09, tolerance 0.03)" in messages
    assert any(m.startswith("A context_tokens_mean 1000 -> 1200") for m in messages)
    assert any(
        m.startswith("A hallucinated_memory_rate 0.02 -> 0.10") for m in messages
    )
    assert len(messages) == 3


def test_missing_system_category_metric_or_value_is_a_regression(tmp_path):
    rules = {
        "B": {"all": {"evidence_recall": RULES["A"]["all"]["evidence_recall"]}},
        "A": {
            "6": {"evidence_recall": RULES["A"]["all"]["evidence_recall"]},
            "4": {
                "hallucinated_memory_rate": RULES["A"]["all"][
                    "hallucinated_memory_rate"
                ]
            },
            "all": {
                "fact_recall": {"direction": "higher", "baseline": 1, "tolerance": 0}
            },
        },
    }
    messages = apply_gate(summary(), write(tmp_path, rules))
    assert "B: missing from the summary" in messages
    assert "A[category 6]: missing from the summary" in messages
    assert any(
        "A[category 4] hallucinated_memory_rate: no value" in m for m in messages
    )
    assert "A fact_recall: column missing from the summary" in messages


def test_a_rule_needs_exactly_one_tolerance(tmp_path):
    bad = {"A": {"all": {"evidence_recall": {"direction": "higher", "baseline": 1}}}}
    with pytest.raises(ValidationError):
        apply_gate(summary(), write(tmp_path, bad))


def test_measured_thresholds_round_trip_and_gate_the_cli(tmp_path, capsys):
    csv = tmp_path / "summary.csv"
    summary().to_csv(csv, index=False)
    out = tmp_path / "measured.json"
    assert main([str(csv), "--write", str(out), "--command", "memory-lab eval x"]) == 0
    made = json.loads(out.read_text())
    assert made["systems"]["A"]["all"]["evidence_recall"]["baseline"] == 0.61
    assert made["systems"]["A"]["all"]["context_tokens_mean"]["rel_tolerance"] == 0.1
    assert main([str(csv), "--check", str(out)]) == 0
    summary(0.4).to_csv(csv, index=False)
    assert main([str(csv), "--check", str(out)]) == 1
    assert "evidence_recall 0.61 -> 0.40" in capsys.readouterr().out


def test_thresholds_from_skips_empty_metrics():
    made = thresholds_from(summary(halluc=float("nan")))
    assert "hallucinated_memory_rate" not in made.systems["A"]["all"]
