"""Personal money: budget, savings goals, investments and the bank."""

from __future__ import annotations

from memlab_datasets.domains.shapes import Domain, OpenItems, Slot
from memlab_datasets.domains.shared_slots import ANSWER_FORMAT, NAME, REPLY_LANGUAGE

FINANCE = Domain(
    name="finance",
    persona="Penny",
    slots=(
        NAME,
        REPLY_LANGUAGE,
        ANSWER_FORMAT,
        Slot(
            key="occupation",
            category="identity",
            values=("nurse", "teacher", "software tester", "carpenter"),
            state=(
                "I work as a {v}.",
                "By day I'm a {v}.",
                "I'm a {v}, so my income is fairly steady.",
            ),
            question="What do I do for a living?",
            topic="my job",
            third=("My {who} works as a {alt}.",),
        ),
        Slot(
            key="monthly_budget",
            category="constraint",
            values=("$400", "$250", "$600"),
            state=(
                "I can't spend more than {v} a month on extras.",
                "My hard limit for extras is {v} a month.",
            ),
            update=(
                "My budget got tighter, now it's {v} a month max.",
                "Actually the limit for extras is {v} a month now.",
            ),
            confirm=("The {v} a month limit still stands.",),
            question="How much can I spend on extras each month?",
            topic="my monthly budget for extras",
        ),
        Slot(
            key="investment_style",
            category="preference",
            values=("index funds", "dividend stocks", "green bonds"),
            state=(
                "I prefer {v} over anything fancy.",
                "What I like to invest in is {v}.",
                "I like to keep my savings in {v}.",
            ),
            update=("Actually I've moved my money into {v}.",),
            question="What do I prefer to invest in?",
            topic="my preferred investment",
            third=("My {who} is all in on {alt}.",),
        ),
        Slot(
            key="savings_goal",
            category="decision",
            values=("a house deposit", "a new car", "a sabbatical"),
            state=(
                "We decided to save for {v}.",
                "The plan is to put money aside for {v}.",
            ),
            update=(
                "Change of plan, we're saving for {v} instead.",
                "Actually we switched our savings goal to {v}.",
            ),
            lead_in=("We talked a lot about what we're saving for.",),
            follow=("We agreed on {v}.",),
            question="What are we saving for?",
            topic="our savings goal",
            third=("My {who} is saving for {alt}.",),
        ),
        Slot(
            key="mortgage_rate",
            category="decision",
            values=("a fixed rate", "a variable rate"),
            state=("We went with {v} on the mortgage.", "We chose {v} for the loan."),
            update=("Actually we switched the mortgage to {v}.",),
            question="What kind of rate did we choose for the mortgage?",
            topic="our mortgage rate",
        ),
        Slot(
            key="bank",
            category="knowledge",
            values=("Nordea", "Monzo", "Revolut", "Chase"),
            state=("My salary goes into {v}.", "I do my banking with {v}."),
            update=("I moved my main account to {v}.",),
            question="Which bank do I use?",
            topic="my bank",
            third=("My {who} banks with {alt}.",),
        ),
        Slot(
            key="payday",
            category="knowledge",
            values=("the 25th", "the 1st", "the 15th"),
            state=("I get paid on {v} of each month.", "Payday for me is {v}."),
            question="On which day of the month do I get paid?",
            topic="my payday",
            third=("My {who} gets paid on {alt}.",),
        ),
        Slot(
            key="avoid_recommending",
            category="instruction",
            values=("individual stocks", "crypto", "leveraged ETFs"),
            state=(
                "Never recommend {v} to me.",
                "Please don't ever suggest {v}.",
            ),
            question="What should you never recommend to me?",
            topic="what you must never recommend",
        ),
        Slot(
            key="pension_fund",
            category="knowledge",
            values=("AP7 Safa", "Vanguard Target 2055", "Fidelity Freedom"),
            state=("My pension is in {v}.",),
            question="Which pension fund am I in?",
            topic="my pension fund",
            third=("My {who}'s pension is in {alt}.",),
        ),
    ),
    open_items=OpenItems(
        tasks=(
            "cancel the old gym membership",
            "compare home insurance offers",
            "claim the home office deduction",
            "set up the automatic savings transfer",
        ),
        numbered="send the receipt for expense claim {n}",
    ),
    chatter=(
        "What's the difference between a Roth and a traditional account?",
        "How big should an emergency fund be?",
        "Is it smart to pay off debt before investing?",
        "How does compound interest actually work?",
        "What is dollar-cost averaging?",
    ),
    chatter_replies=(
        "One is taxed now, the other later; the right one depends on your rate.",
        "A common rule is three to six months of expenses.",
        "High-interest debt first is usually the safer bet.",
        "Returns earn returns; time does most of the work.",
        "Investing a fixed amount on a schedule, whatever the price.",
    ),
)
