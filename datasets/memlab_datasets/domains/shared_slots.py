"""Slots every domain shares, and the ones no user ever states.

Slots in `ABSENT_SLOTS` are never stated by the user; they feed abstention
probes and third-party traps.
"""

from __future__ import annotations

from memlab_datasets.domains.shapes import Slot

NAME = Slot(
    key="name",
    category="identity",
    values=(
        "Lena",
        "Omar",
        "Priya",
        "Jonas",
        "Mei",
        "Tomas",
        "Aisha",
        "Erik",
        "Sofia",
        "Kenji",
        "Nora",
        "Diego",
    ),
    state=(
        "My name is {v}.",
        "I'm {v}, by the way.",
        "You can call me {v}.",
        "Hi, {v} here, I don't think I introduced myself.",
    ),
    lead_in=("I don't think I ever told you my name.",),
    follow=("It's {v}.", "Well, it's {v}."),
    question="What is my name?",
    topic="my name",
    third=("My {who}'s name is {alt}.", "My {who} is called {alt}, lovely person."),
)

REPLY_LANGUAGE = Slot(
    key="reply_language",
    category="instruction",
    values=(
        "Swedish",
        "German",
        "Spanish",
        "French",
        "Finnish",
        "Dutch",
        "Portuguese",
        "Norwegian",
    ),
    state=(
        "Please always answer in {v}.",
        "From now on, reply in {v}, please.",
        "I'd like all your answers in {v}.",
        "Could you write to me in {v} from now on?",
    ),
    update=(
        "Actually, switch to {v} instead, please.",
        "Change of plan: answer in {v} from now on.",
        "Let's do {v} from here on, not the other language.",
    ),
    confirm=("Just to confirm, keep answering in {v}.", "Yes, {v} is still right."),
    question="Which language should you answer me in?",
    topic="the language you answer me in",
    third=("My {who} only reads {alt}.",),
)

ANSWER_FORMAT = Slot(
    key="answer_format",
    category="instruction",
    values=("bullet points", "numbered lists", "short paragraphs"),
    state=(
        "Please format your answers as {v}.",
        "I find {v} easiest to read, so use those, please.",
        "Always give me {v}, not walls of text.",
    ),
    update=("Actually, I'd rather have {v} from now on.",),
    question="How should you format your answers for me?",
    topic="the format of your answers",
)

ABSENT_SLOTS: tuple[Slot, ...] = (
    Slot(
        key="birthday",
        category="identity",
        values=("12 March", "3 October", "28 July"),
        state=(),
        question="When is my birthday?",
        topic="my birthday",
        third=("My {who}'s birthday is on {alt}.",),
    ),
    Slot(
        key="car",
        category="knowledge",
        values=("a Volvo", "a Tesla", "a Toyota"),
        state=(),
        question="What car do I drive?",
        topic="my car",
        third=("My {who} drives {alt}.",),
    ),
    Slot(
        key="dog_name",
        category="knowledge",
        values=("Rex", "Bamse", "Otto"),
        state=(),
        question="What is my dog called?",
        topic="my dog's name",
        third=("My {who}'s dog is called {alt}.",),
    ),
    Slot(
        key="favourite_film",
        category="preference",
        values=("Paddington 2", "Alien", "Spirited Away"),
        state=(),
        question="What is my favourite film?",
        topic="my favourite film",
        third=("My {who}'s favourite film is {alt}.",),
    ),
)
