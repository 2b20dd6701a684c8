"""One contract per store protocol, run over every implementation (see conftest)."""

from __future__ import annotations

import re
import uuid
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import memory_lab.stores as stores_pkg
from memory_lab.errors import TenantRequiredError
from memory_lab.facts.timeline import as_of
from memory_lab.stores import (
    InMemoryTranscriptStore,
    SqlEventLog,
    SqlFactStore,
    SqlTranscriptStore,
    TenantMismatchError,
)
from memory_lab.types import Episode, Fact, MemoryEvent, Message

T0 = datetime(2024, 5, 8, 13, 56, 7, 123456, tzinfo=UTC)
OSLO = timezone(timedelta(hours=2))
NEPAL = timezone(timedelta(hours=5, minutes=45))
BLANK_TENANTS = [None, "", "   "]

fresh_stores = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)


def msg(tenant: str, id: str, content: str = "hello", **kw) -> Message:
    fields = {"session": "s1", "role": "user", "timestamp": T0} | kw
    return Message(id=id, tenant=tenant, content=content, **fields)


def fact(tenant: str, id: str, **kw) -> Fact:
    fields = {
        "subject": "user",
        "category": "preference",
        "key": "drink",
        "value": "tea",
        "confidence": 0.8,
        "importance": 0.5,
        "source": "extracted",
        "session": "s1",
        "turn_ids": ["D1:1"],
        "valid_from": T0,
        "last_confirmed_at": T0,
        "created_at": T0,
    } | kw
    return Fact(id=id, tenant=tenant, **fields)


def event(tenant: str, id: str, at: datetime = T0, **kw) -> MemoryEvent:
    fields = {"kind": "fact_added", "detail": f"event {id}"} | kw
    return MemoryEvent(id=id, tenant=tenant, at=at, **fields)


def episode(tenant: str, id: str, summary: str, first_seq: int = 0, **kw) -> Episode:
    fields = {
        "session": "s1",
        "thread": "t1",
        "last_seq": first_seq + 3,
        "turn_ids": [f"D1:{first_seq + i}" for i in range(4)],
        "start": T0,
        "end": T0 + timedelta(minutes=5),
        "original_message_count": 4,
        "original_tokens": 120,
        "summary_tokens": 20,
        "created_at": T0,
        "brain": "rule-based",
    } | kw
    return Episode(id=id, tenant=tenant, summary=summary, first_seq=first_seq, **fields)


TOPICS = {
    "e-tea": "The user prefers green tea over coffee in the morning.",
    "e-dog": "The user adopted a beagle puppy named Biscuit last spring.",
    "e-tax": "The company paid a dividend of 120,000 kr to the user this year.",
    "e-run": "The user is training for a marathon in Berlin in September.",
}


# Hypothesis strategies: text SQLite and JSON must carry unchanged, and aware
# datetimes with odd offsets and microseconds.
texts = st.text(max_size=40)
offsets = st.integers(min_value=-14 * 60, max_value=14 * 60).map(
    lambda m: timezone(timedelta(minutes=m))
)
aware_times = st.datetimes(timezones=offsets)
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | texts,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3)
    ),
    max_leaves=8,
)


# ---------------------------------------------------------------- transcript


