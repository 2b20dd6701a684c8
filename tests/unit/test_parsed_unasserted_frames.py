"""What a denied or merely weighed frame holds is not asserted.

"I wouldn't say I'm a climber", "I don't reckon I'm a good cook" and "we
didn't end up buying the Saab" deny the clause they frame or complete; "I'm
considering moving to Galway" weighs a move, "dreaming of a cottage" imagines
one, and "I've always wanted to visit Peru" is a wish that has not come true.
A main clause under an "if" clause ("if all goes well we'll move to Whitby"),
one hoped for ("hopefully moving to Whitby soon") and hearsay ("according to
my dad I was ...") are not asserted either. None states a fact; the same
clauses said plainly do.
"""

from __future__ import annotations

import pytest

from tests.helpers import parsed as read


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I wouldn't say I'm a climber", "climber"),
        ("I don't reckon I'm a good cook", "cook"),
        ("I'm considering moving to Galway", "Galway"),
        ("we're considering a move to Galway", "Galway"),
        ("I've always wanted to visit Peru", "Peru"),
        ("I always wanted to be a pilot", "pilot"),
        ("we didn't end up buying the Saab", "Saab"),
        ("I never got to visit Peru", "Peru"),
        ("I'm not planning to learn Welsh", "Welsh"),
        ("or Porto? I've always fancied Porto", "Porto"),
        ("dreaming of a cottage in Devon", "cottage"),
        ("if all goes well we'll move to Whitby in spring", "Whitby"),
        ("hopefully moving to Whitby soon", "Whitby"),
        ("according to my dad I was a terrible drummer", "drummer"),
    ],
)
def test_a_denied_or_weighed_frame_asserts_nothing(text: str, word: str) -> None:
    assert not any(word in v for _, _, v in read(text)), read(text)


@pytest.mark.parametrize(
    ("text", "word"),
    [
        ("I think I'm a decent climber", "climber"),
        ("I moved to Galway after considering it for years", "Galway"),
        ("I want to visit Peru next year", "Peru"),
    ],
)
def test_the_same_said_plainly_is_kept(text: str, word: str) -> None:
    assert any(word in v for _, _, v in read(text)), read(text)
