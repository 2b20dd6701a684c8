"""Pure routing functions between nodes."""

from __future__ import annotations

from langgraph.graph import END

from memory_lab.graph.state import JobState, MemoryState


def after_check(state: MemoryState) -> str:
    """Assemble and answer only when asked to respond; memory work is queued."""
    return "assemble_context" if state.get("respond") else END


def by_job_kind(state: JobState) -> str:
    """A compression job compresses, an extraction job extracts, and so on."""
    return {
        "compress": "compress_window",
        "extract": "extract_facts",
        "retention": "apply_retention",
    }[state["job"].kind]
