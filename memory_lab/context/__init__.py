"""What the responder is shown: retrieval from every tier, assembled under a budget.

`assembly` is pure (ranked inputs in, delimited blocks out, hard token budgets);
`build` retrieves from the tiers and calls it.
"""