class TestTranscriptStore:
    @pytest.mark.parametrize("tenant", BLANK_TENANTS)
    def test_every_call_requires_a_tenant(self, transcripts, tenant):
        store = transcripts.open()
        with pytest.raises(TenantRequiredError):
            store.append(tenant, "t1", [])
        with pytest.raises(TenantRequiredError):
            store.messages(tenant)
        with pytest.raises(TenantRequiredError):
            store.count(tenant)

    def test_append_numbers_messages_from_zero_in_order(self, transcripts):
        store = transcripts.open()
        first = store.append("a", "t1", [msg("a", "m1"), msg("a", "m2")])
        second = store.append("a", "t1", [msg("a", "m3")])
        assert [m.seq for m in first + second] == [0, 1, 2]
        assert [m.id for m in first + second] == ["m1", "m2", "m3"]
        assert store.messages("a") == first + second
        assert store.count("a") == 3

    def test_appending_a_stored_id_returns_the_stored_copy(self, transcripts):
        store = transcripts.open()
        [original] = store.append("a", "t1", [msg("a", "m1", "first words")])
        again = store.append(
            "a", "t2", [msg("a", "m1", "rewritten"), msg("a", "m2"), msg("a", "m2")]
        )
        assert again[0] == original
        assert again[1] == again[2]
        assert again[1].seq == 1
        assert store.count("a") == 2
        assert store.messages("a")[0].content == "first words"

    def test_tenants_never_see_each_other(self, transcripts):
        store = transcripts.open()
        store.append("a", "t1", [msg("a", "m1", "secret of a"), msg("a", "m2")])
        [b_copy] = store.append("b", "t1", [msg("b", "m1", "b's own")])
        assert b_copy.seq == 0
        assert b_copy.content == "b's own"
        assert [m.content for m in store.messages("b")] == ["b's own"]
        assert store.count("b") == 1
        assert store.count("b", "t1") == 1
        assert store.messages("nobody") == []
        assert store.count("nobody") == 0

    def test_a_record_of_another_tenant_is_refused_whole(self, transcripts):
        store = transcripts.open()
        with pytest.raises(TenantMismatchError):
            store.append("a", "t1", [msg("a", "m1"), msg("b", "m2")])
        assert store.count("a") == 0
        assert store.count("b") == 0

    def test_threads_and_seq_ranges_filter(self, transcripts):
        store = transcripts.open()
        store.append("a", "t1", [msg("a", "m0"), msg("a", "m1")])
        store.append("a", "t2", [msg("a", "m2")])
        store.append("a", "t1", [msg("a", "m3")])
        assert [m.id for m in store.messages("a", "t1")] == ["m0", "m1", "m3"]
        assert [m.id for m in store.messages("a", "t2")] == ["m2"]
        assert [m.id for m in store.messages("a", first_seq=1, last_seq=2)] == [
            "m1",
            "m2",
        ]
        assert [m.id for m in store.messages("a", "t1", first_seq=1)] == ["m1", "m3"]
        assert store.count("a", "t1") == 3
        assert store.count("a", "t3") == 0

    def test_messages_survive_reopening(self, transcripts):
        store = transcripts.open()
        stored = store.append("a", "t1", [msg("a", "m1"), msg("a", "m2")])
        if transcripts.persistent:
            store.close()
        reopened = transcripts.open()
        assert reopened.messages("a") == stored
        [later] = reopened.append("a", "t1", [msg("a", "m3")])
        assert later.seq == 2

    @fresh_stores
    @given(
        content=texts,
        speaker=texts,
        at=aware_times,
        role=st.sampled_from(["user", "assistant", "system"]),
    )
    def test_round_trip_is_exact(self, transcripts, content, speaker, at, role):
        assume(transcripts.nul_text or "\x00" not in content + speaker)
        store = transcripts.fresh()
        original = msg("a", "m1", content, speaker=speaker, timestamp=at, role=role)
        [stored] = store.append("a", "t1", [original])
        assert stored == original.model_copy(update={"seq": 0})
        assert store.messages("a") == [stored]
        assert store.messages("a")[0].timestamp.utcoffset() == at.utcoffset()

    @fresh_stores
    @given(
        st.lists(
            st.tuples(
                st.sampled_from(["a", "b"]),
                st.sampled_from(["t1", "t2"]),
                st.lists(st.sampled_from([f"m{i}" for i in range(6)]), max_size=4),
            ),
            max_size=8,
        )
    )
    def test_agrees_with_the_reference_model(self, transcripts, batches):
        store, reference = transcripts.fresh(), InMemoryTranscriptStore()
        for tenant, thread, ids in batches:
            batch = [msg(tenant, i, f"{i} in {thread}") for i in ids]
            assert store.append(tenant, thread, batch) == reference.append(
                tenant, thread, batch
            )
        for tenant in ("a", "b"):
            assert store.messages(tenant) == reference.messages(tenant)
            assert [m.seq for m in store.messages(tenant)] == list(
                range(store.count(tenant))
            )
            for thread in ("t1", "t2"):
                assert store.messages(tenant, thread) == reference.messages(
                    tenant, thread
                )
                assert store.count(tenant, thread) == reference.count(tenant, thread)


