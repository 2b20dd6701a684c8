"""The offline responder on held-out probes: does the answer line hold the answer?

The probes (`tests/data/offline_answer_heldout.json`) were written before the
responder was run on them. Twelve statements are said in one chat of one
memory; each question is asked in another chat. A probe is answered when the
reply's answer line (before "Also in memory") holds the expected text, and, for
a question memory cannot answer, when the reply says memory holds nothing. The
share is printed and must reach `FLOOR`; the note reports the measured share.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from memory_lab import ManualClock, MemoryEngine
from memory_lab.brains.offline.brain import NOTHING

pytestmark = pytest.mark.slow

CASES = Path(__file__).resolve().parents[1] / "data" / "offline_answer_heldout.json"
FLOOR = 0.6
"""Answered share below which the responder is worse than a listing would be."""


def _answer_line(reply: str) -> str:
    return reply.split(" Also in memory:", 1)[0]


def test_the_offline_responder_answers_held_out_probes(tmp_path, capsys):
    cases = json.loads(CASES.read_text())
    clock = ManualClock(datetime(2026, 3, 2, 9, tzinfo=UTC))
    results = []
    with MemoryEngine(tmp_path / "data", clock=clock) as engine:
        for text in cases["statements"]:
            clock.advance(timedelta(minutes=2))
            engine.chat("visitor", text, session="first-chat")
        engine.close_session("visitor")
        assert engine.flush(timeout=120)
        for probe in cases["probes"]:
            clock.advance(timedelta(minutes=1))
            reply = engine.chat("visitor", probe["question"], session="second-chat")
            line = _answer_line(reply.reply or "")
            if probe["expect"] is None:
                ok = (reply.reply or "") == NOTHING
            else:
                ok = probe["expect"].lower() in line.lower()
            results.append((ok, probe["question"], line))
    answered = sum(ok for ok, _, _ in results) / len(results)
    with capsys.disabled():
        print(f"\noffline responder, held-out probes: {answered:.2f} answered")
        for ok, question, line in results:
            print(f"  {'ok ' if ok else 'MISS'} {question} -> {line[:140]}")
    assert answered >= FLOOR, results
