"""Throwaway database servers: a Postgres cluster and a Chroma server.

Each starts on a free loopback port in a temporary folder, is waited for until it
answers, and is stopped (and its folder removed) afterwards. The tests' session
fixtures (tests/servers.py) and `memory-lab bench --ingest-scaling` both start
theirs here, so a benchmark measures the same server the tests check.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from memory_lab.llm_client.local_server import free_port
from memory_lab.stores.chroma_telemetry import quiet_env


class ServerUnavailableError(RuntimeError):
    """The server's program is not installed here (tests skip; benchmarks stop)."""


def _pg_bin() -> Path:
    """Where Debian's postgresql-NN puts initdb and pg_ctl (the newest there)."""
    found = sorted(
        Path("/usr/lib/postgresql").glob("*/bin/initdb"),
        key=lambda p: (
            int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0
        ),
    )
    return found[-1].parent if found else Path("/usr/lib/postgresql/15/bin")


PG_BIN = _pg_bin()


def _wait(
    ready: Callable[[], bool],
    what: str,
    proc: subprocess.Popen | None,
    timeout: float,
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode} while starting")
        if ready():
            return
        time.sleep(0.2)
    raise RuntimeError(f"{what} did not answer within {timeout:.0f}s")


def _heartbeat(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/v2/heartbeat", timeout=1) as r:
            return r.status == 200
    except OSError:
        return False


@contextmanager
def chroma_server(timeout: float = 60.0) -> Iterator[str]:
    """A `chroma run` server on a free port; yields its `http://host:port` URL.

    Raises:
        ServerUnavailableError: when no `chroma` command is beside this Python.
    """
    chroma = Path(sys.executable).parent / "chroma"
    if not chroma.exists():
        raise ServerUnavailableError(f"no chroma command beside {sys.executable}")
    folder = Path(tempfile.mkdtemp(prefix="memory-lab-chroma-"))
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    log = (folder / "server.log").open("wb")
    proc = subprocess.Popen(
        [str(chroma), "run", "--path", str(folder / "db"), "--host", "127.0.0.1"]
        + ["--port", str(port)],
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
        env=quiet_env(),
    )
    try:
        _wait(lambda: _heartbeat(url), "chroma run", proc, timeout)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def _as_postgres(args: list[str]) -> list[str]:
    # Postgres refuses to run as root; run its tools as the `postgres` user then.
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


def _accepts(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


@contextmanager
def postgres_server(timeout: float = 60.0) -> Iterator[str]:
    """A throwaway Postgres cluster on a free port; yields its URL.

    Durability is off (`fsync=off`): the cluster dies with the run, and a test or
    benchmark should measure the code, not the disk.

    Raises:
        ServerUnavailableError: when Postgres is not installed.
    """
    if not (PG_BIN / "initdb").exists():
        raise ServerUnavailableError(
            f"no Postgres at {PG_BIN} (apt-get install -y postgresql-15)"
        )
    folder = Path(tempfile.mkdtemp(prefix="memory-lab-pg-"))
    data = folder / "data"
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    port = free_port()
    run = {"check": True, "capture_output": True, "timeout": timeout}
    subprocess.run(
        _as_postgres(
            [str(PG_BIN / "initdb"), "-D", str(data), "-U", "postgres", "-A", "trust"]
            + ["--no-sync", "-E", "UTF8"]
        ),
        **run,
    )
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
        " -c fsync=off -c full_page_writes=off"
    )
    pg_ctl = [str(PG_BIN / "pg_ctl"), "-D", str(data)]
    try:
        subprocess.run(
            _as_postgres(
                [*pg_ctl, "-o", options, "-l", str(folder / "server.log"), "-w"]
                + ["start"]
            ),
            **run,
        )
        _wait(lambda: _accepts(port), "postgres", None, timeout)
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(
            _as_postgres([*pg_ctl, "-m", "fast", "-w", "stop"]),
            capture_output=True,
            timeout=timeout,
        )
        shutil.rmtree(folder, ignore_errors=True)