# --------------------------------------------------------------------- facts


class TestFactStore:
    @pytest.mark.parametrize("tenant", BLANK_TENANTS)
    def test_every_call_requires_a_tenant(self, facts, tenant):
        store = facts.open()
        with pytest.raises(TenantRequiredError):
            store.insert(tenant, fact("a", "f1"))
        with pytest.raises(TenantRequiredError):
            store.update(tenant, fact("a", "f1"))
        with pytest.raises(TenantRequiredError):
            store.rows(tenant)
        with pytest.raises(TenantRequiredError):
            store.get(tenant, "f1")

    def test_insert_then_get_returns_an_equal_row(self, facts):
        store = facts.open()
        row = fact(
            "a",
            "f1",
            valid_until=T0 + timedelta(days=3),
            expires_at=datetime(2025, 1, 1, tzinfo=NEPAL),
            superseded_by="f0",
            conflicts_with="f9",
            turn_ids=["D1:1", "D2:7"],
            evidence="I only drink tea",
            status="superseded",
            ended_at=datetime(2024, 6, 1, 8, tzinfo=OSLO),
        )
        store.insert("a", row)
        assert store.get("a", "f1") == row
        assert store.rows("a") == [row]

    def test_inserting_an_existing_id_is_refused(self, facts):
        store = facts.open()
        store.insert("a", fact("a", "f1", value="tea"))
        with pytest.raises(ValueError):
            store.insert("a", fact("a", "f1", value="coffee"))
        assert store.get("a", "f1").value == "tea"

    def test_update_replaces_in_place_and_keeps_every_row(self, facts):
        store = facts.open()
        store.insert("a", fact("a", "f1"))
        store.insert("a", fact("a", "f2", value="coffee"))
        ended = fact("a", "f1", status="superseded", superseded_by="f2", valid_until=T0)
        store.update("a", ended)
        assert store.get("a", "f1") == ended
        assert len(store.rows("a")) == 2
        assert [f.id for f in store.rows("a", status="active")] == ["f2"]

    def test_rows_answer_as_of_queries_on_both_time_axes(self, facts):
        store = facts.open()
        day = timedelta(days=1)
        store.insert(
            "a",
            fact(
                "a",
                "f1",
                value="tea",
                status="superseded",
                superseded_by="f2",
                valid_until=T0 + 10 * day,
                ended_at=T0 + 12 * day,
            ),
        )
        store.insert(
            "a",
            fact(
                "a",
                "f2",
                value="coffee",
                valid_from=T0 + 10 * day,
                created_at=T0 + 12 * day,
            ),
        )
        rows = store.rows("a")

        def held(at, believed_at):
            return [f.value for f in as_of(rows, at=at, believed_at=believed_at)]

        assert held(T0 + 5 * day, T0 + 20 * day) == ["tea"]
        assert held(T0 + 11 * day, T0 + 20 * day) == ["coffee"]
        # Before memory learned of the change, day 11 still read as tea.
        assert held(T0 + 11 * day, T0 + 11 * day) == ["tea"]
        assert held(T0 - day, T0 + 20 * day) == []

    def test_tenants_never_see_each_other(self, facts):
        store = facts.open()
        store.insert("a", fact("a", "f1", value="a's secret"))
        store.insert("b", fact("b", "f1", value="b's own"))
        assert store.get("b", "f1").value == "b's own"
        assert store.get("b", "nope") is None
        assert store.get("c", "f1") is None
        assert store.rows("c") == []
        assert [f.value for f in store.rows("b")] == ["b's own"]
        # An update cannot reach across tenants either.
        with pytest.raises(KeyError):
            store.update("c", fact("c", "f1", value="hijack"))
        with pytest.raises(TenantMismatchError):
            store.update("a", fact("b", "f1", value="hijack"))
        with pytest.raises(TenantMismatchError):
            store.insert("a", fact("b", "f2"))
        assert store.get("a", "f1").value == "a's secret"
        assert store.rows("c") == []

    def test_rows_filter_and_order_by_creation_time_then_id(self, facts):
        store = facts.open()
        # 10:00+02:00 is 08:00 UTC: earlier than 09:00 UTC despite sorting
        # later as text.
        late = fact("a", "f-late", created_at=datetime(2024, 1, 1, 9, tzinfo=UTC))
        early = fact("a", "f-early", created_at=datetime(2024, 1, 1, 10, tzinfo=OSLO))
        tie_b = fact("a", "f-b", key="food", created_at=T0)
        tie_a = fact("a", "f-a", key="food", created_at=T0, subject="sister")
        for row in (late, tie_b, early, tie_a):
            store.insert("a", row)
        assert [f.id for f in store.rows("a")] == ["f-early", "f-late", "f-a", "f-b"]
        assert [f.id for f in store.rows("a", key="food")] == ["f-a", "f-b"]
        assert [f.id for f in store.rows("a", key="food", subject="user")] == ["f-b"]
        assert store.rows("a", category="health") == []

    def test_rows_survive_reopening(self, facts):
        store = facts.open()
        row = fact("a", "f1")
        store.insert("a", row)
        if facts.persistent:
            store.close()
        assert facts.open().get("a", "f1") == row

    @fresh_stores
    @given(
        value=texts,
        evidence=texts,
        turn_ids=st.lists(texts, max_size=3),
        confidence=st.floats(0.0, 1.0),
        created=aware_times,
        expires=st.none() | aware_times,
    )
    def test_round_trip_is_exact(
        self, facts, value, evidence, turn_ids, confidence, created, expires
    ):
        assume(facts.nul_text or "\x00" not in value + evidence)
        store = facts.fresh()
        row = fact(
            "a",
            "f1",
            value=value,
            evidence=evidence,
            turn_ids=turn_ids,
            confidence=confidence,
            created_at=created,
            expires_at=expires,
        )
        store.insert("a", row)
        assert store.get("a", "f1") == row
        assert store.rows("a") == [row]


