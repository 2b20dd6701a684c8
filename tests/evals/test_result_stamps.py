"""Committed results say which commit made them, and the pages say when that is old.

The committed files are checked as committed: none made from a dirty tree and
none without a commit, apart from the listed exceptions, which must still be
what they are listed as. The stamp reading, the block's commit line and the
staleness warning are checked on hand-made files and a throwaway repository.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pandas as pd
import pytest
from memlab_evals.readme import stamps, tables
from memlab_evals.readme.stamps import (
    DIRTY_EXCEPTIONS,
    UNSTAMPED_EXCEPTIONS,
    Stamp,
    block_stamps,
    made_with_reads,
    stamp_line,
    stamps_of,
)

ROOT = Path(__file__).resolve().parents[2]
SHA = "0123456789abcdef0123456789abcdef01234567"


def committed_results() -> list[str]:
    """Every result file git holds, relative to the root."""
    listed = subprocess.run(
        ["git", "ls-files", "--", *(r.as_posix() for r in stamps.RESULT_ROOTS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    assert listed, "no committed result files found"
    return listed


# The committed files ------------------------------------------------------------


def test_no_committed_result_was_made_from_a_dirty_tree_unless_listed():
    dirty = {
        stamp.source.as_posix()
        for path in committed_results()
        for stamp in stamps_of(ROOT / path, ROOT)
        if stamp.dirty
    }
    unlisted = sorted(dirty - set(DIRTY_EXCEPTIONS))
    assert not unlisted, f"made from a dirty tree: {unlisted}"
    cleaned = sorted(set(DIRTY_EXCEPTIONS) - dirty)
    assert not cleaned, f"listed as dirty but clean or gone, drop them: {cleaned}"


def test_every_committed_result_records_its_commit_unless_listed():
    unstamped = {p for p in committed_results() if not stamps_of(ROOT / p, ROOT)}
    unlisted = sorted(unstamped - set(UNSTAMPED_EXCEPTIONS))
    assert not unlisted, f"no commit recorded for: {unlisted}"
    stamped = sorted(set(UNSTAMPED_EXCEPTIONS) - unstamped)
    assert not stamped, f"listed as unstamped but stamped or gone: {stamped}"


def test_the_results_page_lists_every_exception():
    page = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    for path in [*DIRTY_EXCEPTIONS, *UNSTAMPED_EXCEPTIONS]:
        assert f"| `{path}` |" in page, path


# Reading stamps -----------------------------------------------------------------


def write(root: Path, path: str, text: str) -> Path:
    file = root / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    return file


@pytest.mark.parametrize(
    "path, text",
    [
        ("evals/results/x/report.md", f"- executor: local; git commit `{SHA}+dirty`;"),
        ("benchmarks/results/b.json", json.dumps({"machine": {"git_commit": SHA}})),
        ("benchmarks/results/soak/s/soak.jsonl", json.dumps({"commit": SHA}) + "\n"),
        (
            "benchmarks/results/bench-q.md",
            "glibc2.36; 2026-11-26T11:16; commit 0123456.",
        ),
    ],
    ids=["report", "bench-json", "soak", "bench-table"],
)
def test_each_writer_s_stamp_is_read(tmp_path: Path, path: str, text: str):
    (stamp,) = stamps_of(write(tmp_path, path, text), tmp_path)
    assert stamp.commit.startswith("0123456")
    assert stamp.dirty == ("+dirty" in text)
    assert stamp.source == Path(path)


def test_a_file_without_a_stamp_takes_its_folder_s(tmp_path: Path):
    write(tmp_path, "evals/results/t/run-1/report.md", f"git commit `{SHA}`")
    plot = write(tmp_path, "evals/results/t/run-1/plot.png", "")
    table = write(tmp_path, "evals/results/t/table.csv", "a\n1\n")
    assert [s.source.name for s in stamps_of(plot, tmp_path)] == ["report.md"]
    assert [s.commit for s in stamps_of(table, tmp_path)] == [SHA]


def test_a_top_level_file_takes_the_stamp_of_its_namesake(tmp_path: Path):
    write(tmp_path, "benchmarks/results/bench-full.json", f'{{"git_commit": "{SHA}"}}')
    write(tmp_path, "benchmarks/results/bench-other.json", '{"git_commit": "fedcba9"}')
    plot = write(tmp_path, "benchmarks/results/bench-full-growth.png", "")
    lone = write(tmp_path, "benchmarks/results/lone.md", "no stamp")
    assert [s.source.name for s in stamps_of(plot, tmp_path)] == ["bench-full.json"]
    assert stamps_of(lone, tmp_path) == []


def test_a_file_outside_the_results_has_no_stamp(tmp_path: Path):
    other = write(tmp_path, "docs/report.md", f"git commit `{SHA}`")
    assert stamps_of(other, tmp_path) == []


# A block's commit line ------------------------------------------------------------


def test_the_files_a_generator_opens_are_recorded(tmp_path: Path):
    a = write(tmp_path, "evals/results/a/summary.csv", "x\n1\n")
    b = write(tmp_path, "evals/results/b/run.json", "{}")
    outside = write(tmp_path.parent / "elsewhere", "f.txt", "x")

    def make(root: Path) -> str:
        pd.read_csv(root / "evals/results/a/summary.csv")
        json.loads((root / "evals/results/b/run.json").read_text())
        outside.read_text()
        return "body"

    body, read = made_with_reads(make, tmp_path)
    assert body == "body"
    assert read == [a.resolve(), b.resolve()]
    _, again = made_with_reads(lambda root: "nothing read", tmp_path)
    assert again == []


def test_the_commit_line_names_each_commit_and_what_has_none(tmp_path: Path):
    write(tmp_path, "evals/results/main/m-1/report.md", f"git commit `{SHA}`")
    write(tmp_path, "evals/results/none/m-1/report.md", "git commit `fedcba9+dirty`")
    read = [
        write(tmp_path, "evals/results/main/m-1/summary.csv", "x\n"),
        write(tmp_path, "evals/results/none/m-1/summary.csv", "x\n"),
        write(tmp_path, "evals/results/extraction/s.txt", "x\n"),
    ]
    found, unstamped = block_stamps(read, tmp_path)
    assert [s.label for s in found] == ["0123456", "fedcba9+dirty"]
    assert unstamped == [Path("evals/results/extraction/s.txt")]
    assert stamp_line(found, unstamped) == (
        "<sub>Made at `0123456` (`evals/results/main/`); `fedcba9+dirty` "
        "(`evals/results/none/`); no commit recorded in "
        "`evals/results/extraction/`.</sub>"
    )


def test_a_rendered_block_ends_with_its_commit(tmp_path: Path):
    check = {
        "judge": {"model": "m"},
        "items": 4,
        "per_kind": 1,
        "seed": 1,
        "verdict_failures": 0,
        "reliable": True,
        "false_accept_max": 0.1,
        "false_accept": {"rate": 0, "low": 0, "high": 0, "against": 0, "judged": 2},
        "false_reject": {"rate": 0, "low": 0, "high": 0, "against": 0, "judged": 2},
        "kinds": {},
        "machine": {"git_commit": SHA},
    }
    write(tmp_path, tables.JUDGE_JSON.as_posix(), json.dumps(check))
    page = "<!-- judge:begin -->\n<!-- judge:end -->\n"
    rendered = tables.render(page, tmp_path)
    assert rendered.endswith(
        "\n\n<sub>Made at `0123456` (`evals/results/judge-check/`).</sub>\n"
        "<!-- judge:end -->\n"
    )


# How far behind -----------------------------------------------------------------


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", *args],
        cwd=repo,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


def test_a_block_older_than_the_code_it_measures_is_warned_of(tmp_path: Path):
    git(tmp_path, "init", "-q")
    write(tmp_path, "memory_lab/engine.py", "x = 1\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "code")
    made_at = git(tmp_path, "rev-parse", "HEAD")
    write(tmp_path, "evals/results/r/report.md", f"git commit `{made_at}`")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "results")  # results alone: not stale
    found = stamps_of(tmp_path / "evals/results/r/report.md", tmp_path)
    assert stamps.staleness_warnings("README.md", "b", found, tmp_path) == []
    for n in (2, 3):
        write(tmp_path, "memory_lab/engine.py", f"x = {n}\n")
        git(tmp_path, "commit", "-q", "-am", f"code {n}")
    write(tmp_path, "notes.md", "not code\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "notes")
    (warning,) = stamps.staleness_warnings("README.md", "b", found, tmp_path)
    assert warning == (
        f"README.md block b: made at {made_at[:7]} (evals/results/r/report.md), "
        "4 commits behind HEAD, 2 of them changing memory_lab/, evals/, benchmarks/"
    )


def test_a_commit_not_in_the_history_gives_no_warning(tmp_path: Path):
    git(tmp_path, "init", "-q")
    stamp = Stamp("fedcba9", False, Path("evals/results/r/report.md"))
    assert stamps.staleness_warnings("README.md", "b", [stamp], tmp_path) == []


def test_make_readme_warns_of_a_stale_block_and_check_stays_quiet(
    tmp_path: Path, capsys
):
    git(tmp_path, "init", "-q")
    write(tmp_path, "memory_lab/engine.py", "x = 1\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "code")
    made_at = git(tmp_path, "rev-parse", "HEAD")
    check = {
        "judge": {"model": "m"},
        "items": 4,
        "per_kind": 1,
        "seed": 1,
        "verdict_failures": 0,
        "reliable": True,
        "false_accept_max": 0.1,
        "false_accept": {"rate": 0, "low": 0, "high": 0, "against": 0, "judged": 2},
        "false_reject": {"rate": 0, "low": 0, "high": 0, "against": 0, "judged": 2},
        "kinds": {},
        "machine": {"git_commit": made_at},
    }
    write(tmp_path, tables.JUDGE_JSON.as_posix(), json.dumps(check))
    readme = write(tmp_path, "README.md", "<!-- judge:begin -->\n<!-- judge:end -->\n")
    write(tmp_path, "docs/page.md", "no blocks\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "results")
    write(tmp_path, "memory_lab/engine.py", "x = 2\n")
    git(tmp_path, "commit", "-q", "-am", "code changed")
    assert tables.main([str(readme)]) == 0
    assert capsys.readouterr().err == (
        f"warning: README.md block judge: made at {made_at[:7]} "
        f"({tables.JUDGE_JSON.as_posix()}), 2 commits behind HEAD, 1 of them "
        "changing memory_lab/, evals/, benchmarks/\n"
    )
    assert f"<sub>Made at `{made_at[:7]}`" in readme.read_text()
    assert tables.main([str(readme), "--check"]) == 0
    assert capsys.readouterr().err == ""
