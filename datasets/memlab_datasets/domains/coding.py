"""A developer's work: languages, tools, the stack and its rules."""

from __future__ import annotations

from memlab_datasets.domains.shapes import Domain, OpenItems, Slot
from memlab_datasets.domains.shared_slots import NAME, REPLY_LANGUAGE

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
