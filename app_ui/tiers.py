"""The memory tiers, live: window and running summary, episodes, days, facts.

Every read goes through the engine with the tab's tenant, so a tab can only ever
show its own tenant's memory.
"""

from __future__ import annotations

from datetime import datetime

import pandas as pd
import streamlit as st

from app_ui import actions, fact_links, trash_panel
from app_ui.flash import flash
from memory_lab.engine import MemoryEngine
from memory_lab.errors import MemoryLabError
from memory_lab.types import Fact

FACT_STATUSES = ["active", "superseded", "expired", "forgotten", "contradiction"]


def session_line(snapshot: dict) -> str | None:
    """The thread's session in one line, e.g. 'Session s1: idle since 14:05 (...)'.

    The date is left out when the state began on the snapshot's own day.
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


def window_panel(engine: MemoryEngine, snapshot: dict) -> None:
    """The session's state, verbatim turns against the window budget, the summary."""
    line = session_line(snapshot)
    if line:
        st.caption(line)
    win = snapshot["window"]
    budget = engine.config.budget.window
    a, b, c = st.columns(3)
    a.metric("Turns in window", len(win["messages"]))
    b.metric(
        "Window tokens", win["tokens"], help=f"Context budget for the window: {budget}"
    )
    c.metric("Turns in transcript", snapshot["transcript_messages"])
    st.progress(
        min(win["tokens"] / budget, 1.0) if budget else 0.0,
        text=f"{win['tokens']} / {budget} window tokens (budget)",
    )
    rows = [
        {
            "seq": m.get("seq"),
            "who": m.get("speaker") or m["role"],
            "time": m["timestamp"][:16].replace("T", " "),
            "tokens": engine.counter.count(m["content"]),
            "text": m["content"],
        }
        for m in win["messages"]
    ]
    st.dataframe(
        pd.DataFrame(rows, columns=["seq", "who", "time", "tokens", "text"]),
        hide_index=True,
        key="window_table",
    )
    limit = engine.config.window.summary_budget_tokens
    st.markdown(f"**Running summary** ({win['summary_tokens']} / {limit} tokens)")
    st.text(win["summary"] or "(empty until a trigger compresses the window)")


def episodes_panel(engine: MemoryEngine, tenant: str, snapshot: dict) -> None:
    """Compressed episodes, search by meaning, and an episode's source turns."""
    eps = snapshot["episodes"]
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
        retrieval = engine.config.retrieval
        hits = engine.episodes.search(
            tenant, query, top_k=retrieval.top_k, max_distance=2.0
        )
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
            args=(engine, tenant, "episode", chosen),
            help="Move to the trash: left out of retrieval at once, restorable "
            "for a while, then purged for real with the turns it summarised.",
        )
        turns = engine.expand_episode(tenant, chosen)
        st.dataframe(
            pd.DataFrame(
                [{"seq": m.seq, "who": m.who, "text": m.content} for m in turns],
                columns=["seq", "who", "text"],
            ),
            hide_index=True,
            key="episode_turns",
        )
    with st.expander("Day by day", expanded=bool(snapshot.get("daily_summaries"))):
        days_panel(snapshot)


def days_panel(snapshot: dict) -> None:
    """Day by day: each finished day's summary, and the weekly roll-ups."""
    days = snapshot.get("daily_summaries", [])
    weeks = snapshot.get("weekly_summaries", [])
    st.caption(
        f"{len(days)} day(s) and {len(weeks)} week(s) summarised; a day is "
        "summarised once it is over (UTC)."
    )
    for record in [*reversed(weeks), *reversed(days)]:
        label = (
            f"Week of {record['start']}"
            if record["period"] == "week"
            else f"Day {record['start']}"
        )
        st.markdown(f"**{label}** · {record['messages']} messages")
        st.text(record["summary"])
        for title, items in (
            ("Decided", record["decided"]),
            ("Learned", record["learned"]),
            ("Left open", record["open"]),
        ):
            if items:
                st.markdown(f"*{title}:* " + "; ".join(items))


def _fact_label(fact: dict) -> str:
    return (
        f"{fact['status']} · {fact['subject']}.{fact['category']}.{fact['key']}"
        f" = {fact['value']}"
    )


