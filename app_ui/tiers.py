"""The memory tiers, live: window and running summary, episodes, days, facts.

Every read goes through the `Memory` with the tab's tenant, so a tab can only
ever show its own tenant's memory. What one snapshot holds (window, episodes,
facts, days) is read from it; the rest from the memory's public methods.
"""

from __future__ import annotations

from datetime import datetime

import pandas as pd
import streamlit as st

from app_ui import actions, fact_links, trash_panel
from app_ui.flash import flash
from memory_lab.api import Memory
from memory_lab.errors import MemoryLabError
from memory_lab.snapshot import FactView, MemorySnapshot
from memory_lab.types import Fact

FACT_STATUSES = ["active", "superseded", "expired", "forgotten", "contradiction"]


def session_line(snapshot: dict) -> str | None:
    """The thread's session in one line, e.g. 'Session s1: idle since 14:05 (...)'.

    `snapshot` is the snapshot's JSON form (`MemorySnapshot.to_json()`), of
    which `now` and `session` are read. The date is left out when the state
    began on the snapshot's own day.
    """
    session = snapshot.get("session")
    if not session:
        return None
    since = datetime.fromisoformat(session["since"])
    same_day = since.date() == datetime.fromisoformat(snapshot["now"]).date()
    when = since.strftime("%H:%M" if same_day else "%Y-%m-%d %H:%M")
    return (
        f"Session {session['session']}: {session['state']} since {when} "
        f"({session['reason']})"
    )


def window_panel(memory: Memory, snapshot: MemorySnapshot) -> None:
    """The session's state, verbatim turns against the window budget, the summary."""
    line = session_line(snapshot.model_dump(mode="json", include={"now", "session"}))
    if line:
        st.caption(line)
    win = snapshot.window
    budget = memory.config.budget.window
    a, b, c = st.columns(3)
    a.metric("Turns in window", len(win.messages))
    b.metric(
        "Window tokens", win.tokens, help=f"Context budget for the window: {budget}"
    )
    c.metric("Turns in transcript", snapshot.transcript_messages)
    st.progress(
        min(win.tokens / budget, 1.0) if budget else 0.0,
        text=f"{win.tokens} / {budget} window tokens (budget)",
    )
    rows = [
        {
            "seq": m.seq,
            "who": m.speaker or m.role,
            "time": f"{m.timestamp:%Y-%m-%d %H:%M}",
            "tokens": memory.count_tokens(m.content),
            "text": m.content,
        }
        for m in win.messages
    ]
    st.dataframe(
        pd.DataFrame(rows, columns=["seq", "who", "time", "tokens", "text"]),
        hide_index=True,
        key="window_table",
    )
    limit = memory.config.window.summary_budget_tokens
    st.markdown(f"**Running summary** ({win.summary_tokens} / {limit} tokens)")
    st.text(win.summary or "(empty until a trigger compresses the window)")


def episodes_panel(memory: Memory, tenant: str, snapshot: MemorySnapshot) -> None:
    """Compressed episodes, search by meaning, and an episode's source turns."""
    eps = snapshot.episodes
    st.metric("Episodes", len(eps))
    by_trigger: dict[str, int] = {}
    for e in eps:
        name = e.get("trigger") or "close"
        by_trigger[name] = by_trigger.get(name, 0) + 1
    if by_trigger:
        st.caption(
            "By trigger: "
            + ", ".join(f"{k} × {v}" for k, v in sorted(by_trigger.items()))
        )
    rows = [
        {
            "id": e["id"],
            "turns": f"{e['first_seq']}-{e['last_seq']}",
            "when": e["timespan"],
            "trigger": e.get("trigger", ""),
            "tokens": f"{e['original_tokens']} -> {e['summary_tokens']}",
            "compression": e["share_removed"],
            "summary": e["summary"],
        }
        for e in eps
    ]
    st.dataframe(
        pd.DataFrame(
            rows,
            columns=[
                "id",
                "turns",
                "when",
                "trigger",
                "tokens",
                "compression",
                "summary",
            ],
        ),
        hide_index=True,
        key="episodes_table",
        column_config={
            "compression": st.column_config.ProgressColumn(
                "compression",
                help="Share of tokens removed",
                min_value=0.0,
                max_value=1.0,
                format="percent",
            )
        },
    )
    query = st.text_input(
        "Search episodes by meaning",
        key="episode_query",
        placeholder="e.g. payroll deadline",
    )
    if query.strip():
        retrieval = memory.config.retrieval
        hits = memory.nearest_episodes(tenant, query, k=retrieval.top_k)
        st.dataframe(
            pd.DataFrame(
                [
                    {
                        "distance": round(d, 3),
                        "within cutoff": d <= retrieval.max_distance,
                        "turns": f"{e.first_seq}-{e.last_seq}",
                        "summary": e.summary,
                    }
                    for e, d in hits
                ],
                columns=["distance", "within cutoff", "turns", "summary"],
            ),
            hide_index=True,
            key="episode_hits",
        )
        st.caption(
            f"Cosine distance, 0 = same meaning; retrieval keeps <= "
            f"{retrieval.max_distance}."
        )
    if eps:
        chosen = st.selectbox(
            "Show the source turns of", [e["id"] for e in eps], key="episode_expand"
        )
        st.button(
            "Delete this episode",
            key="episode_trash",
            on_click=trash_panel.move_to_trash,
            args=(memory, tenant, "episode", chosen),
            help="Move to the trash: left out of retrieval at once, restorable "
            "for a while, then purged for real with the turns it summarised.",
        )
        turns = memory.episode_turns(tenant, chosen)
        st.dataframe(
            pd.DataFrame(
                [{"seq": m.seq, "who": m.who, "text": m.content} for m in turns],
                columns=["seq", "who", "text"],
            ),
            hide_index=True,
            key="episode_turns",
        )
    with st.expander("Day by day", expanded=bool(snapshot.daily_summaries)):
        days_panel(snapshot)


