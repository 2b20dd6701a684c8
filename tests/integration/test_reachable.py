"""No stored turn is unreachable: the window beyond its block's budget is searchable."""

from memory_lab import ManualClock, MemoryConfig, MemoryEngine, recipe
from memory_lab.config import BudgetConfig
from tests.helpers import T0, msg

FILLER = "We went over the weekly plan, the budget sheet and the meeting notes again."


def test_window_turn_past_the_window_block_is_found_by_its_words():
    # Recipe B holds ~600 tokens of window before compressing; at a 600-token budget
    # the verbatim tail gets `verbatim_share` of it, so the early turn sits in the
    # window unshown.
    config = MemoryConfig(recipe=recipe("B"), budget=BudgetConfig().scaled(600))
    engine = MemoryEngine(None, config=config, clock=ManualClock(T0))
    turns = [msg(0, "My grandmother's parrot is called Zanzibarino.")]
    turns += [msg(i, f"{FILLER} Item {i}.") for i in range(1, 16)]
    for turn in turns:
        engine.ingest("t1", [turn])
    assert "m0" in {m.id for m in engine.window("t1")}  # not compressed yet
    bundle = engine.assemble("t1", "What is the parrot called?")
    window_block = next(b for b in bundle.blocks if b.kind == "window")
    assert "m0" not in window_block.items
    assert "Zanzibarino" in bundle.text
    assert bundle.total_tokens <= 600
    # Each turn appears once: a window-block turn is not repeated as an excerpt.
    shown = [i for b in bundle.blocks for i in b.items]
    assert len(shown) == len(set(shown))
