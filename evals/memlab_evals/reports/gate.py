"""The regression gate: a summary against measured baselines, metric by metric.

A thresholds file (JSON) lists, per system and category, per metric, which way is
better, the measured baseline and how far the metric may move the wrong way:

    {"version": 1, "dataset": "synthetic", "command": "memory-lab eval ...",
     "systems": {"A": {"all": {"evidence_recall":
         {"direction": "higher", "baseline": 0.61, "tolerance": 0.03}}}}}

`tolerance` is absolute; `rel_tolerance` (a fraction of the baseline) suits costs
such as tokens, whose scale differs between datasets. A system, category or metric
the file names but the summary lacks is a regression too: a gate that silently
passes because a column vanished is no gate.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Literal

import pandas as pd
from pydantic import BaseModel, ConfigDict, Field, model_validator

from memlab_evals.scorers import DIRECTIONS

THRESHOLDS_VERSION = 1


class Threshold(BaseModel):
    """One metric's baseline and allowed movement."""

    model_config = ConfigDict(extra="forbid")

    direction: Literal["higher", "lower"] = Field(description="Which way is better.")
    baseline: float = Field(description="The measured value the gate compares with.")
    tolerance: float | None = Field(default=None, ge=0, description="Absolute slack.")
    rel_tolerance: float | None = Field(
        default=None, ge=0, description="Slack as a fraction of the baseline."
    )

    @model_validator(mode="after")
    def _one_tolerance(self) -> Threshold:
        if (self.tolerance is None) == (self.rel_tolerance is None):
            raise ValueError("give exactly one of tolerance and rel_tolerance")
        return self

    def slack(self) -> float:
        """Allowed movement in the metric's own units."""
        if self.tolerance is not None:
            return self.tolerance
        return abs(self.baseline) * (self.rel_tolerance or 0.0)


class Thresholds(BaseModel):
    """A whole thresholds file."""

    model_config = ConfigDict(extra="forbid")

    version: int = THRESHOLDS_VERSION
    dataset: str = ""
    command: str = Field(default="", description="The command that measured it.")
    note: str = ""
    systems: dict[str, dict[str, dict[str, Threshold]]] = Field(
        description="System -> category ('all', '1'..'6') -> metric -> threshold."
    )

    @classmethod
    def load(cls, path: Path) -> Thresholds:
        """Read and validate a thresholds file."""
        data = cls.model_validate_json(path.read_text(encoding="utf-8"))
        if data.version != THRESHOLDS_VERSION:
            raise ValueError(f"{path}: thresholds version {data.version}")
        return data


def _label(system: str, category: str) -> str:
    return system if category == "all" else f"{system}[category {category}]"


def _fmt(value: float) -> str:
    return f"{value:.4g}" if abs(value) >= 10 else f"{value:.2f}"


def check(summary: pd.DataFrame, thresholds: Thresholds) -> list[str]:
    """Regression messages for a summary; empty when everything holds."""
    messages = []
    for system, categories in thresholds.systems.items():
        for category, metrics in categories.items():
            label = _label(system, category)
            rows = summary[
                (summary["system"] == system)
                & (summary["category"].astype(str) == str(category))
            ]
            if rows.empty:
                messages.append(f"{label}: missing from the summary")
                continue
            row = rows.iloc[0]
            for metric, rule in metrics.items():
                if metric not in summary.columns:
                    messages.append(
                        f"{label} {metric}: column missing from the summary"
                    )
                    continue
                value = float(row[metric])
                if math.isnan(value):
                    messages.append(
                        f"{label} {metric}: no value (baseline {_fmt(rule.baseline)})"
                    )
                    continue
                delta = value - rule.baseline
                worse = -delta if rule.direction == "higher" else delta
                if worse > rule.slack() + 1e-12:
                    messages.append(
                        f"{label} {metric} {_fmt(rule.baseline)} -> {_fmt(value)} "
                        f"({delta:+.2f}, tolerance {_fmt(rule.slack())})"
                    )
    return messages


def apply_gate(summary: pd.DataFrame, thresholds: Path) -> list[str]:
    """Regression messages for `summary` against a thresholds file; [] is a pass."""
    return check(summary, Thresholds.load(thresholds))


DEFAULT_METRICS = {
    "evidence_recall": ("tolerance", 0.03),
    "evidence_word_overlap": ("tolerance", 0.03),
    "answer_recall": ("tolerance", 0.03),
    "fact_recall": ("tolerance", 0.03),
    "stale_answer_rate": ("tolerance", 0.03),
    "abstention_violation_rate": ("tolerance", 0.03),
    "hallucinated_memory_rate": ("tolerance", 0.03),
    "extraction_precision": ("tolerance", 0.03),
    "extraction_recall": ("tolerance", 0.03),
    "compression_ratio": ("rel_tolerance", 0.10),
    "context_tokens_mean": ("rel_tolerance", 0.10),
    "brain_calls": ("rel_tolerance", 0.10),
    "brain_tokens": ("rel_tolerance", 0.10),
}
"""Gated metrics and their slack: 0.03 on rates, 10% on token and call counts.

Latencies are not gated: they measure the CI machine as much as the code.
"""


def thresholds_from(
    summary: pd.DataFrame, *, dataset: str = "", command: str = "", note: str = ""
) -> Thresholds:
    """Thresholds whose baselines are this summary's `all` rows (measured, not wished).

    Metrics that are empty for a system (a baseline has no fact store) are left out.
    """
    systems: dict[str, dict[str, dict[str, Threshold]]] = {}
    for _, row in summary[summary["category"].astype(str) == "all"].iterrows():
        metrics = {}
        for metric, (kind, slack) in DEFAULT_METRICS.items():
            if metric not in summary.columns or pd.isna(row[metric]):
                continue
            metrics[metric] = Threshold(
                direction=DIRECTIONS[metric],  # type: ignore[arg-type]
                baseline=round(float(row[metric]), 4),
                **{kind: slack},
            )
        systems[str(row["system"])] = {"all": metrics}
    return Thresholds(dataset=dataset, command=command, note=note, systems=systems)


def main(argv: list[str] | None = None) -> int:
    """`python -m memlab_evals.reports.gate summary.csv [--write OUT | --check T]`.

    T is a thresholds file, as `--write` makes one.
    """
    parser = argparse.ArgumentParser(prog="python -m memlab_evals.reports.gate")
    parser.add_argument(
        "summary", type=Path, help="A summary.csv from `memory-lab eval`."
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", type=Path, help="Write thresholds measured from it.")
    mode.add_argument("--check", type=Path, help="Gate it against a thresholds file.")
    parser.add_argument("--command", default="", help="The command that made it.")
    parser.add_argument("--note", default="", help="How it was measured.")
    args = parser.parse_args(argv)
    summary = pd.read_csv(args.summary, dtype={"category": str})
    if args.write:
        dataset = str(summary["dataset"].iloc[0]) if len(summary) else ""
        made = thresholds_from(
            summary, dataset=dataset, command=args.command, note=args.note
        )
        args.write.write_text(
            json.dumps(made.model_dump(exclude_none=True), indent=1) + "\n",
            encoding="utf-8",
        )
        return 0
    failures = apply_gate(summary, args.check)
    for line in failures:
        print(line)
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
