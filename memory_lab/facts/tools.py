"""Memory tools an agent can call, as LangChain tools bound to one tenant.

`save` writes an explicit fact (the top trust tier: extraction can never override
it); `update`, `forget`, `confirm`, `list` and `recall` complete the set, and
`link`, `unlink` and `links` join facts ("relates_to", "caused_by") and read the
links of one. Every write returns the MemoryEvent as a dict so a UI can show it
and offer Undo. `offered_tools` is how the engine hands them to a replying
model (agentic memory): it gives them `ToolParts` (the facts, clock, settings
and its read side), never itself, so the tools hold nothing above them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from langchain_core.tools import BaseTool, StructuredTool

from memory_lab.brains.base import Brain, ToolResponder
from memory_lab.clock import Clock
from memory_lab.config import MemoryConfig
from memory_lab.errors import require_tenant
from memory_lab.facts.memory import FactMemory
from memory_lab.text import content_words, fact_words
from memory_lab.types import ContextBundle, FactCandidate


class ToolHost(Protocol):
    """What the tools work on: an engine's facts, clock, settings and context."""

    @property
    def facts(self) -> FactMemory:
        """The tenant's facts, written and read by the tools."""
        ...

    @property
    def clock(self) -> Clock:
        """Stamps a saved fact's turn id."""
        ...

    @property
    def config(self) -> MemoryConfig:
        """The confidence floor `recall` reads."""
        ...

    @property
    def brain(self) -> Brain:
        """The replying brain: tools are offered only to one that takes them."""
        ...

    def assemble(self, tenant: str, query: str) -> ContextBundle:
        """The context for `query`."""
        ...


@dataclass(frozen=True)
class ToolParts:
    """A `ToolHost` made of parts: what an engine gives its replying model."""

    facts: FactMemory
    clock: Clock
    config: MemoryConfig
    brain: Brain
    assemble: Callable[[str, str], ContextBundle]
    """The context for a tenant's query (the engine's read side)."""


def memory_tools(
    engine: ToolHost, tenant: str, *, session: str = "tools"
) -> list[BaseTool]:
    """The memory tools for `tenant`."""
    tenant = require_tenant(tenant)
    facts = engine.facts

    def save(
        category: str,
        key: str,
        value: str,
        subject: str = "user",
        importance: float = 0.7,
        detail: str = "",
    ) -> dict:
        """Save a fact the user stated explicitly (e.g. category=preference, key=reply_language, value=Swedish); detail keeps longer text behind a short value."""  # noqa: E501 - tool description, must stay one line
        c = FactCandidate(
            category=category,
            key=key,
            value=value,
            subject=subject,
            confidence=1.0,
            importance=importance,
            source="explicit",
            session=session,
            turn_ids=[f"tool:save:{engine.clock.now().isoformat()}"],
            evidence=value,
            body=detail,
        )
        return facts.write(tenant, c).model_dump(mode="json")

    def update(category: str, key: str, value: str, subject: str = "user") -> dict:
        """Replace the stored value of a fact with a new explicit value."""
        return save(category, key, value, subject)

    def forget(fact_id: str) -> dict:
        """Stop using a fact. It is end-dated and kept for audit, never deleted."""
        return facts.forget(tenant, fact_id).model_dump(mode="json")

    def confirm(fact_id: str) -> dict:
        """Re-confirm a fact: boosts its confidence and renews its time to live."""
        return facts.confirm(tenant, fact_id).model_dump(mode="json")

    def list_facts(category: str | None = None) -> list[dict]:
        """Active facts, optionally of one category."""
        rows = facts.active(tenant)
        return [
            {
                "id": f.id,
                "category": f.category,
                "subject": f.subject,
                "key": f.key,
                "value": f.value,
                "confidence": round(facts.confidence(f), 3),
                "source": f.source,
            }
            for f in rows
            if category is None or f.category == category
        ]

    def recall(query: str) -> str:
        """The memory context for `query`, plus matching facts too unsure to inject."""
        text = engine.assemble(tenant, query).text
        words = content_words(query)
        floor = engine.config.facts.confidence_floor
        faint = [
            f
            for f in facts.active(tenant)
            if facts.confidence(f) < floor and words & fact_words(f.key, f.value)
        ]
        if not faint:
            return text
        lines = [
            f"- {f.category} {f.key} = {f.value} (confidence "
            f"{facts.confidence(f):.2f}, id {f.id})"
            for f in faint
        ]
        return (
            text + "\n\nAlso stored, below the confidence floor (never injected, "
            "shown because you asked):\n" + "\n".join(lines)
        )

    def link(source_id: str, target_id: str, link_type: str = "relates_to") -> dict:
        """Link two facts by id: link_type is relates_to, or caused_by (source holds because of target)."""  # noqa: E501 - tool description, must stay one line
        return facts.link(
            tenant, link_type, source_id, target_id, origin="tool"
        ).model_dump(mode="json")

    def unlink(link_id: str) -> dict:
        """End a link between facts. It is end-dated and kept, never deleted."""
        return facts.unlink(tenant, link_id).model_dump(mode="json")

    def links(fact_id: str) -> list[dict]:
        """The links of a fact in both directions, supersedes included."""
        return [
            k.model_dump(mode="json", include={"id", "type", "source", "target"})
            for k in facts.links(tenant, fact_id)
        ]

    return [
        StructuredTool.from_function(save, name="memory_save"),
        StructuredTool.from_function(update, name="memory_update"),
        StructuredTool.from_function(forget, name="memory_forget"),
        StructuredTool.from_function(confirm, name="memory_confirm"),
        StructuredTool.from_function(list_facts, name="memory_list"),
        StructuredTool.from_function(recall, name="memory_recall"),
        StructuredTool.from_function(link, name="memory_link"),
        StructuredTool.from_function(unlink, name="memory_unlink"),
        StructuredTool.from_function(links, name="memory_links"),
    ]


def offered_tools(engine: ToolHost) -> Callable[[str, str], list[BaseTool]] | None:
    """What the respond node offers the replying model: a tenant's tools, or None.

    None unless the engine's brain takes tools and has agentic memory on; the
    rule-based brain never does, so offline the switch has no effect. Tools are
    bound per call to the tenant being answered, so a model cannot reach another.
    """
    brain = engine.brain
    if not (isinstance(brain, ToolResponder) and brain.agentic_memory):
        return None
    return lambda tenant, session: memory_tools(engine, tenant, session=session)
