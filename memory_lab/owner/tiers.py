"""The tiers of a purge, each idempotent, in the order they run.

Each removes one kind of record of the plan and records itself done in the
tombstone, in the same transaction where the tier lives in the memory's
database, after its work where it does not (the LLM cache, Chroma, files), so a
tier cut short is simply run again. `events` and `llm_cache` come first: they
are matched on the purged text, which must still be held to be read.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING

from memory_lab.chats.catalog import retitle_after_purge
from memory_lab.embeddings import MiniLMEmbedder
from memory_lab.jobs.ledger import JobLedger, ThreadMarks
from memory_lab.owner.disk import (
    clear_hnsw_slack,
    compact_file,
    remove_orphan_segments,
)
from memory_lab.owner.needles import PhraseMatcher, purged_phrases, record_text
from memory_lab.owner.plan import PurgePlan
from memory_lab.owner.tombstones import PurgeLog, Tombstone
from memory_lab.stores import sql_erase as erase
from memory_lab.stores.base import EpisodeStore
from memory_lab.stores.locations import open_index
from memory_lab.stores.sql_events import SqlEventLog
from memory_lab.stores.sql_facts import SqlFactStore
from memory_lab.stores.sql_links import SqlFactLinkStore
from memory_lab.stores.sql_transcript import SqlTranscriptStore
from memory_lab.stores.sqlite_db import SqliteDatabase
from memory_lab.types import Episode, Message
from memory_lab.window.rebuilt import LOST, rebuilt_summary

if TYPE_CHECKING:
    import numpy as np

    from memory_lab.embeddings import Embedder

DATABASE = "memory.sqlite3"
CHROMA = "chroma"
WATERMARKS = tuple(f.name for f in fields(ThreadMarks) if f.name.endswith("_upto"))
"""The thread watermarks (turn seqs) a purge brings back to the newest turn left."""
TIERS = ("events", "llm_cache", "transcript", "facts", "episodes", "index", "disk")
"""In the order they run."""


@dataclass(frozen=True)
class NameOnly:
    """An embedder known by name: enough to open a store, never asked to embed.

    A purge copies the vectors it keeps and embeds nothing, so it loads no
    model; the store only checks that its collections were built by this name.
    """

    name: str
    dim: int

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """Never called: a purge has nothing to embed."""
        raise RuntimeError("a purge copies stored vectors and never embeds")


class PurgeFolder:
    """A data folder's stores, opened for purging (no engine, no worker)."""

    def __init__(self, data_dir: Path, embedder: Embedder | None) -> None:
        self.data_dir = data_dir
        self.db = SqliteDatabase(data_dir / DATABASE, secure_delete=True)
        self.transcript = SqlTranscriptStore(self.db)
        self.facts = SqlFactStore(self.db)
        # Made here too, so a folder from before fact links can be purged.
        self.links = SqlFactLinkStore(self.db)
        self.events = SqlEventLog(self.db)
        self.ledger = JobLedger(self.db)
        self.log = PurgeLog(self.db)
        built_by = embedder or MiniLMEmbedder
        self._embedder = NameOnly(built_by.name, built_by.dim)
        self._indexes: dict[str, EpisodeStore | None] = {}

    def index(self, name: str) -> EpisodeStore | None:
        """The `episodes` or `periods` index of the folder, None without one.

        A purge rewrites a local index's files (`disk`), so only the local
        backend's folder is opened here; a server's index is purged by the
        process holding it (`owner.held`).
        """
        if name not in self._indexes:
            chroma = self.data_dir / CHROMA
            if not (chroma / "chroma.sqlite3").is_file():
                self._indexes[name] = None
            else:
                self._indexes[name] = open_index(None, chroma, self._embedder, name)
        return self._indexes[name]

    def close_indexes(self) -> None:
        """Close Chroma's clients, so its files can be rewritten."""
        for store in self._indexes.values():
            if store is not None:
                store.close()
        self._indexes = {}

    def close(self) -> None:
        """Release everything."""
        self.close_indexes()
        self.db.close()