# -------------------------------------------------------------------- events


class TestEventLog:
    @pytest.mark.parametrize("tenant", BLANK_TENANTS)
    def test_every_call_requires_a_tenant(self, events, tenant):
        log = events.open()
        with pytest.raises(TenantRequiredError):
            log.append(tenant, [])
        with pytest.raises(TenantRequiredError):
            log.events(tenant)

    def test_events_come_back_oldest_first(self, events):
        log = events.open()
        e1 = event("a", "e1", T0 + timedelta(minutes=1))
        e2 = event("a", "e2", T0)
        # The same instant as e1, written in another offset: append order breaks
        # the tie.
        e3 = event("a", "e3", (T0 + timedelta(minutes=1)).astimezone(OSLO))
        log.append("a", [e1, e2])
        log.append("a", [e3])
        assert log.events("a") == [e2, e1, e3]

    def test_since_is_inclusive_and_limit_keeps_the_last(self, events):
        log = events.open()
        logged = [event("a", f"e{i}", T0 + timedelta(minutes=i)) for i in range(5)]
        log.append("a", logged)
        assert log.events("a", since=T0 + timedelta(minutes=2)) == logged[2:]
        assert (
            log.events("a", since=(T0 + timedelta(minutes=2)).astimezone(NEPAL))
            == (logged[2:])
        )
        assert log.events("a", limit=2) == logged[3:]
        assert log.events("a", since=T0 + timedelta(minutes=1), limit=10) == logged[1:]
        assert log.events("a", limit=0) == []
        with pytest.raises(ValueError):
            log.events("a", limit=-1)

    def test_reappending_an_id_changes_nothing(self, events):
        log = events.open()
        log.append("a", [event("a", "e1", detail="first")])
        log.append("a", [event("a", "e1", detail="again"), event("a", "e2")])
        assert [(e.id, e.detail) for e in log.events("a")] == [
            ("e1", "first"),
            ("e2", "event e2"),
        ]

    def test_tenants_never_see_each_other(self, events):
        log = events.open()
        log.append("a", [event("a", "e1", detail="a's secret")])
        log.append("b", [event("b", "e1", detail="b's own")])
        assert [e.detail for e in log.events("b")] == ["b's own"]
        assert log.events("c") == []
        with pytest.raises(TenantMismatchError):
            log.append("c", [event("a", "e9")])
        assert log.events("c") == []

    def test_events_survive_reopening(self, events):
        log = events.open()
        logged = [event("a", "e1"), event("a", "e2", T0 + timedelta(seconds=1))]
        log.append("a", logged)
        if events.persistent:
            log.close()
        assert events.open().events("a") == logged

    @fresh_stores
    @given(
        detail=texts,
        refs=st.lists(texts, max_size=3),
        undo=st.none() | st.dictionaries(texts, json_values, max_size=3),
        at=aware_times,
    )
    def test_round_trip_is_exact(self, events, detail, refs, undo, at):
        assume(events.nul_text or "\x00" not in detail)
        log = events.fresh()
        logged = event("a", "e1", at, detail=detail, refs=refs, undo=undo)
        log.append("a", [logged])
        assert log.events("a") == [logged]


