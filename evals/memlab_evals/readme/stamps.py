"""The commit each generated block's figures were made at, and how far behind it is.

A figure is only as fresh as the code that made it. Every result file that can
carry a stamp does (a report's run line, a JSON's ``git_commit`` or ``commit``, a
bench table's machine line), with ``+dirty`` when the tree had edits. A block's
commit is read from the files its generator actually opens (an audit hook sees
each open), so no list of sources can drift from the code; a file without a stamp
of its own (a CSV, a plot) takes the stamps of the nearest folder that has some.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

RESULT_ROOTS = (Path("evals/results"), Path("benchmarks/results"))
"""Where committed result files live, relative to the repository root."""
MEASURED_CODE = ("memory_lab", "evals", "benchmarks")
"""The code whose changes make a committed result stale (its results aside)."""

STAMP = re.compile(
    r"(?:git commit `|\"git_commit\": \"|\"commit\": \"|; commit )"
    r"(?P<sha>[0-9a-f]{7,40})(?P<dirty>\+dirty)?"
)
"""A commit as the runner, the bench and the soak loop write it."""
CARRIERS = ("report.md", "bench-*.md", "*.json", "*.jsonl")
"""File names that carry a stamp when their writer records one."""


@dataclass(frozen=True)
class Stamp:
    """One commit a result file records."""

    commit: str
    dirty: bool
    source: Path
    """The result file the stamp is written in, relative to the root."""

    @property
    def label(self) -> str:
        """The short commit, marked when the tree was dirty."""
        return self.commit[:7] + ("+dirty" if self.dirty else "")


def stamps_in(path: Path, root: Path) -> list[Stamp]:
    """Every distinct commit `path` records, in the order written."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []
    seen: dict[tuple[str, bool], Stamp] = {}
    for match in STAMP.finditer(text):
        key = (match["sha"], bool(match["dirty"]))
        seen.setdefault(key, Stamp(*key, path.relative_to(root)))
    return list(seen.values())


def carriers(folder: Path, recursive: bool) -> list[Path]:
    """The stamp-carrying files in `folder` (and below it when `recursive`)."""
    found = {
        p
        for pattern in CARRIERS
        for p in (folder.rglob(pattern) if recursive else folder.glob(pattern))
        if p.is_file()
    }
    return sorted(found)


def result_root(path: Path, root: Path) -> Path | None:
    """The results folder `path` lies under, or None when it is not a result."""
    for relative in RESULT_ROOTS:
        top = root / relative
        if path.is_relative_to(top) and path != top:
            return top
    return None


def stamps_of(path: Path, root: Path) -> list[Stamp]:
    """The commits a result file was made at: its own, else its nearest folder's.

    A folder's own carriers come first, then those anywhere below it; the search
    stops below the results folder itself, whose files are separate results (a
    file there takes the stamps of the file it is named after).
    """
    top = result_root(path, root)
    if top is None:
        return []
    own = stamps_in(path, root)
    if own:
        return own
    if path.parent == top:
        return _namesake_stamps(path, root)
    folder = path.parent
    while folder != top:
        for recursive in (False, True):
            found = [s for f in carriers(folder, recursive) for s in stamps_in(f, root)]
            if found:
                return found
        folder = folder.parent
    return []


def _namesake_stamps(path: Path, root: Path) -> list[Stamp]:
    """A top-level file's stamps from the carrier it is named after.

    `bench-full-growth.png` belongs to `bench-full.json`: the stem is cut at
    each dash from the right until a stamped file of that name is found.
    """
    words = path.stem.split("-")
    for end in range(len(words), 0, -1):
        name = "-".join(words[:end])
        for sibling in sorted(path.parent.glob(f"{name}.*")):
            if sibling != path:
                found = stamps_in(sibling, root)
                if found:
                    return found
    return []


# Which files a generator opens ------------------------------------------------

_opened: ContextVar[list[Path] | None] = ContextVar("readme_opened", default=None)
_hooked = False


def _note_open(event: str, args: tuple) -> None:
    """Audit hook: remember each path opened while a block is being made."""
    if event != "open":
        return
    log = _opened.get()
    if log is not None and isinstance(args[0], (str, os.PathLike)):
        log.append(Path(os.fsdecode(args[0])).resolve())


def made_with_reads(make: Callable[[Path], str], root: Path) -> tuple[str, list[Path]]:
    """`make(root)` and the files under `root` it opened, in order."""
    global _hooked
    if not _hooked:
        sys.addaudithook(_note_open)
        _hooked = True
    log: list[Path] = []
    token = _opened.set(log)
    try:
        body = make(root)
    finally:
        _opened.reset(token)
    base = root.resolve()
    return body, list(dict.fromkeys(p for p in log if p.is_relative_to(base)))


