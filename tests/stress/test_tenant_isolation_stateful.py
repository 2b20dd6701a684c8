"""Tenant isolation under random interleavings of ingests, fact saves and queries.

A hypothesis state machine drives one engine for three tenants next to a plain
Python reference model; every read must return only the reading tenant's data.
Each tenant's text carries a marker (`zq<tenant>`) so a leak is visible in any
read, including the assembled context.
"""

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from memory_lab import ManualClock, MemoryConfig, MemoryEngine
from memory_lab.recipes import recipe
from memory_lab.types import FactCandidate, Message

T0 = datetime(2025, 3, 3, 9, 0, tzinfo=UTC)
TENANTS = ("alpha", "beta", "gamma")
CONFIG = MemoryConfig(
    recipe=recipe("A(a_max_messages=4,a_keep_last=1)")
)
KEY_CATEGORY = {"city": "identity", "drink": "preference", "job": "decision"}
WORDS = st.sampled_from(["tea", "oslo", "project", "budget", "nurse", "jazz", "k3"])


def marker(tenant: str) -> str:
    return f"zq{tenant}"


class TenantIsolation(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.clock = ManualClock(T0)
        self.engine = MemoryEngine(None, config=CONFIG, clock=self.clock)
        self.messages: dict[str, list[str]] = {t: [] for t in TENANTS}
        self.facts: dict[str, dict[str, str]] = {t: {} for t in TENANTS}
        self.n = 0

    @rule(
        tenant=st.sampled_from(TENANTS), words=st.lists(WORDS, min_size=1, max_size=4)
    )
    def ingest(self, tenant, words):
        self.n += 1
        self.clock.advance(timedelta(minutes=1))
        mid = f"{tenant}-{self.n}"
        text = f"I mention {' '.join(words)} {marker(tenant)} number {self.n}"
        self.engine.ingest(
            tenant,
            [
                Message(
                    id=mid,
                    tenant=tenant,
                    session="s1",
                    role="user",
                    content=text,
                    timestamp=self.clock.now(),
                )
            ],
        )
        self.messages[tenant].append(mid)

    @rule(
        tenant=st.sampled_from(TENANTS),
        key=st.sampled_from(["city", "drink", "job"]),
        word=WORDS,
    )
    def save_fact(self, tenant, key, word):
        value = f"{word} {marker(tenant)}"
        self.clock.advance(timedelta(seconds=1))
        self.engine.facts.write(
            tenant,
            FactCandidate(
                # One category per key: the tenant marker makes every value
                # look alike, and meaning dedup would otherwise (rightly, by its
                # rule) fold "job: tea" into "drink: nurse" of the same category.
                category=KEY_CATEGORY[key],
                key=key,
                value=value,
                source="explicit",
                turn_ids=["tool"],
            ),
        )
        self.facts[tenant][key] = value

    @rule(tenant=st.sampled_from(TENANTS), word=WORDS)
    def query(self, tenant, word):
        bundle = self.engine.assemble(tenant, f"what about {word}?")
        for other in TENANTS:
            if other != tenant:
                assert marker(other) not in bundle.text, (tenant, other)
        assert bundle.total_tokens <= bundle.budget

    @invariant()
    def reads_match_the_model(self):
        for tenant in TENANTS:
            stored = self.engine.transcript.messages(tenant)
            assert [m.id for m in stored] == self.messages[tenant]
            assert all(m.tenant == tenant for m in stored)
            active = {f.key: f.value for f in self.engine.facts.active(tenant)}
            # Saved facts read back exactly; facts the worker reads from this
            # tenant's own turns may appear at any step, so only their owner is
            # checked (below: no other tenant's marker in any row).
            assert {k: active.get(k) for k in self.facts[tenant]} == self.facts[tenant]
            for ep in self.engine.episodes.get(tenant):
                assert ep.tenant == tenant
                assert set(ep.turn_ids) <= set(self.messages[tenant])
            for event in self.engine.events.events(tenant):
                assert event.tenant == tenant
            others = [marker(o) for o in TENANTS if o != tenant]
            text = " ".join(e.summary for e in self.engine.episodes.get(tenant))
            text += " ".join(f.value for f in self.engine.facts.rows(tenant))
            assert not any(o in text for o in others)

    def teardown(self) -> None:
        self.engine.close()


TenantIsolation.TestCase.settings = settings(
    max_examples=8,
    stateful_step_count=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_tenant_isolation = pytest.mark.slow(TenantIsolation.TestCase)


def test_a_key_set_back_at_the_same_instant_is_stored():
    engine = MemoryEngine(None, config=CONFIG, clock=ManualClock(T0))
    for value in ("tea", "oslo", "tea"):
        engine.facts.write(
            "alpha",
            FactCandidate(
                category="preference",
                key="city",
                value=value,
                source="explicit",
                turn_ids=["tool"],
            ),
        )
    assert [f.value for f in engine.facts.active("alpha")] == ["tea"]
