"""Where a benchmark ran: results without the machine they came from mean little."""

from __future__ import annotations

import functools
import os
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _ram_gb() -> float | None:
    try:
        pages, size = os.sysconf("SC_PHYS_PAGES"), os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None
    return round(pages * size / 1e9, 1)


@functools.cache
def git_commit(repo: Path) -> str:
    """The checked-out commit, with `+dirty` when the tree has local changes.

    Read once per process (the bench reads it first as it starts): a bench that
    writes its results into the checkout must not stamp itself dirty with them.
    """
    try:
        head = subprocess.run(
            ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
            capture_output=True,
            text=True,
            check=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return head + ("+dirty" if dirty else "")


def machine_info(repo: Path) -> dict:
    """CPU model, cores, RAM, Python, platform, date and git commit."""
    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "ram_gb": _ram_gb(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "date": datetime.now(UTC).isoformat(timespec="seconds"),
        "git_commit": git_commit(repo),
        # Other work on the machine inflates every latency; say how busy it was.
        "load_average": [round(x, 2) for x in os.getloadavg()],
    }
