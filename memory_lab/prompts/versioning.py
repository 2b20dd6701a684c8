"""Prompt versions that cannot go stale: digests of what the model is sent.

A version typed beside the text stays the same when someone edits the text and
forgets to bump it, and then two runs with different prompts look alike. Here a
version is the prompt's name and a digest of the text it is built from: the
module's source (its wording lives there) with the shared rendering rules, and
its response schemas. An edit to a comment changes the version too; that costs a
re-run, never a wrong comparison.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from types import ModuleType

from pydantic import BaseModel

from memory_lab.prompts import _render

DIGEST_CHARS = 12


def text_version(name: str, *parts: str) -> str:
    """`name/<digest>` of the given texts, in order."""
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()
    return f"{name}/{digest[:DIGEST_CHARS]}"


def module_version(module: ModuleType, name: str) -> str:
    """The version of the prompt a module builds.

    A digest of its source, the shared rendering rules and the JSON schema of
    every response model it defines.
    """
    schemas = [
        json.dumps(obj.model_json_schema(), sort_keys=True)
        for obj in vars(module).values()
        if isinstance(obj, type)
        and issubclass(obj, BaseModel)
        and obj.__module__ == module.__name__
    ]
    return text_version(
        name, inspect.getsource(module), inspect.getsource(_render), *schemas
    )
