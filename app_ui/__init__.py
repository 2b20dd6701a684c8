"""The Streamlit app's parts, one job per module; `app.py` composes them.

- `clock`: the app's clock (system time plus an offset the time controls advance).
- `settings`: what the sidebar chose (tenant, recipe, brain), validated.
- `engines`: cached memories, one per (data folder, tenant, recipe, brain).
- `actions`: everything that changes memory; errors become flash messages.
- `sidebar`: the controls.
- `model_status`: the model's lanes (replies, memory work) in the sidebar.
- `chat`: the conversation with status lines and Undo.
- `tiers`: window, running summary, episodes and facts.
- `activity`: trigger timeline, assembled context and proactive suggestions.
- `evals_panel`: an eval run folder's tables and plots.
"""
