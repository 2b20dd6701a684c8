"""What the synthetic users talk about: fact slots, phrasings, traps, small talk.

Each slot carries several templates per move (state, update, confirm, ...) so a
memory cannot win with one regular expression. Every template that states a value
contains `{v}` verbatim, which is what lets the generator promise that a gold
fact's value appears in the turn that states it. Slots listed in `ABSENT_SLOTS`
are never stated by the user; they feed abstention probes and third-party traps.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from memory_lab.config import FactCategory

DomainName = Literal["bookkeeping", "finance", "coding", "companion"]
DOMAINS: tuple[DomainName, ...] = ("bookkeeping", "finance", "coding", "companion")


@dataclass(frozen=True)
class Slot:
    """One thing a user can tell the assistant about themselves.

    Attributes:
        key: Stable fact key, e.g. 'accounting_framework'.
        category: The engine's fact category.
        values: Candidate values; updates move between them.
        state: First statements; each contains `{v}`.
        question: The recall question.
        topic: Noun phrase from the user's side ('our accounting framework'); it
            reads after 'if' in hypotheticals and in temporal questions.
        update: Statements of a changed value; empty means the slot never changes.
        confirm: Re-confirmations of the current value.
        lead_in: First halves of a statement spread over two turns (no value).
        follow: Second halves; each contains `{v}`.
        third: Third-party statements with `{who}` and `{alt}`.
    """

    key: str
    category: FactCategory
    values: tuple[str, ...]
    state: tuple[str, ...]
    question: str
    topic: str
    update: tuple[str, ...] = ()
    confirm: tuple[str, ...] = ()
    lead_in: tuple[str, ...] = ()
    follow: tuple[str, ...] = ()
    third: tuple[str, ...] = ()

    @property
    def updatable(self) -> bool:
        """Whether the slot's value can change during a conversation."""
        return bool(self.update) and len(self.values) > 1


@dataclass(frozen=True)
class OpenItems:
    """Open items ('unresolved' facts): a fixed list plus numbered ones for scale."""

    tasks: tuple[str, ...]
    numbered: str = field(metadata={"doc": "Task with `{n}` for unlimited items."})
    state: tuple[str, ...] = (
        "I still need to {v}.",
        "Open item: I have to {v} at some point.",
        "Remind me that I haven't managed to {v} yet.",
        "Note to self, I must {v} soon.",
    )
    resolve: tuple[str, ...] = (
        "I finally got to {v}, so that's off the list.",
        "Done: I managed to {v} yesterday.",
        "Good news, I was able to {v} this morning.",
    )


@dataclass(frozen=True)
class Domain:
    """A setting: the assistant's persona, the user's slots and neutral chatter."""

    name: DomainName
    persona: str
    slots: tuple[Slot, ...]
    open_items: OpenItems
    chatter: tuple[str, ...]
    chatter_replies: tuple[str, ...]

    def __post_init__(self) -> None:
        # Replies answer the chatter line at the same index.
        if len(self.chatter) != len(self.chatter_replies):
            raise ValueError(f"domain {self.name!r}: chatter and replies differ")


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

