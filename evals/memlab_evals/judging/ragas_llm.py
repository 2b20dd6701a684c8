"""ragas's LLM metrics on the judge's endpoint: faithfulness and answer correctness.

They run with `eval --ragas` when a judge is configured, on every probe with a
model answer (so `--answer` too), through ragas's own prompts and its
instructor client: the numbers are ragas's, not a re-implementation of them.

- `faithfulness`: the share of the answer's statements the context supports.
- `answer_correctness`: ragas's factuality part alone (F1 of the answer's
  statements against the gold's). Its similarity part needs an embeddings
  endpoint, which an OpenAI-compatible chat server need not serve, so its weight
  is 0 here; the column says so in the report's glossary.

A metric that fails on a probe (the judge's reply does not fit ragas's schema
after ragas's own retries, a timeout, an HTTP error) leaves the probe unscored
for that metric, never 0, and the metric's name goes into the probe's
`ragas_failed`, which the summary counts as `ragas_llm_failures`. A small judge
fails often, and a count beside the column says how much of it is missing.
"""

from __future__ import annotations

import asyncio
import logging
import warnings
from collections.abc import Callable
from typing import Any

from memlab_evals.judging.endpoints import CallOptions, Endpoint
from memlab_evals.judging.ragas_bridge import context_lines, load_ragas, model_reply
from memlab_evals.running.log import ProbeRecord, RunLog

LLM_METRICS = ("faithfulness", "answer_correctness")
"""ragas's LLM metrics run here, by the name they take in `ProbeRecord.ragas`."""


def applies(probe: ProbeRecord) -> bool:
    """Probes with an answer to grade and a gold to grade it by (not abstentions)."""
    return (
        probe.kind != "abstention" and bool(model_reply(probe)) and bool(probe.answer)
    )


def _metrics(judge: Endpoint, options: CallOptions) -> tuple[dict[str, Any], Any]:
    """The ragas metric objects, and the async client they share to the judge."""
    load_ragas()
    from openai import AsyncOpenAI

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        from ragas.llms import llm_factory
        from ragas.metrics.collections import AnswerCorrectness, Faithfulness

    client = AsyncOpenAI(
        base_url=judge.base_url,
        api_key=judge.key or "not-needed",
        timeout=options.timeout_s,
        max_retries=max(options.max_attempts - 1, 0),
    )
    llm = llm_factory(judge.model, client=client)
    metrics = {
        "faithfulness": Faithfulness(llm=llm),
        "answer_correctness": AnswerCorrectness(llm=llm, weights=[1.0, 0.0]),
    }
    return metrics, client


def _inputs(name: str, probe: ProbeRecord) -> dict[str, Any]:
    answer = model_reply(probe)
    if name == "faithfulness":
        return {
            "user_input": probe.question,
            "response": answer,
            "retrieved_contexts": context_lines(probe.context),
        }
    return {"user_input": probe.question, "response": answer, "reference": probe.answer}


async def _score_all(
    probes: list[ProbeRecord],
    metrics: dict[str, Any],
    client: Any,
    connections: int,
    progress: Callable[[int, int], None] | None,
) -> list[tuple[dict[str, float], list[str]]]:
    gate = asyncio.Semaphore(connections)
    done = 0

    async def one(probe: ProbeRecord) -> tuple[dict[str, float], list[str]]:
        nonlocal done
        scores: dict[str, float] = {}
        failed: list[str] = []
        for name, metric in metrics.items():
            async with gate:
                try:
                    result = await metric.ascore(**_inputs(name, probe))
                    scores[name] = float(result.value)
                except Exception:  # noqa: BLE001 - any failure leaves it unscored
                    failed.append(name)
        done += 1
        if progress is not None:
            progress(done, len(probes))
        return scores, failed

    try:
        return await asyncio.gather(*(one(p) for p in probes))
    finally:
        # closed inside the loop: left to the garbage collector, its close
        # runs after the loop has ended and fails noisily
        await client.close()


def with_ragas_llm(
    log: RunLog,
    judge: Endpoint,
    options: CallOptions | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> RunLog:
    """The log with ragas's LLM metrics on every probe they apply to."""
    chosen = [i for i, p in enumerate(log.probes) if applies(p)]
    if not chosen:
        return log
    options = options or CallOptions()
    metrics, client = _metrics(judge, options)
    # instructor logs every reply that misses ragas's schema at ERROR; a small
    # judge misses often, and the failures are counted in ragas_llm_failures.
    quiet = logging.getLogger("instructor")
    level = quiet.level
    quiet.setLevel(logging.CRITICAL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            results = asyncio.run(
                _score_all(
                    [log.probes[i] for i in chosen],
                    metrics,
                    client,
                    options.max_connections,
                    progress,
                )
            )
        finally:
            quiet.setLevel(level)
    probes = list(log.probes)
    for index, (scores, failed) in zip(chosen, results, strict=True):
        probe = probes[index]
        probes[index] = probe.model_copy(
            update={
                "ragas": {**probe.ragas, **scores},
                "ragas_failed": sorted({*probe.ragas_failed, *failed}),
            }
        )
    return log.model_copy(update={"probes": probes})
