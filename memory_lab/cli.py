"""The `memory-lab` command.

Sub-commands of the library live here (replay, graph, app); packages that build on
the library (datasets, evals, bench) add theirs through the entry point group
`memory_lab.commands`, so the library never imports them.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from importlib.metadata import entry_points
from pathlib import Path

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
    from memory_lab.config import recipe
    from memory_lab.conversation_io import load_replayable
    from memory_lab.replay import render_replay, replay

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
    """The trigger comparison when the evals package provides it, else a replay."""
    for ep in sorted(entry_points(group="memory_lab.main"), key=lambda e: e.name):
        return int(ep.load()() or 0)
    replay_args = argparse.Namespace(
        dataset="builtin",
        recipe=None,
        json=False,
        data=None,
        conversations=1,
        quiet=False,
    )
    return _run_replay(replay_args)


def _add_unavailable(
    sub: argparse._SubParsersAction, name: str, err: Exception
) -> None:
    """A plugin that cannot load still shows up, and says why when run."""
    p = sub.add_parser(name, help=f"(unavailable: {err})")
    p.add_argument("rest", nargs=argparse.REMAINDER)

    def fail(_args: argparse.Namespace) -> int:
        raise MemoryLabError(f"the {name} command is unavailable: {err}")

    p.set_defaults(func=fail)


def build_parser() -> argparse.ArgumentParser:
    """The full parser, with plugin sub-commands."""
    parser = argparse.ArgumentParser(
        prog="memory-lab", description=__doc__.splitlines()[0]
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for add in (_add_replay, _add_graph, _add_app, _add_main):
        add(sub)
    for ep in sorted(entry_points(group="memory_lab.commands"), key=lambda e: e.name):
        if ep.name in sub.choices:
            continue
        try:
            ep.load()(sub)
        except ImportError as err:
            _add_unavailable(sub, ep.name, err)
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
