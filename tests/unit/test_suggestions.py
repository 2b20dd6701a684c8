"""Proactive suggestions: dated items before and after their date, follow-ups."""

from datetime import UTC, datetime, timedelta

import pytest

from memory_lab.config import FactConfig
from memory_lab.facts.reconciliation import reconcile
from memory_lab.facts.suggestions import suggest
from memory_lab.facts.valid_time import resolve_deadline
from tests.helpers import cand

CFG = FactConfig()
SAID = datetime(2025, 3, 10, 10, tzinfo=UTC)  # a Monday


def _fact(value, category="unresolved", at=SAID):
    c = cand("todo." + value.split()[0], value, category=category)
    c = c.model_copy(update={"evidence": value})
    return reconcile("t", c, None, at, CFG).fact


@pytest.mark.parametrize(
    ("sentence", "due"),
    [
        ("Remind me to file the VAT return before May 12.", datetime(2025, 5, 12)),
        ("Send the invoice by Friday.", datetime(2025, 3, 14)),
        ("Send the invoice by next Monday.", datetime(2025, 3, 17)),
        ("Pay the rent by 1 February.", datetime(2026, 2, 1)),
        ("The report is due on 2025-04-30.", datetime(2025, 4, 30)),
    ],
)
def test_deadlines_resolve_against_when_they_were_said(sentence, due):
    assert resolve_deadline(sentence, SAID) == due.replace(tzinfo=UTC)


def test_no_deadline_in_a_plain_sentence():
    assert (
        resolve_deadline("I still need to review the October transactions.", SAID)
        is None
    )


def test_a_dated_item_surfaces_before_its_date_and_is_flagged_after():
    vat = _fact("file the VAT return before May 12")
    before = suggest([vat], SAID + timedelta(days=1), CFG)
    assert [s.overdue for s in before] == [False]
    assert "2025-05-12" in before[0].prompt and before[0].fact_id == vat.id
    after = suggest([vat], datetime(2025, 5, 20, tzinfo=UTC), CFG)
    assert [s.overdue for s in after] == [True]
    assert after[0].prompt.startswith("Overdue since 2025-05-12")


def test_overdue_items_come_first_then_the_soonest():
    late = _fact("send the invoice by Friday")
    soon = _fact("file the VAT return before May 12")
    later = _fact("pay the rent by 1 June")
    out = suggest([later, soon, late], datetime(2025, 3, 20, tzinfo=UTC), CFG)
    assert [s.fact_id for s in out] == [late.id, soon.id, later.id]


def test_undated_items_wait_until_stale():
    item = _fact("review the October transactions")
    assert suggest([item], SAID + timedelta(days=2), CFG) == []
    (stale,) = suggest([item], SAID + timedelta(days=CFG.stale_open_item_days), CFG)
    assert not stale.overdue and stale.due is None


def test_decisions_get_a_follow_up_whatever_their_words():
    decision = _fact("quarterly VAT reporting", category="decision")
    assert suggest([decision], SAID + timedelta(days=1), CFG) == []
    (follow,) = suggest([decision], SAID + timedelta(days=10), CFG)
    assert "quarterly VAT reporting" in follow.prompt
    assert suggest([decision], SAID + timedelta(days=120), CFG) == []
