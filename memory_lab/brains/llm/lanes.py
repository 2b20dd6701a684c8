"""What a lane of the LLM brain (replies, or memory work) is doing now."""

from __future__ import annotations

from collections.abc import Sequence

from memory_lab.brains.llm.endpoint import ModelEndpoint
from memory_lab.brains.status import Role, RoleState, RoleStatus


def lane_status(role: Role, endpoints: Sequence[ModelEndpoint]) -> RoleStatus:
    """One lane's state; failing over wins over busy, which wins over ready."""
    in_flight, error = 0, None
    for endpoint in endpoints:
        calls, last = endpoint.activity()
        in_flight += calls
        error = error or last
    rest = max(e.breaker.rest_left() for e in endpoints)
    state: RoleState = "failing over" if rest > 0 else "busy" if in_flight else "ready"
    return RoleStatus(role, state, in_flight, rest, error)
