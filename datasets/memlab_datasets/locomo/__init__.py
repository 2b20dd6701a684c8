"""LoCoMo (Maharana et al., 2024) loaded into the shared conversation records.

The file is separately licensed evaluation data, so it is read from a path and
never vendored. Mapping: speaker_a is the 'user' role and speaker_b the
'assistant' role (names kept as speakers); the tenant is the sample id; turn ids
are LoCoMo's dia_ids; turn timestamps are the session's date plus one minute per
turn. LoCoMo's dates carry no zone, so they are read as UTC.

The answer key has known faults. Malformed or dangling evidence ids are repaired
where possible and counted, never fatal; the published audit's corrections can be
attached and, optionally, applied (each probe keeps both versions).

Map:

- `loader`: `load_locomo`, the entry point.
- `reading`: the file and its fields (JSON, session dates, evidence ids).
- `conversion`: one record as a `Conversation`.
- `audit`: the audit's entries, placed on their questions and applied.
"""

from __future__ import annotations

from memlab_datasets.locomo.loader import load_locomo
from memlab_datasets.locomo.reading import (
    looks_like_locomo,
    parse_evidence,
    parse_session_date,
    read_json,
)

__all__ = [
    "load_locomo",
    "looks_like_locomo",
    "parse_evidence",
    "parse_session_date",
    "read_json",
]
