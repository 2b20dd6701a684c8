"""The sidebar's model lines, through AppTest, and the app's timing for a local model.

The brain is the real LLM brain against the scripted loopback server, with a
monotonic clock the test moves, so a lane fails over and recovers on cue.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from streamlit.testing.v1 import AppTest

from app_ui.model_status import status_lines
from app_ui.settings import LOCAL_MODEL_TIMING, SettingsError, build_llm
from memory_lab.brains.llm.brain import OpenAICompatBrain
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.brains.status import ModelStatus, RoleStatus
from memory_lab.config import LLMSettings
from memory_lab.types import ContextBundle, Message
from tests.integration.openai_server import HTTP_500, FakeOpenAIServer

URL = "http://127.0.0.1:9/v1"


class FakeTime:
    """A monotonic clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 500.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def server() -> Iterator[FakeOpenAIServer]:
    with FakeOpenAIServer() as s:
        yield s


def _question(i: int = 0) -> Message:
    return Message(
        id=f"q{i}",
        tenant="t",
        session="s",
        role="user",
        content="Where do I live?",
        timestamp=datetime(2025, 1, 1, tzinfo=UTC),
    )


def _sidebar(brain: object) -> None:
    from app_ui.model_status import model_status

    model_status(brain)


def _app(brain: object) -> AppTest:
    at = AppTest.from_function(_sidebar, kwargs={"brain": brain}, default_timeout=30)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _texts(elements) -> list[str]:
    return [e.value for e in elements]


@pytest.mark.slow
def test_a_failing_reply_lane_is_shown_with_its_countdown_and_error(server) -> None:
    clock = FakeTime()
    settings = build_llm(server.base_url, "smol", use_cache=False, max_attempts=1)
    brain = OpenAICompatBrain(settings, RuleBasedBrain(), monotonic=clock)
    server.script(HTTP_500)
    brain.respond(_question(), ContextBundle(blocks=[], total_tokens=0, budget=100))

    at = _app(brain)
    [warning] = _texts(at.sidebar.warning)
    assert warning.startswith(
        "Replies: failing over; the offline responder answers for 15 s more."
    )
    assert "Last error:" in warning and "500" in warning
    assert "Memory work: ready." in _texts(at.sidebar.caption)

    clock.now += 16  # the reply lane has rested
    at.run()
    assert not at.sidebar.warning
    captions = _texts(at.sidebar.caption)
    assert any(c.startswith("Replies: ready. Last error:") for c in captions)


def test_the_rule_based_brain_says_it_has_no_model() -> None:
    at = _app(RuleBasedBrain())
    assert _texts(at.sidebar.caption) == [
        "Model: none (the rule-based brain calls no model)"
    ]
    assert not at.sidebar.warning


def test_a_busy_lane_counts_its_calls() -> None:
    status = ModelStatus(
        "m",
        (
            RoleStatus("reply", "ready"),
            RoleStatus("background", "busy", in_flight=2, last_error="x " * 200),
        ),
    )
    [(_, reply), (level, work)] = status_lines(status)
    assert reply == "Replies: ready."
    assert level == "caption"
    assert work.startswith("Memory work: busy (2 calls in flight). Last error: x x")
    assert work.endswith("…") and len(work) < 220  # a long error is clipped


# -- the app's timing for a small local model ------------------------------------


def test_the_app_gives_a_local_model_room_and_a_second_attempt() -> None:
    llm = build_llm(URL, "smol")
    assert llm.max_attempts >= 2
    assert llm.timeout_for("reply") >= 60  # a reply may queue behind a summary
    assert llm.timeout_for("background") >= 120  # summaries took up to 53 s
    assert llm.cooldown_for("reply") < llm.cooldown_for("background")

    brain = OpenAICompatBrain(llm, RuleBasedBrain())
    assert brain.responder.breaker is not brain.summarizer.breaker
    assert brain.responder.breaker.cooldown_s == llm.cooldown_for("reply")
    assert brain.summarizer.breaker.cooldown_s == llm.cooldown_for("background")


def test_the_cli_defaults_are_unchanged() -> None:
    llm = LLMSettings(base_url=URL, model="m")
    assert (llm.timeout_s, llm.max_attempts, llm.breaker_cooldown_s) == (30, 3, 60)
    assert llm.timeout_for("reply") == llm.timeout_for("background") == 30
    assert llm.cooldown_for("reply") == 60


@pytest.mark.parametrize(
    ("setting", "value", "says"),
    [
        ("max_attempts", 0, "LLM setting max_attempts: Input should be greater"),
        ("max_attempts", 11, "LLM setting max_attempts: Input should be less"),
        ("reply_timeout_s", 0, "LLM setting reply_timeout_s: Input should be greater"),
        ("background_timeout_s", -5, "LLM setting background_timeout_s:"),
        ("reply_timeout_s", "soon", "LLM setting reply_timeout_s: Input should be"),
        ("reply_breaker_cooldown_s", -1, "LLM setting reply_breaker_cooldown_s:"),
    ],
)
def test_a_bad_timing_value_fails_in_one_line_naming_it(
    setting: str, value: object, says: str
) -> None:
    with pytest.raises(SettingsError) as err:
        build_llm(URL, "smol", **{setting: value})
    message = str(err.value)
    assert message.startswith(says)
    assert "\n" not in message and f"(got {value!r})" in message


def test_the_timing_table_names_only_real_settings() -> None:
    # `llm_settings` drops names LLMSettings lacks; a typo here would go unseen.
    assert set(LOCAL_MODEL_TIMING) <= set(LLMSettings.model_fields)
