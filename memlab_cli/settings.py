"""Every `MEMORY_LAB_*` environment variable, read in one place.

The library never reads the environment: the edges (the command line, the app,
the notebooks) build a `Settings`, let their flags override it, and pass plain
config objects in. Keys are `SecretStr`, so no repr, log line or run log shows
them.

- `MEMORY_LAB_LLM_BASE_URL`, `_LLM_MODEL`, `_LLM_API_KEY`: the LLM brain (a base
  URL alone selects it).
- `MEMORY_LAB_EXTRACT_BASE_URL`, `_MODEL`, `_API_KEY`: a separate extraction model.
- `MEMORY_LAB_ANSWER_BASE_URL`, `_MODEL`, `_API_KEY`: the model answering probes.
- `MEMORY_LAB_JUDGE_BASE_URL`, `_MODEL`, `_API_KEY`: the judge grading answers.
- `MEMORY_LAB_LLM_CACHE`: the response cache file.
- `MEMORY_LAB_VECTOR_CACHE`: the file `eval` and `main` keep embeddings in (default
  under the user's cache folder; `off` keeps them in memory only).
- `MEMORY_LAB_LLM_MAX_CONNECTIONS`, `MEMORY_LAB_LLM_TIMEOUT_S`: how requests are made.
- `MEMORY_LAB_AGENTIC_MEMORY`: the app offers its replying model the memory tools
  (`memory-lab app --agentic-memory`; the sidebar toggle starts on).
- `MEMORY_LAB_DATA`: the app's data folder; `MEMORY_LAB_RUNS`: where runs live.
- `MEMORY_LAB_STORE`: a `postgresql://` URL for the transcript, facts, events and
  job ledger; `MEMORY_LAB_EPISODES_STORE`: an `http://host:port` Chroma server
  for the episodes (`--store`, `--episodes-store`). Unset, both stay local files.
- `MEMORY_LAB_LOCOMO`: the LoCoMo file `main` adds.
- `MEMORY_LAB_NB_FULL`: notebooks run their full settings.
- `MEMORY_LAB_PURGE_CRASH_AFTER`: test-only fault hook: `purge` SIGKILLs itself
  after that tier (`memlab_cli.purge_cmd`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from memlab_evals.judging.endpoints import Endpoint
from pydantic import Field, SecretStr, ValidationError
from pydantic_settings import BaseSettings, SettingsConfigDict

from memory_lab.api import DEFAULT_NAMESPACE, StoreSpec
from memory_lab.config import LLMSettings, RetentionConfig
from memory_lab.errors import MemoryLabError

BrainKind = Literal["rule", "llm"]


class Settings(BaseSettings):
    """What the environment says, before any flag overrides it."""

    model_config = SettingsConfigDict(
        env_prefix="MEMORY_LAB_", extra="ignore", frozen=True
    )

    llm_base_url: str | None = Field(
        default=None, description="The LLM brain's endpoint; set, it selects the brain."
    )
    llm_model: str | None = Field(default=None, description="The LLM brain's model.")
    llm_api_key: SecretStr | None = None
    extract_base_url: str | None = Field(
        default=None, description="A separate fact-extraction endpoint."
    )
    extract_model: str | None = Field(
        default=None, description="A separate (often cheaper) extraction model."
    )
    extract_api_key: SecretStr | None = None
    answer_base_url: str | None = Field(
        default=None, description="Endpoint answering eval probes (default: brain's)."
    )
    answer_model: str | None = None
    answer_api_key: SecretStr | None = None
    judge_base_url: str | None = Field(
        default=None, description="Endpoint of the judge grading answers."
    )
    judge_model: str | None = None
    judge_api_key: SecretStr | None = None
    llm_cache: Path | None = Field(
        default=None,
        description="Response cache file (default: the user's cache folder).",
    )
    vector_cache: str | None = Field(
        default=None,
        description="Where eval and main keep embeddings ('off': memory only; "
        "default: the user's cache folder).",
    )
    llm_max_connections: int = Field(default=4, ge=1)
    llm_timeout_s: float = Field(default=60.0, gt=0)
    agentic_memory: bool = Field(
        default=False,
        description="The app's replying model is offered the memory tools.",
    )
    retention: RetentionConfig = Field(
        default_factory=RetentionConfig,
        description="The app's retention policy, as JSON "
        '(e.g. {"raw_turns_days": 30, "facts_days": {"unresolved": 60}}).',
    )
    data: Path | None = Field(default=None, description="The app's data folder.")
    app_demo: bool = Field(
        default=False,
        description="The app as a public demo: a memory per browser session "
        "(`memory-lab app --demo`).",
    )
    demo_idle_s: float = Field(
        default=3600.0,
        gt=0,
        description="Seconds a demo session may idle before its memory is deleted.",
    )
    demo_root: Path | None = Field(
        default=None,
        description="Where demo sessions' folders live (default: the temp folder).",
    )
    runs: Path = Field(default=Path("runs"), description="Where eval runs live.")
    locomo: Path | None = Field(default=None, description="LoCoMo file for `main`.")
    nb_full: bool = Field(default=False, description="Notebooks run full settings.")
    purge_crash_after: str | None = Field(
        default=None, description="Test-only: purge kills itself after this tier."
    )
    store: str | None = Field(
        default=None,
        description="postgresql:// URL of the transcript, facts, events and ledger.",
    )
    episodes_store: str | None = Field(
        default=None, description="http://host:port of a Chroma server for episodes."
    )

    def vector_cache_path(self) -> Path | None:
        """The embedding cache file evals use, or None for `off`."""
        if self.vector_cache is not None and self.vector_cache.strip().lower() in (
            "",
            "off",
        ):
            return None
        if self.vector_cache:
            return Path(self.vector_cache)
        from memory_lab.vector_cache import default_vector_path

        return default_vector_path()

    # -- stores, flags over environment ----------------------------------------------

    def stores(
        self,
        store: str | None = None,
        episodes: str | None = None,
        *,
        namespace: str = DEFAULT_NAMESPACE,
    ) -> StoreSpec:
        """Where memory lives: the flags' URLs, else the environment's.

        Raises:
            StoreURLError: for a URL of an unknown scheme (it names the URL).
        """
        return StoreSpec(
            store=(store or self.store or "").strip() or None,
            episodes=(episodes or self.episodes_store or "").strip() or None,
            namespace=namespace,
        )

    # -- endpoints, flags over environment -------------------------------------------

    def brain(
        self,
        kind: BrainKind | None = None,
        base_url: str | None = None,
        model: str | None = None,
    ) -> Endpoint | None:
        """The LLM brain's endpoint, or None for the rule-based brain.

        Without `kind`, a base URL (flag or environment) selects the LLM brain.

        Raises:
            MemoryLabError: `--brain llm` without an endpoint or model.
        """
        url = base_url or self.llm_base_url
        if kind == "rule" or (kind is None and not url):
            return None
        return _endpoint(
            "brain",
            url,
            model or self.llm_model,
            self.llm_api_key,
            "--llm-base-url or MEMORY_LAB_LLM_BASE_URL",
            "--llm-model or MEMORY_LAB_LLM_MODEL",
        )

    def extractor(
        self, base_url: str | None = None, model: str | None = None
    ) -> Endpoint | None:
        """A separate extraction model, or None to extract with the brain's."""
        url = base_url or self.extract_base_url
        name = model or self.extract_model
        if not url and not name:
            return None
        return _endpoint(
            "extraction model",
            url or self.llm_base_url,
            name or self.llm_model,
            self.extract_api_key or self.llm_api_key,
            "--extract-base-url or MEMORY_LAB_EXTRACT_BASE_URL",
            "--extract-model or MEMORY_LAB_EXTRACT_MODEL",
        )

    def answerer(
        self,
        base_url: str | None = None,
        model: str | None = None,
        brain: Endpoint | None = None,
    ) -> Endpoint:
        """The model that answers eval probes; the brain's endpoint by default.

        Raises:
            MemoryLabError: no answer endpoint and no LLM brain to borrow one from.
        """
        url = base_url or self.answer_base_url or (brain.base_url if brain else None)
        name = model or self.answer_model or (brain.model if brain else None)
        key = self.answer_api_key or (brain.api_key if brain else None)
        return _endpoint(
            "answer model",
            url,
            name,
            key,
            "--answer-base-url, MEMORY_LAB_ANSWER_BASE_URL or an LLM brain",
            "--answer-model, MEMORY_LAB_ANSWER_MODEL or an LLM brain",
        )

    def judge(
        self, base_url: str | None = None, model: str | None = None
    ) -> Endpoint | None:
        """The judge, or None when neither flags nor environment name one."""
        url = base_url or self.judge_base_url
        name = model or self.judge_model
        if not url and not name:
            return None
        return _endpoint(
            "judge",
            url,
            name,
            self.judge_api_key,
            "--judge-base-url or MEMORY_LAB_JUDGE_BASE_URL",
            "--judge-model or MEMORY_LAB_JUDGE_MODEL",
        )

    def llm_settings(
        self,
        brain: Endpoint | None,
        extractor: Endpoint | None = None,
        *,
        timeout_s: float | None = None,
        use_cache: bool = True,
    ) -> LLMSettings | None:
        """The library's config for the brain (None: the rule-based brain)."""
        if brain is None:
            return None
        return llm_settings(
            brain,
            extractor=extractor,
            timeout_s=timeout_s or self.llm_timeout_s,
            cache_path=self.llm_cache,
            use_cache=use_cache,
            max_connections=self.llm_max_connections,
        )


