"""The versioned eval log: one typed record of a run.

Scorers, reports, gates, the app and notebooks all read it. Scorers are pure
functions of these records, so a stored run can be re-scored without re-running it.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from memlab_evals.running.llm_records import JudgeVerdict, LLMRunInfo, ModelAnswer

LOG_VERSION = 1


class Model(BaseModel):
    """Base: strict and serialisable."""

    model_config = ConfigDict(extra="forbid")


class StoredFact(Model):
    """A fact row the system stored (memory recipes only), for hallucination scoring."""

    id: str
    subject: str
    category: str
    key: str
    value: str
    status: str
    source: str
    turn_ids: list[str]
    evidence: str = ""


class EpisodeStat(Model):
    """One episode's sizes, for its ratio: source tokens over summary tokens."""

    id: str
    original_tokens: int
    summary_tokens: int
    original_message_count: int
    coherence: float | None = Field(
        default=None,
        description="Mean cosine of its turns' embeddings to their centroid (one "
        "topic scores high); None for a one-turn episode.",
    )


class TriggerTrace(Model):
    """What a recipe's triggers did over one conversation, and what it cost."""

    wait_turns: list[int] = Field(
        default_factory=list,
        description="Per compressed turn: turns ingested after it, itself "
        "included, until a trigger chose it for compression.",
    )
    wait_minutes: list[float] = Field(
        default_factory=list,
        description="Per compressed turn: minutes from it to that decision.",
    )
    prefix_changes: int = Field(
        default=0,
        description="Turns after which the context's question-independent part "
        "(the running summary and the core facts) differed from before the turn.",
    )
    brain_reads: dict[str, int] = Field(
        default_factory=dict,
        description="Tokens memory work gave the brain to read, and calls, by kind "
        "(summarize, condense, extract), whatever the brain.",
    )


class ProbeRecord(Model):
    """One probe as one system answered it: the exact context, and what it cost."""

    system: str
    conversation: str
    probe_id: str
    category: int
    kind: str
    question: str
    answer: str
    stale_answers: list[str] = Field(default_factory=list)
    adversarial_answer: str | None = None
    evidence: list[str] = Field(default_factory=list)
    evidence_texts: list[str] = Field(
        default_factory=list, description="Text of each evidence turn, in order."
    )
    evidence_sessions: dict[str, list[str]] = Field(
        default_factory=dict,
        description="Each session that holds the answer, when the data set names "
        "them (LongMemEval's answer_session_ids): its turns' text up to the probe.",
    )
    after_turn: str
    fact_keys: list[str] = Field(
        default_factory=list, description="Keys of the gold facts the probe asks about."
    )
    context: str
    context_tokens: int
    history_tokens: int = Field(description="Raw tokens of all turns up to the probe.")
    stored_tokens: int = Field(
        description="Tokens the system stores at probe time (window, summary, "
        "episode summaries, active facts; raw turns for baselines)."
    )
    retrieve_ms: float
    context_items: list[str] = Field(default_factory=list)
    context_tiers: dict[str, str] = Field(
        default_factory=dict,
        description="The context's text by the tier that put it there (window, "
        "summary, episodes, excerpts, facts); memory recipes only.",
    )
    ragas: dict[str, float] = Field(
        default_factory=dict,
        description="ragas's metrics on this probe (eval --ragas): "
        "non_llm_context_recall, non_llm_context_precision, string_presence and, "
        "with a judge, faithfulness and answer_correctness.",
    )
    ragas_failed: list[str] = Field(
        default_factory=list,
        description="ragas LLM metrics that failed on this probe (left unscored).",
    )
    summary_only_context: str | None = Field(
        default=None,
        description="The context built without verbatim excerpts: what the "
        "summaries, window and facts alone hold; memory recipes only.",
    )
    asked_at: str | None = Field(
        default=None,
        description="ISO time the probe was asked: the turn it follows, or the "
        "probe's own later time (LongMemEval's question date).",
    )
    model_answer: ModelAnswer | None = Field(
        default=None, description="The answer model's reply (eval --answer)."
    )
    answer_verdict: JudgeVerdict | None = Field(
        default=None, description="The judge on that answer (J)."
    )
    context_verdict: JudgeVerdict | None = Field(
        default=None, description="The judge on the context alone."
    )
    error: str | None = Field(
        default=None,
        description="Why the context may be incomplete: the system's search "
        "failed, or adds failed before the probe (peer systems).",
    )


