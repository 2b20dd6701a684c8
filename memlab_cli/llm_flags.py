"""The LLM flags of replay, eval, bench and main, and what they resolve to.

Flags are declared once here and attached to each sub-command by `main`; after
parsing, `resolve` reads the environment (through `Settings`) under the flags and
hands the commands plain objects: endpoints, the library's `LLMSettings`, the eval's
model plan. No command reads an environment variable itself.
"""

from __future__ import annotations

import argparse

from memlab_evals.judging.endpoints import CallOptions
from memlab_evals.judging.model_pass import ModelPlan, RunModels

from memlab_cli.settings import Settings
from memory_lab.config import STRUCTURED_OUTPUT_MODES
from memory_lab.errors import MemoryLabError


def add_brain_flags(p: argparse.ArgumentParser) -> None:
    """`--brain`, `--llm-base-url`, `--llm-model` and the extraction model."""
    g = p.add_argument_group("brain")
    g.add_argument(
        "--brain",
        choices=("rule", "llm"),
        help="rule (offline) or llm; default: llm when MEMORY_LAB_LLM_BASE_URL or "
        "--llm-base-url is set",
    )
    g.add_argument(
        "--llm-base-url", help="OpenAI-compatible endpoint (MEMORY_LAB_LLM_BASE_URL)"
    )
    g.add_argument("--llm-model", help="the brain's model (MEMORY_LAB_LLM_MODEL)")
    g.add_argument(
        "--extract-base-url",
        help="a separate extraction endpoint (MEMORY_LAB_EXTRACT_BASE_URL)",
    )
    g.add_argument(
        "--extract-model",
        help="a separate extraction model (MEMORY_LAB_EXTRACT_MODEL)",
    )
    g.add_argument(
        "--llm-timeout",
        type=float,
        help="seconds per request (MEMORY_LAB_LLM_TIMEOUT_S; default 60)",
    )


def add_model_pass_flags(p: argparse.ArgumentParser) -> None:
    """The answer model, the judge, and how their calls are made."""
    g = p.add_argument_group("answers and judging")
    g.add_argument(
        "--answer",
        action="store_true",
        help="have a model answer every probe from its context; scores answer_f1, "
        "answer_bleu1 and, with a judge, judged_accuracy (J)",
    )
    g.add_argument(
        "--answer-base-url",
        help="answer endpoint (MEMORY_LAB_ANSWER_BASE_URL; default: the brain's)",
    )
    g.add_argument(
        "--answer-model",
        help="answer model (MEMORY_LAB_ANSWER_MODEL; default: the brain's)",
    )
    g.add_argument(
        "--judge-base-url", help="judge endpoint (MEMORY_LAB_JUDGE_BASE_URL)"
    )
    g.add_argument("--judge-model", help="judge model (MEMORY_LAB_JUDGE_MODEL)")
    g.add_argument(
        "--judge-context",
        action="store_true",
        help="also judge each context alone (context_judged_accuracy); without "
        "--answer a judge does only this",
    )
    g.add_argument(
        "--judge-check-per-kind",
        type=int,
        default=20,
        metavar="N",
        help="before J, check the judge on N answers of each known-verdict kind "
        "(memory-lab judge check); its rates go beside J; 0 skips (default 20)",
    )
    g.add_argument(
        "--max-connections",
        type=int,
        help="requests in flight at once (MEMORY_LAB_LLM_MAX_CONNECTIONS; default 4)",
    )
    g.add_argument(
        "--no-cache",
        action="store_true",
        help="send every request; neither read nor write the response cache",
    )
    g.add_argument(
        "--structured-output",
        choices=STRUCTURED_OUTPUT_MODES,
        default="json_object_schema",
        help="how the judge asks for JSON (llama.cpp: json_object_schema; "
        "OpenAI: json_schema)",
    )
    g.add_argument(
        "--price-per-1k-prompt",
        type=float,
        help="price of 1,000 prompt tokens: the run log records the cost",
    )
    g.add_argument(
        "--price-per-1k-completion",
        type=float,
        help="price of 1,000 completion tokens",
    )


def resolve(args: argparse.Namespace, settings: Settings | None = None) -> RunModels:
    """The models a parsed command line asks for, environment beneath flags.

    Raises:
        MemoryLabError: an LLM brain, answer model or judge lacks its endpoint or
            model, or a number is out of range.
    """
    env = settings or Settings()
    brain = env.brain(
        getattr(args, "brain", None),
        getattr(args, "llm_base_url", None),
        getattr(args, "llm_model", None),
    )
    extractor = (
        env.extractor(
            getattr(args, "extract_base_url", None),
            getattr(args, "extract_model", None),
        )
        if brain is not None
        else None
    )
    timeout = getattr(args, "llm_timeout", None)
    timeout = env.llm_timeout_s if timeout is None else timeout
    if timeout <= 0:
        raise MemoryLabError(f"--llm-timeout must be positive, got {timeout}")
    use_cache = not getattr(args, "no_cache", False)
    llm = env.llm_settings(brain, extractor, timeout_s=timeout, use_cache=use_cache)
    return RunModels(brain, extractor, llm, _plan(args, env, brain, timeout))


def _plan(args, env: Settings, brain, timeout: float) -> ModelPlan:
    if not hasattr(args, "answer"):
        return ModelPlan()
    answerer = (
        env.answerer(args.answer_base_url, args.answer_model, brain)
        if args.answer
        else None
    )
    judge = env.judge(args.judge_base_url, args.judge_model)
    if judge is not None and answerer is None and not args.judge_context:
        # A judge without answers can only grade contexts, as it always has.
        judge_contexts = True
    else:
        judge_contexts = args.judge_context and judge is not None
    if args.judge_context and judge is None:
        raise MemoryLabError("--judge-context needs a judge: set --judge-base-url")
    connections = (
        env.llm_max_connections
        if args.max_connections is None
        else args.max_connections
    )
    if connections < 1:
        raise MemoryLabError(f"--max-connections must be at least 1, got {connections}")
    options = CallOptions(
        max_connections=connections,
        use_cache=not args.no_cache,
        cache_path=env.llm_cache,
        structured_output=args.structured_output,
        timeout_s=timeout,
    )
    return ModelPlan(
        answerer=answerer,
        judge=judge,
        judge_contexts=judge_contexts,
        options=options,
        price_per_1k_prompt=args.price_per_1k_prompt,
        price_per_1k_completion=args.price_per_1k_completion,
        judge_check_per_kind=max(0, args.judge_check_per_kind),
    )
