"""A run as a ragas `EvaluationDataset`, and ragas's non-LLM metrics on it, offline.

ragas is imported lazily (it takes seconds) and only after its analytics are turned
off, since nothing here may reach the network. The context is split into its lines
for `retrieved_contexts`: ragas scores each reference against its best-matching
retrieved chunk by string similarity, and one whole multi-thousand-token context
would make every similarity tiny whatever it holds.
"""

from __future__ import annotations

import html
import os
from typing import TYPE_CHECKING, Any

import pandas as pd

from memlab_evals.log import ProbeRecord, RunLog

if TYPE_CHECKING:
    from ragas import EvaluationDataset


def _ragas() -> Any:
    os.environ["RAGAS_DO_NOT_TRACK"] = "true"
    import ragas

    return ragas


def _chunks(context: str) -> list[str]:
    lines = [line.strip() for line in html.unescape(context).splitlines()]
    return [line for line in lines if line] or [""]


def _probes(log: RunLog, system: str) -> list[ProbeRecord]:
    return sorted(
        (p for p in log.probes if p.system == system and p.kind != "abstention"),
        key=lambda p: (p.conversation, p.probe_id),
    )


def to_evaluation_dataset(log: RunLog, system: str) -> EvaluationDataset:
    """One `SingleTurnSample` per non-abstention probe of `system`.

    Abstention probes have no reference to recall, so they are left out. Item ids
    go in as context ids so ragas's ID-based recall can be computed too.
    """
    ragas = _ragas()
    from ragas.dataset_schema import SingleTurnSample

    samples = [
        SingleTurnSample(
            user_input=p.question,
            retrieved_contexts=_chunks(p.context),
            reference=p.answer,
            reference_contexts=list(p.evidence_texts),
            retrieved_context_ids=list(p.context_items),
            reference_context_ids=list(p.evidence),
        )
        for p in _probes(log, system)
    ]
    return ragas.EvaluationDataset(samples=samples)


def _has_rapidfuzz() -> bool:
    try:
        import rapidfuzz  # noqa: F401
    except ImportError:
        return False
    return True


def score_offline(log: RunLog, system: str) -> pd.DataFrame:
    """Ragas's non-LLM metrics per probe of `system`.

    `non_llm_context_recall` needs rapidfuzz, which ragas does not install; without
    it the column is absent rather than filled with a made-up number. The ID-based
    recall is exact on turn ids, so it only credits contexts that carry raw turns
    (window, retrieval baselines), not summaries of them.
    """
    _ragas()
    from ragas.metrics import IDBasedContextRecall, NonLLMContextRecall

    dataset = to_evaluation_dataset(log, system)
    metrics: dict[str, Any] = {"id_based_context_recall": IDBasedContextRecall()}
    if _has_rapidfuzz():
        metrics["non_llm_context_recall"] = NonLLMContextRecall()
    probes = _probes(log, system)
    rows = []
    for probe, sample in zip(probes, dataset.samples, strict=True):
        row: dict[str, Any] = {
            "system": system,
            "conversation": probe.conversation,
            "probe_id": probe.probe_id,
            "category": probe.category,
        }
        for name, metric in metrics.items():
            needs_refs = (
                sample.reference_context_ids
                if name.startswith("id_")
                else sample.reference_contexts
            )
            row[name] = metric.single_turn_score(sample) if needs_refs else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)