# ------------------------------------------------------------------ episodes


def _topic_episodes(tenant: str) -> list[Episode]:
    return [
        episode(tenant, id, summary, first_seq=4 * n)
        for n, (id, summary) in enumerate(TOPICS.items())
    ]


class TestEpisodeStore:
    @pytest.mark.parametrize("tenant", BLANK_TENANTS)
    def test_every_call_requires_a_tenant(self, episodes, tenant):
        store = episodes.open()
        with pytest.raises(TenantRequiredError):
            store.add(tenant, [])
        with pytest.raises(TenantRequiredError):
            store.get(tenant)
        with pytest.raises(TenantRequiredError):
            store.search(tenant, "tea", top_k=3, max_distance=2.0)
        with pytest.raises(TenantRequiredError):
            store.count(tenant)
        with pytest.raises(TenantRequiredError):
            store.remove(tenant, ["e-tea"])
        with pytest.raises(TenantRequiredError):
            store.drop(tenant)

    def test_removed_episodes_are_found_no_more(self, episodes):
        store = episodes.open()
        store.add("a", _topic_episodes("a"))
        store.add("b", [episode("b", "e-tea", TOPICS["e-tea"])])
        assert store.remove("a", ["e-tea", "e-dog", "missing"]) == 2
        assert [e.id for e in store.get("a")] == ["e-tax", "e-run"]
        assert store.count("a") == 2
        hits = store.search("a", TOPICS["e-tea"], top_k=4, max_distance=2.0)
        assert {e.id for e, _ in hits} == {"e-tax", "e-run"}
        assert store.remove("a", ["e-tea"]) == 0
        assert store.remove("a", []) == 0
        assert store.remove("c", ["e-tax"]) == 0
        # The same id under another tenant is that tenant's, and stays.
        assert [e.id for e in store.get("b")] == ["e-tea"]
        if episodes.persistent:
            store.close()
            store = episodes.open()
        assert [e.id for e in store.get("a")] == ["e-tax", "e-run"]

    def test_removing_every_episode_leaves_an_empty_tenant(self, episodes):
        store = episodes.open()
        store.add("a", _topic_episodes("a"))
        assert store.remove("a", [e.id for e in _topic_episodes("a")]) == 4
        assert store.get("a") == [] and store.count("a") == 0
        assert store.search("a", "tea", top_k=3, max_distance=2.0) == []
        store.add("a", [episode("a", "e-tea", TOPICS["e-dog"])])
        assert [e.summary for e in store.get("a")] == [TOPICS["e-dog"]]

    def test_drop_takes_every_episode_of_one_tenant_only(self, episodes):
        store = episodes.open()
        store.add("a", _topic_episodes("a"))
        store.add("b", [episode("b", "e-tea", TOPICS["e-tea"])])
        store.drop("a")
        store.drop("c")
        assert store.get("a") == [] and store.count("a") == 0
        assert store.search("a", "tea", top_k=3, max_distance=2.0) == []
        assert store.count("b") == 1
        store.add("a", [episode("a", "e-dog", TOPICS["e-dog"])])
        assert [e.id for e in store.get("a")] == ["e-dog"]

    def test_get_round_trips_in_seq_order(self, episodes):
        store = episodes.open()
        stored = _topic_episodes("a")
        stored[0] = stored[0].model_copy(
            update={
                "decisions": ["switch to tea"],
                "open_questions": ["which brand?"],
                "key_facts": ["likes green tea"],
                "start": datetime(2024, 5, 8, 15, 56, tzinfo=OSLO),
                "trigger": "A+B",
            }
        )
        store.add("a", list(reversed(stored)))
        assert store.get("a") == stored
        assert store.get("a", ["e-run", "e-tea", "missing"]) == [stored[0], stored[3]]
        assert store.get("a", []) == []
        assert store.count("a") == 4

    def test_adding_a_stored_id_changes_nothing(self, episodes):
        store = episodes.open()
        original = episode("a", "e1", TOPICS["e-tea"])
        store.add("a", [original])
        store.add("a", [original.model_copy(update={"summary": TOPICS["e-dog"]})])
        store.add("a", [original, original])
        assert store.get("a") == [original]
        assert store.count("a") == 1
        [(hit, _)] = store.search("a", "puppy", top_k=5, max_distance=2.0)
        assert hit == original

    def test_search_returns_closest_first_within_the_threshold(self, episodes):
        store = episodes.open()
        store.add("a", _topic_episodes("a"))
        hits = store.search("a", "what does the user drink", top_k=4, max_distance=2.0)
        assert hits[0][0].id == "e-tea"
        distances = [d for _, d in hits]
        assert distances == sorted(distances)
        assert all(0.0 <= d <= 2.0 for d in distances)
        assert len(store.search("a", "tea", top_k=2, max_distance=2.0)) == 2
        assert store.search("a", "tea", top_k=0, max_distance=2.0) == []
        cut = (distances[0] + distances[1]) / 2
        within = store.search(
            "a", "what does the user drink", top_k=4, max_distance=cut
        )
        assert [e.id for e, _ in within] == ["e-tea"]

    def test_exact_text_is_at_distance_zero_and_ties_break_by_id(self, episodes):
        store = episodes.open()
        text = TOPICS["e-dog"]
        store.add(
            "a",
            [
                episode("a", "z-copy", text),
                episode("a", "a-copy", text),
                episode("a", "m-copy", text),
                episode("a", "other", TOPICS["e-tax"]),
            ],
        )
        hits = store.search("a", text, top_k=2, max_distance=1e-3)
        assert [e.id for e, _ in hits] == ["a-copy", "m-copy"]
        assert all(d == pytest.approx(0.0, abs=1e-3) for _, d in hits)
        assert len(store.search("a", text, top_k=10, max_distance=1e-3)) == 3

    def test_search_agrees_with_exact_search(self, episodes, embedder):
        from memory_lab.stores import InMemoryEpisodeStore

        store, reference = episodes.open(), InMemoryEpisodeStore(embedder)
        for target in (store, reference):
            target.add("a", _topic_episodes("a"))
        for query in ("pets", "money and taxes", "sport", "breakfast drinks"):
            got = store.search("a", query, top_k=3, max_distance=0.95)
            want = reference.search("a", query, top_k=3, max_distance=0.95)
            assert [e.id for e, _ in got] == [e.id for e, _ in want]
            assert [d for _, d in got] == pytest.approx([d for _, d in want], abs=1e-4)

    def test_tenants_never_see_each_other(self, episodes):
        store = episodes.open()
        store.add("a", _topic_episodes("a"))
        # Same ids as a's, different content: stored apart, never merged.
        store.add("b", [episode("b", "e-tea", "The user is learning to play chess.")])
        assert store.count("b") == 1
        assert [e.summary for e in store.get("b")] == [
            "The user is learning to play chess."
        ]
        assert store.get("b", ["e-dog", "e-tax"]) == []
        for text in TOPICS.values():
            hits = store.search("b", text, top_k=10, max_distance=2.0)
            assert [e.tenant for e, _ in hits] == ["b"]
        assert store.get("c") == []
        assert store.search("c", TOPICS["e-tea"], top_k=5, max_distance=2.0) == []
        with pytest.raises(TenantMismatchError):
            store.add("c", [episode("a", "e-x", "stolen")])
        assert store.count("c") == 0
        assert store.count("a") == 4

    def test_episodes_survive_reopening(self, episodes):
        store = episodes.open()
        stored = _topic_episodes("a")
        store.add("a", stored)
        if episodes.persistent:
            store.close()
        reopened = episodes.open()
        assert reopened.get("a") == stored
        [(hit, _)] = reopened.search("a", "beagle", top_k=1, max_distance=2.0)
        assert hit.id == "e-dog"


