"""`MemoryLabChatHistory` on a data folder: LangChain history over a `Memory`.

Real SQLite and Chroma, the offline brain, and LangChain's own runnables: a
prompt with a history placeholder and a fake chat model, wrapped in
`RunnableWithMessageHistory`.
"""

from __future__ import annotations

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import (
    AIMessage,
    HumanMessage,
    SystemMessage,
    ToolMessage,
)
from langchain_core.prompts import ChatPromptTemplate, MessagesPlaceholder
from langchain_core.runnables import RunnableLambda
from langchain_core.runnables.history import RunnableWithMessageHistory

from memory_lab import Memory
from memory_lab.adapters.langchain import MemoryLabChatHistory
from memory_lab.errors import InvalidMessageError

pytestmark = pytest.mark.slow

EXCHANGES = [
    ("My name is Ada and I live in Lyon.", "Nice to meet you, Ada."),
    ("I work as a pastry chef.", "That sounds delicious."),
    ("My sister Mia plays the cello.", "Lovely."),
    ("I am allergic to peanuts.", "Noted, no peanuts."),
]


@pytest.fixture
def memory(tmp_path):
    # A fires at 6 window messages and keeps 2, so four exchanges compress.
    with Memory.open(
        tmp_path / "memory", recipe="A(a_max_messages=6,a_keep_last=2)"
    ) as opened:
        yield opened


def _say(history, exchanges):
    for user, assistant in exchanges:
        history.add_messages([HumanMessage(user), AIMessage(assistant)])


def test_added_messages_come_back_in_order_with_their_kinds(memory):
    history = MemoryLabChatHistory(memory, "ada", thread="s1")
    history.add_messages(
        [
            SystemMessage("Be brief."),
            HumanMessage(
                [
                    {"type": "text", "text": "Hello."},
                    {"type": "text", "text": "I'm Ada."},
                ]
            ),
            AIMessage("Hi Ada.", name="helper"),
        ]
    )
    got = history.messages
    assert [type(m) for m in got] == [SystemMessage, HumanMessage, AIMessage]
    assert [m.content for m in got] == ["Be brief.", "Hello.\nI'm Ada.", "Hi Ada."]
    assert got[2].name == "helper"
    assert all(m.id.startswith("s1:") for m in got)
    # Stored as turns of the tenant's thread, with their roles.
    _, tail = memory.window("ada", thread="s1")
    assert [m.role for m in tail] == ["system", "user", "assistant"]
    # Another conversation and another tenant see none of it.
    assert MemoryLabChatHistory(memory, "ada", thread="s2").messages == []
    assert MemoryLabChatHistory(memory, "bob", thread="s1").messages == []


def test_other_kinds_and_empty_messages_are_refused_and_nothing_is_stored(memory):
    history = MemoryLabChatHistory(memory, "ada")
    with pytest.raises(InvalidMessageError, match=r"messages\[1\]: a ToolMessage"):
        history.add_messages([HumanMessage("hi"), ToolMessage("42", tool_call_id="c1")])
    calls_only = AIMessage("", tool_calls=[{"name": "f", "args": {}, "id": "c1"}])
    with pytest.raises(InvalidMessageError, match=r"messages\[0\].*only tool calls"):
        history.add_messages([calls_only])
    with pytest.raises(InvalidMessageError, match="no text"):
        history.add_messages(
            [HumanMessage([{"type": "image_url", "image_url": {"url": "x"}}])]
        )
    assert history.messages == []
    with pytest.raises(ValueError, match="later thread"):
        MemoryLabChatHistory(memory, "ada", thread="s1~2")


def test_the_running_summary_comes_first_as_one_system_message(memory):
    history = MemoryLabChatHistory(memory, "ada", thread="s1")
    _say(history, EXCHANGES[:2])
    assert not any(isinstance(m, SystemMessage) for m in history.messages)
    _say(history, EXCHANGES[2:])
    assert memory.flush(timeout=120)
    got = history.messages
    summary, tail = memory.window("ada", thread="s1")
    assert summary
    assert isinstance(got[0], SystemMessage)
    assert sum(isinstance(m, SystemMessage) for m in got) == 1
    assert '<memory type="summary">' in got[0].content and "Lyon" in got[0].content
    # Then the verbatim tail, which no longer holds the compressed turns.
    assert [m.content for m in got[1:]] == [m.content for m in tail]
    assert len(got) - 1 < 2 * len(EXCHANGES)
    assert "I am allergic to peanuts." in [m.content for m in got]


