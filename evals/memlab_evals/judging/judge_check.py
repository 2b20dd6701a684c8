"""Judge calibration: whether the judge behind J tells right answers from wrong.

J is only as good as its judge. A lenient judge accepted 62.8% of vague wrong
answers in published work, and the local SmolLM2 judge gave a system with no memory
0.917. So before a judge's J is trusted, it grades answers whose verdict is known,
made from the dataset's own probes: the gold itself and a normalised copy of it
(CORRECT), and another question's answer, the year shifted by one, another name, or
an abstention (WRONG). It sees exactly J's prompt (`judges.answer_messages`).

The false-accept rate (WRONG answers judged CORRECT) decides whether the judge is
reliable, since that is what inflates J; the false-reject rate (CORRECT answers
judged WRONG) is flagged beside it. A reply without a verdict is a failure, counted
apart and left out of both rates, never a guess. Per-item verdicts go to a JSON lines
file, so `calibrate` can re-score a stored check without a request.

`memory-lab judge check` runs it (see `register`); it exits 0 for a reliable judge,
3 for an unreliable one and 2 on bad input.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
from memlab_datasets import load_dataset
from pydantic import Field

from memlab_evals.judging import judges
from memlab_evals.judging.bounded import Gate, run_async
from memlab_evals.judging.endpoints import CallOptions, Endpoint
from memlab_evals.judging.judge_items import (
    EXPECTED,
    KINDS,
    CalibrationItem,
    CalibrationModel,
    calibration_set,
)
from memlab_evals.running.llm_records import EndpointInfo, JudgeVerdict, Label
from memlab_evals.running.log import ProbeRecord
from memlab_evals.scorers.bootstrap import bootstrap_ci
from memory_lab.errors import MemoryLabError
from memory_lab.llm_client.client import ChatClient, LLMUsage
from memory_lab.llm_client.structured_output import STRUCTURED_OUTPUT_MODES

CALIBRATION_VERSION = 1
RESULT_FILE = "judge-calibration.json"
ITEMS_FILE = "judge-calibration.jsonl"
EXIT_UNRELIABLE = 3
"""Exit status of `judge check` for an unreliable judge (2 is bad input)."""


class CheckedItem(CalibrationItem):
    """An item with the judge's verdict on it."""

    verdict: JudgeVerdict
    agrees: bool | None = Field(
        description="Verdict equals the expected one; None when there was none."
    )


class RateEstimate(CalibrationModel):
    """A share of judged items that went against the key, with its interval."""

    rate: float | None = Field(
        description="against / judged; None when no item got a verdict."
    )
    low: float | None = Field(description="Percentile bootstrap 95% lower bound.")
    high: float | None = Field(description="Percentile bootstrap 95% upper bound.")
    against: int = Field(description="Items judged against the expected verdict.")
    judged: int = Field(description="Items with a verdict (failures left out).")
    failures: int = Field(description="Items whose reply had no verdict.")


class KindResult(RateEstimate):
    """One kind's items; `rate` is its false accepts or its false rejects."""

    expected: Label
    items: int


class JudgeCalibration(CalibrationModel):
    """What a judge did with answers of known verdict, and whether to trust it."""

    version: int = CALIBRATION_VERSION
    judge: EndpointInfo
    prompts: dict[str, str] = Field(
        description="J's prompt name -> version: a check speaks for that prompt only."
    )
    structured_output: str = ""
    dataset: str = ""
    dataset_hash: str = ""
    seed: int | None = None
    per_kind: int | None = None
    items: int
    false_accept: RateEstimate = Field(
        description="WRONG-expected items judged CORRECT: what inflates J."
    )
    false_reject: RateEstimate = Field(
        description="CORRECT-expected items judged WRONG: what deflates J."
    )
    kinds: dict[str, KindResult]
    verdict_failures: int = Field(description="Replies with no verdict, all kinds.")
    failure_examples: list[str] = Field(
        default_factory=list, description="The first few failures' reasons."
    )
    false_accept_max: float
    false_reject_max: float
    reliable: bool = Field(
        description="The false-accept rate is known and at most false_accept_max."
    )
    too_strict: bool = Field(
        description="The false-reject rate is above false_reject_max."
    )
    usage: dict[str, int] = Field(default_factory=dict)
    seconds: float | None = None
    git_commit: str = ""
    created_at: str = ""


# -- the calibration set -----------------------------------------------------------


