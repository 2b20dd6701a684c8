"""A lock-order checker: the deadlock a test would hang on, raised at once instead.

Two threads that take the same two locks in opposite orders can deadlock, but
only when their timing lines up, which is why such a bug can pass a thousand
runs and hang the next. The checker needs no unlucky timing: every checked lock
has a rank, and a thread that asks for a lock while holding one of an equal or
later rank (other than re-entering a re-entrant lock it holds) is refused with a
`LockOrderError` naming both locks, with the stack where the held one was taken
and the stack asking for the new one. The refusal is also kept in
`violations`, because a background thread may swallow the error (a job's
failure is retried) while the test that started it has to fail.

Only blocking acquires are checked: one that gives up at once cannot deadlock.
"""

from __future__ import annotations

import sys
import threading
import traceback
from collections.abc import Iterable
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any

from memory_lab.errors import MemoryLabError

_Stack = tuple[tuple[CodeType, int], ...]


class LockOrderError(MemoryLabError, RuntimeError):
    """A thread asked for a lock out of the declared order."""


def _stack_here(skip: int) -> _Stack:
    """The calling thread's frames as (code, line) pairs, innermost first.

    `skip` frames above the caller's are left out (the checker's own).

    Taken eagerly and cheaply: a lock held by a suspended generator (a
    transaction's context manager) has no live caller chain to walk later.
    """
    frame: FrameType | None = sys._getframe(skip + 1)
    frames = []
    while frame is not None:
        frames.append((frame.f_code, frame.f_lineno))
        frame = frame.f_back
    return tuple(frames)


def format_stack(stack: _Stack) -> str:
    """The stack as a traceback prints it, outermost call first."""
    summary = traceback.StackSummary.from_list(
        [(code.co_filename, line, code.co_name, None) for code, line in reversed(stack)]
    )
    return "".join(summary.format())


@dataclass(frozen=True)
class Violation:
    """One refused acquire: the lock held, the lock asked for, both stacks."""

    held: str
    asked: str
    thread: str
    held_stack: _Stack
    asked_stack: _Stack

    def describe(self) -> str:
        """The report a failing test prints."""
        place = "at the same rank" if self.held == self.asked else "after it"
        return (
            f"lock order violated in thread {self.thread!r}: asked for "
            f"{self.asked!r} while holding {self.held!r}, which the declared "
            f"order puts {place}.\n--- {self.held!r} was taken here:\n"
            f"{format_stack(self.held_stack)}"
            f"--- {self.asked!r} is being taken here:\n"
            f"{format_stack(self.asked_stack)}"
        )


@dataclass
class _Held:
    lock: CheckedLock
    stack: _Stack


class LockOrderChecker:
    """Ranks named locks by their place in `order` and refuses inversions."""

    def __init__(self, order: Iterable[str]) -> None:
        names = list(order)
        duplicates = sorted({n for n in names if names.count(n) > 1})
        if duplicates:
            raise ValueError(f"lock order names {duplicates} more than once")
        self.ranks = {name: rank for rank, name in enumerate(names)}
        self.violations: list[Violation] = []
        self._local = threading.local()

    def lock(self, name: str, *, reentrant: bool = False) -> CheckedLock:
        """A lock under this checker, ranked by `name`'s place in the order."""
        if name not in self.ranks:
            raise ValueError(
                f"lock {name!r} is not in the declared lock order; add it there"
            )
        return CheckedLock(self, name, self.ranks[name], reentrant=reentrant)

    def held(self) -> list[str]:
        """Names of the checked locks the calling thread holds, first taken first."""
        return [entry.lock.name for entry in self._stack()]

    def _stack(self) -> list[_Held]:
        stack = getattr(self._local, "held", None)
        if stack is None:
            stack = self._local.held = []
        return stack

    def _check(self, lock: CheckedLock) -> _Stack:
        """The caller's stack; raises when `lock` comes too late for what it holds."""
        asked_stack = _stack_here(2)
        held = self._stack()
        if lock.reentrant and any(entry.lock is lock for entry in held):
            return asked_stack  # re-entering never waits, whatever is held since
        for entry in held:
            if entry.lock.rank >= lock.rank:
                violation = Violation(
                    held=entry.lock.name,
                    asked=lock.name,
                    thread=threading.current_thread().name,
                    held_stack=entry.stack,
                    asked_stack=asked_stack,
                )
                self.violations.append(violation)
                raise LockOrderError(violation.describe())
        return asked_stack

    def _taken(self, lock: CheckedLock, stack: _Stack) -> None:
        self._stack().append(_Held(lock, stack))

    def _released(self, lock: CheckedLock) -> None:
        held = self._stack()
        for i in range(len(held) - 1, -1, -1):
            if held[i].lock is lock:
                del held[i]
                return


class CheckedLock:
    """A `threading.Lock` or `RLock` that carries its name and rank and is checked.

    It also serves as the lock of a `threading.Condition`: waiting releases it
    and counts as not holding it.
    """

    def __init__(
        self, checker: LockOrderChecker, name: str, rank: int, *, reentrant: bool
    ) -> None:
        self.checker = checker
        self.name = name
        self.rank = rank
        self.reentrant = reentrant
        self._inner: Any = threading.RLock() if reentrant else threading.Lock()

    def __repr__(self) -> str:
        return f"<CheckedLock {self.name!r} rank {self.rank}>"

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        """Take the lock; a blocking acquire out of order raises `LockOrderError`."""
        if blocking:
            stack = self.checker._check(self)
        else:
            stack = _stack_here(1)
        got = self._inner.acquire(blocking, timeout)
        if got:
            self.checker._taken(self, stack)
        return got

    def release(self) -> None:
        """Release the lock (once, for a re-entrant lock taken several times)."""
        self._inner.release()
        self.checker._released(self)

    def locked(self) -> bool:
        """Whether any thread holds the lock."""
        if self.reentrant:
            return self._inner._is_owned() or not self._probe()
        return self._inner.locked()

    def _probe(self) -> bool:
        if self._inner.acquire(False):
            self._inner.release()
            return True
        return False

    __enter__ = acquire

    def __exit__(self, *exc: object) -> None:
        self.release()

    # The protocol `threading.Condition` uses on its lock, so a wait releases a
    # re-entrant lock however deep it is held.

    def _is_owned(self) -> bool:
        if self.reentrant:
            return self._inner._is_owned()
        if self._inner.acquire(False):
            self._inner.release()
            return False
        return True

    def _release_save(self) -> Any:
        state = self._inner._release_save() if self.reentrant else self._inner.release()
        held = self.checker._stack()
        mine = [entry for entry in held if entry.lock is self]
        held[:] = [entry for entry in held if entry.lock is not self]
        return state, mine

    def _acquire_restore(self, saved: Any) -> None:
        state, mine = saved
        self.checker._check(self)
        if self.reentrant:
            self._inner._acquire_restore(state)
        else:
            self._inner.acquire()
        self.checker._stack().extend(mine)
