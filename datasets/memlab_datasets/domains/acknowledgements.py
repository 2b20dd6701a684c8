"""How the assistant acknowledges what the user tells it."""

from __future__ import annotations

ACKS: tuple[str, ...] = (
    "Got it, I'll remember that.",
    "Noted.",
    "Thanks for letting me know.",
    "Understood, I've made a note.",
)
UPDATE_ACKS: tuple[str, ...] = (
    "Okay, updated.",
    "Thanks, I've changed that.",
    "Understood, I'll use the new one.",
)
CONFIRM_ACKS: tuple[str, ...] = ("Great, nothing changes then.", "Good to know.")
LEAD_IN_REPLIES: tuple[str, ...] = ("Oh? Go on.", "What did you land on?", "Tell me.")
OPEN_ITEM_ACKS: tuple[str, ...] = ("I'll keep it on the list.", "Added to your list.")
RESOLVED_ACKS: tuple[str, ...] = ("Nice, I'll cross it off.", "Great, that's done.")
