"""Lets `memory-lab replay --dataset PATH` read our JSONL and LoCoMo files."""

from __future__ import annotations

from pathlib import Path

from memory_lab.conversation_io import Replayable


def load_for_replay(path: Path) -> list[Replayable] | None:
    """Conversations of a dataset file as replayable message lists; None if not ours."""
    from memlab_datasets.loading import load_dataset

    if path.suffix not in (".jsonl", ".json"):
        return None
    dataset = load_dataset(str(path))
    return [
        Replayable(name=c.id, tenant=c.tenant, messages=list(c.turns))
        for c in dataset.conversations
    ]
