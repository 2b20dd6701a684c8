"""Properties of the whole memory: nothing ingested is lost, budgets hold, one active
value per key, supersession chains end, re-saving is idempotent, tenants are apart."""

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memory_lab import ManualClock, MemoryConfig, MemoryEngine, recipe
from memory_lab.config import BudgetConfig, FactConfig
from memory_lab.embeddings import default_embedder
from memory_lab.facts.memory import FactMemory
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from memory_lab.tokens import default_counter
from tests.helpers import T0, cand, msg

SETTINGS = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
WORDS = st.sampled_from(
    [
        "My name is Ada.",
        "I live in Oslo.",
        "Actually I moved to Bergen.",
        "We decided to use K2.",
        "Actually we switched to K3.",
        "hello",
        "what do you think?",
        "I prefer tea.",
        "lol",
        "I still need to file the VAT return.",
        "If I were to move to Rome, would it matter?",
    ]
)


@st.composite
def conversations(draw):
    n = draw(st.integers(1, 45))
    gaps = draw(st.lists(st.integers(1, 60 * 30), min_size=n, max_size=n))
    texts = draw(st.lists(WORDS, min_size=n, max_size=n))
    at, out = T0, []
    for i, (gap, text) in enumerate(zip(gaps, texts, strict=True)):
        at = at + timedelta(minutes=gap)
        out.append(
            msg(
                i,
                f"{text} ({i})",
                role="user" if i % 2 == 0 else "assistant",
                at=at,
                session=f"s{(at - T0).days}",
            )
        )
    return out


@pytest.mark.slow
@SETTINGS
@given(
    conv=conversations(),
    spec=st.sampled_from(["A", "B", "C", "A+B", "A+B+C", "D", "B+D"]),
    total=st.integers(80, 2000),
)
def test_nothing_lost_budget_holds_one_active_value(conv, spec, total):
    rec = recipe(spec).with_params(episode_max_messages=5)
    if rec.params_of("A"):
        rec = rec.with_params(a_max_messages=6, a_keep_last=2)
    if rec.params_of("B"):
        rec = rec.with_params(b_high_water=60, b_low_water=20)
    if rec.params_of("D"):
        rec = rec.with_params(d_max_messages=6, d_min_span=2, d_recent=2)
    config = MemoryConfig(recipe=rec, budget=BudgetConfig().scaled(total))
    with MemoryEngine(
        None, config=config, clock=ManualClock(T0), embedder=default_embedder()
    ) as engine:
        check_memory(engine, conv, total)


def check_memory(engine, conv, total):
    """Nothing lost, budget held, one active value per key, every chain ends."""
    for m in conv:
        engine.ingest("t1", [m])
    ids = [m.id for m in conv]
    assert [m.id for m in engine.transcript.messages("t1")] == ids
    # Each message in exactly one place: in a snapshot read while the worker may
    # still be compressing, and again once it has finished.
    for settle in (False, True):
        if settle:
            assert engine.flush(timeout=120)
        snap = engine.memory_snapshot("t1")
        window = [m.id for m in snap.window.messages]
        episodes = [t for ep in snap.episodes for t in ep["turn_ids"]]
        assert sorted(window + episodes) == sorted(ids)
    bundle = engine.assemble("t1", conv[-1].content)
    assert default_counter().count(bundle.text) <= total
    active = engine.facts.active("t1")
    keys = [(f.subject, f.key) for f in active]
    assert len(keys) == len(set(keys))
    rows = {f.id: f for f in engine.facts.rows("t1")}
    for f in rows.values():  # every chain ends, with no cycle
        seen, cur = set(), f
        while cur.superseded_by:
            assert cur.id not in seen
            seen.add(cur.id)
            cur = rows[cur.superseded_by]


@SETTINGS
@given(
    ops=st.lists(
        st.tuples(
            st.sampled_from(["k1", "k2"]),
            st.sampled_from(["v1", "v2", "v3"]),
            st.sampled_from(["explicit", "extracted"]),
            st.floats(0.3, 1.0),
            st.integers(0, 3),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_fact_writes_keep_invariants(ops):
    clock = ManualClock(T0)
    facts = FactMemory(InMemoryFactStore(), InMemoryEventLog(), clock, FactConfig())
    for i, (key, value, source, conf, turn) in enumerate(ops):
        clock.advance(timedelta(hours=1))
        c = cand(key, value, source=source, confidence=round(conf, 2), turn=f"m{turn}")
        before = facts.rows("t")
        facts.write("t", c)
        after = facts.rows("t")
        assert len(after) >= len(before)  # never deleted
        again = facts.write("t", c)  # identical re-save
        assert again.kind == "fact_skipped" and facts.rows("t") == after
    active = facts.active("t")
    assert len({(f.subject, f.key) for f in active}) == len(active)
    explicit_keys = {}
    for f in facts.rows("t"):
        if f.status == "superseded":
            successor = next(r for r in facts.rows("t") if r.id == f.superseded_by)
            assert not (f.source == "explicit" and successor.source == "extracted")
    del explicit_keys


@SETTINGS
@given(
    rows=st.lists(
        st.tuples(
            st.sampled_from(
                ["identity", "preference", "knowledge", "unresolved", "instruction"]
            ),
            st.sampled_from(
                ["city", "tea", "k3", "employer", "name", "language", "plan"]
            ),
            st.sampled_from(
                ["Oslo", "green tea", "K3", "Acme", "Ada", "Swedish", "hiking"]
            ),
            st.floats(0.2, 1.0),
            st.integers(0, 400),
            st.sampled_from(["user", "user", "maja", "user's sister"]),
        ),
        max_size=60,
    ),
    query=st.sampled_from(
        [
            "where do I live, Oslo?",
            "tea",
            "what about k3",
            "hello",
            "",
            "does Maja like tea?",
            "where does my sister live",
        ]
    ),
    limit=st.integers(1, 12),
)
def test_fact_candidates_rank_like_all_active_facts(rows, query, limit):
    from memory_lab.context.assembly import rank_facts

    clock = ManualClock(T0)
    facts = FactMemory(InMemoryFactStore(), InMemoryEventLog(), clock, FactConfig())
    for i, (category, key, value, conf, days, subject) in enumerate(rows):
        clock.advance(timedelta(hours=1))
        facts.write(
            "t",
            cand(
                f"{key}{i % 5}",
                value,
                category=category,
                confidence=round(conf, 2),
                turn=f"m{i}",
                subject=subject,
            ),
        )
    now = T0 + timedelta(days=days if rows else 0)
    full = rank_facts(facts.active("t", now=now), query, now, FactConfig())[:limit]
    fast = rank_facts(
        facts.candidates("t", query, now=now, limit=limit), query, now, FactConfig()
    )
    assert [f.id for f in fast[:limit]] == [f.id for f in full]
