"""The README's generated tables match the committed result files."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from memlab_evals import readme_tables
from memlab_evals.readme_tables import TRIGGER_README_COLUMNS, trigger_block

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_trigger_table_is_the_committed_result():
    assert readme_tables.main([str(ROOT / "README.md"), "--check"]) == 0


def test_a_changed_result_makes_the_readme_stale(tmp_path: Path, monkeypatch):
    rows = []
    for dataset in ("synthetic", "locomo"):
        for budget in (600, 1500):
            for system in ("A", "D"):
                row = dict.fromkeys(TRIGGER_README_COLUMNS, 0.5)
                row.update(dataset=dataset, budget=budget, system=system)
                rows.append(row)
    csv = tmp_path / "evals" / "results" / "triggers" / "triggers.csv"
    csv.parent.mkdir(parents=True)
    pd.DataFrame(rows).to_csv(csv, index=False)
    monkeypatch.setattr(readme_tables, "ROOT", tmp_path)
    block = trigger_block(csv)
    assert "at 1,500 tokens" in block and "**locomo**" in block
    assert block.count("| A |") == 2  # one row per dataset, the larger budget only
    readme = tmp_path / "README.md"
    readme.write_text("x\n<!-- triggers:begin -->\nold\n<!-- triggers:end -->\ny\n")
    monkeypatch.setitem(readme_tables.BLOCKS, "triggers", lambda: block)
    assert readme_tables.main([str(readme), "--check"]) == 1
    assert readme_tables.main([str(readme)]) == 0
    assert readme_tables.main([str(readme), "--check"]) == 0
    assert "old" not in readme.read_text() and block in readme.read_text()
