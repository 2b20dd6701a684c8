"""Fixtures for every test folder: the database servers (see tests/servers.py)."""

from tests.servers import chroma_url, postgres_url  # noqa: F401
