"""Pure routing functions between nodes."""

from __future__ import annotations

from langgraph.graph import END

from memory_lab.graph.state import MemoryState


def after_check(state: MemoryState) -> str:
    """Assemble and answer only when asked to respond; memory work is queued."""
    return "assemble_context" if state.get("respond") else END