def test_chroma_refuses_a_collection_built_by_another_embedder(tmp_path, embedder):
    from memory_lab.stores.chroma_episodes import ChromaEpisodeStore

    class Renamed:
        name = "some-other-model"
        dim = embedder.dim

        def embed(self, texts):
            return embedder.embed(texts)

    ChromaEpisodeStore(tmp_path / "c", embedder).close()
    with pytest.raises(ValueError, match="some-other-model"):
        ChromaEpisodeStore(tmp_path / "c", Renamed())
    other = ChromaEpisodeStore(tmp_path / "c", Renamed(), collection="episodes-other")
    other.close()


def test_chroma_ids_search_is_the_search_without_records(tmp_path, embedder):
    """What the committed view reads hits through: the same ids, order, distances."""
    from memory_lab.stores.chroma_episodes import ChromaEpisodeStore, _key

    store = ChromaEpisodeStore(tmp_path / "c", embedder)
    store.add("a", _topic_episodes("a"))
    for query in ("pets", "money and taxes", "what does the user drink", "tea"):
        for top_k, cut in ((4, 2.0), (2, 2.0), (4, 0.9), (0, 2.0)):
            full = store.search("a", query, top_k=top_k, max_distance=cut)
            ids = store.search_ids("a", query, top_k=top_k, max_distance=cut)
            assert ids == [(e.id, d) for e, d in full]
    assert store.search_ids("b", "tea", top_k=4, max_distance=2.0) == []
    # A record keyed for another tenant, planted in b's collection, stays out.
    store.add("b", [episode("b", "e-b", "The user is learning to play chess.")])
    planted = store._collection("b", create=False)
    planted.add(
        ids=[_key("a", "e-tea")],
        embeddings=embedder.embed([TOPICS["e-tea"]]),
        metadatas=[{"tenant": "a", "record": "{}"}],
    )
    hits = store.search_ids("b", TOPICS["e-tea"], top_k=4, max_distance=2.0)
    assert [i for i, _ in hits] == ["e-b"]
    store.close()


