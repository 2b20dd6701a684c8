"""The chat list: new chat, switch, rename, search across chats, trash and restore.

Memory belongs to the tenant, not to a chat: what is said in one chat is
recalled in every other. The list only decides which thread the page shows and
where a new message goes. The chosen chat is kept in the URL (`?chat=`), so a
link opens it; an id the tenant does not have is refused with a message and the
newest chat is shown instead. The URL is read when the page opens; after that
the list decides and the URL follows it.
"""

from __future__ import annotations

from datetime import timedelta

import streamlit as st

from app_ui.flash import flash
from memory_lab.api import Memory
from memory_lab.chats import Chat, ChatError

DEFAULT_THREAD = "main"
"""The chat of a tenant that has none yet (and of memory from before chats)."""
_CURRENT = "current_chat"
_SEARCH = "chat_search"
_OPENED = "chat_url_read"


def _chosen() -> dict[str, str]:
    return st.session_state.setdefault(_CURRENT, {})


def switch_to(tenant: str, thread: str) -> None:
    """Show `thread` from the next run on (a widget callback)."""
    _chosen()[tenant] = thread


def _trash_days(memory: Memory) -> str:
    """How many days a trashed chat stays restorable, as the page says it."""
    return f"{memory.trash.keep / timedelta(days=1):g}"


def _usable(memory: Memory, tenant: str, thread: str) -> Chat | None:
    try:
        chat = memory.chats.get(tenant, thread)
    except ChatError:
        return None
    return chat if chat.trashed_at is None else None


def current_chat(memory: Memory, tenant: str) -> str:
    """The thread this page shows: the URL's, else this session's, else the newest.

    A URL naming a chat the tenant does not have, or one in the trash, gets a
    message saying so; nothing is created or changed for it.
    """
    chosen = _chosen()
    asked = st.query_params.get("chat")
    # The URL speaks when a page is opened (a link, an edited address: each
    # opens a new session). Later runs may carry the address from before a
    # switch, so within a session the list's choice holds.
    if asked is not None and _OPENED not in st.session_state:
        try:
            chat = memory.chats.get(tenant, asked)
        except ChatError as err:
            flash("error", f"{err}. Showing your newest chat instead.")
        else:
            if chat.trashed_at is not None:
                flash(
                    "warning",
                    f"Chat {chat.title!r} is in the trash: restore it from the "
                    "Trash below to open it.",
                )
            else:
                chosen[tenant] = asked
    thread = chosen.get(tenant)
    if thread is None or (
        thread != DEFAULT_THREAD and _usable(memory, tenant, thread) is None
    ):
        listed = memory.chats.all(tenant)
        thread = listed[0].thread if listed else DEFAULT_THREAD
        chosen[tenant] = thread
    if asked != thread:
        st.query_params["chat"] = thread
    st.session_state[_OPENED] = True
    return thread


def _new_chat(memory: Memory, tenant: str) -> None:
    chat = memory.chats.create(tenant)
    switch_to(tenant, chat.thread)
    flash("info", "New chat: memory from your other chats comes with you.")


def _rename(memory: Memory, tenant: str, thread: str, key: str) -> None:
    try:
        chat = memory.chats.rename(tenant, thread, st.session_state.get(key, ""))
    except ChatError as err:
        flash("error", str(err))
    else:
        flash("success", f"Renamed to {chat.title!r}.")


def _trash(memory: Memory, tenant: str, thread: str) -> None:
    try:
        chat = memory.chats.trash(tenant, thread)
    except ChatError as err:
        flash("error", str(err))
        return
    _chosen().pop(tenant, None)
    flash(
        "info",
        f"Moved {chat.title!r} to the trash: restorable for {_trash_days(memory)} "
        "days. "
        "What memory learned from it stays until the trash is emptied.",
    )


def _restore(memory: Memory, tenant: str, thread: str) -> None:
    try:
        chat = memory.chats.restore(tenant, thread)
    except ChatError as err:
        flash("error", str(err))
        return
    switch_to(tenant, thread)
    flash("success", f"Restored {chat.title!r}.")


def _title(memory: Memory, tenant: str, thread: str) -> str:
    try:
        return memory.chats.get(tenant, thread).title
    except ChatError:
        return "New chat"


def chat_list(memory: Memory, tenant: str, thread: str) -> None:
    """The chats of this tenant, and what can be done to them."""
    listed = memory.chats.all(tenant)
    threads = [c.thread for c in listed]
    if thread not in threads:
        threads.insert(0, thread)
    titles = {c.thread: c.title for c in listed}
    head, new = st.columns([3, 2], vertical_alignment="bottom")
    head.markdown("**Chats**")
    new.button(
        "New chat",
        key="new_chat",
        on_click=_new_chat,
        args=(memory, tenant),
        icon=":material/add:",
        width="stretch",
    )
    pick = f"chat_pick_{tenant}"
    st.session_state[pick] = thread
    st.radio(
        "Chats",
        threads,
        key=pick,
        format_func=lambda t: titles.get(t, "New chat"),
        label_visibility="collapsed",
        on_change=lambda: switch_to(tenant, st.session_state[pick]),
    )
    _manage(memory, tenant, thread)
    _search(memory, tenant)
    _trash_list(memory, tenant)


def _manage(memory: Memory, tenant: str, thread: str) -> None:
    with st.expander("Rename or delete this chat"):
        key = f"rename_{tenant}_{thread}"
        st.text_input("Chat title", value=_title(memory, tenant, thread), key=key)
        left, right = st.columns(2)
        left.button(
            "Rename",
            key="rename_chat",
            on_click=_rename,
            args=(memory, tenant, thread, key),
            width="stretch",
        )
        right.button(
            "Move to trash",
            key="trash_chat",
            on_click=_trash,
            args=(memory, tenant, thread),
            width="stretch",
            disabled=_usable(memory, tenant, thread) is None,
        )


def _search(memory: Memory, tenant: str) -> None:
    with st.expander("Search chats"):
        query = st.text_input(
            "Search all chats",
            key=_SEARCH,
            placeholder="A word or a short phrase",
        )
        if not query:
            return
        try:
            hits = memory.chats.search(tenant, query)
        except ChatError as err:
            st.error(str(err))
            return
        if not hits:
            st.caption("No chat has all of these words.")
        for i, hit in enumerate(hits):
            st.button(
                f"{hit.title} · {hit.role}: {hit.snippet}",
                key=f"hit_{i}_{hit.message_id}",
                on_click=switch_to,
                args=(tenant, hit.thread),
                type="tertiary",
            )


def _trash_list(memory: Memory, tenant: str) -> None:
    trashed = memory.chats.all(tenant, trashed=True)
    with st.expander(f"Trash ({len(trashed)})"):
        if not trashed:
            st.caption(f"Deleted chats stay here for {_trash_days(memory)} days.")
        for chat in trashed:
            text, button = st.columns([3, 1], vertical_alignment="center")
            until = chat.restorable_until(memory.trash.keep)
            text.caption(f"{chat.title} · restorable until {until:%Y-%m-%d}")
            button.button(
                "Restore",
                key=f"restore_{chat.thread}",
                on_click=_restore,
                args=(memory, tenant, chat.thread),
            )
