"""Fault benchmark: SIGKILL an ingesting process at every phase, restart, check.

The parent imports everything once and forks each child, so a restart costs the
engine's opening, not Python's imports. A child ingests one synthetic
conversation from wherever the stores say it stopped and kills itself with
SIGKILL when it reaches a chosen phase for the n-th time
(`memory_lab.jobs.phases`); a share of the children are instead killed by the
parent after a random delay, which lands anywhere, including inside SQLite or
Chroma writes. After the last kill an undisturbed child finishes the
conversation and waits for the memory work. Given servers (a `StoreSpec`), every
conversation keeps its memory there instead, in namespaces of its own, so the
kills land inside Postgres transactions and Chroma server requests.

Each conversation is then checked, in a forked child, against its own invariants
and against a reference run of the same conversation that was never killed:

- lost: a turn missing from the transcript, or in neither window nor episode; a
  reference fact row missing.
- duplicated: a turn stored twice; a fact row the reference does not have.
- inconsistent: a turn in both window and an episode, overlapping or duplicate
  episodes, a committed episode missing from the search index, jobs left
  pending or failed, and any other difference from the reference (episodes,
  running summary, fact contents, events).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sys
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from memory_lab.jobs.phases import PHASES
from memory_lab.stores.chroma_telemetry import telemetry_off
from memory_lab.stores.locations import StoreSpec

TIMER = "random_time"
"""Label of kills the parent delivers after a random delay."""

TENANT_THREAD = "main"


def _recipes() -> list:
    from memory_lab.recipes import recipe

    # Small triggers, so a 40-turn conversation compresses many times.
    a = "a_max_messages=8,a_keep_last=3"
    b = "b_high_water=220,b_low_water=90"
    c = "c_idle_gap_minutes=180"
    small = "episode_max_messages=4"
    return [
        recipe(f"A({a},{small})"),
        recipe(f"B({b},{small})"),
        recipe(f"C({c},{small})"),
        recipe(f"A+B+C({a},{b},{c},{small})"),
    ]


def _turns(seed: int, turns: int):
    from memlab_datasets import GeneratorConfig, generate

    per_session = 20
    cfg = GeneratorConfig(
        seed=seed,
        conversations=1,
        sessions=max(2, -(-turns // per_session)),
        turns_per_session=per_session,
    )
    return generate(cfg).conversations[0].turns[:turns]


@dataclass
class Plan:
    """How a child dies: at the `skip + 1`-th arrival at `phase`, or by timer."""

    phase: str | None
    skip: int = 0
    delay_s: float = 0.0


@dataclass
class Conversation:
    """One conversation's progress through reference, killed runs and the check."""

    index: int
    seed: int
    recipe: object
    data: Path
    reference: Path
    stores: StoreSpec | None = None
    """The killed run's servers (None: everything in `data`)."""
    reference_stores: StoreSpec | None = None
    stage: str = "reference"
    kills: Counter = field(default_factory=Counter)
    result: dict | None = None


# --- children (run after fork; never return) -----------------------------------


def _engine(data: Path, recipe, start, stores: StoreSpec | None = None):
    from memory_lab import ManualClock, MemoryConfig, MemoryEngine

    return MemoryEngine(
        data,
        config=MemoryConfig(recipe=recipe),
        clock=ManualClock(start),
        stores=stores,
    )


def _ingest_child(conv: Conversation, turns, plan: Plan | None) -> int:
    """Ingest from where the stores stopped; die as planned; flush at the end."""
    from memory_lab.jobs import phases

    if plan is not None and plan.phase is not None:
        seen = Counter()

        def listener(name: str) -> None:
            if name == plan.phase:
                seen[name] += 1
                if seen[name] > plan.skip:
                    os.kill(os.getpid(), signal.SIGKILL)

        phases.listen(listener)
    data, stores = (
        (conv.reference, conv.reference_stores)
        if plan is None
        else (conv.data, conv.stores)
    )
    tenant = turns[0].tenant
    engine = _engine(data, conv.recipe, turns[0].timestamp, stores)
    decided = engine.jobs.marks(tenant, TENANT_THREAD).decided_upto
    stored = {m.id: m.seq for m in engine.transcript.messages(tenant)}
    for m in turns:
        # A turn stored but not yet decided (killed between the two) is ingested
        # again: the transcript keeps its one copy and the step decides it.
        if m.id in stored and stored[m.id] <= decided:
            continue
        engine.ingest(tenant, [m])
    engine.close(wait=True)
    return 0


