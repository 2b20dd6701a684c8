"""The offline reply to a question about now leads with the value in force."""

from __future__ import annotations

from memory_lab.brains.offline.answer import Line
from memory_lab.brains.offline.current_lines import current_first
from memory_lab.types import Replaced


def turn(text: str) -> Line:
    return Line("turn", text, f"You said: {text}")


def fact(key: str, value: str) -> Line:
    return Line("fact", f"{key} {value}", f"Your {key} is {value}")


OLD = turn("My gym is FitBox on Mill Road, I go on Tuesdays.")
NEW_FACT = fact("gym", "Iron Temple")
NEW_TURN = turn("I switched to Iron Temple, it's closer.")
OTHER = turn("I go on Tuesdays and Fridays.")
GYM = [Replaced(old="FitBox", current="Iron Temple")]


def test_the_successor_leads_even_when_the_question_never_reached_it():
    lines = [OLD, OTHER, NEW_TURN, NEW_FACT]
    out = current_first([OLD, OTHER], lines, GYM, shown=4)
    assert out == [NEW_FACT, OTHER]


def test_without_replaced_values_the_ranking_stands():
    assert current_first([OLD, OTHER], [OLD, OTHER], [], shown=4) == [OLD, OTHER]


def test_a_line_stating_both_values_is_no_outdated_line():
    both = turn("I left FitBox for Iron Temple in May.")
    out = current_first([both, OLD], [both, OLD], GYM, shown=4)
    assert out == [both]


def test_an_old_value_below_what_the_reply_shows_only_leaves():
    ahead = [turn(f"I stretch for {n} minutes first.") for n in (5, 10, 15)]
    out = current_first([*ahead, OLD], [*ahead, OLD, NEW_FACT], GYM, shown=2)
    assert out == ahead


def test_a_successor_already_ranked_is_not_repeated():
    out = current_first([OLD, NEW_TURN, OTHER], [OLD, NEW_TURN, OTHER], GYM, shown=4)
    assert out == [NEW_TURN, OTHER]
