"""A known name is the same name however it is spaced, hyphenated or cased."""

from __future__ import annotations

import pytest

from memory_lab.brains.offline.rules.vocabulary import value_class


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        ("VS Code", "editor"),
        ("vs-code", "editor"),
        ("Intelli J", "editor"),
        ("Git Lab", "code_host"),
        ("digital ocean", "cloud_provider"),
        ("Java Script", "programming_language"),
        ("Fast API", "web_framework"),
    ],
)
def test_a_spaced_or_hyphenated_known_name_keeps_its_kind(value: str, kind: str) -> None:
    assert value_class(value) == kind


@pytest.mark.parametrize(
    "value", ["the code review", "a cosy vest", "my old laptop", "go home"]
)
def test_ordinary_words_joined_do_not_become_a_known_name(value: str) -> None:
    assert value_class(value) is None
