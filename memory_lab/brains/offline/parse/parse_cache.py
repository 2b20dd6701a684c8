"""Parses of texts already parsed, kept on disk by the text and the parser's version.

An eval feeds the same turns to every memory it compares, in several worker
processes, and a re-run feeds them again. The in-process kept parses
(`pipeline.parse_many`) serve one process; this file serves every process of
a run and every later run, as the vector cache does for embeddings.

A parse is a pure function of its text and of the parser: the model (name,
version, components), spaCy's version, and the code that mends a parse
(`parse_many` corrects lemmas the tagger got wrong). All of these are in the
key, so a kept parse is only ever read by a parser that would make it again;
a change to any of them reads nothing kept, and no file has to be deleted.
Nothing that depends on other turns, stored facts or the speaker is kept here:
that is the extractor's, and it is read afresh from the kept parses.

Documents are kept as spaCy's `DocBin` (its attributes: words, spaces, tags,
morphology, lemmas, heads and labels, sentence starts, entities), which is
what a reader of the parse reads; the tensor is not kept, and no reader uses
it. The file keeps a hash of the text as the key, but a document holds its
words: like the vector cache, the library keeps parses in memory only unless
told a file (`keep_parses_on_disk`); the evals, whose datasets are public, use
the file beside their vector cache. Its SQL stays here, not under `stores/`, as
the vector cache's does: the file is a cache of its own, always SQLite, that no
memory store reads or migrates.
"""

from __future__ import annotations

import functools
import hashlib
import inspect
import logging
import os
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from memory_lab.cache_file import CacheFile

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

log = logging.getLogger(__name__)
A = TypeVar("A")
R = TypeVar("R")

PARSE_CACHE_VERSION = 1
"""Raised when what is kept of a parse changes (the `DocBin` attributes)."""

FILE_NAME = "parses.sqlite"
"""The file's name, in the folder of the vector cache when an eval keeps one."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS parses (
    key BLOB PRIMARY KEY,
    doc BLOB NOT NULL
) WITHOUT ROWID
"""
_CHUNK = 500  # under SQLite's bound-parameter limit


def parser_version(nlp: Language, mend: Callable[..., object]) -> str:
    """Everything a parse depends on besides its text, as one string.

    The pipeline's package name and version, its active components, spaCy's
    version, this module's format and a digest of the source of `mend`, the
    correction applied to every fresh parse.
    """
    import spacy

    meta = nlp.meta
    mending = hashlib.blake2b(
        inspect.getsource(mend).encode("utf-8"), digest_size=8
    ).hexdigest()
    return "|".join(
        [
            f"{meta.get('lang')}_{meta.get('name')}-{meta.get('version')}",
            ",".join(nlp.pipe_names),
            f"spacy-{spacy.__version__}",
            f"format-{PARSE_CACHE_VERSION}",
            f"mend-{mending}",
        ]
    )


