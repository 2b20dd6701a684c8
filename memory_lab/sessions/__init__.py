"""Session lifecycle: open, idle, closed, resumed, on the injected clock.

`lifecycle` decides transitions (pure); `store` keeps each thread's current
session; `tracking` applies a step's transitions and logs them as events.
"""

from memory_lab.sessions.lifecycle import (
    SessionRecord,
    SessionState,
    SessionStep,
    Transition,
    Turn,
    advance,
)
from memory_lab.sessions.store import (
    InMemorySessionStore,
    SessionStore,
    SqlSessionStore,
)

__all__ = [
    "InMemorySessionStore",
    "SessionRecord",
    "SessionState",
    "SessionStep",
    "SessionStore",
    "SqlSessionStore",
    "Transition",
    "Turn",
    "advance",
]
