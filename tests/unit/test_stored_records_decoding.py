"""Stored turns and episodes are decoded once, and again whenever they changed."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime

from memory_lab.jobs.ledger import JobLedger
from memory_lab.stores import SqlTranscriptStore
from memory_lab.types import Episode, Message

AT = datetime(2026, 3, 1, 9, 0, tzinfo=UTC)


def _turn(i: int, content: str) -> Message:
    return Message(
        id=f"m{i}", tenant="t", session="s1", role="user", content=content, timestamp=AT
    )


def test_a_row_read_twice_is_decoded_once(tmp_path):
    store = SqlTranscriptStore(tmp_path / "memory.sqlite")
    store.append("t", "main", [_turn(0, "I moved to Lisbon."), _turn(1, "Hi.")])
    first, second = store.messages("t", "main"), store.messages("t", "main")
    assert first == second
    assert all(a is b for a, b in zip(first, second, strict=True))
    store.close()


def test_a_row_changed_underneath_is_read_as_it_now_is(tmp_path):
    path = tmp_path / "memory.sqlite"
    store = SqlTranscriptStore(path)
    store.append("t", "main", [_turn(0, "I moved to Lisbon.")])
    assert store.messages("t")[0].content == "I moved to Lisbon."
    # Another connection (another process) rewrites the row: same tenant, seq, id.
    with sqlite3.connect(path) as other:
        other.execute("UPDATE messages SET content = 'I moved to Porto.'")
    other.close()
    (now,) = store.messages("t")
    assert (now.seq, now.id, now.content) == (0, "m0", "I moved to Porto.")
    store.close()


def _episode(summary: str) -> Episode:
    return Episode(
        id="ep1",
        tenant="t",
        session="s1",
        thread="main",
        first_seq=0,
        last_seq=1,
        turn_ids=["m0", "m1"],
        start=AT,
        end=AT,
        original_message_count=2,
        original_tokens=20,
        summary_tokens=5,
        summary=summary,
        created_at=AT,
        brain="rule-based",
    )


def test_committed_episodes_are_decoded_once_and_again_when_rewritten(tmp_path):
    path = tmp_path / "memory.sqlite"
    ledger = JobLedger(path)
    ledger.commit_episodes("t", [_episode("Moved to Lisbon.")])
    first, second = ledger.episodes("t"), ledger.episodes("t")
    assert first[0] is second[0]
    record = _episode("Moved to Porto.").model_dump_json()
    with sqlite3.connect(path) as other:
        other.execute("UPDATE memory_episodes SET record = ?", (record,))
    other.close()
    assert [e.summary for e in ledger.episodes("t")] == ["Moved to Porto."]
