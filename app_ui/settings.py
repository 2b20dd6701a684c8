"""What the sidebar chose, validated before any memory is opened.

Settings from the environment come from `memlab_cli.settings`, the one reader of
`MEMORY_LAB_*` variables, and go no deeper than this package.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from memlab_evals.judging.endpoints import Endpoint
from pydantic import ValidationError

from memlab_cli.settings import Settings, llm_settings
from memory_lab.api import StoreSpec
from memory_lab.config import (
    LimitsConfig,
    LLMSettings,
    MemoryConfig,
    RetentionConfig,
)
from memory_lab.errors import MemoryLabError, require_tenant
from memory_lab.recipes import recipe

DEFAULT_DATA_DIR = Path("data") / "app"
# A chat box is not an import tool: a paste past this is refused with a clear reason
# instead of being stored and then rendered in full on every rerun.
APP_MAX_MESSAGE_CHARS = 20_000
MAX_TENANT_CHARS = 64


class SettingsError(MemoryLabError):
    """A control holds a value the app cannot use; the message names the control."""


def data_dir() -> Path:
    """The app's data folder: $MEMORY_LAB_DATA, else ./data/app."""
    return Settings().data or DEFAULT_DATA_DIR


def store_spec() -> StoreSpec:
    """Where the app's memory lives: $MEMORY_LAB_STORE and _EPISODES_STORE, if set.

    Raises:
        SettingsError: for a URL of an unknown scheme.
    """
    try:
        return Settings().stores()
    except MemoryLabError as err:
        raise SettingsError(str(err)) from None


def validate_tenant(tenant: str | None) -> str:
    """A usable tenant name.

    Raises:
        SettingsError: when it is blank or too long.
    """
    try:
        name = require_tenant((tenant or "").strip())
    except MemoryLabError:
        raise SettingsError(
            "Tenant: enter a name (memory is kept per tenant)"
        ) from None
    if len(name) > MAX_TENANT_CHARS:
        raise SettingsError(f"Tenant: at most {MAX_TENANT_CHARS} characters")
    return name


def validate_base_url(url: str) -> str:
    """An http(s) URL with a host, before any request is made to it.

    Raises:
        SettingsError: naming what is wrong with the URL.
    """
    url = (url or "").strip()
    if not url:
        raise SettingsError(
            "LLM base URL: enter a URL such as http://127.0.0.1:8000/v1"
        )
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https"):
        shown = parsed.scheme or "none"
        raise SettingsError(
            f"LLM base URL {url!r}: the scheme must be http or https (got {shown})"
        )
    if not parsed.hostname:
        raise SettingsError(f"LLM base URL {url!r}: no host name")
    try:
        _ = parsed.port
    except ValueError:
        raise SettingsError(f"LLM base URL {url!r}: the port is not a number") from None
    return url


#: Timing for a small model on this machine's CPU (SmolLM2-135M on llama.cpp):
#: a summary of a long span took 25-53 s, and a one-slot server makes a reply wait
#: behind it. Two attempts ride out one dropped request; after a failure replies
#: rest 15 s, memory work a minute. Each lane has its own breaker, so slow memory
#: work never sends replies to the offline responder.
LOCAL_MODEL_TIMING: dict[str, float | int] = {
    "reply_timeout_s": 90.0,
    "background_timeout_s": 180.0,
    "max_attempts": 2,
    "reply_breaker_cooldown_s": 15.0,
    "breaker_cooldown_s": 60.0,
}


def build_llm(
    base_url: str, model: str, *, agentic_memory: bool = False, **timing: float | int
) -> LLMSettings:
    """LLM settings from the brain controls, validated.

    Args:
        base_url: The endpoint, ending in /v1.
        model: The model id.
        agentic_memory: Offer the replying model the memory tools.
        **timing: `LLMSettings` fields over `LOCAL_MODEL_TIMING`.

    Raises:
        SettingsError: for a bad URL, an empty model name, or a timing value out
            of range (the message names the setting).
    """
    url = validate_base_url(base_url)
    if not (model or "").strip():
        raise SettingsError("LLM model: enter a model name")
    env = Settings()
    try:
        return llm_settings(
            Endpoint(url, model.strip(), env.llm_api_key),
            cache_path=env.llm_cache,
            agentic_memory=agentic_memory,
            **{**LOCAL_MODEL_TIMING, **timing},
        )
    except MemoryLabError as err:
        raise SettingsError(str(err)) from None


def llm_defaults() -> tuple[str, str]:
    """The brain controls' starting URL and model: the environment's, if set."""
    env = Settings()
    return env.llm_base_url or "", env.llm_model or ""


def agentic_default() -> bool:
    """Whether the agentic memory toggle starts on (`app --agentic-memory`)."""
    return Settings().agentic_memory


@dataclass(frozen=True)
class AppSettings:
    """The controls' state: who is chatting and with which memory recipe and brain."""

    tenant: str = "demo"
    recipe_spec: str = "A+C"
    params: tuple[tuple[str, object], ...] = field(default_factory=tuple)
    llm: LLMSettings | None = None

    def config(self) -> MemoryConfig:
        """The memory configuration these settings describe.

        Raises:
            SettingsError: when a recipe parameter is out of range.
        """
        try:
            chosen = recipe(self.recipe_spec).with_params(**dict(self.params))
        except ValueError as err:
            first = str(err).splitlines()
            raise SettingsError(
                f"Recipe {self.recipe_spec}: {_short(err, first)}"
            ) from None
        try:
            return MemoryConfig(
                recipe=chosen,
                limits=LimitsConfig(max_message_chars=APP_MAX_MESSAGE_CHARS),
                llm=self.llm,
                retention=env_retention(),
            )
        except ValidationError as err:
            first = err.errors()[0]
            raise SettingsError(f"MEMORY_LAB_RETENTION: {first['msg']}") from None

    @property
    def brain_label(self) -> str:
        """Short label of the chosen brain, for captions."""
        return (
            "rule-based"
            if self.llm is None
            else f"{self.llm.model} @ {self.llm.base_url}"
        )


def _short(err: ValueError, lines: list[str]) -> str:
    # pydantic's messages span lines; the last "Value error, ..." line names the rule.
    for line in reversed(lines):
        if "Value error" in line:
            return line.split("Value error, ", 1)[-1].split(" [type=")[0]
    return lines[0] if lines else str(err)


def env_retention() -> RetentionConfig:
    """The retention policy `MEMORY_LAB_RETENTION` gives (JSON), or none.

    Raises:
        SettingsError: naming the variable, when it is not a valid policy.
    """
    try:
        return Settings().retention
    except ValidationError as err:
        first = err.errors()[0]
        loc = [str(p) for p in first["loc"]]
        name = f"MEMORY_LAB_{loc[0].upper()}" if loc else "settings"
        where = ".".join(loc[1:])
        raise SettingsError(
            f"{name}: {where + ': ' if where else ''}{first['msg']}"
        ) from None