def judge_messages(item: CalibrationItem) -> list[dict[str, str]]:
    """J's own messages for an item, built by J's own function so the two agree."""
    probe = ProbeRecord(
        system="judge-check",
        conversation=item.conversation,
        probe_id=item.probe_id,
        category=item.category,
        kind=item.kind,
        question=item.question,
        answer=item.gold,
        after_turn="",
        context="",
        context_tokens=0,
        history_tokens=0,
        stored_tokens=0,
        retrieve_ms=0.0,
    )
    return judges.answer_messages(probe, item.candidate)


def run_check(
    items: Sequence[CalibrationItem],
    judge_client: ChatClient,
    *,
    max_connections: int = 4,
    on_item: Callable[[], None] | None = None,
) -> list[CheckedItem]:
    """Ask the judge about every item, in order; failures are marked, not raised."""

    async def one(gate: Gate, item: CalibrationItem) -> CheckedItem:
        verdict = await judges.judge(judge_client, gate, judge_messages(item))
        if on_item is not None:
            on_item()
        agrees = None if verdict.label is None else verdict.label == item.expected
        return CheckedItem(**item.model_dump(), verdict=verdict, agrees=agrees)

    async def everything() -> list[CheckedItem]:
        gate = Gate(max_connections)
        return list(await asyncio.gather(*(one(gate, item) for item in items)))

    return run_async(everything())


# -- rates -------------------------------------------------------------------------


