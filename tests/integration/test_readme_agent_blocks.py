"""The agent blocks of docs/agents.md and the README's "Use it in your agent" run.

Each Python block is executed in a fresh namespace from a temporary folder, so a
block that stops working (a renamed method, a changed adapter) fails here, not
in a reader's first five minutes. The MCP host block is JSON: it must parse and
start the command this project installs.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "agents.md"
README = ROOT / "README.md"
SECTION = "## Use it in your agent"


def blocks(language: str) -> list[str]:
    """The page's blocks of `language`, in order."""
    return re.findall(rf"```{language}\n(.*?)```", PAGE.read_text(), re.S)


def readme_blocks() -> list[str]:
    """The Python blocks of the README's own section on agents."""
    text = README.read_text()
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    return re.findall(r"```python\n(.*?)```", text[start:end], re.S)


def test_the_page_has_the_four_blocks():
    assert len(blocks("python")) == 3
    assert len(blocks("json")) == 1


def run_block(code: str, name: str) -> str:
    """What `code` prints, run in a fresh namespace."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, name, "exec"), {})
    return out.getvalue()


@pytest.mark.parametrize("index", range(3), ids=["api", "langgraph", "langchain"])
def test_each_python_block_runs(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    printed = run_block(blocks("python")[index], f"docs/agents.md block {index}")
    assert "Lyon" in printed, printed


def test_the_readme_block_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (code,) = readme_blocks()
    assert "Lyon" in run_block(code, "README block"), code


def test_the_mcp_host_block_starts_this_projects_server():
    config = json.loads(blocks("json")[0])
    server = config["mcpServers"]["memory-lab"]
    assert server["command"] == "memory-lab"
    assert server["args"][0] == "mcp"
    assert {"--data", "--tenant"} <= set(server["args"])
