"""A chat's title as the model words it, cleaned for a list."""

from __future__ import annotations

TITLE_MAX_TOKENS = 24
"""Room for a title of a few words (a small model may add a little)."""
TITLE_CHARS = 60


def clean_title(text: str) -> str | None:
    """The model's title as a list shows it: one line, unquoted, not too long."""
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    if not lines:
        return None
    line = lines[0].removeprefix("Title:").removeprefix("title:").strip()
    line = line.strip("\"'`*#").rstrip(".").strip()
    line = " ".join(line.split())
    if not line:
        return None
    if len(line) > TITLE_CHARS:
        line = line[:TITLE_CHARS].rsplit(" ", 1)[0] + "…"
    return line
