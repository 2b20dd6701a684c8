"""The main job records its wall time, and whether embeddings were already kept."""

from __future__ import annotations

import json

import numpy as np
from memlab_evals import cli

from memory_lab.vector_cache import VectorFile, text_key


def test_the_times_file_says_what_ran_and_from_how_warm_a_cache(tmp_path, capsys):
    cache = tmp_path / "vectors.sqlite"
    assert cli._vectors_kept(cache) == 0  # no file yet: a cold run
    VectorFile(cache, 3).put({text_key(t): np.ones(3) for t in ("a", "b")})
    assert cli._vectors_kept(cache) == 2
    cli._publish_times({"synthetic": 10.04, "locomo": 20.0}, tmp_path, 2, cache)
    record = json.loads((tmp_path / "main-times.json").read_text())
    assert record["seconds"] == {"synthetic": 10.04, "locomo": 20.0}
    assert record["total_seconds"] == 30.0
    assert record["vector_cache"] == "on" and record["vectors_kept_before"] == 2
    assert record["command"] == "memory-lab main" and record["git_commit"]
    assert "30 s in all" in capsys.readouterr().out
    cli._publish_times({"synthetic": 1.0}, tmp_path, 0, None)
    assert (
        json.loads((tmp_path / "main-times.json").read_text())["vector_cache"] == "off"
    )