def llm_settings(
    brain: Endpoint,
    *,
    extractor: Endpoint | None = None,
    timeout_s: float | None = None,
    **client: object,
) -> LLMSettings:
    """`LLMSettings` for an endpoint, passing only the options the library knows.

    The client options (cache, connections, structured output) grew with the LLM
    layer; asking the model class which it has keeps this edge in step with it.

    Raises:
        MemoryLabError: a value out of range, in one line naming the setting.
    """
    fields = LLMSettings.model_fields
    values: dict[str, object] = {"base_url": brain.base_url, "model": brain.model}
    if brain.key and "api_key" in fields:
        values["api_key"] = brain.key
    if timeout_s is not None and "timeout_s" in fields:
        values["timeout_s"] = timeout_s
    if extractor is not None:
        for name, value in (
            ("extract_base_url", extractor.base_url),
            ("extract_model", extractor.model),
            ("extract_api_key", extractor.key),
        ):
            if name in fields and value is not None:
                values[name] = value
    for name, value in client.items():
        if name in fields and value is not None:
            # Paths travel as strings: the library's settings dump to plain JSON.
            values[name] = str(value) if isinstance(value, Path) else value
    try:
        return LLMSettings(**values)
    except ValidationError as err:
        raise MemoryLabError(_first_problem(err)) from None


def _first_problem(err: ValidationError) -> str:
    """The validation report cut to one line: the setting, the rule, the value given."""
    first = err.errors()[0]
    name = ".".join(str(part) for part in first["loc"]) or "LLM settings"
    return f"LLM setting {name}: {first['msg']} (got {first['input']!r})"


def _endpoint(
    role: str,
    url: str | None,
    model: str | None,
    key: SecretStr | None,
    url_hint: str,
    model_hint: str,
) -> Endpoint:
    if not url:
        raise MemoryLabError(f"the {role} needs an endpoint: set {url_hint}")
    if not model:
        raise MemoryLabError(f"the {role} needs a model name: set {model_hint}")
    return Endpoint(url.strip(), model.strip(), key)


def load() -> Settings:
    """The environment's settings, read now."""
    return Settings()
