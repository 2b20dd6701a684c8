"""The memory graph.

Flow of a turn: ingest -> check triggers (record memory jobs) -> (assemble ->
respond). Compression and extraction run after the turn, in the engine's
background worker (`memory_lab.jobs`), never inside it.

`builder()` returns the unbuilt StateGraph so tests and apps compile it with their
own checkpointer; `mermaid()` exports its diagram.
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph

from memory_lab.graph import nodes, routing
from memory_lab.graph.deps import Deps
from memory_lab.graph.state import MemoryState


def builder() -> StateGraph:
    """The unbuilt graph."""
    g = StateGraph(MemoryState, context_schema=Deps)
    g.add_node("ingest_turn", nodes.ingest_turn)
    g.add_node("check_triggers", nodes.check_triggers)
    g.add_node("assemble_context", nodes.assemble_context)
    g.add_node("respond", nodes.respond)
    g.add_edge(START, "ingest_turn")
    g.add_edge("ingest_turn", "check_triggers")
    g.add_conditional_edges(
        "check_triggers", routing.after_check, ["assemble_context", END]
    )
    g.add_edge("assemble_context", "respond")
    g.add_edge("respond", END)
    return g


def mermaid() -> str:
    """The graph's diagram in Mermaid syntax."""
    return builder().compile().get_graph().draw_mermaid()
