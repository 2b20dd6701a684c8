"""Settings of an OpenAI-compatible endpoint (`LLMSettings`).

`memory_lab.config` holds them in `MemoryConfig.llm` and re-exports every name.
"""

from __future__ import annotations

from typing import Literal, get_args

from pydantic import Field, SecretStr

from memory_lab.frozen import Frozen

StructuredOutput = Literal["json_schema", "json_object_schema", "json_object", "none"]
"""How an endpoint can be asked for JSON; servers differ. The modes are in
order of the strength of their guarantee: the order an endpoint is probed in."""
STRUCTURED_OUTPUT_MODES: tuple[StructuredOutput, ...] = get_args(StructuredOutput)


class LLMSettings(Frozen):
    """An OpenAI-compatible endpoint; absent means the offline rule-based brain."""

    base_url: str = Field(description="The endpoint, ending in /v1.")
    model: str = Field(description="Model that summarises, condenses and answers.")
    api_key: SecretStr = Field(
        default=SecretStr("not-needed"),
        description="Bearer token; kept secret in reprs and dumps (run logs).",
    )
    extract_model: str | None = Field(
        default=None,
        description="Model for fact extraction, when it should differ (a cheaper "
        "one is common); None uses `model`.",
    )
    extract_base_url: str | None = Field(
        default=None, description="Endpoint of `extract_model`; None uses base_url."
    )
    timeout_s: float = Field(
        default=30.0,
        gt=0,
        description="Per request, for the lanes that set no timeout of their own.",
    )
    reply_timeout_s: float | None = Field(
        default=None,
        gt=0,
        description="Per reply request; None uses timeout_s. On a one-slot local "
        "server a reply may queue behind a summary, so it needs room for both.",
    )
    background_timeout_s: float | None = Field(
        default=None,
        gt=0,
        description="Per request of memory work (summaries, condensing, "
        "extraction); None uses timeout_s. A small CPU model takes tens of seconds "
        "over a long span, and no one is waiting on it.",
    )
    max_attempts: int = Field(
        default=3,
        ge=1,
        le=10,
        description="Attempts per request (the first included) on timeouts, "
        "429 and 5xx.",
    )
    backoff_s: float = Field(
        default=0.5,
        ge=0.0,
        description="First pause between attempts; doubles each time, plus jitter.",
    )
    max_backoff_s: float = Field(
        default=30.0, ge=0.0, description="Cap on any pause, Retry-After included."
    )
    structured_output: Literal["auto", StructuredOutput] = Field(
        default="auto",
        description="How the endpoint is asked for JSON; servers differ. 'auto' "
        "probes once per endpoint and model and remembers the answer in the "
        "response cache.",
    )
    output_attempts: int = Field(
        default=2,
        ge=1,
        le=5,
        description="Tries per call when the reply is unusable (bad JSON, wrong "
        "shape); each retry shows the model its reply and what was wrong.",
    )
    breaker_failures: int = Field(
        default=1,
        ge=1,
        description="Consecutive calls that exhaust their attempts before the "
        "endpoint is skipped: a failing endpoint costs one timeout budget, not "
        "one per call.",
    )
    breaker_cooldown_s: float = Field(
        default=60.0,
        ge=0.0,
        description="How long a failing endpoint is skipped before one call "
        "tries it again.",
    )
    reply_breaker_cooldown_s: float | None = Field(
        default=None,
        ge=0.0,
        description="How long replies skip a failing endpoint; None uses "
        "breaker_cooldown_s. Replies and memory work each have their own breaker, "
        "and a shorter rest gets replies back on the model sooner.",
    )
    use_cache: bool = Field(
        default=True, description="Serve repeated requests from the response cache."
    )
    cache_path: str | None = Field(
        default=None,
        description="Response cache file; None uses "
        "$XDG_CACHE_HOME/memory-lab/llm-cache.sqlite.",
    )
    max_connections: int = Field(
        default=4, ge=1, description="Concurrent requests per event loop."
    )
    extract_max_tokens: int = Field(
        default=768,
        ge=64,
        description="Cap on an extraction reply; a reply cut off here is unusable.",
    )
    respond_max_tokens: int = Field(default=400, ge=16, description="Cap on a reply.")
    agentic_memory: bool = Field(
        default=False,
        description="Offer the replying model the memory tools (save, update, "
        "forget, confirm, list, recall, link, unlink, links) for the tenant it "
        "answers; what it calls is carried out and recorded as events.",
    )
    tool_rounds: int = Field(
        default=4,
        ge=1,
        le=16,
        description="Rounds of tool calls carried out per reply with agentic "
        "memory; then the model must answer without tools.",
    )
    known_facts_shown: int = Field(
        default=30,
        ge=0,
        description="Stored facts shown to the extractor so updates reuse keys.",
    )
    extract_from_assistant: bool = Field(
        default=False,
        description="Also extract from assistant turns. Only for data where both "
        "roles are people (LoCoMo's second speaker); off, an assistant never "
        "re-learns its own replies.",
    )

    def timeout_for(self, role: Literal["reply", "background"]) -> float:
        """The per-request timeout of a lane: its own, else `timeout_s`."""
        own = self.reply_timeout_s if role == "reply" else self.background_timeout_s
        return own if own is not None else self.timeout_s

    def cooldown_for(self, role: Literal["reply", "background"]) -> float:
        """How long a lane's breaker rests: replies may rest less than memory work."""
        own = self.reply_breaker_cooldown_s if role == "reply" else None
        return own if own is not None else self.breaker_cooldown_s
