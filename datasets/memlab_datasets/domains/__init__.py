"""What the synthetic users talk about: fact slots, phrasings, traps, small talk.

Each slot carries several templates per move (state, update, confirm, ...) so a
memory cannot win with one regular expression. Every template that states a value
contains `{v}` verbatim, which is what lets the generator promise that a gold
fact's value appears in the turn that states it. Slots listed in `ABSENT_SLOTS`
are never stated by the user; they feed abstention probes and third-party traps.

Map:

- `shapes`: `Slot`, `OpenItems`, `Domain` and the domain names.
- `shared_slots`: the slots every domain has (name, reply language, answer
  format) and `ABSENT_SLOTS`.
- `bookkeeping`, `finance`, `coding`, `companion`: one domain each.
- `acknowledgements`: the assistant's replies to facts and open items.
- `trap_phrasing`: how traps and rejected suggestions are worded.
- `small_talk`: small talk, long-message filler and sign-offs.
"""

from __future__ import annotations

from memlab_datasets.domains.acknowledgements import (
    ACKS,
    CONFIRM_ACKS,
    LEAD_IN_REPLIES,
    OPEN_ITEM_ACKS,
    RESOLVED_ACKS,
    UPDATE_ACKS,
)
from memlab_datasets.domains.bookkeeping import BOOKKEEPING
from memlab_datasets.domains.coding import CODING
from memlab_datasets.domains.companion import COMPANION
from memlab_datasets.domains.finance import FINANCE
from memlab_datasets.domains.shapes import (
    DOMAINS,
    Domain,
    DomainName,
    OpenItems,
    Slot,
)
from memlab_datasets.domains.shared_slots import (
    ABSENT_SLOTS,
    ANSWER_FORMAT,
    NAME,
    REPLY_LANGUAGE,
)
from memlab_datasets.domains.small_talk import (
    LONG_FILLER,
    SIGN_OFFS,
    SMALL_TALK,
    SMALL_TALK_REPLIES,
)
from memlab_datasets.domains.trap_phrasing import (
    REJECTION_REPLIES,
    REJECTIONS,
    SUGGEST_ASKS,
    SUGGESTIONS,
    THIRD_PARTIES,
    TRAP_REPLIES,
    TRAP_TEMPLATES,
)

DOMAIN_TABLE: dict[DomainName, Domain] = {
    d.name: d for d in (BOOKKEEPING, FINANCE, CODING, COMPANION)
}

__all__ = [
    "ABSENT_SLOTS",
    "ACKS",
    "ANSWER_FORMAT",
    "BOOKKEEPING",
    "CODING",
    "COMPANION",
    "CONFIRM_ACKS",
    "DOMAINS",
    "DOMAIN_TABLE",
    "FINANCE",
    "LEAD_IN_REPLIES",
    "LONG_FILLER",
    "NAME",
    "OPEN_ITEM_ACKS",
    "REJECTIONS",
    "REJECTION_REPLIES",
    "REPLY_LANGUAGE",
    "RESOLVED_ACKS",
    "SIGN_OFFS",
    "SMALL_TALK",
    "SMALL_TALK_REPLIES",
    "SUGGESTIONS",
    "SUGGEST_ASKS",
    "THIRD_PARTIES",
    "TRAP_REPLIES",
    "TRAP_TEMPLATES",
    "UPDATE_ACKS",
    "Domain",
    "DomainName",
    "OpenItems",
    "Slot",
]