def _act(action, engine: MemoryEngine, tenant: str, fact_id: str, **kw) -> None:
    try:
        event = action(engine, tenant, fact_id, **kw)
    except MemoryLabError as err:
        flash("error", str(err))
    else:
        flash("success", event.detail)


def fact_controls(engine: MemoryEngine, tenant: str, snapshot: dict) -> None:
    """Forget, confirm or restore any fact; settle flagged ones."""
    facts = {f["id"]: f for f in snapshot["facts"]}
    if not facts:
        return
    chosen = st.selectbox(
        "Change a fact",
        list(facts),
        key="fact_pick",
        format_func=lambda i: _fact_label(facts[i]),
    )
    live = facts[chosen]["status"] == "active"
    a, b, c, d = st.columns(4)
    a.button(
        "Forget",
        key="fact_forget",
        disabled=not live,
        on_click=_act,
        args=(actions.forget_fact, engine, tenant, chosen),
    )
    b.button(
        "Confirm",
        key="fact_confirm",
        disabled=not live,
        on_click=_act,
        args=(actions.confirm_fact, engine, tenant, chosen),
    )
    c.button(
        "Restore",
        key="fact_restore",
        disabled=live,
        on_click=_act,
        args=(actions.restore_fact, engine, tenant, chosen),
    )
    d.button(
        "Delete",
        key="fact_trash",
        disabled=not live,
        on_click=trash_panel.move_to_trash,
        args=(engine, tenant, "fact", chosen),
        help="Move to the trash: unused at once, restorable for a while, "
        "then purged for real.",
    )
    flagged = engine.facts.flagged(tenant)
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
                    "disputes": _disputed_value(engine, tenant, f),
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
        args=(actions.resolve_flag, engine, tenant, pick),
        kwargs={"accept": True},
    )
    drop.button(
        "Keep the other value",
        key="flag_reject",
        on_click=_act,
        args=(actions.resolve_flag, engine, tenant, pick),
        kwargs={"accept": False},
    )


def facts_panel(engine: MemoryEngine, tenant: str, snapshot: dict) -> None:
    """Facts by status, with confidence, source tier, provenance and history.

    The history shows both time axes: when each value held in the world and
    when memory recorded and ended it.
    """
    facts = snapshot["facts"]
    counts = {s: sum(f["status"] == s for f in facts) for s in FACT_STATUSES}
    st.caption(" · ".join(f"{s}: {n}" for s, n in counts.items()))
    shown = st.multiselect(
        "Status",
        FACT_STATUSES,
        default=["active", "superseded", "expired"],
        key="fact_status",
    )
    rows = [
        {
            "status": f["status"],
            "category": f["category"],
            "subject": f["subject"],
            "key": f["key"],
            "value": f["value"],
            "confidence": f["effective_confidence"],
            "source": f["source"],
            "since": f["valid_from"][:16].replace("T", " "),
            "expires": (f.get("expires_at") or "")[:10],
            "turns": ", ".join(f["turn_ids"]),
            "id": f["id"],
        }
        for f in facts
        if f["status"] in shown
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
    fact_controls(engine, tenant, snapshot)
    fact_links.links_panel(engine, tenant)
    keys = sorted({(f["category"], f["key"], f["subject"]) for f in facts})
    if not keys:
        return
    chosen = st.selectbox(
        "History of",
        keys,
        key="fact_history",
        format_func=lambda k: f"{k[2]}.{k[0]}.{k[1]}",
    )
    chain = engine.facts.history(tenant, chosen[0], chosen[1], chosen[2])
    now = engine.clock.now()
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
    turns = [m for m in engine.transcript.messages(tenant) if m.id in cited]
    if turns:
        st.markdown("**Provenance** (the turns these values came from)")
        for m in turns:
            st.caption(f"#{m.seq} {m.who} · {m.timestamp:%Y-%m-%d %H:%M} · {m.id}")
            st.text(m.content)


def _disputed_value(engine: MemoryEngine, tenant: str, fact: Fact) -> str:
    """The stored value a flagged fact disputes, or "" when it disputes none."""
    if not fact.conflicts_with:
        return ""
    disputed = engine.facts.get(tenant, fact.conflicts_with)
    return "" if disputed is None else disputed.value
