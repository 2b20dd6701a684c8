"""Small builders shared by tests (not fixtures: plain functions)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta

from memory_lab.stores.chroma_telemetry import quiet_env
from memory_lab.types import FactCandidate, Message

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)


LOCATION_ENV = ("MEMORY_LAB_STORE", "MEMORY_LAB_EPISODES_STORE", "MEMORY_LAB_DATA")
"""The variables that point a command at servers or a data folder."""


def without_location_env(env) -> None:
    """Clear `LOCATION_ENV` on a MonkeyPatch: a command uses the folder given."""
    for name in LOCATION_ENV:
        env.delenv(name, raising=False)


def msg(
    i: int,
    text: str | None = None,
    *,
    role: str = "user",
    tenant: str = "t1",
    session: str = "s1",
    at: datetime | None = None,
    minutes: int = 1,
    speaker: str = "",
) -> Message:
    """Message number i, `minutes` apart from the previous one by default."""
    return Message(
        id=f"m{i}",
        tenant=tenant,
        session=session,
        role=role,
        content=text if text is not None else f"message number {i} about topic {i % 7}",
        timestamp=at or T0 + timedelta(minutes=minutes * i),
        speaker=speaker,
    )


def cand(
    key: str,
    value: str,
    *,
    category: str = "knowledge",
    source: str = "extracted",
    confidence: float = 0.8,
    turn: str = "m1",
    subject: str = "user",
) -> FactCandidate:
    return FactCandidate(
        category=category,
        key=key,
        value=value,
        source=source,
        confidence=confidence,
        turn_ids=[turn],
        session="s1",
        subject=subject,
        evidence=value,
    )


CONTRACT_COLUMNS = [
    "system",
    "dataset",
    "category",
    "n",
    "evidence_recall",
    "answer_recall",
    "hallucinated_memory_rate",
    "stale_answer_rate",
    "compression_ratio",
    "context_tokens_mean",
    "ingest_ms_p95",
    "retrieve_ms_p95",
]
"""The summary.csv columns users' scripts rely on, a contract (written out here,
not imported from evals, so a column dropped there fails the tests)."""

LLM_COLUMNS = [
    "answer_f1",
    "answer_bleu1",
    "judged_accuracy",
    "llm_calls",
    "llm_prompt_tokens",
    "llm_completion_tokens",
    "llm_cache_hits",
    "extraction_rejected_rate",
]
"""The LLM-mode columns of summary.csv: always present, empty when unscored."""


def start_app_mid_morning(data_dir, tenant: str = "demo") -> None:
    """Move the app's clock for `tenant` to the next 09:00 UTC.

    The app runs on wall time plus an offset; a test that advances it by hours
    would cross midnight (and fire the day trigger early) when run near
    midnight, so such tests start from a fixed time of day.
    """
    from app_ui.clock import OffsetStore

    now = datetime.now(UTC)
    target = now.replace(hour=9, minute=0, second=0, microsecond=0)
    if target <= now:
        target += timedelta(days=1)
    OffsetStore(data_dir).add(tenant, target - now)


def probe_record(**fields):
    """A logged probe with every required field filled; `fields` override them."""
    from memlab_evals.running.log import ProbeRecord

    base = dict(
        system="A",
        conversation="c",
        probe_id="p",
        category=1,
        kind="recall",
        question="q?",
        answer="a",
        after_turn="m1",
        context="",
        context_tokens=0,
        history_tokens=1,
        stored_tokens=1,
        retrieve_ms=0.0,
    )
    return ProbeRecord(**{**base, **fields})


TOPICS = ("the garden", "the trip to Lisbon", "our budget", "the new bike")


def spaced_turns(
    tenant: str,
    said: Mapping[tuple[str, int], str],
    sessions: Sequence[str],
    *,
    start: datetime,
    apart: timedelta = timedelta(days=1),
    per_session: int = 16,
) -> list[Message]:
    """Sessions `apart`, turns three minutes apart, small talk but for `said`.

    `said` maps (session, turn number) to what that turn says instead; turn ids
    are `session:number`, users and assistants alternate.
    """
    turns = []
    for day, session in enumerate(sessions):
        for i in range(per_session):
            n = len(turns)
            text = said.get(
                (session, i), f"Let us talk about {TOPICS[n % 4]}, item {n}."
            )
            turns.append(
                Message(
                    id=f"{session}:{i}",
                    tenant=tenant,
                    session=session,
                    role="user" if i % 2 == 0 else "assistant",
                    content=text,
                    timestamp=start + day * apart + timedelta(minutes=3 * i),
                )
            )
    return turns


def memory_lab_cli(
    *args: str, env: Mapping[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess:
    """`memory-lab ARGS` in a new process, output captured, no terminal to ask on."""
    return subprocess.run(
        [sys.executable, "-m", "memlab_cli.main", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        stdin=subprocess.DEVNULL,
        timeout=timeout,
    )


_OPEN_AND_CLOSE = """
import sys
from datetime import datetime, timedelta
from memory_lab import ManualClock, MemoryEngine
clock = ManualClock(datetime.fromisoformat(sys.argv[2]))
keep = timedelta(seconds=float(sys.argv[3]))
MemoryEngine(sys.argv[1], clock=clock, trash_keep=keep).close()
"""


def open_and_close_apart(data, at: datetime, trash_keep: timedelta) -> None:
    """Open and close an engine on the folder `data` at `at` in a new process.

    The next open after a restart: what a purge or an emptied trash leaves in
    the files is checked after it. A process that once held purged text can
    write it back into Chroma's HNSW files when it opens the folder again (it
    writes them from memory it never cleared), so that check must not follow an
    open by the test's own process.
    """
    subprocess.run(
        [
            sys.executable,
            "-c",
            _OPEN_AND_CLOSE,
            str(data),
            at.isoformat(),
            str(trash_keep.total_seconds()),
        ],
        check=True,
        capture_output=True,
        env=quiet_env(),
    )


def blas_threads(_unit: object) -> int:
    """How many threads numpy's BLAS pool has in this process.

    Picklable by name, for a pool worker to run and report its own.
    """
    import numpy  # noqa: F401  (loads the BLAS library threadpoolctl reads)
    from threadpoolctl import threadpool_info

    return max(i["num_threads"] for i in threadpool_info() if i["user_api"] == "blas")


def parsed(text: str) -> set[tuple[str, str, str]]:
    """What the parse reads from one turn: (subject, key, value) of each candidate."""
    from memory_lab.brains.offline.parse.extract import parse_candidates

    return {(c.subject, c.key, c.value) for c in parse_candidates([msg(0, text)])}
