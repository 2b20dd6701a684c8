"""Records of what the models did in a run: answers, verdicts and what they cost.

They live in the run log beside the probes, so F1, BLEU-1 and J are re-scored from
a stored run without sending a request, and a failed call stays visible as a
marked record instead of a missing row.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

CallStatus = Literal["ok", "failed"]
Label = Literal["CORRECT", "WRONG"]


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelCall(_Model):
    """One request's outcome; a failure keeps its reason and is never dropped."""

    status: CallStatus
    error: str = ""
    cached: bool = Field(default=False, description="Served by the response cache.")
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ModelAnswer(ModelCall):
    """The answer model's reply to one probe."""

    text: str = ""


class JudgeVerdict(ModelCall):
    """A judge's label; None when the call failed or the reply had no label."""

    label: Label | None = None
    reasoning: str = ""


class EndpointInfo(_Model):
    """Where a model lives: never the key."""

    base_url: str
    model: str


USAGE_KEYS = ("calls", "prompt_tokens", "completion_tokens", "cache_hits")
"""The counters every usage dict in a log carries (others may follow)."""


class LLMRunInfo(_Model):
    """The run's models, prompts, cache and spend: what makes an LLM run repeatable."""

    brain: str = Field(description="'rule' or 'llm:<model>' (the brain's name).")
    brain_endpoint: EndpointInfo | None = None
    extract_endpoint: EndpointInfo | None = None
    answer_endpoint: EndpointInfo | None = None
    judge_endpoint: EndpointInfo | None = None
    prompts: dict[str, str] = Field(
        default_factory=dict, description="Prompt name -> version, every one used."
    )
    max_connections: int = 1
    cache: str = Field(default="off", description="Cache file, or 'off'.")
    usage: dict[str, dict[str, int]] = Field(
        default_factory=dict,
        description="Role (brain, answer, judge, context_judge) -> counters.",
    )
    answer_usage: dict[str, dict[str, int]] = Field(
        default_factory=dict, description="System -> the answer model's counters."
    )
    seconds: dict[str, float] = Field(
        default_factory=dict, description="Wall time per phase (memory, answer, ...)."
    )
    price_per_1k_prompt: float | None = None
    price_per_1k_completion: float | None = None
    cost: float | None = Field(
        default=None, description="Spend at the given prices; None without prices."
    )
    judge_calibration: dict[str, Any] | None = Field(
        default=None,
        description="The judge check run before J (`memory-lab judge check`): "
        "false-accept and false-reject rates with intervals, per kind, reliable.",
    )
    judge_checks: list[dict[str, Any]] = Field(
        default_factory=list,
        description="Its per-item verdicts (also written as judge-calibration.jsonl).",
    )
