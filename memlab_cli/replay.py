"""Replay a conversation through the graph with one recipe and record per-turn stats."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from memlab_evals.running.llm_records import USAGE_KEYS
from rich.console import Console
from rich.progress import track
from rich.table import Table

from memlab_cli.conversation_io import Replayable
from memory_lab.api import Memory, StoreSpec
from memory_lab.clock import ManualClock
from memory_lab.config import MemoryConfig, Recipe


@dataclass
class TurnStats:
    """What the memory looked like after one turn."""

    turn: int
    message_id: str
    window_messages: int
    window_tokens: int
    episodes: int
    active_facts: int
    context_tokens: int
    fired: str


@dataclass
class ReplayResult:
    """Per-turn stats and the final snapshot of one recipe on one conversation."""

    conversation: str
    recipe: str
    turns: list[TurnStats] = field(default_factory=list)
    compressions: int = 0
    snapshot: dict = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    """What each memory job given up on said (`MemoryEngine.failures`), in order."""

    @property
    def mean_context_tokens(self) -> float:
        """Mean context tokens over the turns that were measured."""
        vals = [t.context_tokens for t in self.turns]
        return sum(vals) / len(vals) if vals else 0.0


def replay(
    conv: Replayable,
    recipe: Recipe,
    data_dir: Path,
    *,
    progress: bool = True,
    config: MemoryConfig | None = None,
    stores: StoreSpec | None = None,
) -> ReplayResult:
    """Feed every turn in order.

    After each turn, measure the context a next question would get. `stores`
    puts the memory on servers instead of in `data_dir`.
    """
    clock = ManualClock(conv.messages[0].timestamp)
    spec = stores or StoreSpec()
    memory = Memory.open(
        spec.store or data_dir,
        recipe=recipe,
        episodes=spec.episodes,
        folder=data_dir,
        namespace=spec.namespace,
        config=config,
        clock=clock,
    )
    result = ReplayResult(conversation=conv.name, recipe=recipe.name)
    tenant = conv.tenant
    try:
        items = list(enumerate(conv.messages, 1))
        steps = (
            track(items, description=f"replay {recipe.name}", transient=True)
            if progress
            else items
        )
        for i, msg in steps:
            (step,) = memory.replay(tenant, [msg])
            # Per-turn figures are of the memory with the turn's work done, so a
            # replay reads the same whatever the worker's timing.
            memory.flush()
            if step.compressed:
                result.compressions += 1
            _, window = memory.window(tenant, as_stored=True)
            context = memory.context(tenant, msg.content)
            sizes = memory.stats(tenant)
            result.turns.append(
                TurnStats(
                    turn=i,
                    message_id=msg.id,
                    window_messages=len(window),
                    window_tokens=sum(memory.count_tokens(m.content) for m in window),
                    episodes=sizes["episodes"],
                    active_facts=sizes["facts"],
                    context_tokens=context.total_tokens,
                    fired="+".join(step.decision.triggers)
                    if step.compressed and step.decision
                    else "",
                )
            )
        memory.close_session(tenant)
        memory.flush()
        result.failures = [event.detail for event in memory.failures(tenant)]
        result.snapshot = memory.snapshot(tenant).to_json()
        result.snapshot.update(brain_record(memory))
    finally:
        memory.close()
    return result


def brain_record(memory: Memory) -> dict:
    """`brain` (its name: 'rule' or 'llm:<model>') and `llm_usage` for a snapshot."""
    usage = memory.brain_usage()
    return {
        "brain": memory.brain,
        "llm_usage": {key: usage.get(key, 0) for key in USAGE_KEYS},
    }


def failure_lines(results: list[ReplayResult]) -> list[str]:
    """One error line per run whose memory jobs failed for good, naming the first.

    A run whose extraction or compression kept failing still prints its
    tables, but they describe a memory that never got that work done.
    """
    return [
        f"memory-lab replay: error: {_jobs(len(r.failures))} failed for good in "
        f"{r.conversation}/{r.recipe}: {r.failures[0]}"
        for r in results
        if r.failures
    ]


def _jobs(n: int) -> str:
    return f"{n} memory job{'' if n == 1 else 's'}"


def render_replay(
    results: list[ReplayResult],
    *,
    per_turn: bool = True,
    console: Console | None = None,
) -> None:
    """Print per-turn tables and one totals row per recipe."""
    console = console or Console(width=max(Console().width, 110))
    if per_turn:
        for r in results:
            t = Table(title=f"{r.conversation} - recipe {r.recipe}", show_lines=False)
            for col in (
                "turn",
                "id",
                "window msgs",
                "window tok",
                "episodes",
                "facts",
                "context tok",
                "fired",
            ):
                t.add_column(
                    col, justify="right" if col not in ("id", "fired") else "left"
                )
            for s in r.turns:
                t.add_row(
                    str(s.turn),
                    s.message_id,
                    str(s.window_messages),
                    str(s.window_tokens),
                    str(s.episodes),
                    str(s.active_facts),
                    str(s.context_tokens),
                    s.fired,
                )
            console.print(t)
    totals = Table(title="Per recipe")
    for col in (
        "conversation",
        "recipe",
        "turns",
        "compressions",
        "episodes",
        "facts",
        "ctx tok/turn",
        "ctx tok max",
    ):
        totals.add_column(col, no_wrap=True)
    for r in results:
        active = sum(1 for f in r.snapshot.get("facts", []) if f["status"] == "active")
        totals.add_row(
            r.conversation,
            r.recipe,
            str(len(r.turns)),
            str(r.compressions),
            str(len(r.snapshot.get("episodes", []))),
            str(active),
            f"{r.mean_context_tokens:.1f}",
            str(max((t.context_tokens for t in r.turns), default=0)),
        )
    console.print(totals)
