"""memory-lab's own processes run numpy's BLAS on one thread, unless told otherwise."""

import json
import os
import subprocess
import sys

import pytest

from memory_lab.concurrency.blas_threads import THREAD_VARIABLES

REPORT = (
    "import json, sys\n"
    "from threadpoolctl import threadpool_info\n"
    "{call}\n"
    "print(json.dumps([p['num_threads'] for p in threadpool_info()"
    " if p['user_api'] == 'blas']))\n"
)


def _blas_threads(call: str, **env: str) -> list[int]:
    clean = {k: v for k, v in os.environ.items() if k not in THREAD_VARIABLES}
    done = subprocess.run(
        [sys.executable, "-c", REPORT.format(call=call)],
        env={**clean, **env},
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_cap_leaves_one_blas_thread():
    threads = _blas_threads(
        "from memory_lab.concurrency.blas_threads import use_one_blas_thread\n"
        "assert use_one_blas_thread()"
    )
    assert threads and set(threads) == {1}


STANDS_ASIDE = (
    "from memory_lab.concurrency.blas_threads import use_one_blas_thread\n"
    "assert not use_one_blas_thread()"
)


@pytest.mark.parametrize("variable", ["OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"])
def test_a_pool_size_the_user_chose_is_kept(variable):
    threads = _blas_threads(STANDS_ASIDE, **{variable: "2"})
    assert threads and set(threads) == {2}


def test_a_size_chosen_for_mkl_also_makes_the_cap_stand_aside():
    # The child asserts the cap was not set; a failure raises CalledProcessError.
    _blas_threads(STANDS_ASIDE, MKL_NUM_THREADS="2")


def test_every_memory_lab_command_starts_with_the_cap():
    threads = _blas_threads(
        "from memlab_cli.main import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    main(['graph'])"
    )
    assert threads and set(threads) == {1}
