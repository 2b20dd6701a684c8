"""Cached engines: one per (data folder, tenant, configuration), shared by reruns.

The embedder and token counter load once per process and are shared by every
engine; each tenant has one clock, shared by its engines, so switching recipe or
brain never moves time. Chroma wants one owner per store path, which one Streamlit
server process is.
"""

from __future__ import annotations

import threading
from pathlib import Path

import streamlit as st

from app_ui import demo
from app_ui.clock import OffsetClock, OffsetStore
from app_ui.live_demo import register_demo_source
from app_ui.settings import AppSettings, data_dir, store_spec
from memory_lab.brains.parsed.pipeline import warm_in_background
from memory_lab.config import MemoryConfig
from memory_lab.embeddings import Embedder, default_embedder
from memory_lab.engine import MemoryEngine
from memory_lab.stores.locations import StoreSpec
from memory_lab.tokens import TokenCounter, default_counter


@st.cache_resource(show_spinner="Loading the embedding model...")
def shared_embedder() -> Embedder:
    """The process-wide embedder."""
    return default_embedder()


@st.cache_resource(show_spinner=False)
def parser_warm_up() -> threading.Thread:
    """The offline brain's parser, loading in the background from the first run.

    A visitor's first stated fact would otherwise wait for the load (seconds,
    tens of them on a busy server) before it shows.
    """
    return warm_in_background()


@st.cache_resource(show_spinner=False)
def shared_counter() -> TokenCounter:
    """The process-wide token counter."""
    return default_counter()


@st.cache_resource(show_spinner=False)
def offset_store(data_dir: str) -> OffsetStore:
    """The clock offsets of one data folder (one lock for all its tenants)."""
    return OffsetStore(Path(data_dir))


@st.cache_resource(show_spinner=False)
def tenant_clock(data_dir: str, tenant: str) -> OffsetClock:
    """The one clock of a tenant."""
    return OffsetClock(offset_store(data_dir), tenant)


def _release(engine: MemoryEngine) -> None:
    engine.close()


@st.cache_resource(
    show_spinner="Opening the memory stores...", max_entries=24, on_release=_release
)
def _engine(
    data_dir: str, tenant: str, config_json: str, stores: StoreSpec
) -> MemoryEngine:
    config = MemoryConfig.model_validate_json(config_json)
    return MemoryEngine(
        Path(data_dir),
        config=config,
        clock=tenant_clock(data_dir, tenant),
        embedder=shared_embedder(),
        counter=shared_counter(),
        stores=stores,
    )


def engine_for(data_dir: Path, settings: AppSettings) -> MemoryEngine:
    """The engine for these settings (built on first use).

    Raises:
        SettingsError: when the settings do not make a valid configuration.
    """
    config = settings.config()
    return _engine(
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


def memory_for(settings: AppSettings) -> tuple[Path, MemoryEngine, OffsetClock, bool]:
    """The data folder, engine and clock this run shows, and whether memory was reset.

    In demo mode they are the browser session's own (`demo`); otherwise the
    shared folder's, cached per tenant and configuration.

    Raises:
        SettingsError: when the settings do not make a valid configuration.
    """
    parser_warm_up()
    if demo.enabled():
        spaces = demo_spaces()
        opened = session_space().open(
            settings.tenant,
            settings.config(),
            spaces.now(),
            shared_embedder(),
            shared_counter(),
        )
        register_demo_source(opened[1], opened[0])
        return opened
    folder = data_dir()
    engine = engine_for(folder, settings)
    register_demo_source(engine, folder)
    return folder, engine, tenant_clock(str(folder), settings.tenant), False
