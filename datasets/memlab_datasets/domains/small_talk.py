"""Talk that carries no fact: small talk, long rambles and sign-offs."""

from __future__ import annotations

SMALL_TALK: tuple[str, ...] = (
    "Morning! How are you today?",
    "It's been raining all week here.",
    "Did you see the match last night?",
    "I'm on my second coffee already.",
    "Ugh, Mondays.",
    "Thanks, that was helpful!",
    "Haha, fair enough.",
    "Quick break before my next meeting.",
    "The neighbours are renovating again, so loud.",
    "Long day. Glad it's almost over.",
    "Anyway, where were we?",
    "Sorry, got distracted for a minute.",
    "The sunset was beautiful today.",
    "I think I need a holiday.",
)
SMALL_TALK_REPLIES: tuple[str, ...] = (
    "Doing well, thanks for asking!",
    "Sounds like quite a day.",
    "Ha, I hear you.",
    "Happy to help.",
    "No problem at all.",
    "Take your time.",
)
LONG_FILLER: tuple[str, ...] = (
    "I spent most of the morning sorting through old emails and notes.",
    "There were a few things I wanted to think through before writing to you.",
    "The weather kept changing, sunny one minute and grey the next.",
    "A friend called in the middle of it, so I lost my train of thought.",
    "I keep meaning to clean up my desk but it never quite happens.",
    "Lunch was late again because a meeting ran over.",
    "I read an article about sleep and now I worry about my habits.",
    "The train was delayed, which gave me time to think about all this.",
    "Some of this is probably not important, but I wanted to write it down.",
    "I made a list on paper and then lost the paper, which is typical.",
    "It has been a busy few weeks and I am trying to catch up.",
    "I also noticed the printer is out of toner, which is a separate saga.",
    "Anyway, I tend to ramble when I am tired, so bear with me.",
    "Somebody in the building is learning the trumpet, slowly.",
    "I had tea instead of coffee today to see if it helps me focus.",
)
SIGN_OFFS: tuple[str, ...] = ("Talk later!", "Bye for now.", "Gotta run, thanks!")
