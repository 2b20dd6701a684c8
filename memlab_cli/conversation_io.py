"""Reading conversations to replay.

Sources: the built-in one, our JSON format, or a dataset file the datasets package
reads (our JSONL, LoCoMo's JSON).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pydantic import ValidationError

from memory_lab.errors import DatasetError
from memory_lab.types import Message


@dataclass(frozen=True)
class Replayable:
    """A conversation as a flat, ordered list of messages of one tenant."""

    name: str
    tenant: str
    messages: list[Message]


def builtin() -> Replayable:
    """The built-in demo conversation shipped with the package."""
    text = (
        resources.files("memory_lab.data")
        .joinpath("builtin_conversation.json")
        .read_text()
    )
    return _from_doc(json.loads(text), "builtin")


def _from_doc(doc: dict, origin: str) -> Replayable:
    if not isinstance(doc, dict) or not isinstance(doc.get("messages"), list):
        raise DatasetError(f"{origin}: expected an object with a 'messages' list")
    tenant = doc.get("tenant") or "demo"
    out = []
    for i, raw in enumerate(doc["messages"]):
        try:
            out.append(Message.model_validate({"tenant": tenant, **raw}))
        except (ValidationError, TypeError) as err:
            first = (
                err.errors()[0]
                if isinstance(err, ValidationError)
                else {"msg": str(err), "loc": ()}
            )
            where = ".".join(str(x) for x in first.get("loc", ()))
            raise DatasetError(
                f"{origin}: message {i}: {where} {first['msg']}".strip()
            ) from None
    if not out:
        raise DatasetError(f"{origin}: the conversation has no messages")
    return Replayable(
        name=doc.get("name") or Path(origin).stem, tenant=tenant, messages=out
    )


def load_replayable(spec: str) -> list[Replayable]:
    """`builtin`, a JSON file in our format, or a file a registered loader reads.

    Raises:
        DatasetError: naming the file and what is wrong with it.
    """
    if spec == "builtin":
        return [builtin()]
    path = Path(spec)
    if not path.exists():
        raise DatasetError(f"{spec}: no such file")
    if path.is_dir():
        raise DatasetError(f"{spec}: is a folder, expected a conversation file")
    if path.suffix == ".json":
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as err:
            raise DatasetError(
                f"{spec}: not valid JSON (line {err.lineno}: {err.msg})"
            ) from None
        except UnicodeDecodeError:
            raise DatasetError(f"{spec}: not UTF-8 text") from None
        if isinstance(doc, dict) and "messages" in doc:
            return [_from_doc(doc, spec)]
    loaded = _dataset_conversations(path)
    if loaded is not None:
        return loaded
    raise DatasetError(f"{spec}: not a conversation file this installation can read")


def _dataset_conversations(path: Path) -> list[Replayable] | None:
    """Conversations of a dataset file as replayable message lists; None if not one."""
    from memlab_datasets.loading import load_dataset

    if path.suffix not in (".jsonl", ".json"):
        return None
    dataset = load_dataset(str(path))
    return [
        Replayable(name=c.id, tenant=c.tenant, messages=list(c.turns))
        for c in dataset.conversations
    ]
