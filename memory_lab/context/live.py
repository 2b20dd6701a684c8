"""Live data: current values an app fetches at reply time, which outrank memory.

Memory holds what was said; some keys have a source of truth that knows better
now (open invoices, an order's status). A `LiveSources` registry holds the
callables that fetch them (`register(name, keys, fetch)`); each reply reads
them once, outside any database transaction and under a time bound, and the
context shows the values in a `<memory type="live">` block ahead of the facts.
A remembered fact with a key a source answered is left out of that context: the
live value replaces it rather than contradicting it.

A source that raises, answers late or answers wrongly is left out of that
reply's context and reported as a `live_failed` event; the reply goes on
without it. The block is cut to a share of the whole budget and its tokens are
taken from the budget the rest of the context is assembled under, so the hard
total still holds.
"""

from __future__ import annotations

import inspect
import re
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from concurrent.futures import Future, wait
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from memory_lab.concurrency.lock_order import named_lock
from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.events import make_event
from memory_lab.text import escape_data, truncate_to_tokens
from memory_lab.tokens import TokenCounter
from memory_lab.types import ContextBlock, ContextBundle, Fact

if TYPE_CHECKING:
    from memory_lab.config import BudgetConfig
    from memory_lab.stores.base import EventLog

Fetch = Callable[[str], Mapping[str, Any]]
"""Called with the tenant; returns current values by key (a subset of its keys)."""

LIVE_SHARE = 0.25
"""At most this share of the whole context budget goes to the live block."""

HEADER = "Current values from live sources; they replace remembered values:"


class LiveSourceError(MemoryLabError, ValueError):
    """A source that cannot be registered; the message names it and why."""


def key_slot(key: str) -> frozenset[str]:
    """The words of a key, whatever their order, separators or plural.

    Keys read from a parse put the head first and sort its qualifiers ("my open
    items" is `item.open`); an app names the same slot `open_items`. Both are
    the words {item, open}.
    """
    words = re.split(r"[\s._-]+", key.lower())
    return frozenset(_singular(w) for w in words if w)


def _singular(word: str) -> str:
    if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


@dataclass(frozen=True)
class LiveSource:
    """One registered source: its name, the keys it answers, how to fetch them."""

    name: str
    keys: tuple[str, ...]
    fetch: Fetch
    subject: str = "user"
    timeout_s: float = 1.0


@dataclass(frozen=True)
class LiveValue:
    """One current value a source gave."""

    source: str
    key: str
    value: str
    subject: str = "user"

    @property
    def item(self) -> str:
        """The id the live block lists it under."""
        return f"live:{self.source}:{self.key}"

    def line(self, at: datetime) -> str:
        """How the live block shows it."""
        who = "" if self.subject == "user" else f"{self.subject}: "
        return (
            f"- {who}{self.key.replace('_', ' ')} = {self.value} "
            f"(live from {self.source}, {at.strftime('%Y-%m-%d %H:%M %Z')})"
        )


@dataclass(frozen=True)
class LiveReading:
    """What the sources answered for one reply, and which failed."""

    at: datetime
    values: tuple[LiveValue, ...] = ()
    failures: tuple[tuple[str, str], ...] = ()
    """(source, why) for each source left out."""

    def outranks(self, fact: Fact, shown: Collection[str] | None = None) -> bool:
        """Whether a live value answers this fact's key (for its subject).

        Only values whose item is in `shown` count, when given: a value the
        live block had no room for replaces nothing.
        """
        slot = key_slot(fact.key)
        return any(
            v.subject == fact.subject
            and key_slot(v.key) == slot
            and (shown is None or v.item in shown)
            for v in self.values
        )

    def without_outranked(
        self, facts: Sequence[Fact], shown: Collection[str] | None = None
    ) -> list[Fact]:
        """The facts no (shown) live value replaces."""
        return [f for f in facts if not self.outranks(f, shown)]


@dataclass
class LiveSources:
    """The registry an app or a user adds live sources to (`engine.live`)."""

    _sources: dict[str, LiveSource] = field(default_factory=dict)
    _running: dict[tuple[str, str], Future] = field(default_factory=dict)
    # Guards the sources and the fetches running.
    _lock: Any = field(default_factory=lambda: named_lock("live.sources"))

    def register(
        self,
        name: str,
        keys: str | Sequence[str],
        fetch: Fetch,
        *,
        subject: str = "user",
        timeout_s: float = 1.0,
    ) -> LiveSource:
        """Add a source; a bad one fails here, not in a reply.

        Raises:
            LiveSourceError: for an empty or taken name, no keys, a `fetch`
                that cannot be called with the tenant alone, or a timeout <= 0.
        """
        if not isinstance(name, str) or not name.strip() or name != name.strip():
            raise LiveSourceError(f"live source name {name!r} must be a plain word")
        keys = (keys,) if isinstance(keys, str) else tuple(keys)
        if not keys or any(not isinstance(k, str) or not key_slot(k) for k in keys):
            raise LiveSourceError(f"live source {name!r} needs at least one key")
        try:
            inspect.signature(fetch).bind("tenant")
        except (TypeError, ValueError) as exc:
            raise LiveSourceError(
                f"live source {name!r}: fetch must take the tenant as its one "
                f"argument ({exc})"
            ) from None
        if not timeout_s > 0:
            raise LiveSourceError(f"live source {name!r}: timeout_s must be > 0")
        source = LiveSource(name, keys, fetch, subject, timeout_s)
        with self._lock:
            if name in self._sources:
                raise LiveSourceError(f"a live source named {name!r} is registered")
            self._sources[name] = source
        return source

    def unregister(self, name: str) -> None:
        """Remove a source; an unknown name changes nothing."""
        with self._lock:
            self._sources.pop(name, None)

    def names(self) -> list[str]:
        """Registered sources, in registration order."""
        with self._lock:
            return list(self._sources)

    def read(self, tenant: str, at: datetime) -> LiveReading | None:
        """Ask every source at once; None when none is registered.

        Each source gets its own timeout; one still running from an earlier
        reply is not asked again (its thread cannot be stopped, only left).
        """
        tenant = require_tenant(tenant)
        with self._lock:
            sources = list(self._sources.values())
        if not sources:
            return None
        failures: list[tuple[str, str]] = []
        asked: list[tuple[LiveSource, Future]] = []
        for source in sources:
            future = self._start(tenant, source)
            if future is None:
                failures.append((source.name, "still answering an earlier request"))
            else:
                asked.append((source, future))
        if asked:
            wait([f for _, f in asked], timeout=max(s.timeout_s for s, _ in asked))
        values: list[LiveValue] = []
        for source, future in asked:
            try:
                values += _checked(source, _result(future, source.timeout_s))
            except Exception as exc:  # noqa: BLE001 - any failure leaves the source out
                failures.append((source.name, _reason(exc)))
        return LiveReading(at, tuple(values), tuple(failures))

    def _start(self, tenant: str, source: LiveSource) -> Future | None:
        slot = (tenant, source.name)
        with self._lock:
            running = self._running.get(slot)
            if running is not None and not running.done():
                return None
            future: Future = Future()
            self._running[slot] = future

        def run() -> None:
            try:
                future.set_result(source.fetch(tenant))
            except BaseException as exc:  # noqa: BLE001 - handed to the reader
                future.set_exception(exc)

        # A daemon thread: a source that never answers cannot hold up exit.
        threading.Thread(target=run, name=f"live-{source.name}", daemon=True).start()
        return future


