"""One entry point for every dataset a run can name: what the CLI and app call.

A spec is one of:

- ``synthetic`` or ``synthetic:seed=7,conversations=2,domain=coding`` (knobs of
  `GeneratorConfig`, dashes or underscores);
- ``locomo:PATH`` for a LoCoMo JSON file;
- a PATH: ``.jsonl`` is this package's format, ``.json`` is checked for LoCoMo's
  shape.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from memlab_datasets.generator import GeneratorConfig, generate
from memlab_datasets.locomo import load_locomo, looks_like_locomo, read_json
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
    if name == "synthetic":
        return generate(parse_synthetic_spec(spec))
    if name == "locomo":
        return load_locomo(argument, audit, apply_corrections)
    path = Path(spec)
    if not path.exists():
        raise DatasetError(
            f"{spec}: no such file; use a .jsonl or LoCoMo .json path, "
            "'synthetic[:knob=value,...]' or 'locomo:PATH'"
        )
    if path.suffix == ".jsonl":
        return load_jsonl(path)
    if path.suffix == ".json":
        if looks_like_locomo(read_json(path)):
            return load_locomo(path, audit, apply_corrections)
        raise DatasetError(f"{path}: JSON file is not in LoCoMo's format")
    raise DatasetError(f"{path}: unknown dataset file type (use .jsonl or .json)")


def named_dataset(spec: str) -> tuple[str | None, str]:
    """('synthetic', knobs) or ('locomo', path) for a named spec; (None, spec) else.

    Specs follow the grammar of `memory_lab.recipes` (``NAME:arguments``); any
    other text is a file path, colons and all.
    """
    try:
        name, argument = split_spec(spec)
    except ValueError:
        return None, spec
    if name == "synthetic":
        return name, argument or ""
    if name == "locomo" and argument:
        return name, argument
    return None, spec


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