BOOKKEEPING = Domain(
    name="bookkeeping",
    persona="Ledger",
    slots=(
        NAME,
        REPLY_LANGUAGE,
        ANSWER_FORMAT,
        Slot(
            key="company_name",
            category="identity",
            values=(
                "Nordlys AB",
                "Bergstrom Bygg AB",
                "Kaffekoppen AB",
                "Solvik Design AB",
                "Tallgren & Co",
            ),
            state=(
                "Our company is called {v}.",
                "I run a small firm, {v}.",
                "The business is {v}, by the way.",
            ),
            lead_in=("I should tell you about the company I run.",),
            follow=("It's called {v}.",),
            question="What is my company called?",
            topic="my company's name",
            third=("My {who} runs a company called {alt}.",),
        ),
        Slot(
            key="accounting_framework",
            category="decision",
            values=("K2", "K3", "K1"),
            state=(
                "We decided to go with {v}.",
                "We're going with {v} for the annual accounts.",
                "Decision made: {v} it is.",
            ),
            update=(
                "Actually we switched to {v}.",
                "Change of plan, we moved to {v} after all.",
                "Scratch that, the accountant convinced us to use {v}.",
            ),
            confirm=("Still {v} for the annual accounts, nothing changed.",),
            lead_in=("We've been going back and forth on the accounting framework.",),
            follow=("In the end we picked {v}.", "We settled on {v}."),
            question="Which accounting framework did we decide on?",
            topic="our accounting framework",
            third=("My {who}'s company uses {alt} for its accounts.",),
        ),
        Slot(
            key="accounting_software",
            category="decision",
            values=("Fortnox", "Visma eEkonomi", "Bokio", "Speedledger"),
            state=(
                "We picked {v} as our accounting software.",
                "We're using {v} for the books.",
                "The books are kept in {v}.",
            ),
            update=(
                "Actually we moved the books over to {v}.",
                "We've switched our accounting software to {v}.",
            ),
            confirm=("We're still on {v}, it's working fine.",),
            question="Which accounting software do we use?",
            topic="our accounting software",
            third=("My {who} swears by {alt} for bookkeeping.",),
        ),
        Slot(
            key="report_format",
            category="preference",
            values=("PDF", "Excel", "Google Sheets"),
            state=(
                "I prefer reports as {v}.",
                "Send reports in {v}, that works best for me.",
                "{v} is my favourite format for reports.",
            ),
            update=("I've changed my mind, I'd rather get reports in {v}.",),
            question="In which format do I prefer my reports?",
            topic="my preferred report format",
            third=("My {who} always wants reports in {alt}.",),
        ),
        Slot(
            key="vat_period",
            category="constraint",
            values=("monthly", "quarterly", "yearly"),
            state=(
                "We have to report VAT {v}.",
                "Our VAT is filed {v}, the tax agency requires it.",
            ),
            update=("The tax agency moved us to {v} VAT reporting.",),
            question="How often do we have to report VAT?",
            topic="our VAT period",
        ),
        Slot(
            key="fiscal_year_end",
            category="constraint",
            values=("31 December", "30 June", "30 April"),
            state=(
                "Our fiscal year ends on {v}.",
                "Remember that our financial year closes on {v}.",
            ),
            question="When does our fiscal year end?",
            topic="the end of our fiscal year",
        ),
        Slot(
            key="bank",
            category="knowledge",
            values=("Handelsbanken", "SEB", "Swedbank", "Nordea"),
            state=(
                "Our business account is with {v}.",
                "We bank with {v}.",
            ),
            update=("We moved our business account to {v}.",),
            question="Which bank is our business account with?",
            topic="our bank",
            third=("My {who} banks with {alt}.",),
        ),
        Slot(
            key="accountant",
            category="knowledge",
            values=("Maria Lind", "Johan Ek", "Sara Holm"),
            state=(
                "Our external accountant is {v}.",
                "{v} does our year-end closing.",
            ),
            update=("We changed accountants, it's {v} now.",),
            question="Who is our external accountant?",
            topic="our external accountant",
        ),
        Slot(
            key="auditor",
            category="knowledge",
            values=("Grant Thornton", "KPMG", "Baker Tilly"),
            state=("Our auditor is {v}.", "We hired {v} as auditor."),
            question="Which auditor did we hire?",
            topic="our auditor",
            third=("My {who}'s company hired {alt} as auditor.",),
        ),
    ),
    open_items=OpenItems(
        tasks=(
            "file the Q3 VAT return",
            "chase the unpaid invoice from Kvarnen",
            "book the year-end meeting with the accountant",
            "reconcile the December bank statement",
            "renew the company insurance",
        ),
        numbered="chase payment for invoice {n}",
    ),
    chatter=(
        "How do I book a customer refund?",
        "Can you explain how depreciation works for a laptop?",
        "What's the difference between an invoice and a receipt?",
        "How should I categorize a team lunch?",
        "Is a parking fee a deductible expense?",
        "What does accrual accounting mean in practice?",
    ),
    chatter_replies=(
        "Sure. In short: record it against the original sale and reverse the VAT.",
        "Spread the cost over its useful life, usually three to five years.",
        "An invoice asks for payment; a receipt shows it was made.",
        "Usually as representation; the deductible share is limited.",
        "Often yes, when it is for business travel; keep the receipt.",
        "You record income and costs when they arise, not when cash moves.",
    ),
)

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