@pytest.mark.xdist_group("servers")
def test_chroma_server_clients_see_each_others_episodes_at_once(chroma_url, embedder):
    from memory_lab.stores.chroma_episodes import ChromaEpisodeStore

    name = f"seen-{uuid.uuid4().hex[:12]}"
    writer = ChromaEpisodeStore(chroma_url, embedder, collection=name)
    reader = ChromaEpisodeStore(chroma_url, embedder, collection=name)
    assert writer.shared and reader.shared
    assert reader.count("a") == 0
    first, *rest = _topic_episodes("a")
    writer.add("a", [first])
    assert reader.get("a") == [first]
    # The reader now holds the collection; later writes still show, unreopened.
    writer.add("a", rest)
    assert reader.count("a") == 4
    [(hit, _)] = reader.search("a", "beagle", top_k=1, max_distance=2.0)
    assert hit.id == "e-dog"
    with pytest.raises(ValueError, match="some-other-model"):
        ChromaEpisodeStore(chroma_url, _renamed(embedder), collection=name)
    writer.close()
    reader.close()


def _renamed(embedder):
    class Renamed:
        name = "some-other-model"
        dim = embedder.dim

        def embed(self, texts):
            return embedder.embed(texts)

    return Renamed()


@pytest.mark.parametrize("url", ["ftp://host:8000", "http://", "http://host:8000/db"])
def test_chroma_refuses_a_url_that_is_no_server(url, embedder):
    from memory_lab.stores.chroma_episodes import ChromaEpisodeStore
    from memory_lab.stores.locations import StoreURLError

    with pytest.raises(StoreURLError):
        ChromaEpisodeStore(url, embedder)


