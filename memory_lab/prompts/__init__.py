"""Prompts for the LLM brain: one module per task, each versioned.

Every module (`summarize`, `extract`, `condense`, `respond`, `respond_tools`,
`answer`, `chat_title`) exposes
`NAME`, `VERSION` (a digest of its text and schemas, see `versioning`), a
`build(...)` function that returns OpenAI-style chat messages (plain dicts, what
`ChatClient.complete` sends) and, where the task expects structured
output, its pydantic response model, whose JSON schema the brain passes to
`ChatClient.response_format_for`. Eval logs record the versions so a changed
prompt shows up as a changed run.

The rule every prompt follows for untrusted text (escaped, inside a named tag
the system prompt declares as data) lives in `_render`; its names are re-exported
here.
"""

from __future__ import annotations

from memory_lab.prompts import (
    answer,
    chat_title,
    condense,
    extract,
    respond,
    respond_tools,
    summarize,
)
from memory_lab.prompts._render import (
    DATA_RULE,
    chat,
    data_rule,
    escape_data,
    format_instructions,
    render_turn,
    render_turns,
    wrap_data,
)


def prompt_versions() -> dict[str, str]:
    """Name to version of every prompt, the eval answerer's included, for run logs."""
    modules = (summarize, extract, condense, respond, respond_tools, answer, chat_title)
    return {m.NAME: m.VERSION for m in modules}


__all__ = [
    "DATA_RULE",
    "chat",
    "data_rule",
    "escape_data",
    "format_instructions",
    "prompt_versions",
    "render_turn",
    "render_turns",
    "wrap_data",
]
