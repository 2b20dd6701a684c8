"""What one chat request returned and what the requests cost.

Records rather than SDK objects, so that a completion read from the cache and one
fresh from an endpoint look alike, and eval logs can store usage as plain numbers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from memory_lab.concurrency.lock_order import named_lock


@dataclass(frozen=True)
class ToolCall:
    """One function call the model asked for.

    Attributes:
        id: The call's id, to answer it with a `tool` message.
        name: The function's name.
        arguments_json: The arguments exactly as the model wrote them.
        arguments: Those arguments parsed, or None when they are not JSON.
    """

    id: str
    name: str
    arguments_json: str
    arguments: Any = None

    @classmethod
    def parse(cls, id: str, name: str, arguments_json: str) -> ToolCall:  # noqa: A002
        """Build a call, parsing its arguments when they are valid JSON."""
        try:
            arguments = json.loads(arguments_json)
        except (TypeError, ValueError):
            arguments = None
        return cls(id, name, arguments_json, arguments)


@dataclass(frozen=True)
class Completion:
    """What one chat request returned, from the endpoint or from the cache.

    Attributes:
        text: The message content ("" when the model only called tools).
        tool_calls: The function calls the model asked for, parsed.
        prompt_tokens: Prompt tokens the endpoint reported for the original call.
        completion_tokens: Generated tokens the endpoint reported.
        cached: True when this came from the cache and no request was sent.
        finish_reason: `stop`, `length`, `tool_calls`, ... as reported.
        refusal: The model's refusal message, when it declined to answer
            (OpenAI's structured outputs report it apart from the content).
    """

    text: str
    tool_calls: tuple[ToolCall, ...] = ()
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: bool = False
    finish_reason: str | None = None
    refusal: str | None = None

    def record(self) -> dict[str, Any]:
        """A JSON-ready form for the cache."""
        calls = [[c.id, c.name, c.arguments_json] for c in self.tool_calls]
        return {
            "text": self.text,
            "tool_calls": calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "finish_reason": self.finish_reason,
            "refusal": self.refusal,
        }

    @classmethod
    def from_record(cls, record: dict[str, Any], *, cached: bool) -> Completion:
        """Rebuild a completion stored by `record()`."""
        calls = tuple(ToolCall.parse(*call) for call in record.get("tool_calls", []))
        return cls(
            text=record.get("text", ""),
            tool_calls=calls,
            prompt_tokens=int(record.get("prompt_tokens", 0)),
            completion_tokens=int(record.get("completion_tokens", 0)),
            cached=cached,
            finish_reason=record.get("finish_reason"),
            refusal=record.get("refusal"),
        )

    @classmethod
    def from_response(cls, response: Any) -> Completion:
        """Read an SDK `ChatCompletion`; a missing part becomes empty, not an error."""
        choice = response.choices[0] if response.choices else None
        message = choice.message if choice is not None else None
        calls = tuple(
            ToolCall.parse(c.id, c.function.name, c.function.arguments or "")
            for c in (getattr(message, "tool_calls", None) or ())
            if getattr(c, "function", None) is not None
        )
        usage = response.usage
        return cls(
            text=(message.content if message is not None else None) or "",
            tool_calls=calls,
            prompt_tokens=(usage.prompt_tokens or 0) if usage else 0,
            completion_tokens=(usage.completion_tokens or 0) if usage else 0,
            finish_reason=choice.finish_reason if choice is not None else None,
            refusal=getattr(message, "refusal", None) or None,
        )


class LLMUsage:
    """Thread-safe counters of what the models cost, for eval logs and budgets.

    `calls` counts requests actually sent (each retry is one more), `failures` the
    sent requests that failed, `retries` the repeats after a failure, `gave_up` the
    completions that raised. Cache hits send nothing and add no tokens.
    """

    FIELDS = (
        "calls",
        "prompt_tokens",
        "completion_tokens",
        "cache_hits",
        "failures",
        "retries",
        "gave_up",
    )

    def __init__(self) -> None:
        self._lock = named_lock("llm.usage")  # guards the counts
        self._counts = dict.fromkeys(self.FIELDS, 0)

    def add(self, **deltas: int) -> None:
        """Add to the named counters."""
        with self._lock:
            for name, delta in deltas.items():
                self._counts[name] += delta

    def snapshot(self) -> dict[str, int]:
        """A copy of every counter, consistent at one instant."""
        with self._lock:
            return dict(self._counts)

    def __repr__(self) -> str:
        return f"LLMUsage({self.snapshot()})"
