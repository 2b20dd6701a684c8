"""The public API, used as an outside developer would: `from memory_lab import Memory`.

Real SQLite and Chroma on disk, the offline brain, and a Postgres server for the
URL location. Each test reads what the background worker wrote only after
`flush()`, the public signal that the owed work is done.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest

import memory_lab
from memlab_cli.main import main
from memory_lab import Hit, LocationError, Memory
from memory_lab.errors import InvalidMessageError
from memory_lab.owner import PurgeRequestError

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def turns(*texts: str, start: datetime = T0) -> list[dict]:
    return [
        {
            "role": "user" if i % 2 == 0 else "assistant",
            "content": text,
            "timestamp": (start + timedelta(minutes=i)).isoformat(),
        }
        for i, text in enumerate(texts)
    ]


def test_the_public_names_are_listed_in_one_place():
    for name in memory_lab.__all__:
        assert getattr(memory_lab, name) is not None, name
    assert "Memory" in memory_lab.__all__


def test_add_returns_ids_at_once_and_the_context_holds_the_turns(tmp_path):
    with Memory.open(tmp_path / "m") as memory:
        ids = memory.add(
            "ada", turns("I moved to Lyon last spring.", "Lyon is a fine city.")
        )
        assert len(ids) == 2 and len(set(ids)) == 2
        memory.flush()
        bundle = memory.context("ada", "Where do I live now?", budget=600)
        assert bundle.total_tokens <= 600
        assert "Lyon" in bundle.text
        assert {b.kind for b in bundle.blocks} >= {"facts", "window"}
        assert any(f.value == "Lyon" for f in memory.facts("ada"))


def test_search_spans_the_tiers_with_sources_and_dates(tmp_path):
    with Memory.open(tmp_path / "m", recipe="A(max_messages=4,keep_last=2)") as memory:
        memory.add(
            "ada",
            turns(
                "My sister Jo runs a bakery in Ghent.",
                "A bakery, how lovely.",
                "I play the cello on Sundays.",
                "Nice.",
                "We adopted a greyhound called Pip.",
                "Lovely name.",
                "I work as a nurse at the city hospital.",
                "That is demanding work.",
            ),
        )
        memory.flush()
        hits = memory.search("ada", "bakery in Ghent", k=8)
        assert hits and all(isinstance(h, Hit) for h in hits)
        assert {h.tier for h in hits} >= {"facts", "turns"}
        assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)
        assert any("bakery" in h.text.lower() for h in hits[:3])
        for hit in hits:
            assert hit.source and hit.date is not None
        assert memory.stats("ada")["episodes"] >= 1
        assert any(h.tier == "episodes" for h in memory.search("ada", "cello", k=20))


def test_remember_correct_confirm_forget(tmp_path):
    with Memory.open(tmp_path / "m") as memory:
        fact = memory.remember(
            "ada", "reply_language", "Swedish", category="preference"
        )
        assert fact.source == "explicit" and fact.status == "active"
        corrected = memory.correct("ada", fact.id, "Danish")
        assert corrected.value == "Danish"
        assert memory.fact("ada", fact.id).status == "superseded"
        assert memory.confirm("ada", corrected.id).kind == "fact_confirmed"
        assert [f.value for f in memory.facts("ada", category="preference")] == [
            "Danish"
        ]
        memory.forget("ada", corrected.id)
        assert memory.facts("ada") == []
        # Forgotten, not deleted: the row stays for audit.
        assert memory.fact("ada", corrected.id) is not None


def test_bad_input_names_the_field_and_stores_nothing(tmp_path):
    with Memory.open(tmp_path / "m") as memory:
        memory.add("ada", turns("I like tea."))
        memory.flush()  # only a refused add could move a count now
        before = memory.stats("ada")
        cases = [
            ([{"role": "user"}], "content"),
            ([{"role": "user", "content": "   "}], "content"),
            ([{"role": "robot", "content": "hi"}], "role"),
            ([{"role": "user", "content": "hi", "mood": "x"}], "mood"),
            ([{"role": "user", "content": "hi", "timestamp": "2026-01-01T10:00"}], "timestamp"),  # noqa: E501
            ([], "messages"),
            (["hello"], r"messages\[0\]"),
        ]
        for messages, field in cases:
            with pytest.raises(InvalidMessageError, match=field):
                memory.add("ada", messages)
        # One bad message refuses the whole batch.
        with pytest.raises(InvalidMessageError, match=r"messages\[1\]"):
            memory.add("ada", [*turns("fine"), {"role": "user", "content": ""}])
        with pytest.raises(KeyError, match="fact_id"):
            memory.forget("ada", "f_nope")
        with pytest.raises(ValueError, match="category"):
            memory.remember("ada", "k", "v", category="nonsense")
        with pytest.raises(ValueError, match="budget"):
            memory.context("ada", "tea", budget=10)
        with pytest.raises(ValueError, match="k:"):
            memory.search("ada", "tea", k=0)
        memory.flush()
        assert memory.stats("ada") == before


def test_tenants_never_see_each_other(tmp_path):
    with Memory.open(tmp_path / "m") as memory:
        memory.add("ada", turns("My password hint is marmalade."))
        memory.remember("ada", "hint", "marmalade")
        memory.flush()
        assert memory.facts("bob") == []
        assert memory.search("bob", "marmalade") == []
        assert "marmalade" not in memory.context("bob", "marmalade").text


def test_a_folder_keeps_its_memory_across_opens_and_exports(tmp_path):
    folder = tmp_path / "m"
    with Memory.open(folder) as memory:
        memory.add("ada", turns("I moved to Lyon last spring."))
        saved = memory.remember("ada", "allergy", "peanuts", category="constraint")
    with Memory.open(str(folder)) as memory:
        assert memory.fact("ada", saved.id).value == "peanuts"
        counts = memory.export("ada", tmp_path / "ada.jsonl")
        assert counts["message"] == 1 and counts["fact"] >= 1
        lines = (tmp_path / "ada.jsonl").read_text().splitlines()
        assert json.loads(lines[0])["tenant"] == "ada"
        with pytest.raises(PurgeRequestError):
            memory.purge("ada", fact="f_not_held")
        tombstone = memory.purge("ada", requested_by="test")
        assert tombstone.tenant == "ada"
        assert memory.facts("ada") == [] and memory.stats("ada")["turns"] == 0


def test_in_memory_location_keeps_nothing_after_close():
    with Memory.open(":memory:") as memory:
        memory.add("ada", turns("I like tea."))
        assert memory.stats("ada")["turns"] == 1
    with Memory.open(":memory:") as memory:
        assert memory.stats("ada")["turns"] == 0


def test_a_bad_location_is_refused_in_one_line(tmp_path):
    file = tmp_path / "a-file"
    file.write_text("x")
    for location, words in [
        ("", "empty"),
        (file, "is a file"),
        ("mysql://host/db", "mysql"),
    ]:
        with pytest.raises(LocationError, match=words) as err:
            Memory.open(location)
        assert "\n" not in str(err.value)


@pytest.mark.xdist_group("servers")
def test_a_postgres_url_is_a_location(postgres_url, tmp_path):
    with Memory.open(postgres_url) as memory:
        memory.add("pg-ada", turns("I moved to Porto in May."))
        saved = memory.remember("pg-ada", "city", "Porto")
        memory.flush()
    with Memory.open(postgres_url) as memory:
        assert memory.fact("pg-ada", saved.id).value == "Porto"
        assert memory.stats("pg-ada")["turns"] == 1
        memory.purge("pg-ada", requested_by="test")


@pytest.mark.slow
def test_replay_into_a_folder_is_what_export_reads(tmp_path, capsys):
    folder = tmp_path / "data"
    assert main(["replay", "--recipe", "A", "--json", "--data", str(folder)]) == 0
    tenant = json.loads(capsys.readouterr().out)["tenant"]
    out = tmp_path / "export.jsonl"
    assert main(["export", "--data", str(folder), "--tenant", tenant, "--out", str(out)]) == 0  # noqa: E501
    assert out.read_text().count("\n") > 10
    assert main(["replay", "--data", str(folder)]) == 2
    assert "--data holds one memory" in capsys.readouterr().err
