"""Open an eval run folder and show its tables, report and plots.

The panel reads files, not the evals package, so it shows any run folder the
runner wrote (and keeps working while that package changes): CSV and JSON Lines
files become tables, a JSON log's per-row lists become tables, Markdown is
rendered, PNG/SVG plots are drawn.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import streamlit as st

from memlab_cli.settings import Settings

MAX_FILES = 30
_IMAGE_LINK = re.compile(r"!\[[^\]]*\]\((?!https?:)[^)]*\)")


def _candidates(root: Path) -> list[str]:
    if not root.is_dir():
        return []
    found = sorted(
        (p for p in root.iterdir() if p.is_dir()),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    return [str(p) for p in found[:50]]


def _json_table(path: Path) -> pd.DataFrame | None:
    data = json.loads(path.read_text(encoding="utf-8"))
    if isinstance(data, list) and data and all(isinstance(r, dict) for r in data):
        return pd.json_normalize(data)
    if isinstance(data, dict):
        # A log holds its rows under some key; show the first list of records.
        for value in data.values():
            if (
                isinstance(value, list)
                and value
                and all(isinstance(r, dict) for r in value)
            ):
                return pd.json_normalize(value)
        flat = {k: v for k, v in data.items() if not isinstance(v, list | dict)}
        if flat:
            return pd.DataFrame([flat])
    return None


def show_file(path: Path) -> None:
    """Show one file of a run folder as a table, text or image."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        st.dataframe(pd.read_csv(path), hide_index=True)
    elif suffix == ".jsonl":
        st.dataframe(pd.read_json(path, lines=True), hide_index=True)
    elif suffix == ".json":
        table = _json_table(path)
        if table is not None:
            st.dataframe(table, hide_index=True)
        else:
            st.json(path.read_text(encoding="utf-8"), expanded=False)
    elif suffix == ".md":
        # Relative image links cannot load in the page; the plots are drawn below.
        text = _IMAGE_LINK.sub("", path.read_text(encoding="utf-8"))
        st.markdown(text)
    elif suffix in (".png", ".jpg", ".jpeg", ".svg"):
        st.image(str(path))


def evals_panel() -> None:
    """Pick a run folder and show what it holds."""
    root = Settings().runs
    options = _candidates(root)
    picked = st.selectbox(
        "Recent runs",
        options,
        index=None,
        key="eval_pick",
        placeholder=f"Run folders under {root}/"
        if options
        else f"No run folders under {root}/",
    )
    typed = st.text_input("Or a run folder path", key="eval_path")
    folder = (typed.strip() or picked or "").strip()
    if not folder:
        st.caption("Run an eval (e.g. `memory-lab main`), then open its folder here.")
        return
    path = Path(folder).expanduser()
    if not path.is_dir():
        st.error(f"{folder}: no such folder")
        return
    files = sorted(
        p
        for p in path.rglob("*")
        if p.is_file()
        and p.suffix.lower()
        in {".csv", ".jsonl", ".json", ".md", ".png", ".jpg", ".jpeg", ".svg"}
    )
    if not files:
        st.warning(f"{folder}: no tables, reports or plots in this folder")
        return
    if len(files) > MAX_FILES:
        st.caption(f"Showing the first {MAX_FILES} of {len(files)} files.")
    for file in files[:MAX_FILES]:
        with st.expander(
            str(file.relative_to(path)),
            expanded=file.suffix.lower() in (".csv", ".md", ".png", ".svg"),
        ):
            try:
                show_file(file)
            except (ValueError, OSError, json.JSONDecodeError) as err:
                st.error(f"{file.name}: cannot be read ({err})")
