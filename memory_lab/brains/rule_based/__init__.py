"""The offline, deterministic brain: pattern extraction and extractive summaries."""

from memory_lab.brains.rule_based.brain import RuleBasedBrain

__all__ = ["RuleBasedBrain"]
