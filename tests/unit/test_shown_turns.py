"""A ranking of turns as a context may show it: filtered, rescored, still lazy."""

from __future__ import annotations

from memory_lab.context.shown_turns import ShownTurns
from tests.helpers import msg


class Counted(list):
    """A ranking that counts how many pairs were read from it."""

    reads = 0

    def __iter__(self):
        for item in super().__iter__():
            Counted.reads += 1
            yield item


def ranking(n: int) -> Counted:
    return Counted((msg(i), 1.0 - i / 100) for i in range(n))


def test_left_out_turns_vanish_and_the_rest_keep_their_order():
    shown = ShownTurns(ranking(6), lambda m: None if m.id in {"m1", "m4"} else m)
    assert [m.id for m, _ in shown] == ["m0", "m2", "m3", "m5"]
    assert len(shown) == 4 and shown[1][0].id == "m2" and shown[-1][0].id == "m5"


def test_a_rescored_turn_moves_below_the_ones_it_now_trails():
    shown = ShownTurns(ranking(6), lambda m: m, rescored={"m0": 0.965}, head=4)
    assert [m.id for m, _ in shown] == ["m1", "m2", "m3", "m0", "m4", "m5"]
    scores = [s for _, s in shown]
    assert scores == sorted(scores, reverse=True)
    # Rescored below the head, it is merged with the rest by score.
    deep = ShownTurns(ranking(6), lambda m: m, rescored={"m0": 0.955}, head=2)
    assert [m.id for m, _ in deep] == ["m1", "m2", "m3", "m4", "m0", "m5"]


def test_reading_the_best_few_reads_no_further():
    Counted.reads = 0
    shown = ShownTurns(ranking(1000), lambda m: m)
    assert shown[2][0].id == "m2"
    assert Counted.reads <= 4
    assert shown.best_first
