"""Fixtures for every test folder, and the Hypothesis profiles.

The test command CI runs must give the same verdict on every run, so its
property tests draw the same examples each time ("ci", derandomized: the seed is
a hash of the test). Finding new failing examples is the soak's job: `make soak`
runs with the "explore" profile and a recorded seed per round, so anything it
finds replays.
"""

import os

from hypothesis import settings

from tests.servers import chroma_url, postgres_url  # noqa: F401

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("explore", derandomize=False, print_blob=True)
settings.load_profile(os.environ.get("MEMORY_LAB_HYPOTHESIS_PROFILE", "ci"))
