"""Chroma's anonymous usage telemetry, off in every process memory-lab runs.

Chroma reads the switch from a client's `Settings` (the episode store sets it
there) and, in a Chroma server or before chromadb is first imported, from the
environment variable below. Each entry point calls `telemetry_off()` before
anything imports chromadb, and each child process memory-lab starts gets
`quiet_env()`, so the variable is named here alone. Importing this module does
not import chromadb.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

VARIABLE = "ANONYMIZED_TELEMETRY"


def telemetry_off() -> None:
    """Off for this process and the ones it starts, unless the user chose."""
    os.environ.setdefault(VARIABLE, "False")


def quiet_env(base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for a child process: `base` (or ours) with telemetry off."""
    return {**(os.environ if base is None else base), VARIABLE: "False"}
