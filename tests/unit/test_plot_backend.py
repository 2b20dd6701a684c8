"""Importing the report modules leaves a notebook's matplotlib backend alone."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.slow
def test_the_report_modules_do_not_switch_the_backend_on_import():
    code = (
        "import matplotlib; matplotlib.use('pdf'); "
        "import memlab_evals.reports.report, memlab_evals.reports.goal_table, "
        "memlab_evals.reports.trigger_table, memlab_bench.growth_plot; "
        "print(matplotlib.get_backend())"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "pdf", done.stderr