def calibrate(
    checked: Sequence[CheckedItem],
    *,
    judge: EndpointInfo,
    false_accept_max: float = 0.10,
    false_reject_max: float = 0.20,
    **about: object,
) -> JudgeCalibration:
    """Rates, intervals and the verdict on the judge, from checked items alone.

    Args:
        checked: The items with the judge's verdicts (fresh, or read back).
        judge: Which judge it was.
        false_accept_max: Highest false-accept rate of a reliable judge.
        false_reject_max: False-reject rate above which the judge is too strict.
        **about: Other `JudgeCalibration` fields (dataset, seed, usage, ...).
    """
    check_limits(false_accept_max, false_reject_max)
    wrong = [c for c in checked if c.expected == "WRONG"]
    right = [c for c in checked if c.expected == "CORRECT"]
    kinds = {
        kind: KindResult(
            **_estimate(group).model_dump(), expected=EXPECTED[kind], items=len(group)
        )
        for kind in KINDS
        if (group := [c for c in checked if c.kind == kind])
    }
    false_accept, false_reject = _estimate(wrong), _estimate(right)
    failed = [c for c in checked if c.verdict.label is None]
    values = {
        "judge": judge,
        "prompts": judges.prompt_versions(answers=True, contexts=False),
        "items": len(checked),
        "false_accept": false_accept,
        "false_reject": false_reject,
        "kinds": kinds,
        "verdict_failures": len(failed),
        "failure_examples": [f"{c.id}: {c.verdict.error}" for c in failed[:5]],
        "false_accept_max": false_accept_max,
        "false_reject_max": false_reject_max,
        "reliable": false_accept.rate is not None
        and false_accept.rate <= false_accept_max,
        "too_strict": false_reject.rate is not None
        and false_reject.rate > false_reject_max,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    return JudgeCalibration(**{**values, **about})


def check_limits(false_accept_max: float, false_reject_max: float) -> None:
    """Refuse a rate limit outside [0, 1] before anything is sent.

    Raises:
        ValueError: naming the limit.
    """
    for name, value in (
        ("false_accept_max", false_accept_max),
        ("false_reject_max", false_reject_max),
    ):
        if not 0.0 <= value <= 1.0:
            raise ValueError(f"{name} must be between 0 and 1, got {value}")


def _estimate(group: Sequence[CheckedItem]) -> RateEstimate:
    judged = [c for c in group if c.agrees is not None]
    against = np.array([0.0 if c.agrees else 1.0 for c in judged])
    if not judged:
        rate = low = high = None
    else:
        rate = float(against.mean())
        low, high = bootstrap_ci(against)
    return RateEstimate(
        rate=rate,
        low=low,
        high=high,
        against=int(against.sum()),
        judged=len(judged),
        failures=len(group) - len(judged),
    )


# -- the whole check, its files and its table --------------------------------------


def check_judge(
    dataset: str,
    judge: Endpoint,
    *,
    per_kind: int = 20,
    seed: int = 0,
    options: CallOptions | None = None,
    false_accept_max: float = 0.10,
    false_reject_max: float = 0.20,
) -> tuple[JudgeCalibration, list[CheckedItem]]:
    """Build the set from `dataset`, ask `judge`, and score what it said."""
    from memlab_evals.running.runner import git_commit

    check_limits(false_accept_max, false_reject_max)
    options = options or CallOptions()
    loaded = load_dataset(dataset)
    items = calibration_set(loaded, seed=seed, per_kind=per_kind)
    if not items:
        raise MemoryLabError(f"{dataset}: no answerable probe to calibrate with")
    usage = LLMUsage()
    client = options.client(judge, usage=usage, cache=options.cache())
    started = time.perf_counter()
    try:
        checked = run_check(items, client, max_connections=options.max_connections)
    finally:
        client.close()
    calibration = calibrate(
        checked,
        judge=judge.info(),
        false_accept_max=false_accept_max,
        false_reject_max=false_reject_max,
        structured_output=options.structured_output,
        dataset=dataset,
        dataset_hash=loaded.content_hash,
        seed=seed,
        per_kind=per_kind,
        usage=usage.snapshot(),
        seconds=round(time.perf_counter() - started, 3),
        git_commit=git_commit(),
    )
    return calibration, checked


def write_check(
    out: Path, calibration: JudgeCalibration, checked: Sequence[CheckedItem]
) -> None:
    """OUT/judge-calibration.json and one JSON line per checked item beside it."""
    out.mkdir(parents=True, exist_ok=True)
    (out / RESULT_FILE).write_text(
        calibration.model_dump_json(indent=2) + "\n", encoding="utf-8"
    )
    with open(out / ITEMS_FILE, "w", encoding="utf-8") as lines:
        for item in checked:
            lines.write(item.model_dump_json() + "\n")


def read_checked(path: Path) -> list[CheckedItem]:
    """Checked items back from a JSON lines file, for `calibrate`."""
    with open(path, encoding="utf-8") as lines:
        return [CheckedItem.model_validate_json(line) for line in lines if line.strip()]


def verdict_line(calibration: JudgeCalibration) -> str:
    """'judge reliable' or 'judge UNRELIABLE: why', the line a script greps for."""
    limit = _percent(calibration.false_accept_max)
    rate = calibration.false_accept.rate
    if rate is None:
        return (
            "judge UNRELIABLE: no verdict on any wrong answer "
            f"({calibration.verdict_failures} replies without one)"
        )
    if not calibration.reliable:
        return f"judge UNRELIABLE: false accepts {_percent(rate)} > {limit}"
    return "judge reliable"


def report_line(calibration: JudgeCalibration) -> str:
    """One line for beside J: both rates with their counts, and the verdict."""
    return (
        f"J's judge, checked first on {calibration.items} answers of known verdict: "
        f"{_rate_line('false accepts', calibration.false_accept)}; "
        f"{_rate_line('false rejects', calibration.false_reject)}; "
        f"**{verdict_line(calibration)}**"
        + ("" if calibration.reliable else " (J above is not a measurement).")
    )


def format_table(calibration: JudgeCalibration) -> str:
    """The per-kind table and both rates, as `judge check` prints them."""
    c = calibration
    lines = [
        f"judge {c.judge.model} @ {c.judge.base_url}, prompt "
        + ", ".join(c.prompts.values()),
        f"{c.items} items from {c.dataset or 'the dataset'}"
        + (f", seed {c.seed}" if c.seed is not None else ""),
        "",
        f"{'kind':<13}{'expect':<9}{'items':>6}{'judged':>8}{'against':>9}"
        f"{'rate':>8}  95% interval",
    ]
    for kind, result in c.kinds.items():
        lines.append(
            f"{kind:<13}{result.expected:<9}{result.items:>6}{result.judged:>8}"
            f"{result.against:>9}{_percent(result.rate):>8}  {_interval(result)}"
        )
    lines += [
        "",
        _rate_line("false accept (WRONG judged CORRECT)", c.false_accept),
        _rate_line("false reject (CORRECT judged WRONG)", c.false_reject),
        f"verdict failures: {c.verdict_failures} of {c.items} (in neither rate)",
    ]
    if c.too_strict:
        lines.append(
            f"judge too strict: false rejects {_percent(c.false_reject.rate)} > "
            f"{_percent(c.false_reject_max)}"
        )
    lines.append(verdict_line(c))
    return "\n".join(lines)


def _rate_line(label: str, estimate: RateEstimate) -> str:
    if estimate.rate is None:
        return f"{label}: unscored, no verdicts"
    return (
        f"{label}: {estimate.against}/{estimate.judged} = "
        f"{_percent(estimate.rate)} {_interval(estimate)}"
    )


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _interval(estimate: RateEstimate) -> str:
    if estimate.low is None or estimate.high is None:
        return "-"
    return f"[{_percent(estimate.low)}, {_percent(estimate.high)}]"


# -- the command -------------------------------------------------------------------


def register(sub: argparse._SubParsersAction) -> None:
    """Add `judge check`: calibrate a judge on answers of known verdict."""
    p = sub.add_parser("judge", help="check a judge before trusting its J")
    judge = p.add_subparsers(dest="judge_command", required=True)
    check = judge.add_parser(
        "check",
        help="false-accept and false-reject rates of a judge on known answers",
        description="Grade answers of known verdict, made from the dataset's own "
        "probes (the gold, a normalised gold, another question's answer, a year "
        "off by one, a wrong name, an abstention), with J's exact prompt. Writes "
        "OUT/judge-calibration.json and OUT/judge-calibration.jsonl (one verdict "
        "per item).",
        epilog="Exit status: 0 the judge is reliable; 3 it is not (false accepts "
        "above --false-accept-max, or no verdict at all); 2 bad input.",
    )
    check.add_argument("--dataset", required=True, help="dataset spec or file")
    check.add_argument(
        "--judge-base-url", help="judge endpoint (MEMORY_LAB_JUDGE_BASE_URL)"
    )
    check.add_argument("--judge-model", help="judge model (MEMORY_LAB_JUDGE_MODEL)")
    check.add_argument(
        "--per-kind", type=int, default=20, help="items per kind (default 20)"
    )
    check.add_argument("--seed", type=int, default=0, help="sampling seed")
    check.add_argument(
        "--out", type=Path, help="folder for the results (default RUNS/judge-check)"
    )
    check.add_argument(
        "--false-accept-max",
        type=float,
        default=0.10,
        help="highest false-accept rate of a reliable judge (default 0.10)",
    )
    check.add_argument(
        "--false-reject-max",
        type=float,
        default=0.20,
        help="false-reject rate above which the judge is flagged too strict "
        "(default 0.20)",
    )
    check.add_argument(
        "--structured-output",
        choices=STRUCTURED_OUTPUT_MODES,
        default="json_object_schema",
        help="how the judge is asked for JSON (as for eval)",
    )
    check.add_argument(
        "--max-connections", type=int, help="requests in flight (default 4)"
    )
    check.add_argument("--timeout", type=float, help="seconds per request (default 60)")
    check.add_argument(
        "--no-cache", action="store_true", help="send every request; cache nothing"
    )
    check.set_defaults(func=_run_check)


def _run_check(args: argparse.Namespace) -> int:
    # `main` puts the environment's settings on args; a bare parser has none.
    settings = getattr(args, "settings", None)
    if settings is not None:
        judge = settings.judge(args.judge_base_url, args.judge_model)
    elif args.judge_base_url and args.judge_model:
        judge = Endpoint(args.judge_base_url, args.judge_model)
    else:
        judge = None
    if judge is None:
        raise MemoryLabError(
            "judge check needs a judge: set --judge-base-url and --judge-model "
            "(or MEMORY_LAB_JUDGE_BASE_URL and MEMORY_LAB_JUDGE_MODEL)"
        )
    timeout, connections = args.timeout, args.max_connections
    if timeout is None:
        timeout = settings.llm_timeout_s if settings else 60.0
    if connections is None:
        connections = settings.llm_max_connections if settings else 4
    if timeout <= 0:
        raise MemoryLabError(f"--timeout must be positive, got {timeout}")
    options = CallOptions(
        max_connections=connections,
        use_cache=not args.no_cache,
        cache_path=settings.llm_cache if settings else None,
        structured_output=args.structured_output,
        timeout_s=timeout,
    )
    out = args.out or (settings.runs if settings else Path("runs")) / "judge-check"
    calibration, checked = check_judge(
        args.dataset,
        judge,
        per_kind=args.per_kind,
        seed=args.seed,
        options=options,
        false_accept_max=args.false_accept_max,
        false_reject_max=args.false_reject_max,
    )
    write_check(out, calibration, checked)
    print(format_table(calibration))
    print(f"wrote {out / RESULT_FILE} and {out / ITEMS_FILE}", file=sys.stderr)
    return 0 if calibration.reliable else EXIT_UNRELIABLE