def parse_key(version: str, text: str) -> bytes:
    """16 bytes of BLAKE2b over the parser's version and the text."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(version.encode("utf-8"))
    digest.update(b"\x00")
    digest.update(text.encode("utf-8"))
    return digest.digest()


def default_parse_path() -> Path:
    """`$XDG_CACHE_HOME/memory-lab/parses.sqlite`, or under `~/.cache`."""
    root = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(root) / "memory-lab" / FILE_NAME


def parses_beside(vector_path: Path | None) -> Path | None:
    """The parse file an eval keeps beside its vector file (None: none kept).

    One setting turns both caches on or off, and a run told a vector file in a
    folder of its own (a test's) keeps its parses there too.
    """
    return None if vector_path is None else Path(vector_path).parent / FILE_NAME


def doc_to_bytes(doc: Doc) -> bytes:
    """One document as a `DocBin`."""
    from spacy.tokens import DocBin

    return DocBin(docs=[doc], store_user_data=False).to_bytes()


def doc_from_bytes(blob: bytes, vocab: Vocab) -> Doc:
    """The document `doc_to_bytes` kept, on the pipeline's own vocabulary."""
    from spacy.tokens import DocBin

    docs = list(DocBin().from_bytes(blob).get_docs(vocab))
    if len(docs) != 1:
        raise ValueError(f"a kept parse holds {len(docs)} documents, not 1")
    return docs[0]


class ParseFile(CacheFile):
    """Kept parses in one SQLite file, keyed by `parse_key`."""

    def __init__(self, path: str | Path, busy_timeout_s: float = 30.0):
        super().__init__(Path(path), _SCHEMA, busy_timeout_s)

    def get(self, keys: Sequence[bytes]) -> dict[bytes, bytes]:
        """The kept documents' bytes among `keys`."""
        found: dict[bytes, bytes] = {}
        with self._connection() as db:
            for start in range(0, len(keys), _CHUNK):
                chunk = keys[start : start + _CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = db.execute(
                    f"SELECT key, doc FROM parses WHERE key IN ({marks})", chunk
                )
                found.update(rows)
        return found

    def put(self, items: dict[bytes, bytes]) -> None:
        """Keep these documents; a key already kept is rewritten (same parse)."""
        with self._connection() as db:
            db.executemany("INSERT OR REPLACE INTO parses VALUES (?, ?)", items.items())

    def count(self) -> int:
        """How many parses the file holds."""
        with self._connection() as db:
            return int(db.execute("SELECT count(*) FROM parses").fetchone()[0])


class KeptParses:
    """The process's parse file, if any, and how many parses it served.

    A disk that fails (full, read-only, locked too long) is logged once and
    then left alone: the cache saves time, it must never stop a run. Its
    callers hold the parser's lock (`pipeline.parse_many`), so it takes none.
    """

    def __init__(self) -> None:
        self.disk: ParseFile | None = None
        self.read = 0
        """Parses read from the file rather than made: what a test counts."""
        self.made = 0
        """Parses made by the pipeline while a file was kept."""

    def keep_on_disk(self, path: str | Path | None) -> None:
        """Keep parses in this file from now on (None: in memory only)."""
        if path is None:
            self.disk = None
        elif self.disk is None or self.disk.path != Path(path):
            try:
                self.disk = ParseFile(path)
            except (sqlite3.Error, OSError) as exc:
                log.warning("parse cache %s left alone: %s", path, exc)
                self.disk = None

    def parse(
        self,
        nlp: Language,
        texts: Sequence[str],
        make: Callable[[Sequence[str]], list[Doc]],
        mend: Callable[..., object],
    ) -> list[Doc]:
        """Documents for distinct `texts`, in order: kept ones read, the rest made.

        `make` parses and mends (the pipeline's own fresh parse); what it makes
        is kept for the next reader. Without a file, `make` parses everything.
        """
        disk = self.disk
        if disk is None or not texts:
            return make(texts)
        version = _version(nlp, mend)
        keys = [parse_key(version, t) for t in texts]
        kept = self._call(disk.get, keys) or {}
        docs: dict[int, Doc] = {}
        for i, key in enumerate(keys):
            blob = kept.get(key)
            if blob is None:
                continue
            try:
                docs[i] = doc_from_bytes(blob, nlp.vocab)
            # A row another version or a torn write left: make it again.
            except (ValueError, KeyError, IndexError, TypeError, OSError) as exc:
                log.warning("a kept parse could not be read, parsed again: %s", exc)
        missing = [i for i in range(len(texts)) if i not in docs]
        if missing:
            made = make([texts[i] for i in missing])
            docs.update(zip(missing, made, strict=True))
            self._call(disk.put, {keys[i]: doc_to_bytes(docs[i]) for i in missing})
        self.read += len(texts) - len(missing)
        self.made += len(missing)
        return [docs[i] for i in range(len(texts))]

    def _call(self, call: Callable[[A], R], arg: A) -> R | None:
        try:
            return call(arg)
        except (sqlite3.Error, OSError) as exc:
            log.warning("parse cache %s left alone: %s", self.disk, exc)
            self.disk = None
            return None


@functools.cache
def _version(nlp: Language, mend: Callable[..., object]) -> str:
    return parser_version(nlp, mend)


KEPT = KeptParses()
"""The process-wide kept parses, which `pipeline.parse_many` reads first."""


def keep_parses_on_disk(path: str | Path | None) -> None:
    """Keep this process's parses in `path` from now on (None: memory only)."""
    KEPT.keep_on_disk(path)
