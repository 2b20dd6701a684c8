"""What the responder is shown: retrieval from every tier, assembled under a budget.

`assembly` is pure (ranked inputs in, delimited blocks out, hard token budgets),
with `fact_groups` laying the facts block out under category headers, each
within its share; `build` retrieves from the tiers (`gathered` adds a gathered
line for each person a question names) and calls it.
"""
