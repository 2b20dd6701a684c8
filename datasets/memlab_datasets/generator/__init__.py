"""Seeded synthetic conversations whose every fact, update and trap is known.

Determinism is the point: the same knobs give byte-identical output, so a result
can be reproduced from its dataset name alone. Each conversation draws from its
own `random.Random` seeded by (seed, index), so conversation 3 is the same whether
two or twenty conversations are generated. Time comes from a fixed epoch plus
seeded offsets, never from the wall clock.

A conversation is built in two passes: a timeline of exchanges (user turn plus
assistant reply) that records every statement, update and trap as it is emitted,
then probes placed on that timeline, each at a moment when its answer is settled.

Map:

- `config`: `GeneratorConfig`, the epoch and the generator's version.
- `timeline`: the conversation being written and what it planted.
- `conversation`: sessions of exchanges, assembled into a `Conversation`.
- `fact_moves`: stating, updating, confirming, opening and resolving facts.
- `traps`: turns that name a value the user does not hold.
- `noise`: small talk, chatter, sign-offs and long messages.
- `gold`: the gold facts read off a finished timeline.
- `probes`: probes placed where their answers are settled.
"""

from __future__ import annotations

import random

from memlab_datasets.domains import DOMAIN_TABLE, DOMAINS
from memlab_datasets.generator.config import (
    EPOCH,
    GENERATOR_VERSION,
    USER_SPEAKER,
    GeneratorConfig,
)
from memlab_datasets.generator.conversation import build_conversation
from memlab_datasets.types import Conversation, Dataset

__all__ = [
    "EPOCH",
    "GENERATOR_VERSION",
    "USER_SPEAKER",
    "GeneratorConfig",
    "generate",
    "generate_conversation",
]


def generate(config: GeneratorConfig | None = None) -> Dataset:
    """A synthetic dataset for `config` (defaults: a set quick enough for evals)."""
    config = config or GeneratorConfig()
    conversations = [
        generate_conversation(config, index) for index in range(config.conversations)
    ]
    return Dataset.build(
        name=config.spec(),
        conversations=conversations,
        metadata={
            "source": "synthetic",
            "generator_version": GENERATOR_VERSION,
            "config": config.model_dump(),
        },
    )


def generate_conversation(config: GeneratorConfig, index: int) -> Conversation:
    """Conversation number `index` of the dataset `config` describes."""
    domain_name = (
        DOMAINS[index % len(DOMAINS)] if config.domain == "mixed" else config.domain
    )
    rng = random.Random(f"memlab-synthetic:{config.seed}:{index}")
    return build_conversation(config, index, DOMAIN_TABLE[domain_name], rng)
