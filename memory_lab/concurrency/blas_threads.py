"""One BLAS thread for the processes memory-lab starts itself.

Every product memory-lab asks of numpy's BLAS is one question's cosine against
at most tens of thousands of 384-wide rows: too small for a second thread to
pay for itself. On a busy machine it costs far more than it saves, because
OpenBLAS's threads spin while they wait for a partner that is not running.
Building the contexts of one 3,000-turn conversation while another process
kept both cores of a 2-core machine busy: p50 27.7 ms with OpenBLAS's default of
two threads, 5.5 ms with one. On an idle machine the two agree within noise.

The commands, the MCP server and the app call `use_one_blas_thread` when they
start. The library itself leaves its host's thread pools alone: an application
that embeds memory-lab decides for its own process, with this function or with
``OPENBLAS_NUM_THREADS``.
"""

from __future__ import annotations

import os

THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
"""Settings a user may have chosen a BLAS pool size with; any of them wins."""


def use_one_blas_thread() -> bool:
    """Cap numpy's BLAS at one thread, unless the user chose a size already.

    Returns whether the cap was set. Process-wide, so call it once at start,
    before any thread of ours does linear algebra.
    """
    if any(os.environ.get(name) for name in THREAD_VARIABLES):
        return False
    import numpy  # noqa: F401  (loads the BLAS library the cap must reach)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")
    return True
