"""Everything that asks a model: answers, the judge and its calibration, ragas.

After a run has logged each probe's context, one pass sends the probes to the
answer model and the answers to the judge, behind one bound on connections. The
ragas bridge computes its offline metrics without a model, but it sits beside
`ragas_llm`, which builds on its context lines and its lazy import.

- `model_pass`    the pass itself: answer every probe, judge the answers, count cost
- `answering`     one probe answered from the context its system assembled
- `judges`        J on answers and the context judge, with pinned prompts
- `judge_check`   whether a judge tells right answers from wrong before J is trusted
- `judge_items`   the answers of known verdict the check grades, from the probes
- `endpoints`     where the models live and the call options every client shares
- `bounded`       many model calls at once, never more than a set number in flight
- `ragas_bridge`  a run as a ragas dataset, and ragas's non-LLM metrics on it
- `ragas_llm`     ragas's LLM metrics on the judge's endpoint
"""
