"""One entry point for every dataset a run can name: what the CLI and app call.

A spec is one of:

- ``NAME:ARGUMENT`` for a data set in the registry (`memlab_datasets.registry`):
  ``synthetic`` or ``synthetic:seed=7,conversations=2,domain=coding`` (knobs of
  `GeneratorConfig`, dashes or underscores), ``locomo:PATH`` for a LoCoMo JSON
  file, ``longmemeval:PATH[:options]`` for a LongMemEval file, or any name a
  plug-in registered;
- a PATH: ``.jsonl`` is this package's format, ``.json`` is checked for LoCoMo's
  shape, then LongMemEval's (read whole, with no options).
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from memlab_datasets import registry
from memlab_datasets.generator import GeneratorConfig, generate
from memlab_datasets.locomo import load_locomo, looks_like_locomo, read_json
from memlab_datasets.longmemeval import (
    load_longmemeval,
    load_longmemeval_spec,
    looks_like_longmemeval,
)
from memlab_datasets.registry import LoadOptions
from memlab_datasets.serialization import load_jsonl
from memlab_datasets.types import Dataset
from memory_lab.errors import DatasetError
from memory_lab.recipes import parse_spec, split_spec


def load_dataset(
    spec: str,
    *,
    audit: str | Path | None = None,
    apply_corrections: bool = True,
) -> Dataset:
    """The dataset a spec names.

    Args:
        spec: See the module docstring.
        audit: LoCoMo only: an audit file with answer-key corrections.
        apply_corrections: LoCoMo only: whether the corrections replace the
            original answers (both are kept on each probe).

    Raises:
        DatasetError: for an unknown spec, a missing file or a malformed record.
    """
    spec = spec.strip()
    name, argument = named_dataset(spec)
    if name is not None:
        kind = registry.get(name)
        if kind is not None:
            options = LoadOptions(
                audit=Path(audit) if audit is not None else None,
                apply_corrections=apply_corrections,
            )
            return registry.load(kind, argument, options)
    path = Path(spec)
    if not path.exists():
        raise DatasetError(
            f"{spec}: no such file; use a .jsonl or LoCoMo .json path, "
            f"or one of {registry.usages()}"
        )
    if path.suffix == ".jsonl":
        return load_jsonl(path)
    if path.suffix == ".json":
        data = read_json(path)
        if looks_like_locomo(data):
            return load_locomo(path, audit, apply_corrections)
        if looks_like_longmemeval(data):
            return load_longmemeval(path)
        raise DatasetError(
            f"{path}: JSON file is not in LoCoMo's format (nor LongMemEval's)"
        )
    raise DatasetError(f"{path}: unknown dataset file type (use .jsonl or .json)")


def named_dataset(spec: str) -> tuple[str | None, str]:
    """(name, argument) for a spec naming a registered data set; (None, spec) else.

    ``synthetic:seed=7`` -> ('synthetic', 'seed=7'); ``locomo:PATH`` ->
    ('locomo', 'PATH'). Specs follow the grammar of `memory_lab.recipes`
    (``NAME:arguments``); a name nobody registered, or a bare name whose data set
    needs an argument, leaves the text a file path, colons and all.
    """
    try:
        name, argument = split_spec(spec)
    except ValueError:
        return None, spec
    kind = registry.get(name) if name else None
    if kind is None or (kind.needs_argument and not argument):
        return None, spec
    return kind.name, argument or ""


def parse_synthetic_spec(spec: str) -> GeneratorConfig:
    """The generator knobs in 'synthetic:seed=7,turns-per-session=40'.

    Raises:
        DatasetError: naming the bad knob and listing the valid ones.
    """
    try:
        _, knobs = parse_spec(spec)
    except ValueError as exc:
        raise DatasetError(str(exc).replace("key=value", "knob=value")) from None
    try:
        return GeneratorConfig.model_validate(knobs)
    except ValidationError as exc:
        first = exc.errors()[0]
        valid = ", ".join(GeneratorConfig.model_fields)
        where = ".".join(str(p) for p in first["loc"])
        raise DatasetError(f"{spec}: {where}: {first['msg']} (knobs: {valid})") from exc


# --- the built-ins ----------------------------------------------------------------
# Registered here rather than in the registry, which imports none of the loaders.


def _load_synthetic(argument: str, options: LoadOptions) -> Dataset:
    return generate(
        parse_synthetic_spec(f"synthetic:{argument}" if argument else "synthetic")
    )


def _load_locomo(argument: str, options: LoadOptions) -> Dataset:
    return load_locomo(argument, options.audit, options.apply_corrections)


def _load_longmemeval(argument: str, options: LoadOptions) -> Dataset:
    return load_longmemeval_spec(argument)


registry.register(
    "synthetic",
    "Seeded synthetic conversations with planted facts, updates and traps.",
    _load_synthetic,
    usage="synthetic[:knob=value,...]",
    needs_argument=False,
)
registry.register(
    "locomo",
    "A LoCoMo JSON file (Maharana et al., 2024), with optional audit fixes.",
    _load_locomo,
    usage="locomo:PATH",
)
registry.register(
    "longmemeval",
    "A LongMemEval JSON file (Wu et al., 2024): one conversation per question.",
    _load_longmemeval,
    usage="longmemeval:PATH[:limit=N,question_type=T,sample=N,seed=S]",
)