class ConversationRun(Model):
    """What one system did over one whole conversation."""

    system: str
    conversation: str
    turns: int
    ingest_ms: list[float] = Field(description="Per-turn ingest latency, in order.")
    brain: str = ""
    brain_calls: int = 0
    brain_tokens: int = 0
    brain_usage: dict[str, int] = Field(
        default_factory=dict,
        description="The brain's own counters (calls, tokens, cache hits, facts "
        "proposed and rejected, fallbacks).",
    )
    compressions: int = 0
    stored_facts: list[StoredFact] = Field(default_factory=list)
    gold_facts: list[dict] = Field(
        default_factory=list,
        description="The conversation's gold facts (GoldFact dicts).",
    )
    traps: list[dict] = Field(default_factory=list)
    turn_texts: dict[str, str] = Field(
        default_factory=dict, description="Turn id -> text, for support checks."
    )
    turn_speakers: dict[str, str] = Field(default_factory=dict)
    episodes: list[EpisodeStat] = Field(default_factory=list)
    trigger: TriggerTrace | None = Field(
        default=None, description="Memory recipes only: what the triggers did."
    )
    status: str = Field(
        default="ok",
        description="'ok', 'errors', 'failed' (gave up part-way) or 'skipped: "
        "why' (never ran, so no probes).",
    )
    errors: dict[str, int] = Field(
        default_factory=dict, description="Failures by kind, counted."
    )
    events: list[dict[str, str]] = Field(
        default_factory=list,
        description="Each failure: where (turn or probe), stage and error.",
    )


class RunConfig(Model):
    """How the run was made."""

    dataset: str
    dataset_hash: str
    source: str = Field(
        default="",
        description="Where the conversations come from ('synthetic', 'locomo', "
        "'longmemeval', a plug-in's name; '+' between several); '' in logs "
        "written before it was recorded, whose spec says it instead.",
    )
    systems: list[str]
    recipes: dict[str, dict] = Field(
        default_factory=dict, description="Recipe name -> its full parameters."
    )
    memory: dict = Field(
        default_factory=dict,
        description="Every other engine setting of the memory systems (budget "
        "shares, retrieval, assembly, fact policy), as `MemoryConfig` dumps it.",
    )
    budget: int
    workers: int
    executor: str = Field(
        default="local",
        description="Where the units ran: 'local' or 'ray'; results do not depend "
        "on it.",
    )
    git_commit: str
    started_at: str
    memory_lab_version: str
    corrections: str = Field(
        default="none", description="LoCoMo answer-key corrections: 'none' or 'audit'."
    )
    judge: str | None = None
    triggers: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="Each trigger the recipes use: its module, one-line summary "
        "and a digest of its source.",
    )
    plugins: list[str] = Field(
        default_factory=list, description="Modules loaded with --plugin."
    )


class RunLog(Model):
    """A whole eval run."""

    version: int = LOG_VERSION
    config: RunConfig
    scorers: dict[str, str] = Field(
        default_factory=dict, description="Scorer name -> version."
    )
    conversations: list[ConversationRun]
    probes: list[ProbeRecord]
    llm: LLMRunInfo | None = Field(
        default=None, description="Models, prompts, cache and spend of the run."
    )

    def save(self, path: Path) -> None:
        """Write as JSON."""
        path.write_text(self.model_dump_json(indent=1), encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> RunLog:
        """Read a run.json, refusing versions this code does not know."""
        log = cls.model_validate_json(path.read_text(encoding="utf-8"))
        if log.version != LOG_VERSION:
            raise ValueError(
                f"{path}: run log version {log.version}; expected {LOG_VERSION}"
            )
        return log