def _check_child(conv: Conversation, turns, out: Path) -> int:
    """Compare the killed run's stores with the reference run's; write the counts."""
    tenant = turns[0].tenant
    last = turns[-1].timestamp
    engine = _engine(conv.data, conv.recipe, last, conv.stores)
    reference = _engine(conv.reference, conv.recipe, last, conv.reference_stores)
    engine.flush()
    reference.flush()
    counts = check_conversation(engine, reference, tenant, [m.id for m in turns])
    engine.close(wait=False)
    reference.close(wait=False)
    out.write_text(json.dumps(counts))
    return 0


def check_conversation(engine, reference, tenant: str, expected: list[str]) -> dict:
    """Lost, duplicated and inconsistent counts, with what each one was."""
    lost, duplicated, inconsistent = [], [], []
    stored = [m.id for m in engine.transcript.messages(tenant)]
    lost += [f"turn {i} not stored" for i in set(expected) - set(stored)]
    dupes = [i for i, n in Counter(stored).items() if n > 1]
    duplicated += [f"turn {i} stored twice" for i in dupes]
    duplicated += [f"turn {i} unexpected" for i in set(stored) - set(expected)]

    window = [m.id for m in engine.window(tenant, TENANT_THREAD)]
    episodes = engine.episodes.get(tenant)
    in_episodes = Counter(t for ep in episodes for t in ep.turn_ids)
    inconsistent += [
        f"turn {t} in two episodes" for t, n in in_episodes.items() if n > 1
    ]
    inconsistent += [
        f"turn {t} in window and episode" for t in window if t in in_episodes
    ]
    lost += [
        f"turn {t} in neither window nor episode"
        for t in set(stored) - set(window) - set(in_episodes)
    ]
    ordered = sorted(episodes, key=lambda e: (e.first_seq, e.last_seq))
    inconsistent += [
        f"episodes {a.id} and {b.id} overlap"
        for a, b in zip(ordered, ordered[1:], strict=False)
        if a.last_seq >= b.first_seq
    ]
    indexed = {
        e.id for e in engine.episodes.index.get(tenant, [e.id for e in episodes])
    }
    inconsistent += [
        f"episode {e.id} not indexed" for e in episodes if e.id not in indexed
    ]
    for status in ("pending", "failed"):
        n = engine.jobs.count(tenant, status=status)
        inconsistent += [f"{n} jobs {status}"] if n else []

    ref_eps = {e.id: e.model_dump() for e in reference.episodes.get(tenant)}
    got_eps = {e.id: e.model_dump() for e in episodes}
    inconsistent += [
        f"episode {i} differs from the reference"
        for i in set(ref_eps) | set(got_eps)
        if ref_eps.get(i) != got_eps.get(i)
    ]
    if engine.state(tenant)["summary"] != reference.state(tenant)["summary"]:
        inconsistent.append("running summary differs from the reference")

    ref_facts = {f.id: f.model_dump() for f in reference.facts.rows(tenant)}
    got_facts = {f.id: f.model_dump() for f in engine.facts.rows(tenant)}
    lost += [f"fact {i} missing" for i in set(ref_facts) - set(got_facts)]
    duplicated += [f"fact {i} extra" for i in set(got_facts) - set(ref_facts)]
    inconsistent += [
        f"fact {i} differs from the reference"
        for i in set(ref_facts) & set(got_facts)
        if ref_facts[i] != got_facts[i]
    ]
    ref_events = Counter(_event_key(e) for e in reference.events.events(tenant))
    got_events = Counter(_event_key(e) for e in engine.events.events(tenant))
    inconsistent += [
        f"event {k} x{got_events[k]} (reference x{ref_events[k]})"
        for k in set(ref_events) | set(got_events)
        if ref_events[k] != got_events[k]
    ]
    return {
        "lost": len(lost),
        "duplicated": len(duplicated),
        "inconsistent": len(inconsistent),
        "problems": (lost + duplicated + inconsistent)[:20],
        "turns": len(expected),
        "episodes": len(episodes),
        "facts": len(got_facts),
    }


