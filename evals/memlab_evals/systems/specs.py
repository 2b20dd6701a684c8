"""System names as the CLI and the logs spell them: parse, check, resolve, describe.

A name is a registered system (``full``, ``rag-hybrid``, ``mem0``) or a memory
recipe spec (``A``, ``B+C``, ``A(a_max_messages=30)``); a recipe with the suffix
``+tools`` (``A+tools``) is the recipe with agentic memory: the replying model
manages memory with the memory tools too, so it needs a model.
"""

from __future__ import annotations

from pydantic import ValidationError

from memlab_evals.systems.memory import build_recipe
from memlab_evals.systems.registry import SystemEntry, lookup, names
from memory_lab.config import LLMSettings
from memory_lab.recipes import recipe, recipe_parts, split_spec, split_specs
from memory_lab.triggers import get_trigger, trigger_names

TOOLS_SUFFIX = "+tools"
"""A recipe named with it runs with agentic memory (`AgenticMemorySystem`)."""


def split_systems(spec: str) -> list[str]:
    """System names from a comma list, keeping commas inside parentheses.

    ``"A,B(b_high_water=800,b_low_water=400),full"`` has three systems.

    Raises:
        ValueError: for an empty list, unbalanced parentheses, a repeated name or
            an unknown system.
    """
    found = split_specs(spec)
    if not found:
        raise ValueError("no systems given")
    dupes = sorted({n for n in found if found.count(n) > 1})
    if dupes:
        raise ValueError(f"systems repeated: {', '.join(dupes)}")
    for name in found:
        check_system(name)
    return found


def split_tools(name: str) -> tuple[str, bool]:
    """A system name without its ``+tools`` suffix, and whether it had one."""
    if name.endswith(TOOLS_SUFFIX) and len(name) > len(TOOLS_SUFFIX):
        return name[: -len(TOOLS_SUFFIX)], True
    return name, False


def needs_model(name: str) -> bool:
    """Whether a system cannot run on the rule-based brain (``+tools`` recipes)."""
    return split_tools(name)[1]


def check_models(found: list[str], llm: LLMSettings | None) -> None:
    """Refuse, before anything runs, systems that need a model when none is set.

    Raises:
        ValueError: naming the systems and what to set.
    """
    missing = [n for n in found if needs_model(n)]
    if missing and llm is None:
        raise ValueError(
            f"{', '.join(missing)}: {TOOLS_SUFFIX} gives the replying model the "
            "memory tools, and no model is configured (the rule-based brain calls "
            "no tools); set --llm-base-url and --llm-model (MEMORY_LAB_LLM_BASE_URL, "
            f"MEMORY_LAB_LLM_MODEL) or drop {TOOLS_SUFFIX}"
        )


def kind_of(name: str) -> str:
    """'baseline', 'peer' or 'recipe' (the last for any name not registered)."""
    entry = lookup(name)
    return entry.kind if entry is not None else "recipe"


def is_baseline(name: str) -> bool:
    """Whether the name is a raw-turn baseline rather than a recipe."""
    return kind_of(name) == "baseline"


def is_peer(name: str) -> bool:
    """Whether the name is a peer memory library rather than one of ours."""
    return kind_of(name) == "peer"


def check_system(name: str) -> None:
    """Fail early, listing what exists, for a name that is no system.

    Raises:
        ValueError: for an unknown system or a bad recipe parameter.
    """
    if lookup(name) is not None:
        return
    full, (name, tools) = name, split_tools(name)
    if tools and lookup(name) is not None:
        raise ValueError(
            f"{full!r}: {TOOLS_SUFFIX} applies to memory recipes (A{TOOLS_SUFFIX}, "
            f"B+C{TOOLS_SUFFIX}), not to {name!r}"
        )
    known = ", ".join(
        (*trigger_names(), "A+B", "...", *names("baseline"), *names("peer"))
    )
    try:
        base, _ = split_spec(name)
    except ValueError:
        base = name
    if recipe_parts(base) is None:
        raise ValueError(f"unknown system {name!r}; known: {known}")
    try:
        recipe(name)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "recipe"
        reason = f"{where}: {first['msg']}"
        raise ValueError(f"bad recipe parameters in {name!r}: {reason}") from None
    except ValueError as exc:
        raise ValueError(f"bad recipe parameters in {name!r}: {exc}") from None


def resolve(name: str) -> SystemEntry:
    """The entry a name describes: the registered one, or a recipe's.

    Raises:
        ValueError: for an unknown system or a bad recipe parameter.
    """
    entry = lookup(name)
    if entry is not None:
        return entry
    check_system(name)
    base, tools = split_tools(name)
    return SystemEntry(
        name=name,
        kind="recipe",
        description=_recipe_sentence(base, tools),
        build=build_recipe(name, base, tools),
    )


def describe(name: str) -> str:
    """The report's sentence for a system, or why the name is none."""
    try:
        return resolve(name).description
    except ValueError as exc:
        return str(exc)


def system_params(name: str) -> dict:
    """The full parameters of a memory recipe, for the run log; {} for the others."""
    if lookup(name) is not None:
        return {}
    base, tools = split_tools(name)
    params = recipe(base).model_dump(mode="json")
    return {**params, "agentic_memory": True} if tools else params


def _recipe_sentence(base: str, tools: bool) -> str:
    """The triggers' own one-liners, any of which compresses."""
    said = []
    for use in recipe(base).triggers:
        trigger = get_trigger(use.name)
        said.append((trigger.summary if trigger else "").rstrip(".") or use.name)
    sentence = "memory recipe, " + "; or ".join(said)
    if tools:
        sentence += "; the replying model also keeps memory with the memory tools"
    return sentence
