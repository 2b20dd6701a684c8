"""The parser's first load from two threads at once: a question's and the worker's.

A package imported from two threads at the same moment can come out half made
("cannot import name 'Doc' from partially initialized module"). A question that
reads entity labels and the worker's first extraction may both be the first to
load spaCy, so each must do it under the parser's load lock. Run in a fresh
interpreter: in this one spaCy is likely loaded already.
"""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

SCRIPT = """
import threading
from memory_lab.brains.offline.brain import RuleBasedBrain
from memory_lab.episodes.answer_types import EntityLabels
from tests.helpers import msg

turn = msg(0, "We flew from Oslo to Rome for the wedding.")
out = {}

def question():
    out["labels"] = EntityLabels().of([turn])

def worker():
    out["facts"] = RuleBasedBrain(extractor="parse").extract([turn]).value

threads = [threading.Thread(target=question), threading.Thread(target=worker)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert out["labels"] is not None and "GPE" in out["labels"][0], out
assert "facts" in out, out
print("ok")
"""


def test_a_question_and_the_worker_can_both_load_the_parser_first():
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip().endswith("ok")
