"""Memory on servers: a replay on a Chroma server (and on Postgres) remembers
exactly what a replay in local files does."""

from __future__ import annotations

import json

import pytest

from memlab_cli.main import main

SERVER = pytest.mark.xdist_group("servers")


def _replay(capsys, *flags: str) -> dict:
    assert main(["replay", "--json", *flags]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def local_replay() -> dict:
    """The builtin replay in local files (module-scoped: run once)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["replay", "--json"]) == 0
    return json.loads(out.getvalue())


def _same_memory(server: dict, local: dict) -> None:
    for part in ("window", "episodes", "facts"):
        assert server[part] == local[part], part
    assert server["episodes"], "the replay should have compressed something"
    assert server == local


@pytest.mark.slow
@SERVER
def test_replay_with_episodes_on_a_chroma_server_matches_local(
    chroma_url, capsys, local_replay
):
    server = _replay(capsys, "--episodes-store", chroma_url)
    _same_memory(server, local_replay)


@pytest.mark.slow
@SERVER
def test_the_environment_selects_the_episode_server_too(
    chroma_url, capsys, local_replay, monkeypatch
):
    monkeypatch.setenv("MEMORY_LAB_EPISODES_STORE", chroma_url)
    _same_memory(_replay(capsys), local_replay)


@pytest.mark.slow
@SERVER
def test_replay_with_the_store_on_postgres_matches_local(
    postgres_url, capsys, local_replay
):
    _same_memory(_replay(capsys, "--store", postgres_url), local_replay)


@pytest.mark.slow
@SERVER
def test_replay_with_everything_on_servers_matches_local(
    postgres_url, chroma_url, capsys, local_replay
):
    server = _replay(capsys, "--store", postgres_url, "--episodes-store", chroma_url)
    _same_memory(server, local_replay)


@pytest.mark.parametrize(
    "flags",
    [
        ["--store", "mysql://db/memory"],
        ["--episodes-store", "localhost:8000"],
    ],
)
def test_an_unknown_url_scheme_is_one_clear_error(flags, capsys):
    assert main(["replay", "--json", *flags]) == 2
    err = capsys.readouterr().err
    assert "unknown scheme" in err
    assert len(err.strip().splitlines()) == 1
