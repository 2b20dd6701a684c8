"""The gold facts of a finished timeline: what was stated, when, and until when."""

from __future__ import annotations

from memlab_datasets.generator.timeline import Timeline
from memlab_datasets.types import GoldFact


def gold_facts(timeline: Timeline) -> list[GoldFact]:
    """Every value the timeline planted, with the turn that replaced it, in order."""
    facts: list[tuple[int, GoldFact]] = []
    by_key = {s.key: s for s in timeline.planted}
    for key, statements in timeline.history.items():
        slot = by_key[key]
        for i, st in enumerate(statements):
            nxt = statements[i + 1] if i + 1 < len(statements) else None
            facts.append(
                (
                    st.pos,
                    GoldFact(
                        subject="user",
                        category=slot.category,
                        key=key,
                        value=st.value,
                        turn_id=st.turn_id,
                        turn_ids=st.turn_ids,
                        confirmed_turn_ids=st.confirmations,
                        replaced_by_turn=nxt.turn_id if nxt else None,
                    ),
                )
            )
    for item in timeline.open_items:
        facts.append(
            (
                item.pos,
                GoldFact(
                    subject="user",
                    category="unresolved",
                    key=item.key,
                    value=item.value,
                    turn_id=item.turn_id,
                    turn_ids=[item.turn_id],
                    replaced_by_turn=item.resolved_turn,
                    expires=item.at + timeline.open_ttl,
                ),
            )
        )
    facts.sort(key=lambda pair: (pair[0], pair[1].key))
    return [fact for _, fact in facts]
