"""Named trigger recipes, and the one grammar every spec string is written in.

Researchers name what they run in short strings that go into logs and on the
command line: a recipe (``A+B``, ``B(b_high_water=800)``), an eval system, a
dataset (``synthetic:seed=7``). All of them share one grammar, parsed here:
``NAME``, ``NAME(k=v,...)`` or ``NAME:k=v,...``.
"""

from __future__ import annotations

import ast

from memory_lab.config import Recipe, TriggerUse
from memory_lab.triggers.registry import get_trigger, trigger_names

# --- the spec grammar ------------------------------------------------------------


def split_spec(spec: str) -> tuple[str, str | None]:
    """The name of a spec and the raw text of its arguments (None when it has none).

    ``A(a_max_messages=30)`` -> ("A", "a_max_messages=30"); ``locomo:data.json``
    -> ("locomo", "data.json"); ``A`` -> ("A", None).

    Raises:
        ValueError: for unbalanced parentheses.
    """
    text = spec.strip()
    if "(" in text or ")" in text:
        name, sep, rest = text.partition("(")
        if not sep or not rest.endswith(")") or rest.count(")") != rest.count("(") + 1:
            raise ValueError(f"unbalanced parentheses in {spec!r}")
        return name.strip(), rest[:-1]
    name, sep, rest = text.partition(":")
    return name.strip(), (rest if sep else None)


def parse_params(raw: str | None, spec: str = "") -> dict[str, str]:
    """``k=v,k2=v2`` as a dict of raw strings; dashes in keys read as underscores.

    Raises:
        ValueError: for a part that is not key=value.
    """
    params: dict[str, str] = {}
    for part in (raw or "").split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            where = f"{spec}: " if spec else ""
            raise ValueError(f"{where}expected key=value, got {part.strip()!r}")
        params[key.strip().replace("-", "_")] = value.strip()
    return params


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """A spec's name and its parameters as raw strings.

    Raises:
        ValueError: for unbalanced parentheses or a part that is not key=value.
    """
    name, raw = split_spec(spec)
    return name, parse_params(raw, spec)


def split_specs(specs: str) -> list[str]:
    """Specs from a comma list, keeping the commas inside parentheses.

    ``"A,B(b_high_water=800,b_low_water=400),full"`` holds three specs.

    Raises:
        ValueError: for unbalanced parentheses.
    """
    names: list[str] = []
    depth, current = 0, ""
    for ch in specs:
        if ch == "," and depth == 0:
            names.append(current.strip())
            current = ""
            continue
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            raise ValueError(f"unbalanced parentheses in {specs!r}")
        current += ch
    if depth:
        raise ValueError(f"unbalanced parentheses in {specs!r}")
    names.append(current.strip())
    return [n for n in names if n]


def literal(raw: str) -> object:
    """A parameter value: a Python literal when it reads as one, else the string."""
    try:
        return ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        return raw


# --- named recipes ----------------------------------------------------------------


def recipe_parts(name: str) -> list[str] | None:
    """The triggers a recipe name combines ('A+B' -> ['A', 'B']); None if not one.

    Any registered trigger may be combined with any other (any-of).
    """
    parts = [p.strip().upper() for p in name.split("+") if p.strip()]
    if not parts or any(get_trigger(p) is None for p in parts):
        return None
    return parts


def single_recipes() -> tuple[str, ...]:
    """One recipe per registered trigger: what a menu of recipes starts from."""
    return trigger_names()


def recipe(spec: str) -> Recipe:
    """The recipe a spec names: one trigger or an any-of such as 'A+D', with params.

    ``A+B(a_max_messages=30)`` overrides trigger parameters and ``D(threshold=0.3)``
    a parameter only one of the recipe's triggers takes (see `Recipe.with_params`).

    Raises:
        ValueError: naming the unknown part or the bad parameter.
    """
    name, params = parse_spec(spec)
    parts = recipe_parts(name)
    if parts is None:
        known = ", ".join(trigger_names())
        raise ValueError(
            f"unknown recipe {name!r}: use a trigger ({known}) or a combination "
            "such as A+B"
        )
    ordered = sorted(set(parts))
    rec = Recipe(
        name="+".join(ordered), triggers=tuple(TriggerUse(name=p) for p in ordered)
    )
    if not params:
        return rec
    return rec.with_params(**{k: literal(v) for k, v in params.items()})
