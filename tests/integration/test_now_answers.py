"""A moved, changed or corrected value answers "now"; the old one only the past.

Through the public API with the offline brain: a value is stated, filler talk
follows, the value changes, and questions in the present and in the past are
asked through `chat` (the app's path) and `context`. Each case checks the old
value is still stored and still found by a question about the past, so the
present-tense answer leaving it out is the ranking's doing.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from memory_lab import Memory
from memory_lab.clock import ManualClock

T0 = datetime(2026, 5, 11, 18, 0, tzinfo=UTC)
SMALL = "A(max_messages=4,keep_last=2)"

FILLER = (
    "I've been reading a lot of science fiction lately.",
    "Any favourites so far?",
    "The last one was about a generation ship.",
    "That sounds gripping.",
)

CHANGES = [
    pytest.param(
        ("We live in Tampere with two cats.",),
        ("We relocated to Porto in the spring.",),
        "Tampere",
        "Porto",
        ("Where do I live now?", "Which city am I based in currently?"),
        "Where did we live before?",
        id="relocated",
    ),
    pytest.param(
        ("I live in Uppsala.",),
        ("We moved to Lyon.",),
        "Uppsala",
        "Lyon",
        ("Where do I live?", "What city do I live in now?"),
        "Where did I live previously?",
        id="moved",
    ),
    pytest.param(
        (
            "My monthly food budget is 300 euros.",
            "Got it.",
            "Actually it's 420 euros now.",
        ),
        (),
        "300",
        "420",
        ("What's my food budget?", "How much is my monthly food budget now?"),
        "What was my food budget before?",
        id="corrected-amount",
    ),
    pytest.param(
        ("Our grocery budget is 250 dollars a week.",),
        ("Correction: our grocery budget is 310 dollars a week now.",),
        "250",
        "310",
        ("What is our grocery budget?", "How big is the grocery budget these days?"),
        "What was the grocery budget originally?",
        id="corrected-later",
    ),
    pytest.param(
        ("I'm employed by Spotify.",),
        ("These days I work for Deezer.",),
        "Spotify",
        "Deezer",
        ("Who do I work for?", "Which company employs me now?"),
        "Who did I work for before?",
        id="changed-employer",
    ),
]


def said(*texts: str, start: datetime) -> list[dict]:
    """User and assistant turns in turn, a minute apart."""
    return [
        {
            "role": "user" if i % 2 == 0 else "assistant",
            "content": text,
            "timestamp": (start + timedelta(minutes=i)).isoformat(),
        }
        for i, text in enumerate(texts)
    ]


def history(
    memory: Memory, clock: ManualClock, early: tuple[str, ...], later: tuple[str, ...]
) -> None:
    """What was said first, filler, then the change, each heard and worked through."""
    memory.add("noa", said(*early, "Noted.", *FILLER, start=T0))
    memory.flush()
    when = T0 + timedelta(days=20)
    clock.set(when)
    if later:
        memory.add("noa", said(*later, "Thanks for the update.", start=when))
        memory.flush()
    clock.advance(timedelta(hours=1))


@pytest.mark.parametrize("recipe", ["A", SMALL], ids=["window", "compressed"])
@pytest.mark.parametrize(("early", "later", "old", "new", "now", "past"), CHANGES)
def test_a_question_about_now_gets_the_new_value_and_the_past_the_old(
    recipe, early, later, old, new, now, past
):
    clock = ManualClock(T0)
    with Memory.open(":memory:", recipe=recipe, clock=clock) as memory:
        history(memory, clock, early, later)
        assert any(f.value.startswith(new) for f in memory.facts("noa"))
        for question in now:
            reply = memory.chat("noa", question).reply
            assert new in reply, (question, reply)
            assert old not in reply, (question, reply)
            memory.flush()
        assert old in memory.context("noa", past, budget=1500).text
        assert any(old in t.content for t in memory.turns("noa"))


def test_the_new_value_reaches_a_tight_context_that_the_old_turn_matches():
    clock = ManualClock(T0)
    with Memory.open(":memory:", recipe=SMALL, clock=clock) as memory:
        history(
            memory,
            clock,
            ("We live in Tampere with two cats.",),
            ("We moved to Porto.",),
        )
        for budget in (300, 600):
            bundle = memory.context("noa", "Where do I live now?", budget=budget)
            assert "Porto" in bundle.text, budget
            assert [(r.old, r.current) for r in bundle.replaced] == [
                ("Tampere", "Porto")
            ]
        before = memory.context("noa", "Where did I live before?", budget=600)
        assert before.replaced == []


def test_a_question_about_something_else_is_not_answered_with_the_new_value():
    clock = ManualClock(T0)
    with Memory.open(":memory:", clock=clock) as memory:
        history(memory, clock, ("I live in Uppsala.",), ("We moved to Lyon.",))
        reply = memory.chat("noa", "What kind of books do I read these days?").reply
        assert "science fiction" in reply
        assert "Lyon" not in reply.split("Also in memory")[0]
