"""The reply when the model failed: memory read back, marked as restated."""

from __future__ import annotations

from memory_lab.brains.base import BrainResult
from memory_lab.brains.offline.answer import answer_reply
from memory_lab.types import ContextBundle, Message

FAILED_PREAMBLE = (
    "The language model endpoint failed; answering from memory without it:"
)
NOTHING_HELD = "Memory holds nothing that answers your message."


def read_back(question: Message, context: ContextBundle) -> BrainResult[str]:
    """The failed reply: the best memory line, marked as restated whole.

    Like the offline responder's, it is a function of the context alone, so
    memory must not be built again from it.
    """
    text = f"{FAILED_PREAMBLE} " + (
        answer_reply(question.content, context) or NOTHING_HELD
    )
    return BrainResult(text, restated=((0, len(text)),))
