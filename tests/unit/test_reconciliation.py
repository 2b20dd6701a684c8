from datetime import timedelta

from memory_lab.config import FactConfig
from memory_lab.facts.reconciliation import effective_confidence, reconcile
from tests.helpers import T0, cand

CFG = FactConfig()


def test_add_then_identical_resave_is_noop():
    out = reconcile("t", cand("employer", "Acme"), None, T0, CFG)
    assert out.action == "added" and out.inserts[0].expires_at == T0 + CFG.ttl(
        "knowledge"
    )
    again = reconcile("t", cand("employer", "Acme"), out.fact, T0, CFG)
    assert again.action == "noop" and not again.inserts and not again.updates


def test_restatement_from_new_turn_confirms_and_boosts():
    first = reconcile("t", cand("employer", "Acme", confidence=0.7), None, T0, CFG).fact
    later = T0 + timedelta(days=10)
    out = reconcile(
        "t", cand("employer", "acme.", confidence=0.7, turn="m9"), first, later, CFG
    )
    assert out.action == "confirmed"
    assert out.fact.confidence > effective_confidence(first, later, CFG)
    assert out.fact.last_confirmed_at == later and "m9" in out.fact.turn_ids


def test_much_weaker_restatement_is_skipped():
    first = reconcile(
        "t", cand("employer", "Acme", confidence=0.95), None, T0, CFG
    ).fact
    out = reconcile(
        "t", cand("employer", "Acme", confidence=0.5, turn="m2"), first, T0, CFG
    )
    assert out.action == "skipped_lower_confidence"


def test_update_supersedes_and_end_dates():
    first = reconcile("t", cand("standard", "K2"), None, T0, CFG).fact
    later = T0 + timedelta(days=1)
    out = reconcile(
        "t", cand("standard", "K3", confidence=0.95, turn="m5"), first, later, CFG
    )
    assert out.action == "superseded"
    old = out.updates[0]
    assert (
        old.superseded_by == out.fact.id
        and old.valid_until == later
        and old.status == "superseded"
    )


def test_extracted_never_overrides_explicit():
    explicit = reconcile(
        "t", cand("standard", "K2", source="explicit", confidence=0.6), None, T0, CFG
    ).fact
    out = reconcile(
        "t", cand("standard", "K3", confidence=1.0, turn="m5"), explicit, T0, CFG
    )
    assert out.action == "contradiction"
    assert (
        out.inserts[0].status == "contradiction"
        and out.inserts[0].conflicts_with == explicit.id
    )
    assert not out.updates  # the explicit row stays active


def test_explicit_overrides_extracted():
    extracted = reconcile(
        "t", cand("standard", "K2", confidence=1.0), None, T0, CFG
    ).fact
    out = reconcile(
        "t",
        cand("standard", "K3", source="explicit", confidence=0.5, turn="m2"),
        extracted,
        T0,
        CFG,
    )
    assert out.action == "superseded"


def test_decay_halves_at_half_life_and_spares_explicit():
    f = reconcile(
        "t", cand("x", "y", category="unresolved", confidence=0.8), None, T0, CFG
    ).fact
    assert abs(effective_confidence(f, T0 + timedelta(days=30), CFG) - 0.4) < 1e-9
    e = reconcile(
        "t",
        cand("x", "y", category="unresolved", source="explicit", confidence=0.8),
        None,
        T0,
        CFG,
    ).fact
    assert effective_confidence(e, T0 + timedelta(days=300), CFG) == 0.8