def phrase_matcher(opened: PurgeFolder, tenant: str, plan: PurgePlan) -> PhraseMatcher:
    """The purged text to look for, read from the stores while they hold it."""
    turns = set(plan.turns)
    facts = set(plan.facts)
    gone = set(plan.episodes) | set(plan.lost)
    summaries: list[Episode] = [
        e for e in opened.ledger.episodes(tenant) if e.id in gone
    ]
    for name, ids in (("episodes", gone), ("periods", set(plan.periods))):
        store = opened.index(name)
        if store is not None and ids:
            summaries += [e for e in store.get(tenant) if e.id in ids]
    threads = plan.threads
    if plan.everything:
        with opened.db.read() as conn:
            threads = erase.threads(conn, tenant)
    running = [opened.ledger.marks(tenant, t).summary for t in threads]
    return PhraseMatcher(
        purged_phrases(
            [m for m in opened.transcript.messages(tenant) if m.id in turns],
            [f for f in opened.facts.rows(tenant) if f.id in facts],
            summaries,
            running,
        )
    )


Phrases = Callable[[], PhraseMatcher]


def _events(
    opened: PurgeFolder, t: Tombstone, plan: PurgePlan, phrases: Phrases
) -> None:
    held = opened.events.events(t.tenant)
    if plan.everything:
        doomed = {e.id for e in held}
    else:
        named = set(plan.turns) | set(plan.facts)
        matcher = phrases()
        doomed = {
            e.id
            for e in held
            if named & set(e.refs)
            or matcher.search(f"{e.detail}\n{record_text(e.undo or {})}")
        }
        # An undo names the event it undid: it goes with it.
        grew = True
        while grew:
            more = {e.id for e in held if e.id not in doomed and doomed & set(e.refs)}
            doomed |= more
            grew = bool(more)
    with opened.db.write() as conn:
        removed = erase.delete_rows(conn, "events", t.tenant, sorted(doomed))
        opened.log.tier_done(t.id, "events", {"events": removed})


def _llm_cache(
    opened: PurgeFolder, t: Tombstone, plan: PurgePlan, phrases: Phrases
) -> None:
    removed = 0
    if t.cache_path and Path(t.cache_path).is_file():
        from memory_lab.llm_client.response_cache import ResponseCache

        matcher = phrases()
        if matcher:
            removed = ResponseCache(t.cache_path).delete_matching(
                lambda record: matcher.search(record_text(record))
            )
    opened.log.tier_done(t.id, "llm_cache", {"responses": removed})


def _transcript(
    opened: PurgeFolder, t: Tombstone, plan: PurgePlan, phrases: Phrases
) -> None:
    with opened.db.write() as conn:
        removed = erase.delete_rows(conn, "turns", t.tenant, plan.turns)
        titles = retitle_after_purge(
            conn,
            t.tenant,
            everything=plan.everything,
            chat=t.selection.get("chat"),
        )
        opened.log.tier_done(
            t.id, "transcript", {"turns": removed, "chat_titles": titles}
        )


def _facts(
    opened: PurgeFolder, t: Tombstone, plan: PurgePlan, phrases: Phrases
) -> None:
    with opened.db.write() as conn:
        removed = erase.delete_rows(conn, "facts", t.tenant, plan.facts)
        links = erase.delete_links(conn, t.tenant, plan.facts)
        erase.delete_trash(conn, t.tenant, "fact", plan.facts)
        opened.log.tier_done(t.id, "facts", {"rows": removed, "links": links})


