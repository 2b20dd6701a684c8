"""The eval's model pass: answer every probe, judge the answers, count the cost.

After the systems have built their memories and logged each probe's context, one
asyncio pass sends every probe to the answer model and, as each answer arrives, to
the judge; all of it behind one bound on connections. Each system's answers go
through a client of its own, so the summary can say what each system cost, and all
clients share one response cache, so a repeated or resumed run sends only what it
has not sent before. The result is the same log with answers, verdicts and an
`LLMRunInfo` filled in.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from memlab_evals.judging import judges
from memlab_evals.judging.answering import answer_probe
from memlab_evals.judging.bounded import Gate, run_async
from memlab_evals.judging.endpoints import CallOptions, Endpoint
from memlab_evals.running.llm_records import USAGE_KEYS, LLMRunInfo
from memlab_evals.running.log import ProbeRecord, RunLog
from memlab_evals.systems import is_peer
from memory_lab.config import LLMSettings
from memory_lab.llm_client.client import ChatClient, LLMUsage
from memory_lab.prompts import answer as answer_prompt


@dataclass(frozen=True)
class ModelPlan:
    """Which models the pass calls, and how.

    Attributes:
        answerer: The answer model; None answers nothing.
        judge: The judge; None judges nothing.
        judge_contexts: Also run the context judge (it costs one call a probe).
        options: Connections, cache, timeouts shared by every client.
        price_per_1k_prompt: Price of 1,000 prompt tokens, for the run's cost.
        price_per_1k_completion: Price of 1,000 completion tokens.
        judge_check_per_kind: Items per kind of the judge check run before J.
    """

    answerer: Endpoint | None = None
    judge: Endpoint | None = None
    judge_contexts: bool = False
    options: CallOptions = CallOptions()
    price_per_1k_prompt: float | None = None
    price_per_1k_completion: float | None = None
    judge_check_per_kind: int = 0
    """Answers per known-verdict kind the judge is checked on before J; 0 skips."""

    @property
    def checks_judge(self) -> bool:
        """Whether J will be reported, and so its judge checked first."""
        return (
            self.answerer is not None
            and self.judge is not None
            and self.judge_check_per_kind > 0
        )

    @property
    def calls_models(self) -> bool:
        """Whether the pass has anything to send."""
        return self.answerer is not None or (
            self.judge is not None and self.judge_contexts
        )


@dataclass(frozen=True)
class RunModels:
    """Every model an eval run uses, resolved from flags and environment.

    Attributes:
        brain: The LLM brain's endpoint; None for the rule-based brain.
        extractor: A separate extraction model, when one is set.
        llm: The library's settings for the brain (None: rule-based).
        plan: The answer and judge pass.
    """

    brain: Endpoint | None = None
    extractor: Endpoint | None = None
    # Left out of the repr: it carries the brain's key for the library's client.
    llm: LLMSettings | None = field(default=None, repr=False)
    plan: ModelPlan = ModelPlan()


def brain_info(
    log: RunLog,
    brain: Endpoint | None,
    *,
    extractor: Endpoint | None = None,
    prompts: dict[str, str] | None = None,
    seconds: float | None = None,
) -> LLMRunInfo:
    """The run's record of its brain: name, endpoints, prompts and total usage."""
    # Peers name their library as their brain; the run's brain is the recipes'.
    names = [r.brain for r in log.conversations if r.brain and not is_peer(r.system)]
    usage = dict.fromkeys(USAGE_KEYS, 0)
    for run in log.conversations:
        for key, value in run.brain_usage.items():
            usage[key] = usage.get(key, 0) + int(value)
    return LLMRunInfo(
        brain=names[0]
        if names
        else ("rule" if brain is None else f"llm:{brain.model}"),
        brain_endpoint=brain.info() if brain else None,
        extract_endpoint=extractor.info() if extractor else None,
        prompts=dict(prompts or {}),
        usage={"brain": usage},
        seconds={"memory": round(seconds, 3)} if seconds is not None else {},
    )


