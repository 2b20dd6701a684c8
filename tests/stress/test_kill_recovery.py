"""SIGKILL during compression and during extraction, at seeded random points.

A child process ingests the conversation; a brain wrapper marks when it enters
summarising or extraction and the parent kills the child a random moment later
(the kill may land in the brain, the Chroma write, the fact writes or the
checkpoint). After every kill a new process resumes from what was stored. At the
end every message is stored once, is in exactly one of window and episodes, and
episode turn ranges never overlap.
"""

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memory_lab import ManualClock, MemoryEngine
from tests.stress.test_concurrency import CONFIG, T0, _msg, check_tenant

ROOT = Path(__file__).resolve().parents[2]
TOTAL = 30
TENANT = "k"

CHILD = r"""
import sys, time, random
from pathlib import Path
from memory_lab import ManualClock, MemoryEngine
from memory_lab.brains.rule_based import RuleBasedBrain
from tests.stress.test_concurrency import CONFIG, T0, _msg

data, phase, marker = sys.argv[1], sys.argv[2], Path(sys.argv[3])
seed, total = int(sys.argv[4]), int(sys.argv[5])
rng = random.Random(seed)

class MarkingBrain(RuleBasedBrain):
    def _mark(self, name):
        if name == phase:
            marker.write_text(name)
            time.sleep(rng.uniform(0, 0.02))
    def summarize(self, messages, *, max_tokens):
        self._mark("compression")
        return super().summarize(messages, max_tokens=max_tokens)
    def extract(self, messages, *, known=()):
        self._mark("extraction")
        return super().extract(messages, known=known)

brain = MarkingBrain(categories=CONFIG.facts)
engine = MemoryEngine(Path(data), config=CONFIG, clock=ManualClock(T0), brain=brain)
stored = {m.id for m in engine.transcript.messages("k")}
print("ready", flush=True)
for i in range(total):
    m = _msg("k", i)
    if m.id in stored:
        continue
    engine.ingest("k", [m])
engine.close()
print("done", flush=True)
"""


def _spawn(data: Path, phase: str, marker: Path, seed: int) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ANONYMIZED_TELEMETRY": "False"}
    return subprocess.Popen(
        [
            sys.executable,
            "-c",
            CHILD,
            str(data),
            phase,
            str(marker),
            str(seed),
            str(TOTAL),
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


@pytest.mark.slow
def test_sigkill_during_compression_and_extraction_loses_nothing(tmp_path):
    rng = random.Random(20250303)
    data = tmp_path / "data"
    kills = 0
    for round_ in range(8):
        phase = ("compression", "extraction")[round_ % 2]
        marker = tmp_path / f"marker{round_}"
        child = _spawn(data, phase, marker, rng.randrange(1 << 30))
        deadline = time.monotonic() + 120
        # Skip a random number of marks so kills spread over the conversation.
        while (
            not marker.exists() and child.poll() is None and time.monotonic() < deadline
        ):
            time.sleep(0.002)
        if child.poll() is None:
            time.sleep(rng.uniform(0, 0.03))
            child.send_signal(signal.SIGKILL)
            kills += 1
        out, err = child.communicate(timeout=60)
        assert child.returncode in (0, -signal.SIGKILL), err
    assert kills >= 6, "the children finished before they could be killed"
    # A last, undisturbed run finishes the conversation.
    final = _spawn(data, "none", tmp_path / "never", 0)
    out, err = final.communicate(timeout=180)
    assert final.returncode == 0, err
    engine = MemoryEngine(data, config=CONFIG, clock=ManualClock(T0))
    check_tenant(engine, TENANT, [_msg(TENANT, i).id for i in range(TOTAL)])
    assert [m.seq for m in engine.transcript.messages(TENANT)] == list(range(TOTAL))
    # Extraction resumed: the last turns went through it too.
    assert engine.state(TENANT)["extracted_upto"] == TOTAL - 1
    engine.close()
