from datetime import timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memory_lab.embeddings import default_embedder
from memory_lab.recipes import recipe
from memory_lab.tokens import default_counter
from memory_lab.triggers.running import decide, splits_between
from tests.helpers import T0, msg

COUNTER = default_counter()


def _embed(turns):
    return default_embedder().embed([m.content for m in turns])


def test_a_fires_at_max_and_keeps_last():
    rec = recipe("A")
    window = [msg(i) for i in range(19)]
    assert not decide(window, T0, rec, COUNTER).fire
    window.append(msg(19))
    d = decide(window, T0, rec, COUNTER)
    assert d.fire and d.triggers == ["A"] and d.compress_count == 10


def test_b_compresses_oldest_until_below_low_water():
    rec = recipe("B").with_params(b_high_water=100, b_low_water=50)
    window = [msg(i, "word " * 20) for i in range(6)]  # ~20 tokens each
    d = decide(window, T0, rec, COUNTER)
    assert d.fire and d.triggers == ["B"]
    rest = window[d.compress_count :]
    assert sum(COUNTER.count(m.content) for m in rest) <= 50
    # compressing one fewer would not have been enough
    rest_more = window[d.compress_count - 1 :]
    assert sum(COUNTER.count(m.content) for m in rest_more) > 50


def test_c_compresses_previous_day_only():
    rec = recipe("C")
    yesterday = [msg(i, at=T0 + timedelta(minutes=i)) for i in range(3)]
    today = [msg(10, at=T0 + timedelta(days=1))]
    d = decide(yesterday + today, T0 + timedelta(days=1), rec, COUNTER)
    assert d.fire and d.compress_count == 3
    # C's episodes never straddle a day; A's may.
    assert splits_between(rec, yesterday[-1], today[0])
    assert not splits_between(rec, yesterday[0], yesterday[1])
    assert not splits_between(recipe("A"), yesterday[-1], today[0])


def test_c_idle_gap():
    rec = recipe("C").with_params(c_idle_gap_minutes=60)
    window = [msg(i, at=T0 + timedelta(minutes=i)) for i in range(3)]
    assert not decide(window, T0 + timedelta(minutes=30), rec, COUNTER).fire
    d = decide(window, T0 + timedelta(minutes=90), rec, COUNTER)
    assert d.fire and d.compress_count == 3 and "idle" in d.reasons[0]


def test_combination_takes_largest_span():
    rec = recipe("A+C")
    window = [msg(i, at=T0 + timedelta(minutes=i)) for i in range(20)]
    d = decide(window, T0 + timedelta(days=1), rec, COUNTER)
    assert set(d.triggers) == {"A", "C"} and d.compress_count == 20


def test_unknown_recipe_is_named():
    with pytest.raises(ValueError, match="unknown recipe 'Z'"):
        recipe("Z")


def test_bad_parameters_fail_at_construction():
    with pytest.raises(ValueError, match="keep_last"):
        recipe("A").with_params(a_max_messages=5, a_keep_last=5)
    with pytest.raises(ValueError, match="unknown recipe parameter 'b_high_water'"):
        recipe("A").with_params(b_high_water=10)


@settings(deadline=None, max_examples=60)  # D embeds the window: no time limit
@given(
    n=st.integers(0, 60),
    spec=st.sampled_from(["A", "B", "C", "A+B", "A+B+C", "D", "A+D"]),
    hours=st.integers(0, 72),
)
def test_decision_is_pure_and_in_range(n, spec, hours):
    rec = recipe(spec)
    window = [msg(i, minutes=13) for i in range(n)]
    now = T0 + timedelta(hours=hours)
    d1 = decide(window, now, rec, COUNTER, embed=_embed)
    d2 = decide(window, now, rec, COUNTER, embed=_embed)
    assert d1 == d2
    assert 0 <= d1.compress_count <= n
    assert d1.fire == (d1.compress_count > 0)


def test_an_unknown_time_zone_is_named_when_the_recipe_is_made():
    with pytest.raises(ValueError, match="unknown time zone 'Mars/Base'"):
        recipe("C(timezone='Mars/Base')")
