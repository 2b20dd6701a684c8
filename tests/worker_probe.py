"""What a pool worker holds before its unit imports anything (imports only `sys`)."""

from __future__ import annotations

import sys


def imported(module: str) -> bool:
    """Whether `module` was already imported in this process."""
    return module in sys.modules
