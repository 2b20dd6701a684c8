"""Daily summaries and weekly roll-ups: made when a day or week ends, retrieved for
questions about a period."""

from datetime import UTC, datetime, timedelta

import pytest

from memlab_cli.conversation_io import builtin
from memory_lab import ManualClock, MemoryConfig, MemoryEngine, recipe
from memory_lab.episodes.periods import period_asked

CONV = builtin()
NOW = datetime(2026, 2, 11, 15, 30, tzinfo=UTC)  # a Wednesday


def _replay(spec: str, data_dir=None) -> MemoryEngine:
    engine = MemoryEngine(
        data_dir,
        config=MemoryConfig(recipe=recipe(spec)),
        clock=ManualClock(CONV.messages[0].timestamp),
    )
    for m in CONV.messages:
        engine.ingest(CONV.tenant, [m])
    engine.flush()
    return engine


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["A", "B", "C"])
def test_every_finished_day_and_week_is_summarised_under_every_recipe(spec):
    engine = _replay(spec)
    snap = engine.snapshot(CONV.tenant)
    days = sorted({m.timestamp.astimezone(UTC).date() for m in CONV.messages})
    finished = [d.isoformat() for d in days[:-1]]
    assert [s["start"] for s in snap["daily_summaries"]] == finished
    assert [s["start"] for s in snap["weekly_summaries"]] == ["2025-03-03"]
    first = snap["daily_summaries"][0]
    assert any("quarterly VAT" in d for d in first["decided"])
    assert any("Lena Berg" in item for item in first["learned"])
    second = snap["daily_summaries"][1]
    assert any("October transactions" in item for item in second["open"])
    week = snap["weekly_summaries"][0]
    assert week["messages"] == sum(
        s["messages"] for s in snap["daily_summaries"] if s["start"] < "2025-03-10"
    )
    assert any("October transactions" in item for item in week["open"])


def test_a_question_about_last_week_retrieves_the_week():
    engine = _replay("C")
    bundle = engine.assemble(CONV.tenant, "What did we do last week?")
    (week,) = engine.periods.records(CONV.tenant, "week")
    block = bundle.block("episodes")
    assert block is not None and week.id in block.items
    plain = engine.assemble(CONV.tenant, "Which accounting standard do we use?")
    assert week.id not in (
        plain.block("episodes").items if plain.block("episodes") else []
    )


def test_summaries_are_stored_once_and_survive_a_restart(tmp_path):
    engine = _replay("A", tmp_path)
    before = engine.snapshot(CONV.tenant)
    engine.close()
    reopened = MemoryEngine(
        tmp_path,
        config=MemoryConfig(recipe=recipe("A")),
        clock=ManualClock(CONV.messages[-1].timestamp + timedelta(hours=1)),
    )
    reopened.tick(CONV.tenant)
    after = reopened.snapshot(CONV.tenant)
    assert after["daily_summaries"] == before["daily_summaries"]
    assert after["weekly_summaries"] == before["weekly_summaries"]
    found = reopened.periods.store.search(
        CONV.tenant, "quarterly VAT reporting", top_k=1, max_distance=2.0
    )
    assert found and found[0][0].thread in ("day", "week")


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        ("What did we do last week?", "2026-02-02", "2026-02-09"),
        ("What happened this week?", "2026-02-09", "2026-02-12"),
        ("What did we decide yesterday?", "2026-02-10", "2026-02-11"),
        ("Anything open from last month?", "2026-01-01", "2026-02-01"),
    ],
)
def test_period_questions_name_their_days(question, start, end):
    span = period_asked(question, NOW)
    assert span is not None
    assert (span[0].date().isoformat(), span[1].date().isoformat()) == (start, end)


def test_other_questions_name_no_period():
    assert period_asked("Which accounting standard do we use?", NOW) is None


def test_a_failing_summary_is_logged_and_the_job_stays_done():
    engine = MemoryEngine(clock=ManualClock(CONV.messages[0].timestamp))

    def fail(*args, **kwargs):
        raise RuntimeError("store down")

    engine.periods.update = fail
    engine.ingest(CONV.tenant, CONV.messages[:4])
    engine.close_session(CONV.tenant)
    engine.flush()
    failed = [e for e in engine.events.events(CONV.tenant) if e.kind == "job_failed"]
    assert failed and all("summaries" in e.detail for e in failed)
    assert engine.pending_jobs(CONV.tenant) == 0
    assert engine.facts.active(CONV.tenant)
