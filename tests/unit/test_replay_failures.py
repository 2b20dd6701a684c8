"""`memory-lab replay` says so, and exits 1, when memory jobs failed for good.

Extraction and compression run on the background worker; a brain that raises
there leaves the turns stored and the memory without facts or episodes. The
tables alone would show a memory that merely learned nothing.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta

import pytest

from memlab_cli.main import main
from memory_lab.brains.offline import RuleBasedBrain

T0 = datetime(2025, 1, 6, 9, tzinfo=UTC)


@pytest.fixture
def conversation(tmp_path):
    """Ten turns in the replay's JSON format."""
    messages = [
        {
            "id": f"m{i}",
            "session": "s1",
            "role": "user" if i % 2 == 0 else "assistant",
            "content": f"I moved to Lisbon last year; note {i}.",
            "timestamp": (T0 + timedelta(minutes=i)).isoformat(),
        }
        for i in range(10)
    ]
    path = tmp_path / "tiny.json"
    doc = {"name": "tiny", "tenant": "ana", "messages": messages}
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def _replay(path, *flags):
    return main(["replay", "--dataset", str(path), "--recipe", "A", *flags])


def test_extraction_that_always_raises_fails_the_replay(
    conversation, monkeypatch, capsys
):
    def extract(self, messages, *, known=()):
        raise RuntimeError("extraction is broken")

    monkeypatch.setattr(RuleBasedBrain, "extract", extract)
    code = _replay(conversation, "--quiet")
    err = capsys.readouterr().err
    assert code == 1
    (line,) = [x for x in err.splitlines() if "failed for good" in x]
    assert re.fullmatch(
        r"memory-lab replay: error: \d+ memory jobs? failed for good in tiny/A: "
        r"extract of turns \d+\.\.\d+ failed for good: "
        r"RuntimeError\('extraction is broken'\)",
        line,
    ), line


def test_json_output_still_fails_loudly(conversation, monkeypatch, capsys):
    def extract(self, messages, *, known=()):
        raise RuntimeError("extraction is broken")

    monkeypatch.setattr(RuleBasedBrain, "extract", extract)
    code = _replay(conversation, "--json")
    out, err = capsys.readouterr()
    assert code == 1
    assert json.loads(out)["brain"] == "rule"  # the document is still printed
    assert "memory-lab replay: error: " in err


def test_a_healthy_replay_exits_0_without_errors(conversation, capsys):
    assert _replay(conversation, "--quiet") == 0
    assert "error" not in capsys.readouterr().err
