"""The README's generated blocks, each built from committed result files.

`tables` is the registry and the command (``python -m memlab_evals.readme.tables
README.md [--check]``); each other module builds the blocks of one part.

- `tables`      the block registry, and the command that rewrites or checks them
- `cells`       how a figure is written, so a quantity reads the same everywhere
- `results`     the main job's runs, the goal and the share of `full`
- `extraction`  the extractor comparison and this work's targets
- `tail`        what the verbatim tail and the fact headers changed
- `speed`       the speed targets, from the bench's result files
- `scaling`     ingest across processes, and what Ray costs
- `peers`       the peer libraries beside the recipes, with their failures
"""