def _event_key(event) -> tuple:
    return (event.kind, event.at.isoformat(), event.detail, tuple(event.refs))


# --- parent --------------------------------------------------------------------


def _fork(target: Callable[[], int]) -> int:
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            code = target()
        except BaseException:  # noqa: BLE001 - a child reports, never returns
            traceback.print_exc()
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code)
    return pid


def _plan(
    rng: random.Random, timer_share: float, max_delay_s: float, kills: Counter
) -> Plan:
    """A timer kill, or a kill at the phase killed least so far (ties at random)."""
    if rng.random() < timer_share:
        return Plan(phase=None, delay_s=rng.uniform(0.0, max_delay_s))
    fewest = min(kills[p] for p in PHASES)
    phase = rng.choice([p for p in PHASES if kills[p] == fewest])
    per_turn = phase in ("ingest", "trigger_decision", "job_handover")
    # Few enough arrivals skipped that most plans fire before the conversation
    # ends; a plan that does not fire lets the conversation finish.
    return Plan(phase=phase, skip=rng.randrange(8 if per_turn else 2))


def run_faults(
    kills: int,
    work: Path,
    *,
    seed: int = 0,
    turns: int = 40,
    kills_per_conversation: int = 25,
    parallel: int = 4,
    timer_share: float = 0.2,
    report: Callable[[str], None] | None = None,
    child_timeout_s: float = 300.0,
    servers: StoreSpec | None = None,
) -> dict:
    """Kill ingesting children `kills` times; return the counts and the check.

    `work` must be an empty folder; each conversation keeps its two data folders
    there (killed run and reference). Children are forked, so call this from a
    process with no other threads (a fresh one): a fork copies the locks other
    threads hold, and a child that needs one waits forever. A child that runs
    past `child_timeout_s` is killed and the run fails naming it, rather than
    waiting for it. With `servers`, conversation i keeps its killed run in
    namespace `<servers.namespace>_c<i>` and its reference in `..._r<i>` there
    (the folders in `work` then hold only the check's result).

    Raises:
        RuntimeError: when a child fails or hangs.
    """
    telemetry_off()
    # Import the heavy modules once, before any fork.
    import chromadb  # noqa: F401
    import onnxruntime  # noqa: F401

    import memory_lab.engine  # noqa: F401
    import memory_lab.stores.chroma_episodes  # noqa: F401

    if servers is not None and servers.store is not None:
        import memory_lab.stores.postgres_db  # noqa: F401
    from memory_lab.embeddings import default_embedder
    from memory_lab.tokens import default_counter

    # Loaded once and inherited by every child: the ONNX session runs on the
    # calling thread (one intra-op thread), so it has no pool a fork would lose.
    default_embedder().embed(["warm up"])
    default_counter().count("warm up")

    rng = random.Random(seed)
    recipes = _recipes()
    started = time.perf_counter()
    convs: list[Conversation] = []
    turns_of: dict[int, list] = {}
    running: dict[int, tuple[Conversation, Plan | None, float]] = {}
    total_kills, per_phase = 0, Counter()
    child_seconds: list[float] = []
    max_delay_s = 1.5

    def new_conversation() -> Conversation:
        i = len(convs)
        conv = Conversation(
            index=i,
            seed=seed * 1000 + i,
            recipe=recipes[i % len(recipes)],
            data=work / f"c{i:04d}",
            reference=work / f"c{i:04d}-ref",
        )
        if servers is not None:
            ns = servers.namespace
            conv.stores = replace(servers, namespace=f"{ns}_c{i:04d}")
            conv.reference_stores = replace(servers, namespace=f"{ns}_r{i:04d}")
        turns_of[i] = _turns(conv.seed, turns)
        convs.append(conv)
        return conv

    def start(conv: Conversation) -> None:
        t = turns_of[conv.index]
        plan: Plan | None = None
        if conv.stage == "reference":
            pid = _fork(lambda: _ingest_child(conv, t, None))
        elif conv.stage == "run":
            wanted = total_kills + _in_flight_kills() < kills
            if wanted and sum(conv.kills.values()) < kills_per_conversation:
                # Phases planned but not yet reached count as killed, so
                # parallel children spread over the phases.
                planned = Counter(
                    p.phase for _, p, _ in running.values() if p and p.phase
                )
                plan = _plan(rng, timer_share, max_delay_s, per_phase + planned)
            else:
                plan = Plan(phase="none")
            pid = _fork(lambda: _ingest_child(conv, t, plan))
        else:
            out = conv.data / "check.json"
            pid = _fork(lambda: _check_child(conv, t, out))
        running[pid] = (conv, plan, time.perf_counter())

    def _in_flight_kills() -> int:
        return sum(
            1
            for _, plan, _ in running.values()
            if plan is not None and plan.phase != "none"
        )

    def idle_conversation() -> Conversation | None:
        busy = {c.index for c, _, _ in running.values()}
        for conv in convs:
            if conv.stage != "done" and conv.index not in busy:
                return conv
        if total_kills + _in_flight_kills() < kills:
            return new_conversation()
        return None

    # Interrupted (Ctrl-C, SIGTERM) or failed: no child outlives the parent.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        while True:
            while len(running) < parallel:
                conv = idle_conversation()
                if conv is None:
                    break
                start(conv)
            if not running:
                break
            now = time.perf_counter()
            for pid, (conv, plan, t0) in list(running.items()):
                if now - t0 > child_timeout_s:
                    raise RuntimeError(
                        f"conversation {conv.index} {conv.stage} child (pid {pid})"
                        f" made no progress for {now - t0:.0f} s; was the caller"
                        " running other threads when it forked?"
                    )
                if plan is not None and plan.phase is None and now - t0 >= plan.delay_s:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                done, status = os.waitpid(pid, os.WNOHANG)
                if not done:
                    continue
                del running[pid]
                child_seconds.append(time.perf_counter() - t0)
                killed = (
                    os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
                )
                code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -1
                if killed and conv.stage == "run":
                    label = plan.phase if plan and plan.phase else TIMER
                    conv.kills[label] += 1
                    per_phase[label] += 1
                    total_kills += 1
                    continue
                if code != 0:
                    raise RuntimeError(
                        f"conversation {conv.index} {conv.stage} child failed"
                        f" ({status})"
                    )
                if conv.stage == "reference":
                    conv.stage = "run"
                elif conv.stage == "run":
                    conv.stage = "check"
                else:
                    conv.result = json.loads((conv.data / "check.json").read_text())
                    conv.stage = "done"
                    if report is not None:
                        report(
                            f"conversation {conv.index} ({conv.recipe.name}): "
                            f"{sum(conv.kills.values())} kills, "
                            f"lost {conv.result['lost']}, "
                            f"duplicated {conv.result['duplicated']}, "
                            f"inconsistent {conv.result['inconsistent']} "
                            f"[{total_kills} kills so far, "
                            f"{time.perf_counter() - started:.0f} s]"
                        )
            time.sleep(0.002)
    finally:
        for pid in running:
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ChildProcessError, ProcessLookupError):
                pass

    checked = [c.result for c in convs if c.result is not None]
    return {
        "kills": total_kills,
        "lost": sum(r["lost"] for r in checked),
        "duplicated": sum(r["duplicated"] for r in checked),
        "inconsistent": sum(r["inconsistent"] for r in checked),
        "per_phase": {p: per_phase[p] for p in (*PHASES, TIMER)},
        "conversations": len(checked),
        "turns_per_conversation": turns,
        "recipes": sorted({c.recipe.name for c in convs}),
        "problems": [p for r in checked for p in r["problems"]][:50],
        "seconds": round(time.perf_counter() - started, 1),
        "child_seconds_mean": round(sum(child_seconds) / max(1, len(child_seconds)), 3),
        "parallel": parallel,
        "seed": seed,
        "on_servers": servers is not None,
    }


def summary_line(result: dict) -> str:
    """The one line `memory-lab bench --faults` prints."""
    return (
        f"faults: kills {result['kills']}, lost {result['lost']}, "
        f"duplicated {result['duplicated']}, inconsistent {result['inconsistent']}"
    )
