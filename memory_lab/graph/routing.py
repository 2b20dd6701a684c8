"""Pure routing functions between nodes."""

from __future__ import annotations

from langgraph.graph import END

from memory_lab.graph.state import MemoryState


def after_check(state: MemoryState) -> str:
    """Compress when a trigger fired, else go straight to extraction."""
    decision = state.get("decision") or {}
    return "compress_window" if decision.get("fire") else "extract_facts"


def after_extract(state: MemoryState) -> str:
    """Assemble and answer only when asked to respond."""
    return "assemble_context" if state.get("respond") else END
