"""The export file format: JSON lines, each naming its `kind`, read back strictly.

The first line is the header (`ExportHeader`). Every other line is
`{"kind": ..., "data": {...}}`, whose data is the record as the stores keep it,
validated by the same pydantic models the stores read and write, so a person
can read the file and nothing is translated on the way out or in:

- `message`: a transcript turn with its thread, `seq` and the spans of it that
  restate memory (`TranscriptRow`);
- `thread`: a thread's window and running-summary state (`ThreadState`);
- `episode`: a committed episode: summary, span, turn ids, counts, brain;
- `period`: a daily (`thread` "day") or weekly ("week") summary;
- `fact`: a fact row, current or not: superseded, forgotten and expired rows keep
  their validity windows, provenance, source tier, confidence and TTL;
- `link`: a stored link between two of the file's facts ("relates_to",
  "caused_by"), ended or not; "supersedes" links are read from the facts;
- `event`: the memory's event log, oldest first;
- `job`: a memory job the ledger holds, owed or done (`JobRow`);
- `session`: a thread's current session and its lifecycle state (`SessionRow`);
- `item`: a key-value item of the tenant's store (`Memory.items`, which
  LangGraph's `MemoryLabStore` writes): namespace, key, JSON value and its two
  times (`StoreItemRow`), in the order they were first put.

Vectors are not written: they are the embedder's output for text the file
holds, so an import recomputes them with the target's embedder, which need not
be the source's. For an episode that text is the episode's; for an item it is
its whole value, whatever the put indexed: an item put with `fields`, with
`index=False` or with another embedder's vectors comes back indexed whole.

A kind added after files of this version were first written (`item`) is
missing from an older file's header counts and lines: such a file holds none.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from datetime import datetime
from typing import Annotated, Any, Final, Literal, Protocol, TypeVar, cast

from pydantic import (
    AfterValidator,
    AwareDatetime,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
)

from memory_lab.errors import MemoryLabError
from memory_lab.items import check_namespace
from memory_lab.types import Episode, Fact, FactLink, MemoryEvent, Message, Record

FORMAT: Final = "memory-lab-export"
"""The header's `format`: what says a file is one of ours."""
VERSION = 1
"""The header's `version`; a file of another version is refused, not guessed at."""


_M = TypeVar("_M", bound=BaseModel)


class _Owned(Protocol):
    """What the record of every kind has: the tenant it belongs to."""

    @property
    def tenant(self) -> str:
        """The tenant whose memory the record is."""
        ...


class ExportFileError(MemoryLabError, ValueError):
    """An export file that cannot be imported; the message names the line."""


class TranscriptRow(Message):
    """A transcript turn with the thread it was said in (the transcript keeps both)."""

    seq: int = Field(ge=0, description="Position in the tenant's transcript.")
    thread: str


class ThreadState(Record):
    """A thread's memory state: how far work is asked for and done, and its summary.

    The window is not stored: it is the thread's turns past `compressed_upto`.
    """

    tenant: str
    thread: str
    decided_upto: int
    planned_upto: int
    compressed_upto: int
    extract_planned_upto: int
    extracted_upto: int
    summary: str
    session: str


class SessionRow(Record):
    """A thread's current session: its state (open, idle, closed, resumed) and why."""

    tenant: str
    thread: str
    session: str
    state: Literal["open", "idle", "closed", "resumed"]
    opened_at: AwareDatetime
    last_turn_at: AwareDatetime
    since: AwareDatetime
    closed_at: AwareDatetime | None
    reason: str


class JobRow(Record):
    """A memory job as the ledger holds it.

    Its number is not kept: numbers are shared by every tenant of a database,
    so an import numbers jobs anew, in the file's order (the order they run in).
    """

    tenant: str
    thread: str
    kind: Literal["compress", "extract"]
    first_seq: int
    last_seq: int
    trigger: str
    asked_at: AwareDatetime
    status: Literal["pending", "done", "failed"]
    attempts: int = 0
    error: str | None = None
    owner: str = ""
    """The configuration that must run it (a pending job waits for its owner)."""


class ChatRow(Record):
    """A chat of the app's list: its title and whether it is in the trash."""

    tenant: str
    thread: str
    title: str
    titled_by: str
    created_at: AwareDatetime
    trashed_at: AwareDatetime | None = None


class TrashRow(Record):
    """A fact or an episode in the trash: which, what it held, since when."""

    tenant: str
    kind: Literal["fact", "episode"]
    item: str
    label: str
    trashed_at: AwareDatetime


def _stored_namespace(labels: list[str]) -> list[str]:
    return list(check_namespace(labels))


def _stored_key(key: str) -> str:
    if "\x00" in key:
        raise ValueError("must be text without NUL")
    return key