def _episodes(
    opened: PurgeFolder, t: Tombstone, plan: PurgePlan, phrases: Phrases
) -> None:
    tenant, ledger = t.tenant, opened.ledger
    with opened.db.write() as conn:
        if plan.everything:
            removed = ledger.episode_count(tenant)
            erase.drop_tenant(conn, tenant)
            opened.log.tier_done(t.id, "episodes", {"removed": removed})
            return
        removed = erase.delete_rows(conn, "episodes", tenant, plan.episodes)
        left = opened.transcript.messages(tenant)
        lost = [_lost(e, left) for e in ledger.episodes(tenant, plan.lost)]
        empty = [e.id for e in lost if not e.turn_ids]
        erase.delete_rows(conn, "episodes", tenant, empty)
        # A trashed episode's row quotes its summary: it goes with the episode,
        # or says what is left of one that stays trashed.
        erase.delete_trash(conn, tenant, "episode", plan.episodes)
        erase.relabel_trash(conn, tenant, "episode", plan.lost, LOST)
        erase.replace_episodes(conn, tenant, [e for e in lost if e.turn_ids])
        for thread in plan.threads:
            marks = ledger.marks(tenant, thread)
            episodes = [e for e in ledger.episodes(tenant) if e.thread == thread]
            summary = rebuilt_summary(episodes, len(marks.summary))
            ledger.save_marks(tenant, thread, replace(marks, summary=summary))
        newest = max((m.seq for m in left), default=-1)
        erase.rewind(conn, tenant, newest, WATERMARKS)
        erase.clear_errors(conn, tenant, plan.seqs)
        opened.log.tier_done(
            t.id,
            "episodes",
            {
                "removed": removed,
                "marked_lost": len(lost),
                "running_summaries": len(plan.threads),
            },
        )


def _index(
    opened: PurgeFolder, t: Tombstone, plan: PurgePlan, phrases: Phrases
) -> None:
    counts = {}
    for name, ids in (
        ("episodes", [*plan.episodes, *plan.lost]),
        ("periods", plan.periods),
    ):
        store = opened.index(name)
        if store is None:
            counts[name] = 0
            continue
        if plan.everything:
            ids = [e.id for e in store.get(t.tenant)]
        counts[name] = store.remove(t.tenant, ids)
    opened.close_indexes()
    opened.log.tier_done(t.id, "index", counts)


def _disk(opened: PurgeFolder, t: Tombstone, plan: PurgePlan, phrases: Phrases) -> None:
    opened.close_indexes()
    chroma = opened.data_dir / CHROMA
    counts = {"files_compacted": 1}
    if chroma.is_dir():
        counts["segments_removed"] = remove_orphan_segments(chroma)
        # Every segment, not only this tenant's: any index made by a process
        # that had read the purged text may hold it in its unused capacity.
        cleared, unrecognised = clear_hnsw_slack(chroma)
        counts["segments_cleared"] = cleared
        counts["segments_unrecognised"] = unrecognised
        if (chroma / "chroma.sqlite3").is_file():
            compact_file(chroma / "chroma.sqlite3")
            counts["files_compacted"] += 1
    compact_file(opened.data_dir / DATABASE)
    opened.log.tier_done(t.id, "disk", counts)


TIER_RUNS: dict[str, Callable[[PurgeFolder, Tombstone, PurgePlan, Phrases], None]] = {
    "events": _events,
    "llm_cache": _llm_cache,
    "transcript": _transcript,
    "facts": _facts,
    "episodes": _episodes,
    "index": _index,
    "disk": _disk,
}


def _lost(episode: Episode, left: Sequence[Message]) -> Episode:
    """The episode over its turns left, its summary and lists removed."""
    kept_ids = set(episode.turn_ids)
    kept = [m for m in left if m.id in kept_ids]
    if not kept:
        return episode.model_copy(update={"turn_ids": []})
    return episode.model_copy(
        update={
            "summary": LOST,
            "intent": "",
            "key_facts": [],
            "decisions": [],
            "open_questions": [],
            "turn_ids": [m.id for m in kept],
            "first_seq": kept[0].seq,
            "last_seq": kept[-1].seq,
            "original_message_count": len(kept),
            "summary_tokens": 0,
        }
    )
