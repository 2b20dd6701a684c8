"""The `memory-lab datasets` command: generate synthetic sets, describe any set.

`memlab_cli.main` registers it; the library never imports this package.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from pydantic import ValidationError
from rich.console import Console

from memlab_datasets import registry
from memlab_datasets.generator import GeneratorConfig, generate
from memlab_datasets.loading import load_dataset
from memlab_datasets.serialization import save_jsonl
from memlab_datasets.stats import describe, render_stats
from memory_lab.errors import DatasetError

# Flag name -> config field; the help text comes from the field's description.
_KNOBS = (
    "seed",
    "conversations",
    "sessions",
    "turns_per_session",
    "fact_density",
    "update_rate",
    "distractor_ratio",
    "trap_rate",
    "long_message_rate",
    "span_days",
    "domain",
    "probes_per_kind",
)


def register(subparsers: Any) -> argparse.ArgumentParser:
    """Add `datasets generate` and `datasets describe` to a subparsers action."""
    parser = subparsers.add_parser(
        "datasets", help="Generate synthetic conversations or describe a dataset."
    )
    parser.set_defaults(func=_usage(parser))
    commands = parser.add_subparsers(dest="datasets_command")

    gen = commands.add_parser(
        "generate", help="Write a seeded synthetic dataset as JSONL."
    )
    fields = GeneratorConfig.model_fields
    for name in _KNOBS:
        info = fields[name]
        flag = "--" + name.replace("_", "-")
        kwargs: dict[str, Any] = {"dest": name, "default": info.default}
        if name == "domain":
            kwargs["choices"] = [
                "mixed",
                "bookkeeping",
                "finance",
                "coding",
                "companion",
            ]
        else:
            kwargs["type"] = type(info.default)
        gen.add_argument(
            flag, help=f"{info.description} (default: {info.default})", **kwargs
        )
    gen.add_argument("--out", required=True, help="JSONL file to write.")
    gen.set_defaults(func=run_generate)

    desc = commands.add_parser(
        "describe", help="Count conversations, turns, probes, facts and traps."
    )
    desc.add_argument(
        "path",
        help="A .jsonl or LoCoMo .json file, or a registered data set: "
        + registry.usages()
        + " (and any name a --plugin module registers).",
    )
    desc.add_argument(
        "--plugin",
        action="append",
        default=[],
        metavar="MODULE",
        help="import MODULE first, so the data sets it registers can be named "
        "(repeatable)",
    )
    desc.add_argument("--audit", help="LoCoMo audit file with answer-key fixes.")
    desc.add_argument(
        "--no-corrections",
        action="store_true",
        help="With --audit: keep the original answers as the gold ones.",
    )
    desc.set_defaults(func=run_describe)
    return parser


def _usage(parser: argparse.ArgumentParser) -> Any:
    def show(_: argparse.Namespace) -> int:
        parser.print_help()
        return 2

    return show


def run_generate(args: argparse.Namespace) -> int:
    """Generate with the flags' knobs and write JSONL; 0 on success."""
    # soft_wrap: a path in a message must stay whole to be copied
    console = Console(stderr=True, soft_wrap=True)
    try:
        config = GeneratorConfig(**{name: getattr(args, name) for name in _KNOBS})
    except ValidationError as exc:
        first = exc.errors()[0]
        console.print(f"error: {'.'.join(map(str, first['loc']))}: {first['msg']}")
        return 2
    dataset = generate(config)
    path = save_jsonl(dataset, args.out)
    turns = sum(len(c.turns) for c in dataset.conversations)
    console.print(
        f"wrote {len(dataset.conversations):,} conversations, {turns:,} turns to "
        f"{path} (sha256 {dataset.content_hash[:16]}, spec {dataset.name})"
    )
    return 0


def run_describe(args: argparse.Namespace) -> int:
    """Print the dataset's counts as tables; 1 when it cannot be loaded."""
    try:
        if args.plugin:
            # The current folder first, as `python -m` would, so a module beside
            # the user's notebook is found without installing it.
            if "" not in sys.path:
                sys.path.insert(0, "")
            registry.load_plugins(args.plugin)
        dataset = load_dataset(
            args.path, audit=args.audit, apply_corrections=not args.no_corrections
        )
    except DatasetError as exc:
        Console(stderr=True, soft_wrap=True).print(
            f"error: {exc}", markup=False, highlight=False
        )
        return 1
    Console(file=sys.stdout).print(render_stats(describe(dataset)))
    return 0
