"""The memory graph.

Flow of a turn: ingest -> track the session (open, idle, closed, resumed) ->
check triggers (record memory jobs) -> (assemble -> respond). Compression and
extraction run after the turn, one job at a time, in the maintenance graph
(route by job kind -> compress_window | extract_facts | apply_retention),
which the engine's background worker runs (`memory_lab.jobs`).

`builder()` and `maintenance_builder()` return the unbuilt StateGraphs so tests
and apps compile them themselves; `mermaid()` exports either diagram.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph.graph import END, START, StateGraph

from memory_lab.graph import nodes, routing
from memory_lab.graph.deps import Deps
from memory_lab.graph.state import JobState, MemoryState


def builder() -> StateGraph[MemoryState, Deps, MemoryState, MemoryState]:
    """The unbuilt graph."""
    g = StateGraph(MemoryState, context_schema=Deps)
    g.add_node("ingest_turn", nodes.ingest_turn)
    g.add_node("track_session", nodes.track_session)
    g.add_node("check_triggers", nodes.check_triggers)
    g.add_node("assemble_context", nodes.assemble_context)
    g.add_node("respond", nodes.respond)
    g.add_edge(START, "ingest_turn")
    g.add_edge("ingest_turn", "track_session")
    g.add_edge("track_session", "check_triggers")
    g.add_conditional_edges(
        "check_triggers", routing.after_check, ["assemble_context", END]
    )
    g.add_edge("assemble_context", "respond")
    g.add_edge("respond", END)
    return g


def maintenance_builder() -> StateGraph[JobState, Deps, JobState, JobState]:
    """The unbuilt graph the background worker runs once per job.

    It has no checkpointer: the job ledger is what makes the work durable.
    """
    g = StateGraph(JobState, context_schema=Deps)
    g.add_node("compress_window", nodes.compress_window)
    g.add_node("extract_facts", nodes.extract_facts)
    g.add_node("apply_retention", nodes.apply_retention)
    g.add_conditional_edges(
        START,
        routing.by_job_kind,
        ["compress_window", "extract_facts", "apply_retention"],
    )
    g.add_edge("compress_window", END)
    g.add_edge("extract_facts", END)
    g.add_edge("apply_retention", END)
    return g


def mermaid(graph: str = "turn") -> str:
    """A graph's diagram in Mermaid syntax: "turn" or "maintenance"."""
    builders: dict[str, Callable[[], StateGraph[Any, Deps, Any, Any]]] = {
        "turn": builder,
        "maintenance": maintenance_builder,
    }
    build = builders[graph]
    return build().compile().get_graph().draw_mermaid()
