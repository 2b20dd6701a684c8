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
import warnings
from typing import TYPE_CHECKING, Any

import pandas as pd

from memlab_evals.running.log import ProbeRecord, RunLog
from memlab_evals.scorers.ragas_columns import RAGAS_COLUMNS

if TYPE_CHECKING:
    from ragas import EvaluationDataset


def load_ragas() -> Any:
    """Import ragas with its analytics off: nothing here may reach the network."""
    os.environ["RAGAS_DO_NOT_TRACK"] = "true"
    import ragas

    return ragas


def context_lines(context: str) -> list[str]:
    """The context's non-empty lines, unescaped: ragas's retrieved chunks."""
    lines = [line.strip() for line in html.unescape(context).splitlines()]
    return [line for line in lines if line] or [""]


def model_reply(probe: ProbeRecord) -> str | None:
    """The model's answer when one came back; ragas's answer metrics need it."""
    answer = probe.model_answer
    return answer.text if answer is not None and answer.status == "ok" else None


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
    ragas = load_ragas()
    from ragas.dataset_schema import SingleTurnSample

    samples = [
        SingleTurnSample(
            user_input=p.question,
            retrieved_contexts=context_lines(p.context),
            response=model_reply(p),
            reference=p.answer,
            reference_contexts=list(p.evidence_texts),
            retrieved_context_ids=list(p.context_items),
            reference_context_ids=list(p.evidence),
        )
        for p in _probes(log, system)
    ]
    return ragas.EvaluationDataset(samples=samples)


def _offline_metrics() -> dict[str, Any]:
    """Ragas's non-LLM metrics by name (its 0.4 classes, warnings silenced)."""
    load_ragas()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from ragas.metrics import (
            IDBasedContextRecall,
            NonLLMContextPrecisionWithReference,
            NonLLMContextRecall,
            StringPresence,
        )
    return {
        "id_based_context_recall": IDBasedContextRecall(),
        "non_llm_context_recall": NonLLMContextRecall(),
        "non_llm_context_precision": NonLLMContextPrecisionWithReference(),
        "string_presence": StringPresence(),
    }


def _applies(name: str, sample: Any) -> bool:
    if name.startswith("id_"):
        return bool(sample.reference_context_ids)
    if name == "string_presence":
        return bool(sample.response)
    return bool(sample.reference_contexts)


def score_offline(log: RunLog, system: str) -> pd.DataFrame:
    """Ragas's non-LLM metrics per probe of `system`.

    Context recall and precision compare each evidence turn with the context's
    lines by string similarity (rapidfuzz); string presence asks whether the gold
    answer is in the model's answer, so it is NaN without one. The ID-based recall
    is exact on turn ids, so it only credits contexts that carry raw turns
    (window, retrieval baselines), not summaries of them.
    """
    metrics = _offline_metrics()
    dataset = to_evaluation_dataset(log, system)
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
            applies = _applies(name, sample)
            row[name] = metric.single_turn_score(sample) if applies else float("nan")
        rows.append(row)
    return pd.DataFrame(rows)


def with_ragas(log: RunLog) -> RunLog:
    """The log with ragas's offline scores on each probe (`ProbeRecord.ragas`)."""
    scores: dict[tuple[str, str, str], dict[str, float]] = {}
    for system in dict.fromkeys(p.system for p in log.probes):
        frame = score_offline(log, system)
        for row in frame.to_dict("records"):
            key = (row["system"], row["conversation"], row["probe_id"])
            scores[key] = {
                name: float(row[name]) for name in RAGAS_COLUMNS if name in row
            }
    probes = [
        p.model_copy(
            update={"ragas": scores.get((p.system, p.conversation, p.probe_id), {})}
        )
        for p in log.probes
    ]
    return log.model_copy(update={"probes": probes})
