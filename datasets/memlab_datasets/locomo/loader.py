"""`load_locomo`: a LoCoMo file, and optionally its audit, as one `Dataset`."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from pydantic import ValidationError

from memlab_datasets.locomo.audit import place_audit, read_audit
from memlab_datasets.locomo.conversion import COUNT_KEYS, BadRecord, convert_record
from memlab_datasets.locomo.reading import read_json
from memlab_datasets.types import Conversation, Dataset
from memory_lab.errors import DatasetError


def load_locomo(
    path: str | Path,
    audit: str | Path | None = None,
    apply_corrections: bool = True,
) -> Dataset:
    """Load a LoCoMo JSON file (the full set or a split) from any path.

    Args:
        path: The LoCoMo JSON list.
        audit: Optional audit file (locomo-audit format) with answer-key fixes.
        apply_corrections: With an audit, put the corrected answer and evidence in
            `answer`/`evidence` (else keep the original there); the other version
            stays in `Probe.audit` either way.

    Raises:
        DatasetError: naming the file and the first bad record.
    """
    path = Path(path)
    records = read_json(path)
    if not isinstance(records, list):
        raise DatasetError(f"{path}: expected a JSON list of conversations")
    totals: Counter[str] = Counter({key: 0 for key in COUNT_KEYS})
    notes = (
        place_audit(read_audit(Path(audit)), records, totals)
        if audit is not None
        else {}
    )
    conversations: list[Conversation] = []
    for index, record in enumerate(records):
        label = record.get("sample_id", "?") if isinstance(record, dict) else "?"
        try:
            conversation = convert_record(
                record, notes.pop(index, {}), apply_corrections
            )
        except (BadRecord, KeyError, TypeError, ValueError, ValidationError) as exc:
            raise DatasetError(
                f"{path}: record {index} ({label}): {_reason(exc)}"
            ) from exc
        totals.update(conversation.metadata["counts"])
        conversations.append(conversation)
    totals["audit_unmatched"] += sum(len(rest) for rest in notes.values())
    if audit is None:
        corrections = "none"
    else:
        corrections = "applied" if apply_corrections else "attached, not applied"
    name = path.stem + ("+audit" if audit is not None and apply_corrections else "")
    return Dataset.build(
        name=name,
        conversations=conversations,
        metadata={
            "source": "locomo",
            "file": path.name,
            "audit_file": Path(audit).name if audit is not None else None,
            "corrections": corrections,
            "counts": dict(totals),
        },
    )


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        return f"{where}: {first['msg']}"
    return str(exc)