def days_panel(snapshot: MemorySnapshot) -> None:
    """Day by day: each finished day's summary, and the weekly roll-ups."""
    days = snapshot.daily_summaries
    weeks = snapshot.weekly_summaries
    st.caption(
        f"{len(days)} day(s) and {len(weeks)} week(s) summarised; a day is "
        "summarised once it is over (UTC)."
    )
    for record in [*reversed(weeks), *reversed(days)]:
        label = (
            f"Week of {record.start}"
            if record.period == "week"
            else f"Day {record.start}"
        )
        st.markdown(f"**{label}** · {record.messages} messages")
        st.text(record.summary)
        for title, items in (
            ("Decided", record.decided),
            ("Learned", record.learned),
            ("Left open", record.open),
        ):
            if items:
                st.markdown(f"*{title}:* " + "; ".join(items))


def _fact_label(fact: FactView) -> str:
    return f"{fact.status} · {fact.subject}.{fact.category}.{fact.key} = {fact.value}"


def _act(action, memory: Memory, tenant: str, fact_id: str, **kw) -> None:
    try:
        event = action(memory, tenant, fact_id, **kw)
    except MemoryLabError as err:
        flash("error", str(err))
    else:
        flash("success", event.detail)


def fact_controls(memory: Memory, tenant: str, snapshot: MemorySnapshot) -> None:
    """Forget, confirm or restore any fact; settle flagged ones."""
    facts = {f.id: f for f in snapshot.facts}
    if not facts:
        return
    chosen = st.selectbox(
        "Change a fact",
        list(facts),
        key="fact_pick",
        format_func=lambda i: _fact_label(facts[i]),
    )
    live = facts[chosen].status == "active"
    a, b, c, d = st.columns(4)
    a.button(
        "Forget",
        key="fact_forget",
        disabled=not live,
        on_click=_act,
        args=(actions.forget_fact, memory, tenant, chosen),
    )
    b.button(
        "Confirm",
        key="fact_confirm",
        disabled=not live,
        on_click=_act,
        args=(actions.confirm_fact, memory, tenant, chosen),
    )
    c.button(
        "Restore",
        key="fact_restore",
        disabled=live,
        on_click=_act,
        args=(actions.restore_fact, memory, tenant, chosen),
    )
    d.button(
        "Delete",
        key="fact_trash",
        disabled=not live,
        on_click=trash_panel.move_to_trash,
        args=(memory, tenant, "fact", chosen),
        help="Move to the trash: unused at once, restorable for a while, "
        "then purged for real.",
    )
    flagged = memory.flagged(tenant)
    st.markdown(f"**Flagged for review** ({len(flagged)})")
    if not flagged:
        st.caption("Nothing to review: no disputed or unconfirmed replaced values.")
        return
    rows = {f.id: f for f in flagged}
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "kind": "not taken"
                    if f.status == "contradiction"
                    else "replaced a value",
                    "fact": f"{f.subject}.{f.category}.{f.key}",
                    "value": f.value,
                    "disputes": _disputed_value(memory, tenant, f),
                    "id": f.id,
                }
                for f in flagged
            ],
            columns=["kind", "fact", "value", "disputes", "id"],
        ),
        hide_index=True,
        key="flagged_table",
    )
    pick = st.selectbox(
        "Settle",
        list(rows),
        key="flag_pick",
        format_func=lambda i: f"{rows[i].key} = {rows[i].value}",
    )
    keep, drop = st.columns(2)
    keep.button(
        "Accept this value",
        key="flag_accept",
        on_click=_act,
        args=(actions.resolve_flag, memory, tenant, pick),
        kwargs={"accept": True},
    )
    drop.button(
        "Keep the other value",
        key="flag_reject",
        on_click=_act,
        args=(actions.resolve_flag, memory, tenant, pick),
        kwargs={"accept": False},
    )


