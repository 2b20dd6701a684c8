"""Forget means forget: a forgotten fact's turns and words leave every context.

Driven through the public API (`memory_lab.Memory`) with the offline brain, as an
app would: turns added or chatted, `flush()` awaited, then the context, the
reply and the search read. The transcript keeps every turn for audit, so each
test also checks the forgotten words are still stored: the context leaving them
out is the filter's doing, not a turn that was never kept.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory_lab import Memory
from memory_lab.clock import ManualClock

T0 = datetime(2026, 4, 6, 8, 30, tzinfo=UTC)
SMALL = "A(max_messages=4,keep_last=2)"
"""Compress early, so turns reach episodes, excerpts and the running summary."""


def said(*texts: str, start: datetime = T0) -> list[dict]:
    """User and assistant turns in turn, a minute apart."""
    return [
        {
            "role": "user" if i % 2 == 0 else "assistant",
            "content": text,
            "timestamp": (start + timedelta(minutes=i)).isoformat(),
        }
        for i, text in enumerate(texts)
    ]


def stored(memory: Memory, tenant: str, word: str) -> bool:
    return any(word in t.content for t in memory.turns(tenant))


def fact_with(memory: Memory, tenant: str, value: str):
    return next(f for f in memory.facts(tenant) if f.value == value)


def test_a_fact_forgotten_through_the_api_leaves_every_block_and_the_search(
    tmp_path,
):
    with Memory.open(tmp_path / "m", recipe=SMALL) as memory:
        memory.add(
            "ines",
            said(
                "My sister Carla teaches piano in Bergen.",
                "Piano in Bergen, lovely.",
                "I drive a green Skoda to work most days.",
                "Noted.",
                "We adopted a cat called Miso in January.",
                "Miso is a great name.",
                "I like long walks on Sundays.",
                "Sounds relaxing.",
            ),
        )
        memory.flush()
        question = "What do you know about my sister?"
        assert "Bergen" in memory.context("ines", question, budget=1500).text

        memory.forget("ines", fact_with(memory, "ines", "Bergen").id)
        memory.flush()

        for budget in (300, 600, 1500):
            bundle = memory.context("ines", question, budget=budget)
            assert "Bergen" not in bundle.text, budget
        hits = memory.search("ines", "Carla piano Bergen", k=20)
        assert hits and all("Bergen" not in h.text for h in hits)
        # The other turns are still there to find.
        assert "Skoda" in memory.context("ines", "What car do I drive?").text
        assert stored(memory, "ines", "Bergen")


def test_the_reply_to_a_forget_command_and_to_later_questions_does_not_repeat_it():
    clock = ManualClock(T0)
    with Memory.open(":memory:", clock=clock) as memory:
        memory.add("ola", said("I live in Tampere.", "Tampere has great saunas."))
        memory.flush()
        clock.advance(timedelta(hours=1))
        first = memory.chat("ola", "Please forget that I live in Tampere.")
        assert "Tampere" not in first.reply
        memory.flush()
        clock.advance(timedelta(minutes=5))
        memory.add("ola", said("We relocated to Porto in the spring.", "Porto!"))
        memory.flush()
        clock.advance(timedelta(minutes=5))
        step = memory.chat("ola", "Where do I live now?")
        assert "Porto" in step.reply
        assert "Tampere" not in step.reply
        assert step.context is not None and "Tampere" not in step.context.text
        memory.flush()
        assert "Tampere" not in memory.context("ola", "Tampere").text
        assert stored(memory, "ola", "Tampere")


def test_summaries_written_before_and_after_the_forget_leave_its_words_out(
    tmp_path,
):
    with Memory.open(tmp_path / "m", recipe=SMALL) as memory:
        memory.add(
            "kai",
            said(
                "My bank account is with Nordea since last year.",
                "Nordea, understood.",
                "I am training for a half marathon in October.",
                "Good luck with the training.",
                "My favourite dish is mushroom risotto.",
                "Yum.",
            ),
        )
        memory.flush()
        held = [e.render() for e in memory.episodes("kai")]
        assert any("Nordea" in text for text in held)  # summarised before the forget
        asked = memory.chat(
            "kai", "Forget that my bank account is with Nordea, please."
        )
        assert "Nordea" not in asked.reply
        memory.flush()
        memory.add(
            "kai",
            said(
                "By the way, Nordea charged me a fee again.",
                "That is annoying.",
                "The half marathon route passes the harbour.",
                "Nice route.",
                "I also want to try making gnocchi.",
                "Good idea.",
            ),
        )
        memory.flush()
        assert len(memory.episodes("kai")) > len(held)  # summarised after it too
        for question in ("Which bank do I use?", "What have we talked about?"):
            bundle = memory.context("kai", question, budget=1500)
            assert "Nordea" not in bundle.text, question
            summary = bundle.block("summary")
            assert summary is not None and "marathon" in summary.text
        # Only what is shown is filtered: the stored summary and turns keep it.
        assert "Nordea" in memory.window("kai", as_stored=True)[0]
        assert "Nordea" not in memory.window("kai")[0]
        assert stored(memory, "kai", "Nordea")


def test_the_window_just_said_is_redacted_and_other_sentences_of_a_turn_stay():
    with Memory.open(":memory:") as memory:
        memory.add(
            "eli",
            said(
                "I work night shifts at the Riverside clinic. My dog is a beagle.",
                "Riverside clinic, night shifts, and a beagle: noted.",
            ),
        )
        memory.flush()
        fact = fact_with(memory, "eli", "beagle")
        memory.forget("eli", fact.id)
        bundle = memory.context("eli", "Tell me about my dog and my job.")
        window = bundle.block("window")
        assert window is not None and "night shifts" in window.text
        assert "beagle" not in bundle.text
        step = memory.chat("eli", "What breed is my dog?")
        assert "beagle" not in step.reply
        assert stored(memory, "eli", "beagle")


def test_a_restored_fact_is_quoted_again():
    with Memory.open(":memory:") as memory:
        memory.add("uma", said("I play the cello in an amateur orchestra.", "Nice."))
        memory.flush()
        fact = next(f for f in memory.facts("uma") if "cello" in f.value)
        memory.forget("uma", fact.id)
        assert "cello" not in memory.context("uma", "Which instrument do I play?").text
        memory.restore("uma", fact.id)
        assert "cello" in memory.context("uma", "Which instrument do I play?").text
