"""Which summary column averages each ragas metric.

Declared below the judging that fills them and the summary that averages them,
so the summary reads the names without importing the judge.
"""

from __future__ import annotations

RAGAS_COLUMNS: dict[str, str] = {
    "non_llm_context_recall": "ragas_context_recall",
    "non_llm_context_precision": "ragas_context_precision",
    "string_presence": "ragas_string_presence",
    "faithfulness": "ragas_faithfulness",
    "answer_correctness": "ragas_answer_correctness",
}
"""ragas's metric -> the summary column that averages it (the last two need a
judge: see `memlab_evals.judging.ragas_llm`)."""
