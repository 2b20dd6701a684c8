"""The README's "Use memory-lab in your agent" blocks run as written.

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

README = Path(__file__).resolve().parents[2] / "README.md"
SECTION = "## Use memory-lab in your agent"


def blocks(language: str) -> list[str]:
    text = README.read_text()
    start = text.index(SECTION)
    end = text.index("\n## ", start + len(SECTION))
    return re.findall(rf"```{language}\n(.*?)```", text[start:end], re.S)


def test_the_section_has_the_four_blocks():
    assert len(blocks("python")) == 3
    assert len(blocks("json")) == 1


@pytest.mark.parametrize("index", range(3), ids=["api", "langgraph", "langchain"])
def test_each_python_block_runs(index, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks("python")[index], f"README block {index}", "exec"), {})
    printed = out.getvalue()
    assert "Lyon" in printed, printed


def test_the_mcp_host_block_starts_this_projects_server():
    config = json.loads(blocks("json")[0])
    server = config["mcpServers"]["memory-lab"]
    assert server["command"] == "memory-lab"
    assert server["args"][0] == "mcp"
    assert {"--data", "--tenant"} <= set(server["args"])
