"""The declared lock order: the checker refuses an inversion at once, with both
stacks, passes the legal order, and is on for the whole test session."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from memory_lab import ManualClock, MemoryEngine
from memory_lab.concurrency import lock_order
from memory_lab.concurrency.lock_checker import (
    CheckedLock,
    LockOrderChecker,
    LockOrderError,
)
from tests.helpers import T0, msg

LIBRARY = Path(lock_order.__file__).resolve().parents[1]


def _take_outer(outer: CheckedLock, inner: CheckedLock) -> None:
    with outer, inner:
        pass


def _take_inner_first(checker: LockOrderChecker) -> None:
    inner, outer = checker.lock("inner"), checker.lock("outer")
    with inner:
        _then_outer(outer)


def _then_outer(outer: CheckedLock) -> None:
    with outer:
        pass


def test_an_inversion_is_refused_naming_both_locks_with_both_stacks():
    checker = LockOrderChecker(["outer", "inner"])
    with pytest.raises(LockOrderError) as refused:
        _take_inner_first(checker)
    report = str(refused.value)
    assert "asked for 'outer' while holding 'inner'" in report
    taken, asked = report.split("is being taken here:")
    assert "'inner' was taken here" in taken and "_take_inner_first" in taken
    assert "_then_outer" not in taken
    assert "_then_outer" in asked
    assert [(v.held, v.asked) for v in checker.violations] == [("inner", "outer")]
    assert checker.held() == [], "the refused lock is not taken, the other released"


def test_the_inversion_is_caught_without_the_unlucky_timing():
    """A thread taking the locks the other way round fails although nothing waits."""
    checker = LockOrderChecker(["outer", "inner"])
    outer, inner = checker.lock("outer"), checker.lock("inner")
    legal = threading.Thread(target=_take_outer, args=(outer, inner))
    legal.start()
    legal.join()
    errors: list[BaseException] = []

    def inverted() -> None:
        try:
            with inner, outer:
                pass
        except LockOrderError as exc:
            errors.append(exc)

    other = threading.Thread(target=inverted, name="inverted")
    other.start()
    other.join()
    assert len(errors) == 1 and "thread 'inverted'" in str(errors[0])


def test_the_declared_order_and_reentry_pass():
    checker = LockOrderChecker(["outer", "middle", "inner"])
    outer = checker.lock("outer", reentrant=True)
    middle, inner = checker.lock("middle"), checker.lock("inner")
    with outer, middle:
        with outer:  # re-entering holds nothing new, whatever was taken since
            assert checker.held() == ["outer", "middle", "outer"]
        with inner:
            pass
    with outer, inner:
        pass
    assert checker.violations == [] and checker.held() == []


def test_taking_one_plain_lock_twice_is_refused_before_it_hangs():
    checker = LockOrderChecker(["only"])
    only = checker.lock("only")
    with only, pytest.raises(LockOrderError, match="'only' while holding 'only'"):
        only.acquire()


def test_a_condition_wait_releases_its_checked_lock():
    checker = LockOrderChecker(["queue", "clock"])
    cond = threading.Condition(checker.lock("queue", reentrant=True))
    clock = checker.lock("clock")
    ready = threading.Event()
    seen: list[list[str]] = []

    def waiter() -> None:
        with cond:
            ready.set()
            cond.wait(timeout=30)
            seen.append(checker.held())

    thread = threading.Thread(target=waiter)
    thread.start()
    ready.wait(30)
    with cond:  # the waiter released it by waiting
        with clock:
            cond.notify_all()
    thread.join(30)
    assert seen == [["queue"]] and checker.violations == []


def test_a_name_outside_the_order_is_refused():
    with pytest.raises(ValueError, match="'nowhere' is not in the declared lock order"):
        lock_order.named_lock("nowhere")
    with pytest.raises(ValueError, match="more than once"):
        LockOrderChecker(["a", "b", "a"])


def test_the_test_session_checks_the_librarys_locks():
    assert lock_order.CHECKER is not None
    lock = lock_order.named_lock("facts.rows", reentrant=True)
    assert isinstance(lock, CheckedLock)
    assert lock.rank == lock_order.LOCK_ORDER.index("facts.rows")


def test_outside_the_tests_a_named_lock_is_a_plain_lock():
    env = {k: v for k, v in os.environ.items() if k != "MEMORY_LAB_LOCK_ORDER"}
    probe = (
        "from memory_lab.concurrency.lock_order import CHECKER, named_lock;"
        "print(CHECKER, type(named_lock('clock')).__name__,"
        " type(named_lock('database', reentrant=True)).__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["None", "lock", "RLock"]


def test_every_lock_in_the_library_is_a_named_one():
    """A lock made with `threading` directly has no place in the order."""
    made: list[str] = []
    for path in sorted(LIBRARY.rglob("*.py")):
        if path.parent.name == "concurrency":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if not isinstance(node, ast.Attribute) or node.attr not in {
                "Lock",
                "RLock",
            }:
                continue
            if isinstance(node.value, ast.Name) and node.value.id == "threading":
                made.append(f"{path.relative_to(LIBRARY.parent)}:{node.lineno}")
    assert made == []


def test_the_database_then_the_facts_is_refused():
    """Readers take the facts' lock before the database's: the reverse is refused."""
    with MemoryEngine(clock=ManualClock(T0)) as engine:
        engine.ingest("t1", [msg(0, "I live in Lyon", tenant="t1")])
        assert engine.flush(timeout=60)
        with engine.jobs.db.write(), pytest.raises(LockOrderError) as refused:
            engine.facts.active("t1")
        assert "asked for 'facts.rows' while holding 'database'" in str(refused.value)
        lock_order.CHECKER.violations.clear()  # provoked here; not a failure
        assert engine.facts.active("t1") is not None