def run_model_pass(
    log: RunLog,
    plan: ModelPlan,
    *,
    on_probe: Callable[[], None] | None = None,
) -> RunLog:
    """Answer and judge every probe of `log`; return the log with the results.

    Failed calls come back as records marked `failed` with their reason; nothing is
    dropped and the pass never raises for an endpoint's sake.
    """
    info = log.llm or brain_info(log, None)
    if not plan.calls_models:
        return log.model_copy(update={"llm": info})
    started = time.perf_counter()
    cache = plan.options.cache()
    systems = list(dict.fromkeys(p.system for p in log.probes))
    answer_usage = {s: LLMUsage() for s in systems}
    judge_usage, context_usage = LLMUsage(), LLMUsage()
    clients: list[ChatClient] = []

    def client(endpoint: Endpoint, usage: LLMUsage) -> ChatClient:
        made = plan.options.client(endpoint, usage=usage, cache=cache)
        clients.append(made)
        return made

    answerers = (
        {s: client(plan.answerer, answer_usage[s]) for s in systems}
        if plan.answerer
        else {}
    )
    judge_client = client(plan.judge, judge_usage) if plan.judge else None
    context_client = (
        client(plan.judge, context_usage)
        if plan.judge is not None and plan.judge_contexts
        else None
    )

    async def one(gate: Gate, probe: ProbeRecord) -> ProbeRecord:
        update: dict = {}
        if answerers:
            answer = await answer_probe(answerers[probe.system], gate, probe)
            update["model_answer"] = answer
            scored = probe.kind != "abstention" and probe.category != 5
            if judge_client is not None and answer.status == "ok" and scored:
                messages = judges.answer_messages(probe, answer.text)
                update["answer_verdict"] = await judges.judge(
                    judge_client, gate, messages
                )
        if context_client is not None:
            messages = judges.context_messages(probe)
            update["context_verdict"] = await judges.judge(
                context_client, gate, messages
            )
        if on_probe is not None:
            on_probe()
        return probe.model_copy(update=update)

    async def everything() -> list[ProbeRecord]:
        gate = Gate(plan.options.max_connections)
        return list(await asyncio.gather(*(one(gate, p) for p in log.probes)))

    try:
        probes = run_async(everything())
    finally:
        for made in clients:
            made.close()
    info = _with_pass(info, plan, cache_label=plan.options.cache_label())
    info.usage["answer"] = _total(answer_usage.values())
    if judge_client is not None:
        info.usage["judge"] = judge_usage.snapshot()
    if context_client is not None:
        info.usage["context_judge"] = context_usage.snapshot()
    info.answer_usage.update({s: u.snapshot() for s, u in answer_usage.items()})
    info.seconds["answer_and_judge"] = round(time.perf_counter() - started, 3)
    info.cost = run_cost(info)
    return log.model_copy(update={"probes": probes, "llm": info})


def _with_pass(info: LLMRunInfo, plan: ModelPlan, *, cache_label: str) -> LLMRunInfo:
    prompts = dict(info.prompts)
    if plan.answerer is not None:
        prompts[answer_prompt.NAME] = answer_prompt.VERSION
    if plan.judge is not None:
        prompts.update(
            judges.prompt_versions(
                answers=plan.answerer is not None, contexts=plan.judge_contexts
            )
        )
    return info.model_copy(
        update={
            "answer_endpoint": plan.answerer.info() if plan.answerer else None,
            "judge_endpoint": plan.judge.info() if plan.judge else None,
            "prompts": prompts,
            "max_connections": plan.options.max_connections,
            "cache": cache_label,
            "price_per_1k_prompt": plan.price_per_1k_prompt,
            "price_per_1k_completion": plan.price_per_1k_completion,
            "usage": dict(info.usage),
            "answer_usage": dict(info.answer_usage),
            "seconds": dict(info.seconds),
        }
    )


def _total(usages) -> dict[str, int]:
    total: dict[str, int] = {}
    for usage in usages:
        for key, value in usage.snapshot().items():
            total[key] = total.get(key, 0) + value
    return total


def run_cost(info: LLMRunInfo) -> float | None:
    """Spend over every role at the run's prices; None when no price was given.

    Cache hits cost nothing: their tokens were paid for by the run that sent them.
    """
    if info.price_per_1k_prompt is None and info.price_per_1k_completion is None:
        return None
    prompt = sum(u.get("prompt_tokens", 0) for u in info.usage.values())
    completion = sum(u.get("completion_tokens", 0) for u in info.usage.values())
    return round(
        prompt / 1000 * (info.price_per_1k_prompt or 0.0)
        + completion / 1000 * (info.price_per_1k_completion or 0.0),
        6,
    )
