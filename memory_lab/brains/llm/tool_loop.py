"""A reply with tools: the model calls them, reads their results, then answers.

The loop is the OpenAI tool-calling exchange and nothing more: the tools go out
in the OpenAI format (LangChain's `convert_to_openai_tool`), each call the model
makes is carried out and answered with a `role: tool` message, and the model is
asked again, at most `max_rounds` times; then it is asked once more with
`tool_choice="none"`, so a model that never stops calling tools still ends with
text. A call that cannot be carried out (no such tool, arguments that are not a
JSON object or fail validation, a tool that raises) is answered to the model as
an error message: the turn goes on, and the use is recorded as failed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from langchain_core.tools import BaseTool
from langchain_core.utils.function_calling import convert_to_openai_tool
from pydantic import ValidationError

from memory_lab.llm_client.completion import Completion, ToolCall

#: Sends the conversation so far with the tool specs and a tool_choice.
Ask = Callable[[list[dict[str, Any]], list[dict[str, Any]], str | None], Completion]

_SHOWN_CHARS = 160


@dataclass(frozen=True)
class ToolUse:
    """One tool call the model made and what it was answered.

    Attributes:
        name: The tool the model named (possibly none that exists).
        arguments: The arguments exactly as the model wrote them.
        result: What the model was sent back: the tool's result as JSON, or an
            error starting with ``error:``.
        ok: False when the call could not be carried out.
    """

    name: str
    arguments: str
    result: str
    ok: bool

    def line(self) -> str:
        """One line for an event log: the call and the start of its answer."""
        return f"{self.name}({_clip(self.arguments)}) -> {_clip(self.result)}"


@dataclass(frozen=True)
class ToolReply:
    """How a tool conversation ended.

    Attributes:
        text: The model's last text, stripped ("" when it gave none).
        uses: Every call, in the order the model made them.
        asked: Requests sent to the model.
        hit_limit: True when `max_rounds` of calls ran out and the model was
            asked to answer without tools.
    """

    text: str
    uses: tuple[ToolUse, ...]
    asked: int
    hit_limit: bool


def tool_specs(tools: Sequence[BaseTool]) -> list[dict[str, Any]]:
    """The tools in the OpenAI `tools=[...]` format."""
    return [convert_to_openai_tool(t) for t in tools]


def reply_with_tools(
    ask: Ask,
    messages: list[dict[str, Any]],
    tools: Sequence[BaseTool],
    *,
    max_rounds: int,
    uses: list[ToolUse] | None = None,
) -> ToolReply:
    """Ask, carry out the calls, ask again; the model's last text is the reply.

    Args:
        ask: One request (the brain's reply endpoint, with its breaker and cache).
        messages: The prompt; it is not changed.
        tools: The tools the model may call, by their `name`.
        max_rounds: Rounds of calls carried out before the model must answer.
        uses: Appended to as calls are carried out, so a caller whose request
            fails mid-way still knows which calls were done.

    Raises:
        Whatever `ask` raises: a failed request ends the conversation.
    """
    specs = tool_specs(tools)
    by_name = {t.name: t for t in tools}
    sent = list(messages)
    uses = [] if uses is None else uses
    for round_ in range(max_rounds):
        # "auto" is OpenAI's default with tools; said outright because
        # llama-cpp-python's function-calling format answers in prose without it.
        completion = ask(sent, specs, "auto")
        if not completion.tool_calls:
            return ToolReply(completion.text.strip(), tuple(uses), round_ + 1, False)
        sent.append(_assistant_turn(completion))
        for call in completion.tool_calls:
            use = carry_out(call, by_name)
            uses.append(use)
            sent.append(
                {"role": "tool", "tool_call_id": call.id, "content": use.result}
            )
    final = ask(sent, specs, "none")
    # Calls made despite tool_choice="none" are not carried out.
    return ToolReply(final.text.strip(), tuple(uses), max_rounds + 1, True)


def carry_out(call: ToolCall, tools: dict[str, BaseTool]) -> ToolUse:
    """Run one call, or say why not; nothing a model writes here raises."""
    tool = tools.get(call.name)
    if tool is None:
        known = ", ".join(sorted(tools))
        return _failed(call, f"no tool named {call.name!r}; the tools are {known}")
    if not isinstance(call.arguments, dict):
        return _failed(
            call, f"arguments must be a JSON object, got {_clip(call.arguments_json)!r}"
        )
    try:
        result = tool.invoke(call.arguments)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "arguments"
        return _failed(call, f"invalid arguments: {where}: {first['msg']}")
    except Exception as exc:  # noqa: BLE001 - the model hears why; the turn goes on
        return _failed(call, f"{type(exc).__name__}: {exc}")
    text = result if isinstance(result, str) else json.dumps(result, default=str)
    return ToolUse(call.name, call.arguments_json, text, True)


def _failed(call: ToolCall, why: str) -> ToolUse:
    return ToolUse(call.name, call.arguments_json, f"error: {why}", False)


def _assistant_turn(completion: Completion) -> dict[str, Any]:
    """The model's calls as the assistant message the next request must repeat.

    Its content is a string even when empty: llama-cpp-python's server refuses
    the `null` OpenAI allows beside tool calls.
    """
    return {
        "role": "assistant",
        "content": completion.text,
        "tool_calls": [
            {
                "id": c.id,
                "type": "function",
                "function": {"name": c.name, "arguments": c.arguments_json},
            }
            for c in completion.tool_calls
        ],
    }


def _clip(text: str) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= _SHOWN_CHARS else flat[: _SHOWN_CHARS - 1] + "…"