CODING = Domain(
    name="coding",
    persona="Dev",
    slots=(
        NAME,
        REPLY_LANGUAGE,
        Slot(
            key="role",
            category="identity",
            values=("backend developer", "data engineer", "student", "team lead"),
            state=("I work as a {v}.", "I'm a {v}, mostly on internal tools."),
            question="What is my role?",
            topic="my role",
            third=("My {who} is a {alt}.",),
        ),
        Slot(
            key="favourite_language",
            category="preference",
            values=("Python", "Rust", "TypeScript", "Kotlin"),
            state=(
                "I prefer {v} for side projects.",
                "{v} is my favourite language.",
                "Given the choice I always write {v}.",
            ),
            update=("These days I'd rather write {v}.",),
            question="Which programming language do I prefer?",
            topic="my favourite language",
            third=("My {who} only writes {alt}.",),
        ),
        Slot(
            key="editor",
            category="preference",
            values=("Neovim", "VS Code", "Emacs"),
            state=("I code in {v}.", "My editor of choice is {v}."),
            update=("I finally moved to {v}.",),
            question="Which editor do I use?",
            topic="my editor",
            third=("My {who} uses {alt}.",),
        ),
        Slot(
            key="python_version",
            category="constraint",
            values=("Python 3.9", "Python 3.11", "Python 3.12"),
            state=(
                "We're stuck on {v} at work, so keep it compatible.",
                "Everything has to run on {v}.",
            ),
            update=("We finally upgraded to {v}.",),
            question="Which Python version does my code have to run on?",
            topic="the Python version we target",
        ),
        Slot(
            key="database",
            category="decision",
            values=("PostgreSQL", "SQLite", "MySQL"),
            state=(
                "We decided to go with {v} for the new service.",
                "The team picked {v} as the database.",
            ),
            update=(
                "Actually we switched to {v}.",
                "Change of plan, the database is {v} now.",
            ),
            confirm=("Still {v}, no change there.",),
            lead_in=("We had the big database discussion today.",),
            follow=("We went with {v}.",),
            question="Which database did we choose for the new service?",
            topic="the database for the new service",
            third=("My {who}'s team went with {alt}.",),
        ),
        Slot(
            key="web_framework",
            category="decision",
            values=("FastAPI", "Django", "Flask"),
            state=("We're building the API with {v}.", "We chose {v} for the API."),
            update=("We rewrote the API in {v} after all.",),
            question="Which framework is the API built with?",
            topic="our web framework",
        ),
        Slot(
            key="code_requirement",
            category="instruction",
            values=("type hints", "docstrings", "unit tests"),
            state=(
                "Always include {v} in code you show me.",
                "Please add {v} to every snippet.",
            ),
            update=("Forget the earlier rule, always include {v} instead.",),
            question="What must every code snippet you show me include?",
            topic="what every snippet must include",
        ),
        Slot(
            key="repo_host",
            category="knowledge",
            values=("GitLab", "GitHub", "Bitbucket"),
            state=("Our code lives on {v}.", "We host the repos on {v}."),
            update=("We migrated the repos to {v}.",),
            question="Where are our repositories hosted?",
            topic="our repository host",
            third=("My {who}'s company hosts everything on {alt}.",),
        ),
        Slot(
            key="cloud",
            category="knowledge",
            values=("AWS", "Azure", "Hetzner"),
            state=("We deploy to {v}.",),
            question="Which cloud do we deploy to?",
            topic="our cloud provider",
            third=("My {who} deploys everything to {alt}.",),
        ),
    ),
    open_items=OpenItems(
        tasks=(
            "fix the flaky login test",
            "upgrade the ORM",
            "write the migration for the orders table",
            "review Ahmed's pull request",
        ),
        numbered="fix bug #{n}",
    ),
    chatter=(
        "How do I reverse a list in place?",
        "What's the difference between a process and a thread?",
        "Why would a test pass locally and fail in CI?",
        "How do I read a file line by line?",
        "What does a race condition look like?",
    ),
    chatter_replies=(
        "Call reverse() on it; it returns nothing and changes the list.",
        "Processes have separate memory; threads share one.",
        "Usually environment differences: timezones, paths or ordering.",
        "Open it and iterate over the file object.",
        "Two threads read and write shared state without coordination.",
    ),
)

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

