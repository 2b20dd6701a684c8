"""The evals: run systems over conversations, ask models, score, report.

- `cli`       ``memory-lab eval``, ``memory-lab score`` and the main job
- `systems/`  the registry of evaluated systems: recipes, baselines, peers
- `running/`  running systems over conversations, and the versioned run log
- `judging/`  everything that asks a model: answers, the judge, ragas
- `scorers/`  one scorer per metric, each a pure function of logged records
- `reports/`  the summary, report.md, plots, the goal and the regression gate
- `readme/`   the README's generated blocks, built from committed result files
- `peers/`    Mem0 and LangMem as systems under test
"""
