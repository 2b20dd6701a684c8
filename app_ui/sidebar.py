"""The sidebar: who is chatting, the recipe and brain, the clock and replay.

`choose_settings` runs before any engine exists; `time_controls` and
`replay_controls` need the engine, so they render after it is built but still run
their actions before the panels read memory, so every panel shows the new state.
"""

from __future__ import annotations

import uuid

import streamlit as st

from app_ui import actions
from app_ui.clock import STEPS, OffsetClock
from app_ui.flash import flash, report_step
from app_ui.settings import (
    AppSettings,
    SettingsError,
    build_llm,
    llm_defaults,
    validate_tenant,
)
from memory_lab.engine import MemoryEngine
from memory_lab.errors import MemoryLabError
from memory_lab.recipes import RECIPES, recipe

RULES, LLM = "Rule-based (offline)", "OpenAI-compatible server"


def _recipe_params(spec: str) -> tuple[tuple[str, object], ...]:
    """Number inputs for the chosen recipe's triggers, defaulting to the recipe."""
    base = recipe(spec)
    params: list[tuple[str, object]] = []
    with st.sidebar.expander("Recipe parameters", expanded=False):
        if base.a:
            st.caption("A: message count")
            params.append(
                (
                    "a_max_messages",
                    st.number_input(
                        "A: compress at messages",
                        2,
                        500,
                        base.a.max_messages,
                        key="p_a_max",
                    ),
                )
            )
            params.append(
                (
                    "a_keep_last",
                    st.number_input(
                        "A: keep last", 0, 499, base.a.keep_last, key="p_a_keep"
                    ),
                )
            )
        if base.b:
            st.caption("B: token count")
            params.append(
                (
                    "b_high_water",
                    st.number_input(
                        "B: high water (tokens)",
                        10,
                        100_000,
                        base.b.high_water,
                        key="p_b_high",
                    ),
                )
            )
            params.append(
                (
                    "b_low_water",
                    st.number_input(
                        "B: low water (tokens)",
                        0,
                        99_999,
                        base.b.low_water,
                        key="p_b_low",
                    ),
                )
            )
        if base.c:
            st.caption("C: time and idle")
            params.append(
                (
                    "c_granularity",
                    st.selectbox(
                        "C: compress each finished", ["day", "week"], key="p_c_gran"
                    ),
                )
            )
            params.append(
                (
                    "c_idle_gap_minutes",
                    st.number_input(
                        "C: idle close after (minutes)",
                        1,
                        100_000,
                        base.c.idle_gap_minutes or 180,
                        key="p_c_idle",
                    ),
                )
            )
    return tuple(params)


def choose_settings() -> AppSettings | None:
    """Tenant, recipe and brain from the controls; None (with an error) when unusable.

    A bad LLM URL or model is reported and the rule-based brain is used, so the chat
    keeps working while the user fixes the field.
    """
    sb = st.sidebar
    sb.title("memory-lab")
    raw_tenant = sb.text_input(
        "Tenant",
        value="demo",
        key="tenant",
        help="Memory is kept per tenant; a tab on another tenant sees none of it.",
    )
    try:
        tenant = validate_tenant(raw_tenant)
    except SettingsError as err:
        sb.error(str(err))
        return None
    spec = sb.selectbox(
        "Recipe (compression triggers)",
        RECIPES,
        index=RECIPES.index("A+C"),
        key="recipe",
        help="A: message count, B: token count, C: time/day and idle.",
    )
    params = _recipe_params(spec)
    env_url, env_model = llm_defaults()
    # MEMORY_LAB_LLM_BASE_URL selects the LLM brain here as on the command line.
    kind = sb.radio(
        "Brain",
        [RULES, LLM],
        index=1 if env_url else 0,
        key="brain",
        horizontal=False,
        help="`memory-lab llm serve` starts a local model; any OpenAI-compatible "
        "endpoint works.",
    )
    llm = None
    if kind == LLM:
        url = sb.text_input(
            "Base URL",
            key="llm_url",
            value=env_url,
            placeholder="http://127.0.0.1:8080/v1",
        )
        model = sb.text_input(
            "Model", key="llm_model", value=env_model or "gpt-4o-mini"
        )
        try:
            llm = build_llm(url, model)
        except SettingsError as err:
            sb.error(f"{err}. Using the rule-based brain until it is fixed.")
    return AppSettings(tenant=tenant, recipe_spec=spec, params=params, llm=llm)


def time_controls(engine: MemoryEngine, clock: OffsetClock, tenant: str) -> None:
    """The clock and the buttons that move it.

    Trigger C, idle close, TTL expiry and decay can then be shown without waiting.
    """
    sb = st.sidebar
    sb.subheader("Clock")
    row = sb.container(horizontal=True)
    for label, delta in STEPS.items():
        if row.button(
            f"+{label}",
            key=f"adv_{label}",
            width="content",
            help=f"Advance the clock {label} and re-check the triggers",
        ):
            try:
                step = actions.advance_clock(engine, clock, tenant, delta)
            except MemoryLabError as err:
                flash("error", str(err))
            else:
                flash("info", f"Clock advanced {label}.")
                report_step(step)
    now = clock.now()
    ahead = clock.offset
    sb.caption(
        f"App time {now:%Y-%m-%d %H:%M} UTC"
        + (f" ({_human(ahead)} ahead)" if ahead.total_seconds() else "")
    )
    if sb.button(
        "Close session (extract facts now)",
        key="close_session",
        width="stretch",
    ):
        try:
            report_step(engine.close_session(tenant))
        except MemoryLabError as err:
            flash("error", str(err))


def replay_controls(engine: MemoryEngine, clock: OffsetClock, tenant: str) -> None:
    """Replay a dataset conversation into this tenant, turn by turn or to a turn."""
    sb = st.sidebar
    sb.subheader("Replay a conversation")
    try:
        found = actions.datasets()
    except MemoryLabError as err:
        sb.error(str(err))
        return
    name = sb.selectbox("Conversation", list(found), key="replay_dataset")
    conv = found[name]
    cursors: dict = st.session_state.setdefault("replay_cursors", {})
    cursor = cursors.get((tenant, name))
    if cursor is None:
        cursor = actions.ReplayCursor(dataset=name, run=uuid.uuid4().hex[:6])
        cursors[(tenant, name)] = cursor
    total = len(conv.messages)
    target = sb.number_input("Replay to turn", 1, total, total, key="replay_to")
    left, right = sb.columns(2)
    upto = None
    if left.button(
        "Next turn",
        key="replay_next",
        width="stretch",
        disabled=cursor.position >= total,
    ):
        upto = cursor.position + 1
    if right.button(
        "Replay to turn",
        key="replay_go",
        width="stretch",
        disabled=cursor.position >= total,
    ):
        upto = int(target)
    if upto is not None:
        try:
            with st.spinner("Replaying..."):
                steps = actions.replay(engine, clock, tenant, conv, cursor, upto)
        except MemoryLabError as err:
            flash("error", str(err))
        else:
            for step in steps:
                report_step(step)
    sb.progress(
        cursor.position / total, text=f"{cursor.position} / {total} turns replayed"
    )


def _human(delta) -> str:
    days, rest = divmod(int(delta.total_seconds()), 86_400)
    hours = rest // 3600
    return f"{days} d {hours} h" if days else f"{hours} h"
