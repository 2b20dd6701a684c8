"""How traps are worded: hypotheticals, questions, jokes, other people, suggestions.

Each names a value the user never holds, so a memory that stores it is wrong.
"""

from __future__ import annotations

THIRD_PARTIES: tuple[str, ...] = (
    "sister",
    "brother",
    "colleague",
    "neighbour",
    "business partner",
    "friend",
)

TRAP_TEMPLATES: dict[str, tuple[str, ...]] = {
    "hypothetical": (
        "What if {topic} were {alt}? Just thinking out loud.",
        "Hypothetically, if {topic} was {alt}, would anything change?",
        "Suppose {topic} were {alt}, purely as a thought experiment.",
    ),
    "question": (
        "Is {alt} any good, in your opinion?",
        "Do many people go for {alt}?",
        "What do you think about {alt}?",
    ),
    "joke": (
        "Ha, at this rate {topic} might as well be {alt}. Kidding!",
        "If I won the lottery, {topic} would be {alt}, obviously. Just joking.",
    ),
}
TRAP_REPLIES: dict[str, tuple[str, ...]] = {
    "hypothetical": (
        "It would mostly come down to cost and effort.",
        "A few things would change, but nothing dramatic.",
    ),
    "question": (
        "It's a common choice; it depends on what you need.",
        "Opinions differ; it has fans and critics.",
    ),
    "joke": ("Ha, good one.", "Ha! I'll take that as a joke."),
    "third_party": ("That's good to know about them.", "Thanks for sharing."),
}
SUGGEST_ASKS: tuple[str, ...] = (
    "Any thoughts on {topic}?",
    "What would you suggest for {topic}?",
)
SUGGESTIONS: tuple[str, ...] = (
    "You could consider {alt}.",
    "Have you thought about {alt}?",
    "Many people in your situation go with {alt}.",
)
REJECTIONS: tuple[str, ...] = (
    "No, that's not for me.",
    "Nah, let's not go down that road.",
    "No thanks, I'll pass on that one.",
)
REJECTION_REPLIES: tuple[str, ...] = ("Fair enough.", "Okay, we'll leave it.")