DOMAIN_TABLE: dict[DomainName, Domain] = {
    d.name: d for d in (BOOKKEEPING, FINANCE, CODING, COMPANION)
}

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

THIRD_PARTIES: tuple[str, ...] = (
    "sister",
    "brother",
    "colleague",
    "neighbour",
    "business partner",
    "friend",
)

ACKS: tuple[str, ...] = (
    "Got it, I'll remember that.",
    "Noted.",
    "Thanks for letting me know.",
    "Understood, I've made a note.",
)
UPDATE_ACKS: tuple[str, ...] = (
    "Okay, updated.",
    "Thanks, I've changed that.",
    "Understood, I'll use the new one.",
)
CONFIRM_ACKS: tuple[str, ...] = ("Great, nothing changes then.", "Good to know.")
LEAD_IN_REPLIES: tuple[str, ...] = ("Oh? Go on.", "What did you land on?", "Tell me.")
OPEN_ITEM_ACKS: tuple[str, ...] = ("I'll keep it on the list.", "Added to your list.")
RESOLVED_ACKS: tuple[str, ...] = ("Nice, I'll cross it off.", "Great, that's done.")

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

SMALL_TALK: tuple[str, ...] = (
    "Morning! How are you today?",
    "It's been raining all week here.",
    "Did you see the match last night?",
    "I'm on my second coffee already.",
    "Ugh, Mondays.",
    "Thanks, that was helpful!",
    "Haha, fair enough.",
    "Quick break before my next meeting.",
    "The neighbours are renovating again, so loud.",
    "Long day. Glad it's almost over.",
    "Anyway, where were we?",
    "Sorry, got distracted for a minute.",
    "The sunset was beautiful today.",
    "I think I need a holiday.",
)
SMALL_TALK_REPLIES: tuple[str, ...] = (
    "Doing well, thanks for asking!",
    "Sounds like quite a day.",
    "Ha, I hear you.",
    "Happy to help.",
    "No problem at all.",
    "Take your time.",
)
LONG_FILLER: tuple[str, ...] = (
    "I spent most of the morning sorting through old emails and notes.",
    "There were a few things I wanted to think through before writing to you.",
    "The weather kept changing, sunny one minute and grey the next.",
    "A friend called in the middle of it, so I lost my train of thought.",
    "I keep meaning to clean up my desk but it never quite happens.",
    "Lunch was late again because a meeting ran over.",
    "I read an article about sleep and now I worry about my habits.",
    "The train was delayed, which gave me time to think about all this.",
    "Some of this is probably not important, but I wanted to write it down.",
    "I made a list on paper and then lost the paper, which is typical.",
    "It has been a busy few weeks and I am trying to catch up.",
    "I also noticed the printer is out of toner, which is a separate saga.",
    "Anyway, I tend to ramble when I am tired, so bear with me.",
    "Somebody in the building is learning the trumpet, slowly.",
    "I had tea instead of coffee today to see if it helps me focus.",
)
SIGN_OFFS: tuple[str, ...] = ("Talk later!", "Bye for now.", "Gotta run, thanks!")
