"""The brain behind an OpenAI-compatible endpoint, rule-based as its fallback."""

from memory_lab.brains.llm.brain import OpenAICompatBrain

__all__ = ["OpenAICompatBrain"]