def facts_panel(memory: Memory, tenant: str, snapshot: MemorySnapshot) -> None:
    """Facts by status, with confidence, source tier, provenance and history.

    The history shows both time axes: when each value held in the world and
    when memory recorded and ended it.
    """
    facts = snapshot.facts
    counts = {s: sum(f.status == s for f in facts) for s in FACT_STATUSES}
    st.caption(" · ".join(f"{s}: {n}" for s, n in counts.items()))
    shown = st.multiselect(
        "Status",
        FACT_STATUSES,
        default=["active", "superseded", "expired"],
        key="fact_status",
    )
    rows = [
        {
            "status": f.status,
            "category": f.category,
            "subject": f.subject,
            "key": f.key,
            "value": f.value,
            "confidence": f.effective_confidence,
            "source": f.source,
            "since": f"{f.valid_from:%Y-%m-%d %H:%M}",
            "expires": f"{f.expires_at:%Y-%m-%d}" if f.expires_at else "",
            "turns": ", ".join(f.turn_ids),
            "id": f.id,
        }
        for f in facts
        if f.status in shown
    ]
    cols = [
        "status",
        "category",
        "subject",
        "key",
        "value",
        "confidence",
        "source",
        "since",
        "expires",
        "turns",
        "id",
    ]
    st.dataframe(
        pd.DataFrame(rows, columns=cols),
        hide_index=True,
        key="facts_table",
        column_config={
            "confidence": st.column_config.ProgressColumn(
                "confidence",
                help="After decay",
                min_value=0.0,
                max_value=1.0,
                format="%.2f",
            )
        },
    )
    fact_controls(memory, tenant, snapshot)
    fact_links.links_panel(memory, tenant)
    keys = sorted({(f.category, f.key, f.subject) for f in facts})
    if not keys:
        return
    chosen = st.selectbox(
        "History of",
        keys,
        key="fact_history",
        format_func=lambda k: f"{k[2]}.{k[0]}.{k[1]}",
    )
    category, key, subject = chosen
    chain = memory.history(tenant, category=category, key=key, subject=subject)
    now = memory.clock.now()
    st.dataframe(
        pd.DataFrame(
            [
                {
                    "value": f.value,
                    "status": f.state_at(now),
                    "source": f.source,
                    "held from": f.valid_from.strftime("%Y-%m-%d %H:%M"),
                    "held until": f.valid_until.strftime("%Y-%m-%d %H:%M")
                    if f.valid_until
                    else "",
                    "recorded": f.created_at.strftime("%Y-%m-%d %H:%M"),
                    "ended": f.ended_at.strftime("%Y-%m-%d %H:%M")
                    if f.ended_at
                    else "",
                    "superseded by": f.superseded_by or "",
                    "evidence": f.evidence,
                }
                for f in chain
            ]
        ),
        hide_index=True,
        key="fact_chain",
    )
    cited = {t for f in chain for t in f.turn_ids}
    turns = [m for m in memory.turns(tenant) if m.id in cited]
    if turns:
        st.markdown("**Provenance** (the turns these values came from)")
        for m in turns:
            st.caption(f"#{m.seq} {m.who} · {m.timestamp:%Y-%m-%d %H:%M} · {m.id}")
            st.text(m.content)


def _disputed_value(memory: Memory, tenant: str, fact: Fact) -> str:
    """The stored value a flagged fact disputes, or "" when it disputes none."""
    if not fact.conflicts_with:
        return ""
    disputed = memory.fact(tenant, fact.conflicts_with)
    return "" if disputed is None else disputed.value
