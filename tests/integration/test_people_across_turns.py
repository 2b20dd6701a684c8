"""He and she across turns and jobs, and other people's facts kept as theirs.

One turn a day, each read by its own extraction job; phrasings are this file's.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory_lab import Memory

START = datetime(2026, 3, 9, 18, tzinfo=UTC)


def facts_after(*turns: str) -> set[tuple[str, str]]:
    """(subject, value) of the active facts after one turn a day."""
    with Memory.open(":memory:") as memory:
        for day, text in enumerate(turns):
            stamp = (START + timedelta(days=day)).isoformat()
            memory.add("t", [{"role": "user", "content": text, "timestamp": stamp}])
            memory.flush()
        return {(f.subject, f.value) for f in memory.facts("t")}


def test_a_pronoun_a_day_later_names_the_person_named_before() -> None:
    found = facts_after("My wife is called Marisol.", "She's a structural engineer.")
    assert ("user", "Marisol") in found, found
    assert any(s == "marisol" and "engineer" in v for s, v in found), found
    assert not any(s == "user" and "engineer" in v for s, v in found), found


def test_he_and_she_go_to_the_person_each_fits() -> None:
    found = facts_after(
        "My brother Kofi lives in Accra.",
        "My niece is called Abena.",
        "He's 38 and she's 9.",
    )
    assert ("kofi", "38") in found, found
    assert ("abena", "9") in found, found


def test_another_persons_home_is_never_the_speakers() -> None:
    found = facts_after("I live in Galway.", "My cousin Róisín lives in Cork.")
    assert ("user", "Galway") in found, found
    assert not any(s == "user" and "Cork" in v for s, v in found), found


def test_a_pronoun_with_no_one_before_it_is_not_guessed() -> None:
    found = facts_after("He is a firefighter.")
    assert not any("firefighter" in v for _, v in found), found


def test_what_used_to_hold_is_kept_as_past_and_ends_the_same_value() -> None:
    with Memory.open(":memory:") as memory:
        for text in [
            "I live in Ghent.",
            "Well, I used to live in Ghent. These days I live in Leuven.",
            "I used to work at Colruyt.",
        ]:
            memory.add("t", [{"role": "user", "content": text}])
            memory.flush()
        now = [f.value for f in memory.facts("t")]
        events = [e.detail for e in memory.events("t")]
    assert not any("Colruyt" in v for v in now), now
    assert not any(v == "Ghent" for v in now), now
    assert any("Colruyt" in d and "past" in d for d in events), events


def test_she_in_a_two_person_chat_is_not_the_other_speaker() -> None:
    turns = [
        ("Ines", "I took up rowing this spring."),
        ("Tomas", "Nice! I work as a carpenter these days."),
        ("Ines", "She's an incredible coach, honestly."),
    ]
    with Memory.open(":memory:") as memory:
        for day, (speaker, text) in enumerate(turns):
            stamp = (START + timedelta(days=day)).isoformat()
            memory.add(
                "t",
                [
                    {
                        "role": "user",
                        "speaker": speaker,
                        "content": text,
                        "timestamp": stamp,
                    }
                ],
            )
            memory.flush()
        about = {(f.subject, f.value) for f in memory.facts("t")}
    assert not any(s == "tomas" and "coach" in v for s, v in about), about
    assert not any(s == "ines" and "coach" in v for s, v in about), about
