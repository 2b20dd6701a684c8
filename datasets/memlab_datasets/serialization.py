"""Datasets as JSONL: one conversation per line, exactly `model_dump_json`.

One conversation per line keeps files streamable and diffable, and makes the
content hash of a loaded file equal to the hash of the dataset that wrote it.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from memlab_datasets.types import Conversation, Dataset, conversation_line
from memory_lab.errors import DatasetError


def save_jsonl(dataset: Dataset, path: str | Path) -> Path:
    """Write the dataset's conversations, one per line, UTF-8, LF line endings."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as out:
        for conversation in dataset.conversations:
            out.write(conversation_line(conversation))
            out.write("\n")
    return path


def load_jsonl(path: str | Path, name: str | None = None) -> Dataset:
    """Read a file written by `save_jsonl`; the dataset is named after the file.

    Raises:
        DatasetError: naming the file and the line of the first bad record.
    """
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise DatasetError(
            f"{path}: cannot read dataset file ({exc.strerror})"
        ) from exc
    conversations: list[Conversation] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            conversations.append(Conversation.model_validate_json(line))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "record"
            raise DatasetError(
                f"{path}: line {number}: {where}: {first['msg']}"
            ) from exc
    if not conversations:
        raise DatasetError(f"{path}: no conversations in the file")
    sources = sorted({c.source for c in conversations})
    return Dataset.build(
        name=name or path.stem,
        conversations=conversations,
        metadata={"source": "+".join(sources), "file": path.name},
    )