def _result(future: Future, timeout_s: float) -> Any:
    if not future.done():
        raise TimeoutError(f"no answer within {timeout_s:g} s")
    return future.result()


def _reason(exc: BaseException) -> str:
    return str(exc) if isinstance(exc, TimeoutError) else repr(exc)


def _checked(source: LiveSource, answer: Any) -> list[LiveValue]:
    """The answer as values, or an error naming what is wrong with it."""
    if not isinstance(answer, Mapping):
        raise TypeError(f"answered {type(answer).__name__}, not a mapping of keys")
    declared = {key_slot(k) for k in source.keys}
    values = []
    for key, value in answer.items():
        if not isinstance(key, str) or key_slot(key) not in declared:
            raise KeyError(f"answered undeclared key {key!r}")
        if value is None:
            continue  # nothing current: memory's value stands
        text = " ".join(str(value).split())
        if text:
            values.append(LiveValue(source.name, key, text, source.subject))
    return values


def read_live(
    live: LiveSources | None, events: EventLog, tenant: str, at: datetime
) -> LiveReading | None:
    """Read the sources for one reply and log each failure as an event.

    Call it outside any database transaction: the sources may be slow, and the
    failure events are writes.
    """
    if live is None:
        return None
    reading = live.read(tenant, at)
    if reading is not None and reading.failures:
        events.append(
            tenant,
            [
                make_event(
                    tenant,
                    "live_failed",
                    at,
                    f"live source {name!r} left out of the context: {why}",
                    [f"live:{name}"],
                )
                for name, why in reading.failures
            ],
        )
    return reading


def live_block(
    reading: LiveReading | None, total: int, counter: TokenCounter
) -> ContextBlock | None:
    """The live block, cut to `LIVE_SHARE` of `total`; None when nothing is live."""
    if reading is None or not reading.values:
        return None
    room = int(total * LIVE_SHARE) - counter.count(_wrap([HEADER]))
    lines, items = [], []
    for value in reading.values:
        line = escape_data(value.line(reading.at))
        cost = counter.count(line) + 1
        if cost > room:
            line = truncate_to_tokens(line, room - 1, counter, marker=" ...")
            cost = counter.count(line) + 1 if line else 0
        if not line or cost > room:
            break
        lines.append(line)
        items.append(value.item)
        room -= cost
    if not lines:
        return None
    text = _wrap([HEADER, *lines])
    return ContextBlock(
        kind="live",
        text=text,
        tokens=counter.count(text),
        budget=int(total * LIVE_SHARE),
        items=items,
    )


def _wrap(lines: list[str]) -> str:
    return '<memory type="live">\n' + "\n".join(lines) + "\n</memory>"


def budget_without(budget: BudgetConfig, block: ContextBlock | None) -> BudgetConfig:
    """The budget the rest of the context gets once the live block is paid for.

    Two tokens more than the block, for the blank line that joins it.
    """
    if block is None:
        return budget
    return budget.model_copy(update={"total": max(50, budget.total - block.tokens - 2)})


def with_live(
    bundle: ContextBundle, block: ContextBlock | None, counter: TokenCounter, total: int
) -> ContextBundle:
    """The bundle with the live block after the notice, within `total`.

    Should joining cost more than reserved, live lines are dropped from the end
    until the whole fits; with none left the bundle is returned as it was.
    """
    if block is None:
        return bundle
    lines = block.text.split("\n")[1:-1]
    while len(lines) > 1:
        text = _wrap(lines)
        blocks = list(bundle.blocks)
        at = 1 if blocks and blocks[0].kind == "instructions" else 0
        live = block.model_copy(
            update={
                "text": text,
                "tokens": counter.count(text),
                "items": block.items[: len(lines) - 1],
            }
        )
        blocks.insert(at, live)
        joined = counter.count("\n\n".join(b.text for b in blocks if b.text))
        if joined <= total:
            return bundle.model_copy(
                update={"blocks": blocks, "total_tokens": joined, "budget": total}
            )
        lines = lines[:-1]
    return bundle
