"""Kept embeddings change nothing an eval reports, and a re-run embeds nothing new."""

from __future__ import annotations

import sqlite3

import pytest
from memlab_datasets import load_dataset
from memlab_evals.running import runner

from memlab_cli.settings import Settings

pytestmark = pytest.mark.slow

SPEC = "synthetic:conversations=2,sessions=3,turns-per-session=8"
SYSTEMS = "A,rag-embed,rag-hybrid"


def _rows(path) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM vectors").fetchone()[0]


def test_worker_processes_share_one_file_and_the_logs_stay_the_same(tmp_path):
    data = load_dataset(SPEC)
    path = tmp_path / "vectors.sqlite"
    fresh = runner.run_eval(data, SYSTEMS, 600, progress=False)
    cached = runner.run_evals(
        data, SYSTEMS, [600], workers=2, progress=False, vector_cache=path
    )[600]
    assert runner.strip_timing(cached) == runner.strip_timing(fresh)
    kept = _rows(path)
    turns = {t.content for c in data.conversations for t in c.turns}
    assert kept >= len(turns)  # every turn, from whichever worker embedded it
    again = runner.run_evals(
        data, SYSTEMS, [600], workers=2, progress=False, vector_cache=path
    )[600]
    assert runner.strip_timing(again) == runner.strip_timing(fresh)
    assert _rows(path) == kept  # every text was already kept


def test_the_environment_names_the_file_or_turns_it_off(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("MEMORY_LAB_VECTOR_CACHE", raising=False)
    default = Settings().vector_cache_path()
    assert default is not None and default.parent == tmp_path / "memory-lab"
    monkeypatch.setenv("MEMORY_LAB_VECTOR_CACHE", "off")
    assert Settings().vector_cache_path() is None
    monkeypatch.setenv("MEMORY_LAB_VECTOR_CACHE", str(tmp_path / "v.sqlite"))
    assert Settings().vector_cache_path() == tmp_path / "v.sqlite"
