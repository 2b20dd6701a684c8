"""The LLM brain's replies and restated memory: a reply from memory alone (the
endpoint failed) is marked whole; a model's own reply is left to the rule."""

from __future__ import annotations

from datetime import UTC, datetime

from memory_lab.brains.llm.brain import FAILED_PREAMBLE, OpenAICompatBrain
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.config import LLMSettings
from memory_lab.restatement import restated_spans
from memory_lab.types import ContextBlock, ContextBundle, Message
from tests.integration.openai_server import HTTP_500, FakeOpenAIServer, text

CONTEXT = ContextBundle(
    blocks=[
        ContextBlock(
            kind="facts",
            text='<memory type="facts">\n- home city = Oslo (since 2024-01-01)\n'
            "</memory>",
            tokens=10,
            budget=100,
        )
    ],
    total_tokens=10,
    budget=100,
)
QUESTION = Message(
    id="q1",
    tenant="t1",
    session="s1",
    role="user",
    content="Which city is home?",
    timestamp=datetime(2025, 3, 3, tzinfo=UTC),
)


def _brain(server: FakeOpenAIServer) -> OpenAICompatBrain:
    settings = LLMSettings(
        base_url=server.base_url,
        model="local-test-model",
        max_attempts=1,
        use_cache=False,
    )
    return OpenAICompatBrain(settings, RuleBasedBrain())


def test_the_reply_from_memory_when_the_endpoint_fails_is_marked_whole(
    openai_server: FakeOpenAIServer,
):
    openai_server.script(HTTP_500)
    result = _brain(openai_server).respond(QUESTION, CONTEXT)
    assert result.value.startswith(FAILED_PREAMBLE) and "Oslo" in result.value
    assert result.restated == ((0, len(result.value)),)
    assert result.notes and result.notes[0].kind == "brain_fallback"


def test_a_model_reply_is_not_marked_by_the_brain_but_by_the_rule(
    openai_server: FakeOpenAIServer,
):
    reply = "Your home city is Oslo. Try the Munch museum on Sunday."
    openai_server.script(text(reply))
    result = _brain(openai_server).respond(QUESTION, CONTEXT)
    assert result.value == reply and result.restated == ()
    spans = restated_spans(result.value, CONTEXT, given=result.restated)
    assert [reply[a:b] for a, b in spans] == ["Your home city is Oslo."]
