"""Conversations with known truth, from several sources, in one set of records.

Map:

- `types`: Conversation, Session, Probe, GoldFact, Trap, Dataset (turns are
  `memory_lab.types.Message`).
- `categories`: the one mapping of probe category numbers to names and kinds.
- `generator`: seeded synthetic conversations (`GeneratorConfig`, `generate`).
- `domains`: what synthetic users talk about, and how they phrase it.
- `locomo`: the LoCoMo loader (`load_locomo`) with audit corrections.
- `longmemeval`: the LongMemEval loader (`load_longmemeval`), one conversation
  per question.
- `registry`: the named data sets ``--dataset NAME:ARGUMENT`` resolves through;
  a plug-in adds one with `registry.register`.
- `serialization`: JSONL round-trip (`save_jsonl`, `load_jsonl`).
- `loading`: `load_dataset(spec)`, the entry point for evals, CLI and app.
- `consistency`: checks that ground truth agrees with the transcript.
- `stats` and `cli`: `memory-lab datasets describe|generate`.

The package lives under ``datasets/`` but is not named ``datasets``: that name
belongs to Hugging Face's library, which ragas imports.
"""

from memlab_datasets.categories import CATEGORIES, KIND_CATEGORY, PROBE_KINDS
from memlab_datasets.consistency import conversation_problems, dataset_problems
from memlab_datasets.generator import GeneratorConfig, generate
from memlab_datasets.loading import load_dataset, parse_synthetic_spec
from memlab_datasets.locomo import load_locomo
from memlab_datasets.longmemeval import load_longmemeval
from memlab_datasets.serialization import load_jsonl, save_jsonl
from memlab_datasets.types import (
    AuditNote,
    Conversation,
    Dataset,
    GoldFact,
    Probe,
    Session,
    Trap,
)

__all__ = [
    "CATEGORIES",
    "KIND_CATEGORY",
    "PROBE_KINDS",
    "AuditNote",
    "Conversation",
    "Dataset",
    "GeneratorConfig",
    "GoldFact",
    "Probe",
    "Session",
    "Trap",
    "conversation_problems",
    "dataset_problems",
    "generate",
    "load_dataset",
    "load_jsonl",
    "load_locomo",
    "load_longmemeval",
    "parse_synthetic_spec",
    "save_jsonl",
]