class StoreItemRow(Record):
    """A key-value item of the tenant's store (`Memory.items`), without vectors.

    An import indexes its whole value again (see the module).
    """

    tenant: str
    namespace: Annotated[list[str], AfterValidator(_stored_namespace)] = Field(
        min_length=1,
        description="The item's namespace, label by label (none empty, none "
        "holding '.' or NUL).",
    )
    key: Annotated[str, AfterValidator(_stored_key)]
    value: dict[str, Any] = Field(description="The value, a JSON object.")
    created_at: AwareDatetime = Field(description="When the key was first put.")
    updated_at: AwareDatetime = Field(description="When the key was last put.")


class ExportHeader(BaseModel):
    """The first line: what the file is, whose it is and what it holds."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: Literal["header"] = "header"
    format: Literal["memory-lab-export"] = FORMAT
    version: int = VERSION
    tenant: str
    exported_at: AwareDatetime
    memory_lab_version: str
    counts: dict[str, int]
    """Records per kind: a file that lost lines says so on import."""


class _Line(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: str
    data: dict[str, Any]


class TenantExport(BaseModel):
    """Everything held about one tenant, each kind in the order it is stored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    header: ExportHeader
    messages: list[TranscriptRow] = []
    threads: list[ThreadState] = []
    episodes: list[Episode] = []
    periods: list[Episode] = []
    facts: list[Fact] = []
    links: list[FactLink] = []
    events: list[MemoryEvent] = []
    jobs: list[JobRow] = []
    chats: list[ChatRow] = []
    trash: list[TrashRow] = []
    sessions: list[SessionRow] = []
    items: list[StoreItemRow] = []

    @property
    def tenant(self) -> str:
        """Whose memory this is."""
        return self.header.tenant

    def lines(self) -> Iterator[str]:
        """The file's lines (without newlines): the header, then every record."""
        yield json.dumps(self.header.model_dump(mode="json"), ensure_ascii=False)
        for kind, field, _ in KINDS:
            for record in getattr(self, field):
                yield json.dumps(
                    {"kind": kind, "data": record.model_dump(mode="json")},
                    ensure_ascii=False,
                )


KINDS: tuple[tuple[str, str, type[Record]], ...] = (
    ("message", "messages", TranscriptRow),
    ("thread", "threads", ThreadState),
    ("episode", "episodes", Episode),
    ("period", "periods", Episode),
    ("fact", "facts", Fact),
    ("link", "links", FactLink),
    ("event", "events", MemoryEvent),
    ("job", "jobs", JobRow),
    ("chat", "chats", ChatRow),
    ("trash", "trash", TrashRow),
    ("session", "sessions", SessionRow),
    ("item", "items", StoreItemRow),
)
"""(kind, `TenantExport` field, model) in file order."""

ADDED_SINCE: dict[str, tuple[str, ...]] = {
    "message": ("restated",),
    "fact": ("body",),
}
"""Fields added to a kind after files of this version were first written: a file
from before lacks them, and their default is what it meant (a turn then
restated nothing)."""

_UNIQUE: dict[str, tuple[tuple[str, Callable[[Any], Any]], ...]] = {
    "message": (("id", lambda m: m.id), ("seq", lambda m: m.seq)),
    "thread": (("thread", lambda t: t.thread),),
    "episode": (("id", lambda e: e.id),),
    "period": (("id", lambda e: e.id),),
    "fact": (("id", lambda f: f.id),),
    "link": (("id", lambda k: k.id),),
    "event": (("id", lambda e: e.id),),
    "job": (("thread/kind/first_seq", lambda j: (j.thread, j.kind, j.first_seq)),),
    "chat": (("thread", lambda c: c.thread),),
    "trash": (("kind/item", lambda t: (t.kind, t.item)),),
    "session": (("thread", lambda s: s.thread),),
    "item": (("namespace/key", lambda i: (tuple(i.namespace), i.key)),),
}
"""What must not repeat within a kind: the stores' unique keys, by name."""


def new_export(
    tenant: str, exported_at: datetime, version: str, **records: list[Any]
) -> TenantExport:
    """An export of `records` (by `TenantExport` field), its header counting them."""
    header = ExportHeader(
        tenant=tenant,
        exported_at=exported_at,
        memory_lab_version=version,
        counts={kind: len(records.get(field, [])) for kind, field, _ in KINDS},
    )
    return TenantExport(header=header, **records)


