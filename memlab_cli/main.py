"""The `memory-lab` command: every sub-command is registered here, in code.

replay, graph, app, main and llm are defined below; datasets, eval, score and
bench are registered by the packages that own them (`memlab_datasets.cli`,
`memlab_evals.cli`, `memlab_bench.cli`). The LLM flags are added to replay, eval,
bench and main here, and resolved (environment beneath flags, through
`memlab_cli.settings`) into `args.models` before a command runs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from memlab_bench.cli import register as register_bench
from memlab_datasets.cli import register as register_datasets
from memlab_evals.cli import register_eval, register_score
from memlab_evals.judging.judge_check import register as register_judge
from memlab_evals.reports.trigger_table import register as register_triggers

from memlab_cli.llm_flags import add_brain_flags, add_model_pass_flags, resolve
from memlab_cli.mcp_cmd import register as register_mcp
from memlab_cli.owner_cmds import register as register_owner
from memlab_cli.plugins import PLUGIN_COMMANDS, add_plugin_flag, load_requested
from memlab_cli.purge_cmd import register as register_purge
from memlab_cli.settings import Settings
from memlab_cli.store_flags import add_store_flags
from memory_lab import use_one_blas_thread
from memory_lab.config import DEFAULT_EXTRACTOR, EXTRACTORS
from memory_lab.errors import MemoryLabError

LLM_COMMANDS = ("replay", "eval", "bench", "main", "mcp")
"""Sub-commands that build memories, so take `--brain` and the endpoint flags."""
STORE_COMMANDS = ("replay", "eval", "app")
"""Sub-commands that take `--store` and `--episodes-store`."""


def _add_replay(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="replay a conversation through the memory graph")
    p.add_argument(
        "--dataset", default="builtin", help="'builtin' or a conversation file"
    )
    p.add_argument(
        "--recipe",
        action="append",
        help="A, B, C or a combination such as A+B; repeat for several (default "
        "A, B, C; with --json and no --recipe, only A)",
    )
    p.add_argument(
        "--json",
        action="store_true",
        help="print the final memory snapshot as JSON: one document for one "
        "recipe and conversation, else one per line",
    )
    p.add_argument(
        "--data",
        help="keep the memory in this folder, as export, purge, mcp and the app "
        "read it (one recipe of one conversation; default: a temporary folder "
        "per run)",
    )
    p.add_argument(
        "--conversations", type=int, default=1, help="replay at most this many"
    )
    p.add_argument(
        "--quiet", action="store_true", help="print only the per-recipe totals"
    )
    p.set_defaults(func=_run_replay)


def _run_replay(args: argparse.Namespace) -> int:
    from memlab_cli.conversation_io import load_replayable
    from memlab_cli.replay import failure_lines, render_replay, replay
    from memory_lab.config import MemoryConfig
    from memory_lab.recipes import recipe

    # A script reading --json wants one document; the first default recipe is it.
    default = ["A"] if args.json else ["A", "B", "C"]
    recipes = [recipe(r) for r in (args.recipe or default)]
    conversations = load_replayable(args.dataset)[: max(1, args.conversations)]
    config = MemoryConfig(llm=args.models.llm)
    runs = [(conv, rec) for conv in conversations for rec in recipes]
    if args.data and len(runs) > 1:
        # A location is one memory for every command: `export --data DIR` and
        # `purge --data DIR` read what a replay into DIR left there.
        raise MemoryLabError(
            f"--data holds one memory: replay one --recipe of one conversation "
            f"into it (this asks for {len(runs)} runs), or leave --data out"
        )
    with tempfile.TemporaryDirectory(prefix="memory-lab-replay-") as tmp:
        results = []
        for conv, rec in runs:
            if args.data:
                folder, stores = Path(args.data), args.stores
            else:
                run = f"{conv.name}-{rec.name}".replace("+", "_")
                folder = Path(tmp) / run
                # On a shared server each temporary replay keeps to a namespace
                # of its own, named like its folder.
                stores = replace(args.stores, namespace=str(folder))
            results.append(
                replay(
                    conv,
                    rec,
                    folder,
                    progress=not args.json,
                    config=config,
                    stores=stores,
                )
            )
        if args.json:
            if len(results) == 1:
                print(json.dumps(results[0].snapshot, indent=1, ensure_ascii=False))
            else:
                for r in results:
                    print(json.dumps(r.snapshot, ensure_ascii=False))
        else:
            render_replay(results, per_turn=not args.quiet)
    failed = failure_lines(results)
    for line in failed:
        print(line, file=sys.stderr)
    return 1 if failed else 0


def _add_graph(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "graph", help="print the memory graphs (turn, background) as Mermaid diagrams"
    )
    p.add_argument(
        "--which",
        choices=("turn", "maintenance", "both"),
        default="both",
        help="the turn graph, the background maintenance graph, or both",
    )
    p.set_defaults(func=_print_graph)


def _print_graph(args: argparse.Namespace) -> int:
    from memory_lab import mermaid

    names = ("turn", "maintenance") if args.which == "both" else (args.which,)
    print("\n".join(f"%% {name} graph\n{mermaid(name)}" for name in names))
    return 0


def _add_app(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("app", help="serve the Streamlit app on 127.0.0.1")
    p.add_argument("--port", type=int, default=8501)
    p.add_argument("--app", default="app.py", help="path to app.py (default: ./app.py)")
    p.add_argument(
        "--demo",
        action="store_true",
        help="public demo: each browser session gets its own temporary memory, "
        "deleted when the session ends or after an idle hour "
        "(MEMORY_LAB_DEMO_IDLE_S)",
    )
    p.add_argument(
        "--agentic-memory",
        action="store_true",
        help="offer the replying model the memory tools (save, forget, recall, "
        "...): the sidebar toggle starts on (MEMORY_LAB_AGENTIC_MEMORY); the "
        "offline responder calls no tools",
    )
    p.set_defaults(func=_run_app)


def _run_app(args: argparse.Namespace) -> int:
    app = Path(args.app)
    if not app.exists():
        raise MemoryLabError(
            f"{app}: not found; run this from the project folder or pass --app"
        )
    cmd = [
        sys.executable,
        "-m",
        "streamlit",
        "run",
        str(app),
        "--server.address",
        "127.0.0.1",
        "--server.port",
        str(args.port),
        "--server.headless",
        "true",
        "--browser.gatherUsageStats",
        "false",
    ]
    # Importing memory_lab turned Chroma's telemetry off here; the app inherits it.
    env = dict(os.environ)
    # The app reads its settings from the environment; the flags travel there.
    if args.demo:
        env["MEMORY_LAB_APP_DEMO"] = "1"
    if args.agentic_memory:
        env["MEMORY_LAB_AGENTIC_MEMORY"] = "1"
        if not args.settings.llm_base_url:
            print(
                "memory-lab app: note: --agentic-memory has no effect until a "
                "model is chosen in the sidebar (or MEMORY_LAB_LLM_BASE_URL is "
                "set): the offline responder calls no tools",
                file=sys.stderr,
            )
    for name, url in (
        ("MEMORY_LAB_STORE", args.stores.store),
        ("MEMORY_LAB_EPISODES_STORE", args.stores.episodes),
    ):
        if url:
            env[name] = url
    # Become the server rather than wait on it: a signal to this process (a
    # terminal's Ctrl-C, a supervisor's SIGTERM) then reaches Streamlit itself
    # instead of leaving it running behind a dead parent.
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, cmd, env)


def _add_main(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("main", help="the main job on the embedded defaults")
    p.add_argument(
        "--extractor",
        choices=EXTRACTORS,
        default=DEFAULT_EXTRACTOR,
        help="how facts are read from turns (default parse; rules is the "
        "ablation of the pattern table alone; none reads no facts, by the offline "
        "brain or an LLM brain, so recipes keep turns alone, save for what memory "
        "commands such as 'remember that ...' store). Runs go to MEMORY_LAB_RUNS "
        "as usual, so point it elsewhere to keep both.",
    )
    p.add_argument(
        "--dataset",
        action="append",
        default=[],
        metavar="NAME:ARGUMENT",
        help="also run a registered data set after the defaults, to "
        "RUNS/main-NAME-BUDGET/ (repeatable; e.g. "
        "longmemeval:data/longmemeval_s.json:sample=50,seed=0)",
    )
    p.set_defaults(func=_run_main)


def _run_main(args: argparse.Namespace) -> int:
    """The trigger comparison (see `memlab_evals.cli.main_job`)."""
    from memlab_evals.cli import main_job

    settings = args.settings
    return int(
        main_job(
            locomo=settings.locomo,
            models=args.models,
            runs=settings.runs,
            extractor=args.extractor,
            plugins=args.plugins,
            vector_cache=args.vector_cache,
            datasets=args.dataset,
        )
        or 0
    )


def _add_llm(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("llm", help="a local OpenAI-compatible model server")
    llm = p.add_subparsers(dest="llm_command", required=True)
    serve = llm.add_parser(
        "serve",
        help="serve a GGUF model with llama.cpp on 127.0.0.1 until Ctrl-C",
        description="Starts llama.cpp's OpenAI-compatible server, waits until it "
        "answers, prints its base URL and model name, and stops cleanly on Ctrl-C "
        "or SIGTERM. Point MEMORY_LAB_LLM_BASE_URL at the URL it prints.",
    )
    serve.add_argument(
        "--model", type=Path, help="a GGUF file (default: the packaged SmolLM2-135M)"
    )
    serve.add_argument("--port", type=int, default=8080, help="port (default 8080)")
    serve.add_argument(
        "--tools",
        action="store_true",
        help="answer tool calls with tool_choice auto (agentic memory): llama.cpp "
        "uses its chatml-function-calling format instead of the model's template",
    )
    serve.set_defaults(func=_run_llm_serve)


def _run_llm_serve(args: argparse.Namespace) -> int:
    from memory_lab.llm_client.local_server import TOOL_CALLING_ARGS, serve_forever

    if args.model is not None and not args.model.exists():
        raise MemoryLabError(f"{args.model}: no such model file")
    if not 0 < args.port < 65536:
        raise MemoryLabError(f"--port must be 1..65535, got {args.port}")
    serve_forever(
        args.model,
        port=args.port,
        echo=lambda line: print(line, flush=True),
        extra_args=TOOL_CALLING_ARGS if args.tools else (),
    )
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with plugin sub-commands."""
    parser = argparse.ArgumentParser(
        prog="memory-lab",
        description="Tiered long-term memory for chat assistants, and the means to "
        "measure it.",
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for add in (
        _add_replay,
        _add_graph,
        _add_app,
        _add_main,
        _add_llm,
        register_datasets,
        register_eval,
        register_score,
        register_triggers,
        register_judge,
        register_bench,
        register_owner,
        register_purge,
        register_mcp,
    ):
        add(sub)
    for name in LLM_COMMANDS:
        add_brain_flags(sub.choices[name])
    for name in STORE_COMMANDS:
        add_store_flags(sub.choices[name])
    for name in PLUGIN_COMMANDS:
        add_plugin_flag(sub.choices[name])
    add_model_pass_flags(sub.choices["eval"])
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command; user errors print one line and exit 2."""
    parser = build_parser()
    args = parser.parse_args(argv)
    use_one_blas_thread()
    try:
        args.settings = Settings()
        if args.command in PLUGIN_COMMANDS:
            args.plugins = load_requested(args)
        if args.command in LLM_COMMANDS:
            args.models = resolve(args, args.settings)
        if args.command in STORE_COMMANDS:
            args.stores = args.settings.stores(args.store, args.episodes_store)
        if args.command in ("eval", "main"):
            args.vector_cache = args.settings.vector_cache_path()
        return int(args.func(args) or 0)
    except (MemoryLabError, ValueError, OSError) as err:
        msg = str(err).splitlines()[0] if str(err) else type(err).__name__
        print(f"memory-lab {args.command}: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