def test_clear_starts_a_new_thread_and_forgets_nothing(tmp_path):
    folder = tmp_path / "memory"
    with Memory.open(folder) as memory:
        history = MemoryLabChatHistory(memory, "ada", thread="s1")
        _say(history, EXCHANGES)
        history.clear()
        assert history.messages == []
        assert history.thread == "s1~2"
        assert memory.flush(timeout=120)
        # The old turns are all still in memory: transcript, search, facts.
        _, old_tail = memory.window("ada", thread="s1")
        assert len(old_tail) == 2 * len(EXCHANGES)
        hits = memory.search("ada", "peanuts allergy", thread="s1~2")
        assert any("peanuts" in hit.text for hit in hits)
        # Closing the old thread extracted its turns' facts.
        assert {"Lyon", "pastry chef", "peanuts"} <= {
            f.value for f in memory.facts("ada")
        }

        # A history made before the new thread has a turn finds it, empty.
        assert MemoryLabChatHistory(memory, "ada", thread="s1").messages == []
        # Clearing an empty window does not make another thread.
        history.clear()
        assert history.thread == "s1~2"

    # After a restart, a new history for the conversation continues on s1~2.
    with Memory.open(folder) as memory:
        again = MemoryLabChatHistory(memory, "ada", thread="s1")
        assert again.thread == "s1~2" and again.messages == []
        again.add_messages(
            [
                HumanMessage("What do I do for work?"),
                AIMessage("You are a pastry chef."),
            ]
        )
        assert [m.content for m in again.messages] == [
            "What do I do for work?",
            "You are a pastry chef.",
        ]
        assert len(memory.window("ada", thread="s1")[1]) == 2 * len(EXCHANGES)
        again.clear()
        assert MemoryLabChatHistory(memory, "ada", thread="s1").thread == "s1~3"
        assert memory.threads("ada") == ["s1", "s1~2", "s1~3"]


def test_a_chain_with_history_sees_the_first_exchange_on_its_second_call(memory):
    seen: list[list] = []

    def capture(prompt_value):
        seen.append(prompt_value.to_messages())
        return prompt_value

    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "You are a helpful assistant."),
            MessagesPlaceholder("history"),
            ("human", "{question}"),
        ]
    )
    model = FakeListChatModel(responses=["Nice to meet you, Ada.", "You live in Lyon."])
    chain = RunnableWithMessageHistory(
        prompt | RunnableLambda(capture) | model,
        MemoryLabChatHistory.factory(memory, "ada"),
        input_messages_key="question",
        history_messages_key="history",
    )
    config = {"configurable": {"session_id": "chat-1"}}

    first = chain.invoke({"question": "Hi, I'm Ada and I live in Lyon."}, config)
    second = chain.invoke({"question": "Where do I live?"}, config)

    assert first.content == "Nice to meet you, Ada."
    assert second.content == "You live in Lyon."
    assert [m.content for m in seen[0]] == [
        "You are a helpful assistant.",
        "Hi, I'm Ada and I live in Lyon.",
    ]
    assert [(type(m), m.content) for m in seen[1]] == [
        (SystemMessage, "You are a helpful assistant."),
        (HumanMessage, "Hi, I'm Ada and I live in Lyon."),
        (AIMessage, "Nice to meet you, Ada."),
        (HumanMessage, "Where do I live?"),
    ]
    _, stored = memory.window("ada", thread="chat-1")
    assert [(m.role, m.content) for m in stored] == [
        ("user", "Hi, I'm Ada and I live in Lyon."),
        ("assistant", "Nice to meet you, Ada."),
        ("user", "Where do I live?"),
        ("assistant", "You live in Lyon."),
    ]
    # Another session id is another conversation.
    assert MemoryLabChatHistory(memory, "ada", thread="chat-2").messages == []


def test_a_forgotten_fact_is_not_handed_back_to_the_model(memory):
    history = MemoryLabChatHistory(memory, "ada", thread="s")
    history.add_messages(
        [
            HumanMessage("I keep my spare key under the blue flowerpot."),
            AIMessage("Got it."),
            HumanMessage("We have a cat called Pixel."),
            AIMessage("Cute."),
        ]
    )
    memory.flush()
    key = [f for f in memory.facts("ada") if "flowerpot" in f.value]
    assert key, memory.facts("ada")
    memory.forget("ada", key[0].id)
    text = " ".join(str(m.content) for m in history.messages)
    assert "flowerpot" not in text
    assert "Pixel" in text
    # The transcript keeps it for audit until a purge.
    _, stored = memory.window("ada", thread="s", as_stored=True)
    assert any("flowerpot" in m.content for m in stored)
