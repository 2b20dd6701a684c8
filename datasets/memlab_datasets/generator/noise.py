"""Exchanges that carry no fact: small talk, domain chatter and sign-offs.

They are what a memory must learn to pass over. (Long rambles around a user
turn are written by `Timeline.say`, since any turn may get one.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memlab_datasets.domains import SIGN_OFFS, SMALL_TALK, SMALL_TALK_REPLIES

if TYPE_CHECKING:
    from memlab_datasets.generator.timeline import Timeline


def small_talk(timeline: Timeline) -> None:
    """One exchange of small talk."""
    timeline.exchange(timeline.pick(SMALL_TALK), timeline.pick(SMALL_TALK_REPLIES))


def chatter(timeline: Timeline) -> None:
    """One on-topic question of the domain's that states nothing about the user."""
    domain = timeline.domain
    # Chatter and its replies are parallel lists: a question gets its answer.
    i = timeline.rng.randrange(len(domain.chatter))
    timeline.exchange(domain.chatter[i], domain.chatter_replies[i])


def sign_off(timeline: Timeline) -> None:
    """A last user turn with no reply, for sessions of an odd length."""
    timeline.say("user", timeline.pick(SIGN_OFFS))
