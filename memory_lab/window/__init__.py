"""The session window: the last turns verbatim, and the running summary of the rest.

When to compress is decided by the triggers (`memory_lab.triggers`); the running
summary of what left the window lives in `summary`.
"""
