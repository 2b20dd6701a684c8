"""Switching agentic memory keeps the configuration's fingerprint.

Jobs are run only by an engine whose configuration recorded them; agentic memory
changes how replies are made, not memory work, so turning it on or off must not
leave owed work to no one.
"""

from __future__ import annotations

import hashlib
import json

from memory_lab.config import LLMSettings, MemoryConfig
from memory_lab.jobs.planning import config_fingerprint


def _llm(**fields) -> MemoryConfig:
    return MemoryConfig(
        llm=LLMSettings(base_url="http://127.0.0.1:9/v1", model="m", **fields)
    )


def test_agentic_memory_and_its_rounds_leave_the_fingerprint_alone() -> None:
    plain = config_fingerprint(_llm())
    assert config_fingerprint(_llm(agentic_memory=True, tool_rounds=2)) == plain
    assert config_fingerprint(_llm(respond_max_tokens=300)) != plain
    assert config_fingerprint(MemoryConfig()) != plain


def test_the_fingerprint_is_that_of_the_config_without_the_reply_only_fields():
    config = _llm(agentic_memory=True)
    dumped = json.loads(config.model_dump_json())
    for name in ("agentic_memory", "tool_rounds"):
        del dumped["llm"][name]
    del dumped["sessions"]  # when a session closes is not job work either
    again = json.dumps(dumped, separators=(",", ":"))
    assert config_fingerprint(config) == hashlib.sha1(again.encode()).hexdigest()[:16]
