"""The generated blocks of the README and docs/, each built from committed results.

`tables` is the registry and the command (``python -m memlab_evals.readme.tables
README.md [--check]``, which covers every page under docs/ too); each other
module builds the blocks of one part.

- `tables`      the block registry, and the command that rewrites or checks them
- `cells`       how a figure is written, so a quantity reads the same everywhere
- `results`     the main job's runs, the goal and the share of `full`
- `extraction`  the extractor comparison and this work's targets
- `tail`        what the verbatim tail and the fact headers changed
- `speed`       the speed targets, from the bench's result files
- `scaling`     ingest across processes, and what Ray costs
- `peers`       the peer libraries beside the recipes, with their failures
- `fact_gain`   what facts add over turns alone, paired by probe
- `agents`      the MCP server's and the LangGraph store's timings
- `stamps`      the commit each block was made at, how far behind it is, and the
                committed results known to be dirty or unstamped
"""