def block_stamps(files: Iterable[Path], root: Path) -> tuple[list[Stamp], list[Path]]:
    """The distinct stamps behind `files`, and the result files that have none."""
    base = root.resolve()
    stamps: dict[tuple[str, bool], Stamp] = {}
    unstamped: list[Path] = []
    for path in files:
        found = stamps_of(path, base)
        if not found and result_root(path, base) is not None:
            unstamped.append(path.relative_to(base))
        for stamp in found:
            stamps.setdefault((stamp.commit[:7], stamp.dirty), stamp)
    return list(stamps.values()), unstamped


def stamp_line(stamps: list[Stamp], unstamped: list[Path]) -> str:
    """One line naming the commit(s) a block's figures were made at."""
    by_commit: dict[str, list[str]] = {}
    for stamp in stamps:
        folder = _result_set(stamp.source)
        by_commit.setdefault(stamp.label, [])
        if folder not in by_commit[stamp.label]:
            by_commit[stamp.label].append(folder)
    parts = [
        f"`{label}` ({', '.join(f'`{f}`' for f in folders)})"
        for label, folders in by_commit.items()
    ]
    sets = sorted({_result_set(p) for p in unstamped})
    text = "Made at " + ("; ".join(parts) if parts else "no recorded commit")
    if parts and sets:
        text += "; no commit recorded in " + ", ".join(f"`{s}`" for s in sets)
    return f"<sub>{text}.</sub>"


def _result_set(path: Path) -> str:
    """A result file's set: its first folder under the results root, or the file."""
    for top in RESULT_ROOTS:
        if path.is_relative_to(top):
            rest = path.relative_to(top).parts
            name = (top / rest[0]).as_posix()
            return name + "/" if len(rest) > 1 else name
    return path.as_posix()


# How far behind a stamp is ------------------------------------------------------


@dataclass(frozen=True)
class Behind:
    """How far a stamp's commit lies behind the checkout's head."""

    stamp: Stamp
    commits: int
    """Commits between the stamp's commit and HEAD."""
    code_commits: int
    """Those of them that change the measured code."""


def behind(stamp: Stamp, root: Path) -> Behind | None:
    """How far `stamp` is behind HEAD in `root`'s history; None when unknown."""
    span = f"{stamp.commit}..HEAD"
    measured = [*MEASURED_CODE, *(f":(exclude){r.as_posix()}" for r in RESULT_ROOTS)]
    try:
        commits = _count(root, span)
        code = _count(root, span, "--", *measured)
    except (OSError, subprocess.SubprocessError, ValueError):
        return None
    return Behind(stamp, commits, code)


def _count(root: Path, *args: str) -> int:
    """`git rev-list --count` in `root`."""
    done = subprocess.run(
        ["git", "rev-list", "--count", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return int(done.stdout.strip())


def staleness_warnings(
    page: str, block: str, stamps: list[Stamp], root: Path
) -> list[str]:
    """A warning for each stamp older than the last change to the code it measures."""
    warnings = []
    for stamp in stamps:
        gap = behind(stamp, root)
        if gap is not None and gap.code_commits > 0:
            warnings.append(
                f"{page} block {block}: made at {stamp.label} ({stamp.source}), "
                f"{gap.commits} commits behind HEAD, {gap.code_commits} of them "
                f"changing {', '.join(f'{c}/' for c in MEASURED_CODE)}"
            )
    return warnings


# Committed results known not to be clean ----------------------------------------

DIRTY_EXCEPTIONS: dict[str, str] = {
    "benchmarks/results/locomo-eval/report.md": (
        "the eval run by `bench --full`'s LoCoMo stage at `45a62f7`, whose own "
        "record (`bench-full.json`) is clean; re-made with the next `bench --full`"
    ),
    "benchmarks/results/soak/eaff4c8/soak.jsonl": (
        "a dated soak record, kept under the commit it ran at; soak records are "
        "not re-made"
    ),
}
"""Committed result files stamped ``+dirty``, each with why it stays for now.

A test fails on any other dirty result, and on an entry here that is clean (or
gone), so the list only shrinks. The results page shows it (block
``result-exceptions``).
"""

UNSTAMPED_EXCEPTIONS: dict[str, str] = {
    "benchmarks/results/bench-llm-throughput.json": (
        "`bench --llm-throughput` writes no machine record"
    ),
    "benchmarks/results/bench-llm-throughput.md": "its table",
}
"""Committed result files that record no commit, each with why."""


def exceptions_block(root: Path) -> str:
    """The committed results that are dirty or unstamped, as a table for the page."""
    rows = []
    for path, why in DIRTY_EXCEPTIONS.items():
        found = stamps_of(root / path, root)
        shown = ", ".join(f"`{s.label}`" for s in found) or "none"
        rows.append(f"| `{path}` | {shown} | {why} |")
    for path, why in UNSTAMPED_EXCEPTIONS.items():
        rows.append(f"| `{path}` | none recorded | {why} |")
    return "\n".join(
        [
            f"{len(DIRTY_EXCEPTIONS)} committed result files were made from a dirty "
            f"tree and {len(UNSTAMPED_EXCEPTIONS)} record no commit; a test fails on "
            "any other.",
            "",
            "| file | commit | why it stays |",
            "|---|---|---|",
            *rows,
        ]
    )
