"""`datasets/` must never shadow Hugging Face's `datasets`, which ragas imports."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_datasets_folder_is_not_a_package():
    assert (ROOT / "datasets").is_dir()
    assert not (ROOT / "datasets" / "__init__.py").exists()


@pytest.mark.slow
def test_import_datasets_with_repo_root_first_is_hugging_face():
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "import datasets; print(datasets.__file__); "
        "print(hasattr(datasets, 'load_dataset'))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code, str(ROOT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    origin, has_loader = result.stdout.split()
    assert "site-packages" in origin
    assert not origin.startswith(str(ROOT / "datasets"))
    assert has_loader == "True"


def test_our_package_has_a_distinct_name():
    import memlab_datasets

    assert (
        Path(memlab_datasets.__file__).parent == ROOT / "datasets" / "memlab_datasets"
    )
