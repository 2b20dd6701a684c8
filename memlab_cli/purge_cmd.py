"""`memory-lab purge`: remove a tenant's content for real, from every tier and file.

The work is `memory_lab.owner.purge` on a data folder's own files, and
`MemoryEngine.purge` (`owner.held`) on Postgres or a Chroma server
(`--store`, `--episodes-store`); this module turns flags into a selection,
refuses bad requests in one line before anything is written, asks before a
whole tenant goes, and reports the tombstone.

`MEMORY_LAB_PURGE_CRASH_AFTER=<tier>` (read by `Settings`) is a test-only fault
hook: the process SIGKILLs itself right after that tier finishes (`transcript`,
`facts`, ...), so a test can check that the next open of the folder finishes
the purge.
"""

from __future__ import annotations

import argparse
import getpass
import os
import signal
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from memlab_cli.store_flags import add_store_flags
from memory_lab.errors import MemoryLabError
from memory_lab.owner import Selection, check_request, on_phase, parse_before

if TYPE_CHECKING:
    from memory_lab.api import StoreSpec
    from memory_lab.owner import Tombstone


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `purge` sub-command."""
    p = sub.add_parser(
        "purge",
        help="remove a tenant's content for real (unlike forget, which keeps it)",
        description="Deletes the selection from the transcript, facts (history "
        "included), events, episodes and their vectors, daily and weekly "
        "summaries and the LLM response cache, then rewrites the files so the "
        "text is gone from the disk. A tombstone records the purge (who, when, "
        "what was selected, how much each tier lost), never the content. A "
        "purge that is killed midway is finished by the next command or engine "
        "that opens the folder. Without --fact, --chat, --episode or --before it "
        "removes everything held about the tenant.",
    )
    p.add_argument("--data", required=True, help="the data folder (local files)")
    p.add_argument("--tenant", required=True, help="whose memory to purge")
    which = p.add_mutually_exclusive_group()
    which.add_argument(
        "--fact",
        metavar="ID",
        help="one fact with its history, and the turns it was read from",
    )
    which.add_argument(
        "--chat", metavar="ID", help="one chat session: its turns and facts"
    )
    which.add_argument(
        "--episode",
        metavar="ID",
        help="one episode: the turns it summarised and the facts read from them",
    )
    which.add_argument(
        "--before",
        metavar="DATE",
        help="every turn before DATE (YYYY-MM-DD, UTC, or an ISO time)",
    )
    p.add_argument("--by", help="who asks, for the tombstone (default: the OS user)")
    add_store_flags(p)
    p.add_argument(
        "--yes", action="store_true", help="purge a whole tenant without asking"
    )
    p.set_defaults(func=_run_purge)


def _run_purge(args: argparse.Namespace) -> int:
    from memory_lab.owner import DATABASE, default_cache_path, finish_purges
    from memory_lab.owner import purge_folder as purge

    settings = args.settings
    data = Path(args.data)
    now = datetime.now(UTC)
    selection = Selection(
        fact=args.fact,
        chat=args.chat,
        episode=args.episode,
        before=parse_before(args.before, now) if args.before is not None else None,
    )
    _listen_for_crash(settings.purge_crash_after)
    spec = settings.stores(args.store, args.episodes_store)
    if spec.remote:
        return _purge_on_servers(args, data, spec, selection)
    for left in finish_purges(data):
        print(f"finished purge {left.id} of tenant {left.tenant!r}, left running")
    check_request(data / DATABASE, args.tenant, selection)
    if selection.everything and not args.yes and not _confirmed(args.tenant):
        print("nothing purged")
        return 1
    tombstone = purge(
        data,
        args.tenant,
        selection,
        requested_by=args.by or _os_user(),
        cache_path=settings.llm_cache or default_cache_path(),
    )
    _report(tombstone, selection)
    return 0


def _purge_on_servers(
    args: argparse.Namespace, data: Path, spec: StoreSpec, selection: Selection
) -> int:
    """The same purge on Postgres or a Chroma server, through a memory on them.

    A purge left running there by a killed process is finished first. No file
    rewrite is needed for what the servers hold.
    """
    from memory_lab.api import Memory

    memory = Memory.open(spec.store or data, episodes=spec.episodes, folder=data)
    try:
        for left in memory.finish_purges():
            print(f"finished purge {left.id} of tenant {left.tenant!r}, left running")
        memory.check_purge(args.tenant, selection)
        if selection.everything and not args.yes and not _confirmed(args.tenant):
            print("nothing purged")
            return 1
        tombstone = memory.purge(
            args.tenant,
            fact=selection.fact,
            chat=selection.chat,
            episode=selection.episode,
            before=selection.before,
            requested_by=args.by or _os_user(),
        )
    finally:
        memory.close()
    _report(tombstone, selection)
    return 0


def _report(tombstone: Tombstone, selection: Selection) -> None:
    print(
        f"purge {tombstone.id} {tombstone.status}: tenant {tombstone.tenant!r}, "
        f"{selection.describe()}, by {tombstone.requested_by}"
    )
    for tier, kinds in tombstone.counts.items():
        print(f"  {tier}: " + ", ".join(f"{n} {kind}" for kind, n in kinds.items()))


def _os_user() -> str:
    try:
        return getpass.getuser()
    except (OSError, KeyError):  # no login name and no passwd entry (containers)
        return f"uid {os.getuid()}"


def _confirmed(tenant: str) -> bool:
    """Ask on a terminal; anywhere else the caller must have said --yes."""
    if sys.stdin is None or not sys.stdin.isatty():
        raise MemoryLabError(
            f"purging everything held about tenant {tenant!r} needs --yes "
            "(standard input is not a terminal to ask on)"
        )
    answer = input(
        f"Purge everything held about tenant {tenant!r}? This cannot be undone. [y/N] "
    )
    return answer.strip().lower() in ("y", "yes")


def _listen_for_crash(tier: str | None) -> None:
    """The test-only fault hook (see the module docstring)."""
    if not tier:
        return

    def stop(phase: str) -> None:
        if phase == f"purge:{tier}":
            os.kill(os.getpid(), signal.SIGKILL)

    on_phase(stop)
