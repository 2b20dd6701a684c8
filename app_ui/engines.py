"""Cached memories: one per (data folder, tenant, configuration), shared by reruns.

The models (embedding model, token counter, parser) load once per process and
every memory shares them; each tenant has one clock, shared by its memories, so
switching recipe or brain never moves time. Chroma wants one owner per store path,
which one Streamlit server process is.
"""

from __future__ import annotations

import threading
from pathlib import Path

import streamlit as st

from app_ui import demo
from app_ui.clock import OffsetClock, OffsetStore
from app_ui.live_demo import register_demo_source
from app_ui.settings import AppSettings, data_dir, store_spec
from memory_lab.api import Memory, StoreSpec
from memory_lab.api_views import warm_up
from memory_lab.config import MemoryConfig


@st.cache_resource(show_spinner="Loading the embedding model...")
def shared_models() -> threading.Thread:
    """The models every memory shares, loaded once per process from the first run.

    The offline brain's parser goes on loading on the returned thread: a
    visitor's first stated fact would otherwise wait for it (seconds, tens of
    them on a busy server) before it shows.
    """
    return warm_up()


@st.cache_resource(show_spinner=False)
def offset_store(data_dir: str) -> OffsetStore:
    """The clock offsets of one data folder (one lock for all its tenants)."""
    return OffsetStore(Path(data_dir))


@st.cache_resource(show_spinner=False)
def tenant_clock(data_dir: str, tenant: str) -> OffsetClock:
    """The one clock of a tenant."""
    return OffsetClock(offset_store(data_dir), tenant)


def _release(memory: Memory) -> None:
    memory.close()


@st.cache_resource(
    show_spinner="Opening the memory stores...", max_entries=24, on_release=_release
)
def _memory(data_dir: str, tenant: str, config_json: str, stores: StoreSpec) -> Memory:
    config = MemoryConfig.model_validate_json(config_json)
    # With a store URL, the folder keeps what no server holds.
    return Memory.open(
        stores.store or data_dir,
        folder=data_dir,
        episodes=stores.episodes,
        config=config,
        clock=tenant_clock(data_dir, tenant),
    )


def cached_memory(data_dir: Path, settings: AppSettings) -> Memory:
    """The memory for these settings (opened on first use).

    Raises:
        SettingsError: when the settings do not make a valid configuration.
    """
    config = settings.config()
    return _memory(
        str(data_dir), settings.tenant, config.model_dump_json(), store_spec()
    )


@st.cache_resource(show_spinner=False)
def demo_spaces() -> demo.DemoSpaces:
    """The server's demo sessions, swept for idle ones in the background."""
    idle = demo.idle_seconds()
    spaces = demo.DemoSpaces(demo.demo_root(), idle)
    demo.start_sweeper(spaces, min(60.0, idle / 4))
    return spaces


def _release_space(space: demo.DemoSpace) -> None:
    space.registry.release(space)


@st.cache_resource(scope="session", on_release=_release_space, show_spinner=False)
def session_space() -> demo.DemoSpace:
    """The browser session's own memory; released when the session ends."""
    return demo_spaces().new()


def memory_for(settings: AppSettings) -> tuple[Path, Memory, OffsetClock, bool]:
    """The data folder, memory and clock this run shows, and whether memory was reset.

    In demo mode they are the browser session's own (`demo`); otherwise the
    shared folder's, cached per tenant and configuration.

    Raises:
        SettingsError: when the settings do not make a valid configuration.
    """
    shared_models()
    if demo.enabled():
        spaces = demo_spaces()
        opened = session_space().open(settings.tenant, settings.config(), spaces.now())
        register_demo_source(opened[1], opened[0])
        return opened
    folder = data_dir()
    memory = cached_memory(folder, settings)
    register_demo_source(memory, folder)
    return folder, memory, tenant_clock(str(folder), settings.tenant), False
