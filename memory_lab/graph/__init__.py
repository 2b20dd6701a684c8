"""The memory as a LangGraph state machine.

Parts: state, runtime deps, nodes, routing, build.
"""

from memory_lab.graph.build import builder, maintenance_builder, mermaid
from memory_lab.graph.deps import Deps
from memory_lab.graph.state import MemoryState

__all__ = ["Deps", "MemoryState", "builder", "maintenance_builder", "mermaid"]
