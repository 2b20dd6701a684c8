"""The triggers' summary columns, scored in `memlab_evals.scorers.trigger_columns`.

Kept so ``memlab_evals.reports.trigger_columns`` still imports; the columns are
computed from the run log alone, so they sit with the scorers, below the reports.
"""

from memlab_evals.scorers.trigger_columns import COLUMNS, DIRECTIONS, trigger_columns

__all__ = ["COLUMNS", "DIRECTIONS", "trigger_columns"]
