"""LangMem's memory store manager as a peer backend (langmem, the `peers` extra)."""

from __future__ import annotations

from memlab_evals.peers.metering import UsageMeter, local_embeddings
from memlab_evals.peers.system import EMBEDDING_DIMS, MAX_TOKENS, PeerMemory
from memory_lab.config import LLMSettings
from memory_lab.text import turn_line
from memory_lab.types import Message


class LangMemBackend:
    """LangMem's memory store manager over a LangGraph `InMemoryStore`.

    The manager searches the store for related memories, asks the model (by tool
    calls, through trustcall) to insert, update or delete, and writes the result.
    """

    NAMESPACE = ("memories", "{langgraph_user_id}")

    def __init__(self, llm: LLMSettings, user: str = "user") -> None:
        from langgraph.store.memory import InMemoryStore
        from langmem import create_memory_store_manager

        self.meter = UsageMeter()
        self.user = user
        self.store = InMemoryStore(
            index={"dims": EMBEDDING_DIMS, "embed": local_embeddings()}
        )
        model = chat_model(llm, self.meter)
        self.manager = create_memory_store_manager(
            model, namespace=self.NAMESPACE, store=self.store
        )
        self.config = {"configurable": {"langgraph_user_id": user}}

    def add(self, turns: list[Message]) -> list[PeerMemory]:
        """The pair as chat messages; the time in each line, as it has no field."""
        messages = [
            {
                "role": "user" if t.role == "user" else "assistant",
                "content": turn_line(t),
            }
            for t in turns
        ]
        puts = self.manager.invoke({"messages": messages}, config=self.config)
        written = []
        for put in puts or []:
            value = put.get("value") if isinstance(put, dict) else None
            if value:
                written.append(PeerMemory(str(put["key"]), _langmem_text(value)))
        return written

    def search(self, question: str, limit: int) -> list[PeerMemory]:
        """The store's semantic search over this user's memories."""
        items = self.store.search(("memories", self.user), query=question, limit=limit)
        return [PeerMemory(str(i.key), _langmem_text(i.value)) for i in items]

    def memories(self) -> list[PeerMemory]:
        """Every memory in this user's namespace."""
        items = self.store.search(("memories", self.user), limit=10_000)
        return [PeerMemory(str(i.key), _langmem_text(i.value)) for i in items]

    def usage(self) -> dict[str, int]:
        """Requests, tokens, failures and replies without the tool call asked for."""
        return dict(self.meter.counts)

    def close(self) -> None:
        """Nothing outlives the process."""


def chat_model(llm: LLMSettings, meter: UsageMeter):
    """LangChain's `ChatOpenAI` on the brain's endpoint, capped and metered.

    The cap goes in the body as `max_tokens`: ChatOpenAI sends its own `max_tokens`
    as `max_completion_tokens`, which llama.cpp's Python server ignores
    (abetlen/llama-cpp-python#1907), and a small model then writes until the
    context is full (7,600 tokens, six minutes a request, on SmolLM2).
    """
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        base_url=llm.base_url,
        api_key=llm.api_key.get_secret_value(),
        model=llm.model,
        temperature=0.0,
        extra_body={"max_tokens": MAX_TOKENS},
        timeout=llm.timeout_s,
        max_retries=llm.max_attempts - 1,
        callbacks=[_meter_callback(meter)],
    )


def _langmem_text(value: dict) -> str:
    content = value.get("content", value)
    if isinstance(content, dict):
        content = content.get("content", content)
    return str(content)


def _meter_callback(meter: UsageMeter):
    """A LangChain callback counting requests, tokens and tool-less replies."""
    from langchain_core.callbacks import BaseCallbackHandler

    class _Meter(BaseCallbackHandler):
        def on_llm_end(self, response, **kwargs) -> None:
            for generations in response.generations:
                for generation in generations:
                    message = getattr(generation, "message", None)
                    usage = getattr(message, "usage_metadata", None) or {}
                    meter.reply(usage.get("input_tokens"), usage.get("output_tokens"))
                    if message is not None and not getattr(message, "tool_calls", []):
                        # trustcall asks for a tool call; a reply without one is
                        # an endpoint or model that cannot do tools.
                        meter.add("reply_errors")

        def on_llm_error(self, error, **kwargs) -> None:
            meter.add("failed_requests")

    return _Meter()
