"""Links between facts in the Facts tab: what each fact is linked to, and a form.

Reads and writes go through the `Memory` with the tab's tenant, so a link can
only join two facts of that tenant (the memory refuses anything else).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_ui.flash import flash
from memory_lab.api import Memory
from memory_lab.api_views import LINK_TYPES, fact_summary
from memory_lab.errors import MemoryLabError
from memory_lab.types import Fact


def link_rows(memory: Memory, tenant: str) -> list[dict]:
    """One row per link (stored and supersedes), each end shown by its summary."""
    rows = {f.id: f for f in memory.history(tenant)}

    def end(fact_id: str) -> str:
        fact = rows.get(fact_id)
        return fact_id if fact is None else f"{fact_summary(fact)} [{fact.status}]"

    return [
        {
            "from": end(link.source),
            "link": link.type.replace("_", " "),
            "to": end(link.target),
            "origin": link.origin,
            "since": link.created_at.strftime("%Y-%m-%d %H:%M"),
            "id": link.id,
        }
        for link in memory.links(tenant)
    ]


def links_panel(memory: Memory, tenant: str) -> None:
    """The tenant's fact links, and a form to link two facts or end a link."""
    st.markdown("**Links between facts**")
    rows = link_rows(memory, tenant)
    if rows:
        st.dataframe(pd.DataFrame(rows), hide_index=True, key="fact_links")
    else:
        st.caption("No links yet: corrections show here as 'supersedes'.")
    facts = {f.id: f for f in memory.facts(tenant)}
    if len(facts) < 2:
        return
    with st.form("link_facts", border=False):
        a, b, c = st.columns([3, 2, 3])
        source = a.selectbox(
            "Fact", list(facts), format_func=_label(facts), key="link_source"
        )
        kind = b.selectbox("Link", LINK_TYPES, format_func=_spoken, key="link_type")
        target = c.selectbox(
            "To fact", list(facts), format_func=_label(facts), key="link_target"
        )
        if st.form_submit_button("Link", key="link_go"):
            _report(lambda: memory.link(tenant, kind, source, target, origin="app"))
    endable = [r["id"] for r in rows if not r["id"].startswith("sup:")]
    if endable:
        pick = st.selectbox("End a link", endable, key="link_end")
        if st.button("End link", key="link_end_go"):
            _report(lambda: memory.unlink(tenant, pick))


def _label(facts: dict[str, Fact]):
    return lambda fact_id: fact_summary(facts[fact_id])


def _spoken(link_type: str) -> str:
    return link_type.replace("_", " ")


def _report(action) -> None:
    try:
        event = action()
    except MemoryLabError as err:
        flash("error", str(err))
    else:
        flash("success", event.detail)
    st.rerun()
