"""How to ask an OpenAI-compatible endpoint for JSON that follows a schema.

Servers disagree. OpenAI takes `{"type": "json_schema", ...}`; llama.cpp's Python
server rejects that with HTTP 500 but constrains its sampling with a grammar when
given `{"type": "json_object", "schema": ...}`; some servers only promise some JSON
object; some ignore `response_format` altogether. A mode names which of these an
endpoint gets, so prompts and parsing stay the same everywhere.
"""

from __future__ import annotations

import json
from typing import Any

# Strongest guarantee first: the order in which an endpoint is probed.
from memory_lab.config import (  # noqa: F401 - re-exported for the client
    STRUCTURED_OUTPUT_MODES,
    StructuredOutput,
)

#: A tiny schema and prompt for probing; an answer fits in a few tokens.
PROBE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"ok": {"type": "boolean"}},
    "required": ["ok"],
}
PROBE_MESSAGES: list[dict[str, str]] = [
    {"role": "system", "content": 'Answer only with the JSON object {"ok": true}.'},
    {"role": "user", "content": "Are you there?"},
]


def check_mode(mode: str) -> StructuredOutput:
    """`mode` if it is a known structured-output mode, else a ValueError naming it."""
    if mode not in STRUCTURED_OUTPUT_MODES:
        raise ValueError(
            f"structured_output must be one of {', '.join(STRUCTURED_OUTPUT_MODES)}; "
            f"got {mode!r}"
        )
    return mode  # type: ignore[return-value]


def response_format_for(
    schema: dict[str, Any],
    mode: StructuredOutput,
    *,
    name: str = "response",
    strict: bool = False,
) -> dict[str, Any] | None:
    """The `response_format` that asks an endpoint in `mode` for `schema`.

    With `json_object` and `none` the endpoint never sees the schema, so the prompt
    has to describe it and the caller has to validate the answer.

    Args:
        schema: A JSON schema for the answer.
        mode: The endpoint's structured-output mode.
        name: The schema's name, which `json_schema` requires.
        strict: OpenAI's strict mode; it only accepts schemas that list every
            property as required and forbid additional ones.
    """
    check_mode(mode)
    if mode == "json_schema":
        spec = {"name": name, "schema": schema, "strict": strict}
        return {"type": "json_schema", "json_schema": spec}
    if mode == "json_object_schema":
        return {"type": "json_object", "schema": schema}
    if mode == "json_object":
        return {"type": "json_object"}
    return None


def probe_answer_fits(mode: StructuredOutput, text: str) -> bool:
    """Whether a probe's answer shows that the endpoint honoured `mode`.

    A server that silently ignores `response_format` answers 200 with prose; only
    JSON of the probe's shape counts as support for a schema mode.
    """
    if mode == "none":
        return True
    try:
        value = json.loads(text)
    except ValueError:
        return False
    if not isinstance(value, dict):
        return False
    return mode == "json_object" or isinstance(value.get("ok"), bool)
