"""The sidebar: who is chatting, the recipe and brain, the clock and replay.

`choose_settings` runs before any memory is open; `time_controls` and
`replay_controls` need the memory, so they render after it is opened but still run
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
    agentic_default,
    build_llm,
    llm_defaults,
    validate_tenant,
)
from app_ui.trigger_widgets import (
    WidgetSpec,
    recipe_spec,
    trigger_label,
    trigger_specs,
)
from memory_lab.api import Memory
from memory_lab.errors import MemoryLabError
from memory_lab.triggers import all_triggers

RULES, LLM = "Rule-based (offline)", "OpenAI-compatible server"
AGENTIC_OFFLINE = (
    "Agentic memory is on but has no effect here: the rule-based brain calls no "
    "tools. Choose a model to use it."
)
DEFAULT_TRIGGERS = tuple(AppSettings().recipe_spec.split("+"))


def _choose_recipe() -> tuple[str, tuple[tuple[str, object], ...]]:
    """The recipe spec and its parameters, from controls built off the registry.

    Nothing here names a trigger or a parameter, so a trigger registered by a
    plug-in is offered, with widgets for its parameters, without an edit here.
    """
    sb = st.sidebar
    triggers = {t.name: t for t in all_triggers()}
    default = [n for n in DEFAULT_TRIGGERS if n in triggers]
    chosen = sb.multiselect(
        "Recipe (compression triggers)",
        list(triggers),
        default=default,
        format_func=lambda name: trigger_label(triggers[name]),
        key="recipe",
        help="Any chosen trigger firing compresses the oldest turns; each one's "
        "parameters are in its box below.",
    )
    if not chosen:
        # Like a bad LLM URL: say so and keep the chat working on the default.
        sb.warning(
            f"Recipe: pick at least one trigger. Using {recipe_spec(default)} "
            "until you do."
        )
        return recipe_spec(default), ()
    params: list[tuple[str, object]] = []
    for name in sorted(chosen):
        trigger = triggers[name]
        with sb.expander(f"{name} parameters", expanded=False):
            if trigger.summary:
                st.caption(trigger.summary)
            for spec in trigger_specs(trigger):
                if spec.kind == "fixed":
                    st.caption(f"`{spec.name}` = {spec.default!r} (no widget)")
                    continue
                params.append((spec.name, _parameter_widget(spec)))
    return recipe_spec(chosen), tuple(params)


def _parameter_widget(spec: WidgetSpec) -> object:
    """Draw one parameter's widget; its value, or None when its "off" box is ticked."""
    off = spec.optional and st.checkbox(
        f"{spec.label}: off",
        value=spec.off,
        key=spec.off_key,
        help=f"No value (None) for `{spec.name}`.",
    )
    common = {"help": spec.help, "key": spec.key, "disabled": off}
    if spec.kind in ("int", "float"):
        value = st.number_input(
            spec.label,
            min_value=spec.min_value,
            max_value=spec.max_value,
            value=spec.default,
            step=spec.step,
            format=spec.format,
            **common,
        )
    elif spec.kind == "choice":
        value = st.selectbox(
            spec.label,
            spec.options,
            index=spec.options.index(spec.default),
            format_func=str,
            **common,
        )
    elif spec.kind == "bool":
        value = st.checkbox(spec.label, value=spec.default, **common)
    else:
        value = st.text_input(spec.label, value=spec.default, **common)
    return None if off else value


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
    spec, params = _choose_recipe()
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
        agentic = sb.toggle(
            "Agentic memory",
            key="agentic_memory",
            value=agentic_default(),
            help="Offer the model the memory tools (save, update, forget, recall, "
            "...); the calls it makes are listed under its reply.",
        )
        try:
            llm = build_llm(url, model, agentic_memory=agentic)
        except SettingsError as err:
            sb.error(f"{err}. Using the rule-based brain until it is fixed.")
    elif agentic_default():
        sb.caption(AGENTIC_OFFLINE)
    return AppSettings(tenant=tenant, recipe_spec=spec, params=params, llm=llm)


def time_controls(
    memory: Memory, clock: OffsetClock, tenant: str, thread: str = "main"
) -> None:
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
                step = actions.advance_clock(memory, clock, tenant, delta, thread)
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
            report_step(memory.close_session(tenant, thread=thread))
        except MemoryLabError as err:
            flash("error", str(err))


def replay_controls(
    memory: Memory, clock: OffsetClock, tenant: str, thread: str = "main"
) -> None:
    """Replay a dataset conversation into this chat, turn by turn or to a turn."""
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
                steps = actions.replay(
                    memory, clock, tenant, conv, cursor, upto, thread
                )
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
