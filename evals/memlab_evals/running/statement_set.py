"""The held-out statement set: what the offline brain stores from ordinary sentences.

`datasets/statements/heldout.jsonl` was written before the parser brain, in
phrasings the synthetic generator never uses. Each case is fed through a real
engine (one tenant per case, a day between its turns, the session closed at the
end so every turn is extracted), then its stored rows are matched:

- an expected fact is met when a row of its subject (ignoring case) holds every
  word of the expected value, and is active (status "active") or stored and no
  longer active (status "ended");
- recall is met expectations over all of them; precision is active rows that
  meet some active expectation over all active rows at the end;
- a forbidden value held by any active row is a violation (a negation, a
  hypothetical or someone else's words stored as fact).

Run `python -m memlab_evals.running.statement_set [--extractor rules]` for the figures.
The first line names the set and the commit the code ran at (``+dirty`` when the
tree had edits), as every committed result records it; write the file with
``--out``, since a shell redirect into the checkout dirties the tree before the
commit is read.
"""

from __future__ import annotations

import argparse
import json
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from memlab_evals.running.provenance import git_commit
from memory_lab.clock import ManualClock
from memory_lab.config import DEFAULT_EXTRACTOR, EXTRACTORS, Extractor, MemoryConfig
from memory_lab.engine import MemoryEngine
from memory_lab.errors import InvalidMessageError
from memory_lab.types import Fact, Message

DEFAULT_PATH = Path(__file__).resolve().parents[3] / "datasets/statements/heldout.jsonl"
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def words(text: str) -> set[str]:
    """Lower-case letters-and-digits words ("1,400" is "1" and "400")."""
    return set(re.findall(r"[a-z0-9]+", text.lower()))


@dataclass
class CaseResult:
    """One case: what was expected, what was met, what was stored."""

    id: str
    topic: str
    expected: int
    met: int
    active: list[str]
    correct_active: int
    violations: list[str] = field(default_factory=list)
    missed: list[str] = field(default_factory=list)


@dataclass
class StatementScore:
    """Recall and precision over the whole set, and per case."""

    extractor: str
    cases: list[CaseResult]

    @property
    def recall(self) -> float:
        """Met expectations over all expectations."""
        expected = sum(c.expected for c in self.cases)
        return sum(c.met for c in self.cases) / expected if expected else 0.0

    @property
    def precision(self) -> float:
        """Active rows that meet an active expectation over all active rows."""
        active = sum(len(c.active) for c in self.cases)
        if not active:
            return 0.0
        return sum(c.correct_active for c in self.cases) / active

    @property
    def violations(self) -> int:
        """Active rows holding a forbidden value."""
        return sum(len(c.violations) for c in self.cases)

    def by_topic(self) -> dict[str, tuple[int, int]]:
        """Met and expected per topic."""
        out: dict[str, tuple[int, int]] = {}
        for case in self.cases:
            met, expected = out.get(case.topic, (0, 0))
            out[case.topic] = (met + case.met, expected + case.expected)
        return out


def load_cases(path: Path = DEFAULT_PATH) -> list[dict]:
    """The cases, one JSON object per line."""
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _holds(row: Fact, subject: str, value: str) -> bool:
    return row.subject.lower() == subject.lower() and words(value) <= words(row.value)


def _score_case(case: dict, rows: list[Fact], now: datetime) -> CaseResult:
    active = [r for r in rows if r.is_active(now)]
    met, missed = 0, []
    for item in case["expect"]:
        holders = [r for r in rows if _holds(r, item["subject"], item["value"])]
        if item["status"] == "active":
            ok = any(r.is_active(now) for r in holders)
        else:
            ok = any(not r.is_active(now) for r in holders)
        met += ok
        if not ok:
            missed.append(f"{item['subject']}: {item['value']} ({item['status']})")
    wanted = [i for i in case["expect"] if i["status"] == "active"]
    correct = sum(
        any(_holds(r, i["subject"], i["value"]) for i in wanted) for r in active
    )
    violations = [
        f"{r.subject}.{r.key} = {r.value}"
        for r in active
        for bad in case.get("forbid", [])
        if words(bad) and words(bad) <= words(r.value)
    ]
    return CaseResult(
        id=case["id"],
        topic=case["topic"],
        expected=len(case["expect"]),
        met=met,
        active=[f"{r.subject}.{r.key} = {r.value}" for r in active],
        correct_active=correct,
        violations=violations,
        missed=missed,
    )


def score_statements(
    extractor: Extractor = DEFAULT_EXTRACTOR, path: Path = DEFAULT_PATH
) -> StatementScore:
    """Feed every case through a fresh in-memory engine and match its rows."""
    clock = ManualClock(START)
    engine = MemoryEngine(config=MemoryConfig(extractor=extractor), clock=clock)
    results = []
    try:
        for n, case in enumerate(load_cases(path)):
            tenant = f"case-{n}"
            for i, turn in enumerate(case["turns"]):
                clock.advance(timedelta(days=1))
                speaker = turn.get("speaker", "")
                message = Message(
                    id=f"{case['id']}:{i}",
                    tenant=tenant,
                    session="s1",
                    role="user",
                    content=turn["text"],
                    timestamp=clock.now(),
                    speaker=speaker,
                )
                try:
                    engine.ingest(tenant, [message])
                except InvalidMessageError:
                    continue  # an empty turn is refused, as a user's would be
            engine.close_session(tenant)
            engine.flush()
            rows = engine.facts.rows(tenant)
            results.append(_score_case(case, rows, clock.now()))
    finally:
        engine.close()
    return StatementScore(extractor, results)


def run_line(path: Path) -> str:
    """What the figures were made from: the set's file and the commit (the stamp)."""
    return f"set {path.name}; git commit `{git_commit()}`"


def main(argv: list[str] | None = None) -> int:
    """Print (or write to --out) the set's recall, precision, violations and misses."""
    parser = argparse.ArgumentParser(
        prog="python -m memlab_evals.running.statement_set"
    )
    parser.add_argument("--extractor", choices=EXTRACTORS, default=DEFAULT_EXTRACTOR)
    parser.add_argument("--path", type=Path, default=DEFAULT_PATH)
    parser.add_argument("--verbose", action="store_true", help="every case's rows")
    parser.add_argument(
        "--out",
        type=Path,
        help="write the figures to this file; unlike a shell redirect into the "
        "checkout, it is written after the commit is read, so a clean tree is "
        "stamped clean",
    )
    args = parser.parse_args(argv)
    # Read before anything is written: the code that runs is what was checked out.
    lines = [run_line(args.path)]
    score = score_statements(args.extractor, args.path)
    expected = sum(c.expected for c in score.cases)
    active = sum(len(c.active) for c in score.cases)
    lines.append(
        f"{args.extractor}: recall {score.recall:.3f} "
        f"({sum(c.met for c in score.cases)}/{expected}), precision "
        f"{score.precision:.3f} ({sum(c.correct_active for c in score.cases)}/"
        f"{active}), forbidden values stored: {score.violations}"
    )
    for topic, (met, total) in sorted(score.by_topic().items()):
        lines.append(f"  {topic:14s} {met}/{total}")
    if args.verbose:
        for case in score.cases:
            lines.append(
                f"{case.id}: met {case.met}/{case.expected}; missed {case.missed}"
            )
            lines.extend(f"    {row}" for row in case.active)
            lines.extend(f"    FORBIDDEN {bad}" for bad in case.violations)
    text = "\n".join(lines) + "\n"
    if args.out is None:
        print(text, end="")
    else:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
