"""One probe answered by the answer model, from the context its system assembled.

Every system's context goes through the same model and the same pinned prompt
(`memory_lab.prompts.answer`), `full` and `none` included, so the answers differ
only by what memory supplied. A call that fails comes back as a marked record.
"""

from __future__ import annotations

from datetime import datetime

from memlab_evals.judging.bounded import Gate
from memlab_evals.running.llm_records import ModelAnswer
from memlab_evals.running.log import ProbeRecord
from memory_lab.llm_client.client import ChatClient
from memory_lab.prompts import answer as answer_prompt


def one_line(error: BaseException, limit: int = 300) -> str:
    """An error as one short line for the log (the client never puts keys in it)."""
    text = " ".join(f"{type(error).__name__}: {error}".split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


async def answer_probe(
    client: ChatClient, gate: Gate, probe: ProbeRecord
) -> ModelAnswer:
    """The model's short answer to `probe` given its context, or a failed record.

    Any error is caught: one refused or timed-out request must not end a run of
    hundreds; it is marked and counted instead.
    """
    asked_at = datetime.fromisoformat(probe.asked_at) if probe.asked_at else None
    messages = answer_prompt.build(probe.question, probe.context, asked_at)
    try:
        reply = await gate.run(
            lambda: client.acomplete(
                messages, max_tokens=answer_prompt.MAX_TOKENS, temperature=0.0
            )
        )
    except Exception as exc:  # noqa: BLE001 - marked on the record, counted
        return ModelAnswer(status="failed", error=one_line(exc))
    return ModelAnswer(
        status="ok",
        text=_first_line(reply.text),
        cached=reply.cached,
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
    )


def _first_line(text: str) -> str:
    """The answer's first non-empty line: the prompt asks for a phrase, not prose."""
    for line in text.strip().splitlines():
        if line.strip():
            return line.strip()
    return ""
