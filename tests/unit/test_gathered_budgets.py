"""One question under several budgets: the rows a line may list are worked out once.

The line of each budget is the one `gathering.gathered_line` makes from the
held rows alone, whatever was asked before; a write to the tenant's facts makes
the rows be worked out again.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from memory_lab.clock import ManualClock
from memory_lab.config import BudgetConfig, FactConfig, MemoryConfig
from memory_lab.context.gathered import gathered_for
from memory_lab.embeddings import default_embedder
from memory_lab.facts.gathering import gathered_line
from memory_lab.facts.memory import FactMemory
from memory_lab.facts.reconciliation import new_fact
from memory_lab.stores.memory import InMemoryEventLog, InMemoryFactStore
from memory_lab.tokens import default_counter
from memory_lab.types import FactCandidate

START = datetime(2024, 1, 5, 9, tzinfo=UTC)
SAID = [
    ("sign_for.class", "pottery class"),
    ("take.camping", "camping at the lake"),
    ("go_on.trip", "a road trip to the coast"),
    ("likes.painting", "painting sunsets"),
    ("join.choir", "the church choir"),
    ("run.race", "a charity race in the park"),
    ("visit.museum", "the science museum"),
    ("bake.bread", "sourdough bread"),
]
QUESTION = "Which activities has Melanie done this year?"


class _Counting:
    """An embedder that counts the texts it is asked for."""

    def __init__(self) -> None:
        self.inner = default_embedder()
        self.texts = 0

    def embed(self, texts):
        self.texts += len(texts)
        return self.inner.embed(texts)


def _store(clock: ManualClock) -> tuple[FactMemory, InMemoryFactStore]:
    store = InMemoryFactStore()
    facts = FactMemory(store, InMemoryEventLog(), clock, FactConfig())
    for i, (key, value) in enumerate(SAID):
        clock.advance(timedelta(days=9))
        _say(facts, store, clock, key, value, f"m{i}")
    return facts, store


def _say(facts, store, clock, key: str, value: str, turn: str) -> None:
    said = FactCandidate(
        category="knowledge", key=key, value=value, subject="melanie", turn_ids=[turn]
    )
    store.insert("t", new_fact("t", said, clock.now(), facts.config))


def _config(total: int) -> MemoryConfig:
    return MemoryConfig(budget=BudgetConfig().scaled(total))


def _alone(store, embedder, config: MemoryConfig, now: datetime, question=QUESTION):
    """The line `gathered_line` makes from the subject's rows, nothing kept."""
    from memory_lab.facts.gathering import History

    held = History(store.rows("t", subject="melanie")).held(
        now, config.facts, past=True
    )
    max_tokens = int(config.budget.total * config.facts.gather.max_line_share)
    return gathered_line(
        held, question, embedder.embed, default_counter(), config.facts, max_tokens
    )


def test_each_budget_gets_the_line_made_alone_and_the_rows_are_embedded_once():
    clock = ManualClock(START)
    facts, store = _store(clock)
    embedder = _Counting()
    about = facts.about("t", QUESTION, limit=50)
    made = []
    for total in (600, 1500, 600, 2500):
        config = _config(total)
        lines = gathered_for(
            facts, embedder, default_counter(), config, "t", QUESTION, about,
            now=clock.now(),
        )  # fmt: skip
        made.append((total, lines))
    embedded = embedder.texts
    assert embedded <= len(SAID) + 1  # the rows and the question, once
    lengths = set()
    for total, lines in made:
        alone = _alone(store, embedder, _config(total), clock.now())
        assert alone is not None
        assert lines == [alone]
        lengths.add(len(alone.value))
    assert len(lengths) > 1  # the budgets do give lines of different lengths


def test_a_new_fact_is_in_the_next_line():
    clock = ManualClock(START)
    facts, store = _store(clock)
    embedder = _Counting()
    config = _config(2500)
    about = facts.about("t", QUESTION, limit=50)
    before = gathered_for(
        facts, embedder, default_counter(), config, "t", QUESTION, about,
        now=clock.now(),
    )  # fmt: skip
    _say(facts, store, clock, "try.climbing", "indoor climbing", "m99")
    after = gathered_for(
        facts, embedder, default_counter(), config, "t", QUESTION, about,
        now=clock.now(),
    )  # fmt: skip
    assert "climbing" not in before[0].value
    assert after == [_alone(store, embedder, config, clock.now())]
    assert "climbing" in after[0].value


def test_another_question_about_the_subject_embeds_only_itself():
    clock = ManualClock(START)
    facts, store = _store(clock)
    embedder = _Counting()
    config = _config(2500)
    lines = {}
    for question in (QUESTION, "What hobbies has Melanie picked up lately?"):
        about = facts.about("t", question, limit=50)
        lines[question] = gathered_for(
            facts, embedder, default_counter(), config, "t", question, about,
            now=clock.now(),
        )  # fmt: skip
    assert embedder.texts <= len(SAID) + 2  # the rows once, each question once
    for question, made in lines.items():
        assert made == [_alone(store, embedder, config, clock.now(), question)]
