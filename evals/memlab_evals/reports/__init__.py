"""What a run's log becomes for a reader: the summary, tables, plots and gates.

Everything here reads the run log or the summary made from it, so a stored run can
be summarised, reported and gated again without re-running it.

- `aggregate`        per-probe and per-conversation scores rolled up into summary.csv
- `probe_file`       probes.csv: the per-probe scores kept, for paired comparisons
- `trigger_columns`  the summary columns for what a recipe's triggers did and cost
- `report`           report.md: the table, the plots and a reading against targets
- `frontier_plot`    quality against cost over a sweep's systems, labelled readably
- `goal`             the paired test: best recipe against best raw-turn retriever
- `goal_table`       that verdict across the main job's runs, as one table and plot
- `gate`             the regression gate: a summary against measured baselines
- `trigger_table`    ``memory-lab triggers``: every trigger and combination side by side
"""