# ------------------------------------------------------------ sqlite extras


def test_three_sqlite_stores_share_one_file(tmp_path):
    path = tmp_path / "data" / "memory.sqlite3"
    transcripts = SqlTranscriptStore(path)
    facts = SqlFactStore(path)
    log = SqlEventLog(path)
    transcripts.append("a", "t1", [msg("a", "m1")])
    facts.insert("a", fact("a", "f1"))
    log.append("a", [event("a", "e1")])
    for store in (transcripts, facts, log):
        store.close()
    assert SqlTranscriptStore(path).count("a") == 1
    assert SqlFactStore(path).get("a", "f1") is not None
    assert len(SqlEventLog(path).events("a")) == 1


def test_no_sql_store_of_memory_records_ever_deletes():
    # Turns, facts, events and links are end-dated, never removed; only a purge
    # (stores/sql_erase.py) deletes them. Store items are the one exception, by
    # their contract: a LangGraph store's delete makes `get` return None, so
    # sql_items.py deletes the row and logs an event naming only its key. The
    # trash table and the chat catalog say which items are hidden; a restore
    # removes that row, never the item (sql_trash.py). SQL is written in
    # capitals here, so prose ("drop its plan") is no statement.
    allowed = {"sql_items.py", "sql_erase.py", "sql_trash.py"}
    package = Path(stores_pkg.__file__).parent
    sources = [p for p in sorted(package.glob("sql_*.py")) if p.name not in allowed]
    assert len(sources) >= 4
    for source in sources:
        code = source.read_text()
        assert not re.search(
            r"\b(DELETE|DROP|TRUNCATE|REPLACE\s+INTO)\b", code
        ), source.name
    erase = (package / "sql_erase.py").read_text()
    assert re.search(r"\bDELETE FROM\b", erase), "the purge's deletes moved"


def test_a_fact_file_from_before_record_time_ends_is_migrated(tmp_path):
    import sqlite3

    path = tmp_path / "old.sqlite3"
    store = SqlFactStore(path)
    store.insert("a", fact("a", "f1", status="forgotten", valid_until=T0))
    store.insert("a", fact("a", "f2", value="coffee"))
    store.close()
    # Recreate the file as the previous version wrote it: no ended_at column,
    # and no record of migrations (the stores made their own tables then).
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE facts DROP COLUMN ended_at")
    conn.execute("DROP TABLE schema_version")
    conn.commit()
    conn.close()
    reopened = SqlFactStore(path)
    assert reopened.get("a", "f1").ended_at == T0
    assert reopened.get("a", "f2").ended_at is None
    reopened.update("a", fact("a", "f2", value="coffee", ended_at=T0))
    assert SqlFactStore(path).get("a", "f2").ended_at == T0
