"""`memory-lab export` and `memory-lab import`: a tenant's memory as a file, and back.

The file format and its checks are `memory_lab.owner.records`; this module only
turns flags into a data folder, servers and a file, and reports what was done.
"""

from __future__ import annotations

import argparse
import sys
from datetime import UTC, datetime
from pathlib import Path

from memlab_cli.store_flags import add_store_flags
from memory_lab.owner import Holdings, NoMemoryError, TenantExport, open_holdings


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `export` and `import` sub-commands."""
    export = sub.add_parser(
        "export",
        help="write everything held about a tenant to a JSON-lines file",
        description="Writes the tenant's transcript (every thread), episodes, "
        "daily and weekly summaries, every fact row with its history, events, "
        "thread states and jobs: one JSON record a line after a header line.",
    )
    _add_place_flags(export)
    export.add_argument(
        "--tenant", required=True, metavar="T", help="whose memory to export"
    )
    export.add_argument(
        "--out",
        required=True,
        metavar="FILE",
        help="the file to write ('-' for standard output)",
    )
    export.set_defaults(func=_run_export)
    restore = sub.add_parser(
        "import",
        help="restore an exported tenant into a data folder",
        description="Checks the whole file first; imports all of it or nothing. "
        "A tenant that already has any data in the target is refused, not merged.",
    )
    _add_place_flags(restore)
    restore.add_argument(
        "file", type=Path, metavar="FILE", help="a file `memory-lab export` wrote"
    )
    restore.set_defaults(func=_run_import)


def _add_place_flags(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help="the data folder (default: $MEMORY_LAB_DATA)",
    )
    add_store_flags(p)


def _open(args: argparse.Namespace, *, create: bool) -> Holdings:
    spec = args.settings.stores(args.store, args.episodes_store)
    data = args.data or args.settings.data
    return open_holdings(data, spec, create=create)


def _run_export(args: argparse.Namespace) -> int:
    from memory_lab.owner import NoTenantDataError, export_tenant, write_export

    try:
        holdings = _open(args, create=False)
    except NoMemoryError as err:
        raise NoTenantDataError(f"no data for tenant {args.tenant!r}: {err}") from None
    try:
        export = export_tenant(holdings, args.tenant, now=datetime.now(UTC))
    finally:
        holdings.close()
    if args.out == "-":
        for line in export.lines():
            sys.stdout.write(line + "\n")
    else:
        write_export(export, Path(args.out))
    print(
        f"exported tenant {export.tenant!r} to {args.out}: {_counts(export)}",
        file=sys.stderr if args.out == "-" else sys.stdout,
    )
    return 0


def _run_import(args: argparse.Namespace) -> int:
    from memory_lab.owner import read_export_file, restore_tenant

    # The whole file is checked before the target is opened, so a bad file
    # creates nothing, not even the data folder.
    export = read_export_file(args.file)
    holdings = _open(args, create=True)
    try:
        restore_tenant(holdings, export)
    finally:
        holdings.close()
    print(f"imported tenant {export.tenant!r} into {holdings.where}: {_counts(export)}")
    return 0


def _counts(export: TenantExport) -> str:
    counts = export.header.counts.items()
    return ", ".join(f"{n} {kind}{'s' * (n != 1)}" for kind, n in counts if n)
