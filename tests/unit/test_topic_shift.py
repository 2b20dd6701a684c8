"""Trigger D: a topic is compressed once the conversation has moved on from it."""

from __future__ import annotations

import numpy as np
import pytest

from memory_lab.embeddings import default_embedder
from memory_lab.recipes import recipe
from memory_lab.tokens import default_counter
from memory_lab.triggers.running import decide
from memory_lab.triggers.topic_shift import TopicShiftTrigger, shift_points
from tests.helpers import T0, msg

COUNTER = default_counter()

GARDEN = [
    "The tomatoes in my garden finally turned red this week.",
    "I water the vegetable beds every morning before work.",
    "Slugs keep eating the lettuce, so I put copper tape around the planters.",
    "Next spring I want to plant more basil and some peppers.",
    "The compost heap is warm already, which the gardening club says is good.",
    "My neighbour gave me cuttings of her rosemary for the herb bed.",
]
TAXES = [
    "My tax return is due at the end of the month and I haven't started.",
    "Can I deduct the home office costs from my income tax?",
    "The accountant wants every receipt and bank statement for the year.",
    "I also have to file the VAT return for my side business.",
]


def _embed(turns):
    return default_embedder().embed([m.content for m in turns])


def _window(texts):
    return [msg(i, text) for i, text in enumerate(texts)]


def test_the_garden_is_compressed_once_the_talk_turns_to_taxes():
    d = decide(_window(GARDEN + TAXES), T0, recipe("D"), COUNTER, embed=_embed)
    assert d.fire and d.triggers == ["D"]
    assert d.compress_count == len(GARDEN)
    assert "centroid" in d.reasons[0]


def test_one_topic_is_left_alone_until_the_window_is_full():
    window = _window(GARDEN)
    assert not decide(window, T0, recipe("D"), COUNTER, embed=_embed).fire
    small = recipe("D(max_messages=6,min_span=2,recent=2)")
    d = decide(window, T0, small, COUNTER, embed=_embed)
    assert d.fire and 1 <= d.compress_count < len(GARDEN)


def test_a_shift_waits_until_the_new_topic_is_established():
    # The first tax lines already pull away from the garden, but where the
    # topic changed is known only once the distance has peaked.
    for seen in range(1, len(TAXES)):
        window = _window(GARDEN + TAXES[:seen])
        assert not decide(window, T0, recipe("D"), COUNTER, embed=_embed).fire


def test_shift_points_measure_distance_from_the_centroid_before():
    same = np.tile(np.eye(4, dtype=np.float32)[0], (8, 1))
    assert shift_points(same, TopicShiftTrigger()) == []
    moved = np.vstack([same[:5], np.tile(np.eye(4, dtype=np.float32)[1], (4, 1))])
    points = shift_points(moved, TopicShiftTrigger())
    assert points == [(5, pytest.approx(1.0))]
    # With the last cut unconfirmed (no turn after the recent block) none counts.
    assert shift_points(moved[:8], TopicShiftTrigger()) == []


def test_bad_parameters_are_named():
    with pytest.raises(ValueError, match="min_span"):
        recipe("D(max_messages=4,min_span=3,recent=3)")
    with pytest.raises(ValueError, match="threshold"):
        recipe("D(threshold=0)")
