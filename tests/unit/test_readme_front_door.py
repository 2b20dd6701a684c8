"""The README is a front door: one screen of what and how, the rest a link away.

It stays short, keeps the two commands exactly as CI and users run them, and
every page it links to exists.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
MAX_LINES = 250
PAGES = ("results", "triggers", "llm", "servers", "owner", "architecture", "speed")
"""The pages the front door must link to."""


def test_the_readme_is_at_most_one_front_door_long():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= MAX_LINES, f"README.md has {lines} lines (at most {MAX_LINES})"


def test_the_quickstart_gives_the_two_commands():
    text = README.read_text(encoding="utf-8")
    quickstart = text.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^make (\w+)", quickstart, re.M)
    assert commands == ["run", "test"]
    prose = quickstart.split("```")[2].strip().splitlines()
    assert len(prose) <= 5, prose
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert ci.rstrip().splitlines()[-1] == "make test"


def test_every_linked_page_exists_and_the_named_pages_are_linked():
    text = README.read_text(encoding="utf-8")
    links = set(re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text))
    local = {link for link in links if not link.startswith(("http://", "https://"))}
    missing = sorted(link for link in local if not (ROOT / link).exists())
    assert not missing, f"README.md links to missing files: {missing}"
    for page in PAGES:
        assert f"docs/{page}.md" in local, page