def read_export(lines: Iterable[str]) -> TenantExport:
    """Parse and check a whole file before anything is written anywhere.

    Every line must be JSON, every record valid for its kind, with every field
    of it, and of the header's tenant, no key repeated, and the counts equal the
    header's (a file that lost whole lines says so).

    Raises:
        ExportFileError: naming the first bad line and what is wrong with it.
    """
    numbered = enumerate(lines, 1)
    header = _header(next(numbered, (1, "")))
    found: dict[str, list] = {field: [] for _, field, _ in KINDS}
    models = {kind: (field, model) for kind, field, model in KINDS}
    for number, text in numbered:
        envelope = _parse(number, text, _Line)
        if envelope.kind not in models:
            raise ExportFileError(
                f"line {number}: unknown kind {envelope.kind!r} (expected one of "
                f"{', '.join(models)})"
            )
        field, model = models[envelope.kind]
        # Every field is written, so a missing one is a damaged record, not a
        # default: a fact without its status must not come back active.
        later = ADDED_SINCE.get(envelope.kind, ())
        if missing := [
            f for f in model.model_fields if f not in envelope.data and f not in later
        ]:
            raise ExportFileError(
                f"line {number} ({envelope.kind}): {missing[0]}: Field required"
                + (f" (and {len(missing) - 1} more)" if len(missing) > 1 else "")
            )
        record = _validate(number, envelope.kind, model, envelope.data)
        # Every model in KINDS declares a tenant; `Record` itself does not.
        tenant = cast(_Owned, record).tenant
        if tenant != header.tenant:
            raise ExportFileError(
                f"line {number} ({envelope.kind}): tenant {tenant!r}, but "
                f"the file is {header.tenant!r}'s"
            )
        if (
            envelope.kind == "period"
            and isinstance(record, Episode)  # always: a period is an Episode
            and record.thread not in ("day", "week")
        ):
            raise ExportFileError(
                f"line {number} (period): thread must be day or week, "
                f"not {record.thread!r}"
            )
        found[field].append(record)
    _check_counts(header, found)
    _check_unique(found)
    _check_link_ends(found)
    return TenantExport(header=header, **found)


def _header(first: tuple[int, str]) -> ExportHeader:
    number, text = first
    if not text.strip():
        raise ExportFileError("empty file: no header line")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise ExportFileError(f"line 1: not JSON ({err.msg})") from None
    if not isinstance(raw, dict) or raw.get("kind") != "header":
        raise ExportFileError("line 1: not a memory-lab export (no header record)")
    if raw.get("format") != FORMAT:
        raise ExportFileError(
            f"line 1: format {raw.get('format')!r} is not a memory-lab export "
            f"({FORMAT!r})"
        )
    if raw.get("version") != VERSION:
        raise ExportFileError(
            f"line 1: format version {raw.get('version')!r} is not supported; "
            f"this memory-lab reads version {VERSION}"
        )
    header = _validate(number, "header", ExportHeader, raw)
    if not header.tenant.strip():
        raise ExportFileError("line 1: the header names no tenant")
    return header


def _parse(number: int, text: str, model: type[_M]) -> _M:
    if not text.strip():
        raise ExportFileError(f"line {number}: empty line")
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as err:
        raise ExportFileError(
            f"line {number}: not JSON ({err.msg}; a truncated file?)"
        ) from None
    return _validate(number, "record", model, raw)


def _validate(number: int, kind: str, model: type[_M], raw: Any) -> _M:
    try:
        return model.model_validate(raw)
    except ValidationError as err:
        problems = err.errors()
        first = problems[0]
        where = ".".join(str(p) for p in first["loc"]) or "record"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        raise ExportFileError(
            f"line {number} ({kind}): {where}: {first['msg']}{more}"
        ) from None


def _check_counts(header: ExportHeader, found: dict[str, list]) -> None:
    fields = {kind: field for kind, field, _ in KINDS}
    if unknown := set(header.counts) - set(fields):
        raise ExportFileError(
            f"line 1: counts name unknown kinds {', '.join(sorted(unknown))}"
        )
    for kind, field in fields.items():
        # A kind missing from the counts is one the file's writer did not
        # know yet (see the module): it wrote no line of it.
        said, held = header.counts.get(kind, 0), len(found[field])
        if said != held:
            raise ExportFileError(
                f"the header counts {said} {kind} records but the file holds {held}"
                " (a truncated or edited file?)"
            )


def _check_link_ends(found: dict[str, list]) -> None:
    """Every link joins two facts the file holds: no link to nothing."""
    held = {f.id for f in found["facts"]}
    for link in found["links"]:
        if missing := [i for i in (link.source, link.target) if i not in held]:
            raise ExportFileError(
                f"link {link.id!r} names fact {missing[0]!r}, which the file lacks"
            )


def _check_unique(found: dict[str, list]) -> None:
    for kind, field, _ in KINDS:
        for name, key in _UNIQUE[kind]:
            counted = Counter(map(key, found[field]))
            if repeated := [k for k, n in counted.items() if n > 1]:
                raise ExportFileError(
                    f"two {kind} records share the {name} {repeated[0]!r}"
                )
