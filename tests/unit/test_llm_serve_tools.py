"""`memory-lab llm serve --tools` starts llama.cpp with its tool-calling format."""

from __future__ import annotations

import pytest

from memlab_cli.main import main
from memory_lab.llm_client import local_server


@pytest.mark.parametrize(
    ("flags", "expected"), [([], ()), (["--tools"], local_server.TOOL_CALLING_ARGS)]
)
def test_tools_flag_reaches_the_server_command(monkeypatch, flags, expected) -> None:
    seen = {}

    def serve_forever(model, **options):
        seen.update(options)

    monkeypatch.setattr(local_server, "serve_forever", serve_forever)
    assert main(["llm", "serve", "--port", "8099", *flags]) == 0
    assert seen["extra_args"] == expected
    assert seen["port"] == 8099
