"""A friendly chat: hometown, allergies, tastes, pets and people."""

from __future__ import annotations

from memlab_datasets.domains.shapes import Domain, OpenItems, Slot
from memlab_datasets.domains.shared_slots import NAME, REPLY_LANGUAGE

COMPANION = Domain(
    name="companion",
    persona="Sunny",
    slots=(
        NAME,
        REPLY_LANGUAGE,
        Slot(
            key="hometown",
            category="identity",
            values=("Gothenburg", "Porto", "Leeds", "Krakow"),
            state=("I grew up in {v}.", "I'm from {v} originally."),
            question="Where did I grow up?",
            topic="my hometown",
            third=("My {who} grew up in {alt}.",),
        ),
        Slot(
            key="allergy",
            category="constraint",
            values=("peanuts", "shellfish", "sesame", "kiwi"),
            state=(
                "I'm allergic to {v}.",
                "I can't eat {v}, I'm allergic.",
                "Just so you know, {v} give me a bad reaction, I'm allergic.",
            ),
            lead_in=("There's something about food you should know.",),
            follow=("I'm allergic to {v}.",),
            question="What am I allergic to?",
            topic="my allergy",
            third=("My {who} is allergic to {alt}.",),
        ),
        Slot(
            key="music",
            category="preference",
            values=("jazz", "folk music", "hip hop"),
            state=("I love {v}.", "What I listen to most is {v}."),
            update=("Lately I've been more into {v}.",),
            question="What music do I like?",
            topic="my favourite music",
            third=("My {who} loves {alt}.",),
        ),
        Slot(
            key="food",
            category="preference",
            values=("Thai food", "pasta", "sushi"),
            state=("My favourite food is {v}.", "I could eat {v} every day."),
            update=("Honestly, {v} is my favourite now.",),
            question="What is my favourite food?",
            topic="my favourite food",
            third=("My {who} could eat {alt} every day.",),
        ),
        Slot(
            key="hobby",
            category="decision",
            values=("running", "yoga", "learning the piano"),
            state=(
                "I decided to start {v}.",
                "I've made up my mind, I'm taking up {v}.",
            ),
            update=(
                "Actually I quit that and started {v} instead.",
                "Change of plan, I'm doing {v} now.",
            ),
            confirm=("Still doing {v}, it's going well.",),
            question="Which hobby did I decide to take up?",
            topic="my new hobby",
            third=("My {who} just started {alt}.",),
        ),
        Slot(
            key="cat_name",
            category="knowledge",
            values=("Miso", "Pixel", "Luna"),
            state=("My cat is called {v}.", "{v}, my cat, knocked over a plant again."),
            question="What is my cat called?",
            topic="my cat's name",
        ),
        Slot(
            key="partner_name",
            category="knowledge",
            values=("Sam", "Alex", "Robin"),
            state=("My partner's name is {v}.", "{v}, my partner, says hi."),
            question="What is my partner's name?",
            topic="my partner's name",
        ),
        Slot(
            key="avoid_topic",
            category="instruction",
            values=("my ex", "work stress", "my weight"),
            state=(
                "Please don't bring up {v}.",
                "Let's never talk about {v}, okay?",
            ),
            question="Which topic should you never bring up?",
            topic="the topic you must avoid",
        ),
    ),
    open_items=OpenItems(
        tasks=(
            "call my grandmother",
            "book a dentist appointment",
            "return the library books",
            "reply to Jonas about the trip",
        ),
        numbered="finish chapter {n} of my novel",
    ),
    chatter=(
        "I went for a long walk today, it was nice.",
        "Do you have a good idea for a rainy Sunday?",
        "I watched a documentary about octopuses last night.",
        "What's a good way to wind down in the evening?",
        "I tried a new recipe and it actually worked.",
    ),
    chatter_replies=(
        "That sounds lovely. Fresh air helps.",
        "A book, a blanket and something warm to drink.",
        "They are remarkable animals. What surprised you most?",
        "A short walk and no screens for the last hour often help.",
        "Nice! What did you make?",
    ),
)
