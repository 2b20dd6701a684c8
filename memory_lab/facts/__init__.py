"""The structured-fact tier: small exact facts with provenance and a lifecycle.

`reconciliation` decides each write (pure); `memory.FactMemory` applies it to a
store and runs decay, expiry and consolidation; `suggestions` and `tools` are what
an assistant builds on top.
"""
