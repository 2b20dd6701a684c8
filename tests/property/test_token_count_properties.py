"""Counting lines one by one gives the joined text's count, for any lines.

The baselines count a whole transcript per question from each line's kept count
(`TiktokenCounter.count_lines`); a count off by one token would move a budget
cut, so the two are compared on text built from the characters tiktoken treats
specially: newlines, spaces, tabs, other white space, punctuation, slashes,
digits, contractions and non-Latin letters, at the start and end of lines, and
indented lines.
"""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from memory_lab import tokens
from memory_lab.tokens import TiktokenCounter, count_lines

PIECES = st.sampled_from(
    [
        *"abcXYZ019 .,!?'\"-:;()[]/\t\n\r\x0b\x0c\x1c\x85\xa0\u2028",
        *"éü日本’",
        "'s",
        "'ll",
        "  ",
        "\n\n",
        "\r\n",
        "123",
        "4567",
        "...",
        " the",
        "[2023-05-08 user]",
        "  + ",
        "/path",
        "!\n/",
    ]
)
LINES = st.lists(st.lists(PIECES, max_size=10).map("".join), min_size=1, max_size=8)


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_lines_counted_one_by_one_are_the_joined_texts_count(encoding: str) -> None:
    counter = TiktokenCounter(encoding)

    @settings(max_examples=3000, deadline=None)
    @given(LINES)
    @example(["hi!", "/path/to"])  # o200k runs "!" on through the newline into "/"
    @example(["- [May 7] a summary", "  + an excerpt under it"])
    def check(lines: list[str]) -> None:
        assert counter.count_lines(lines) == counter.count("\n".join(lines))

    check()


@pytest.mark.slow
@pytest.mark.parametrize("encoding", ["cl100k_base", "o200k_base"])
def test_a_long_text_counted_by_its_lines_has_its_encoded_count(encoding: str) -> None:
    # Every text with a newline takes the by-lines path here (longest_kept=1).
    counter = TiktokenCounter(encoding, longest_kept=1)
    encode = TiktokenCounter(encoding)._enc.encode

    @settings(max_examples=3000, deadline=None)
    @given(LINES.map("\n".join))
    def check(text: str) -> None:
        assert counter.count(text) == len(encode(text, disallowed_special=()))

    check()


def test_an_encoding_not_checked_here_is_counted_whole(monkeypatch) -> None:
    text = "a line\n\n  another\nthe last"
    monkeypatch.setattr(tokens, "LINE_SAFE_ENCODINGS", frozenset())
    whole = TiktokenCounter(longest_kept=12)
    assert whole.count(text) == whole.count_lines(text.split("\n"))
    assert whole._cached_count.cache_info().currsize == 0  # no line counted alone
    monkeypatch.undo()
    by_lines = TiktokenCounter(longest_kept=12)
    assert by_lines.count(text) == whole.count(text)
    assert by_lines._cached_count.cache_info().currsize > 0


def test_a_counter_without_line_counts_counts_the_joined_text() -> None:
    class Words:
        def count(self, text: str) -> int:
            return len(text.split(" "))

    assert count_lines(Words(), ["a b", "c d"]) == 3
