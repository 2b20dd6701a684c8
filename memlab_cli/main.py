"""The `memory-lab` command: every sub-command is registered here, in code.

replay, graph, app and main are defined below; datasets, eval, score and bench
are registered by the packages that own them (`memlab_datasets.cli`,
`memlab_evals.cli`, `memlab_bench.cli`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from memlab_bench.cli import register as register_bench
from memlab_datasets.cli import register as register_datasets
from memlab_evals.cli import register_eval, register_score

from memory_lab.errors import MemoryLabError


def _add_replay(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="replay a conversation through the memory graph")
    p.add_argument(
        "--dataset", default="builtin", help="'builtin' or a conversation file"
    )
    p.add_argument(
        "--recipe",
        action="append",
        help=(
            "A, B, C or a combination such as A+B; repeat for several (default A, B, C)"
        ),
    )
    p.add_argument(
        "--json", action="store_true", help="print the final memory snapshot as JSON"
    )
    p.add_argument(
        "--data", help="keep the stores in this folder (default: a temporary one)"
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
    from memlab_cli.replay import render_replay, replay
    from memory_lab.recipes import recipe

    recipes = [recipe(r) for r in (args.recipe or ["A", "B", "C"])]
    conversations = load_replayable(args.dataset)[: max(1, args.conversations)]
    with tempfile.TemporaryDirectory(prefix="memory-lab-replay-") as tmp:
        base = Path(args.data) if args.data else Path(tmp)
        results = []
        for conv in conversations:
            for rec in recipes:
                data_dir = base / f"{conv.name}-{rec.name}".replace("+", "_")
                results.append(replay(conv, rec, data_dir, progress=not args.json))
        if args.json:
            if len(results) == 1:
                print(json.dumps(results[0].snapshot, indent=1, ensure_ascii=False))
            else:
                for r in results:
                    print(json.dumps(r.snapshot, ensure_ascii=False))
        else:
            render_replay(results, per_turn=not args.quiet)
    return 0


def _add_graph(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("graph", help="print the memory graph as a Mermaid diagram")
    p.set_defaults(
        func=lambda _a: (
            print(__import__("memory_lab.graph", fromlist=["mermaid"]).mermaid()) or 0
        )
    )


def _add_app(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("app", help="serve the Streamlit app on 127.0.0.1")
    p.add_argument("--port", type=int, default=8501)
    p.add_argument("--app", default="app.py", help="path to app.py (default: ./app.py)")
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
    return subprocess.call(cmd, env={**os.environ, "ANONYMIZED_TELEMETRY": "False"})


def _add_main(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("main", help="the main job on the embedded defaults")
    p.set_defaults(func=_run_main)


def _run_main(_args: argparse.Namespace) -> int:
    """The trigger comparison (see `memlab_evals.cli.main_job`)."""
    from memlab_evals.cli import main_job

    return int(main_job() or 0)


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
        register_datasets,
        register_eval,
        register_score,
        register_bench,
    ):
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command; user errors print one line and exit 2."""
    os.environ.setdefault("ANONYMIZED_TELEMETRY", "False")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except (MemoryLabError, ValueError, OSError) as err:
        msg = str(err).splitlines()[0] if str(err) else type(err).__name__
        print(f"memory-lab {args.command}: error: {msg}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
