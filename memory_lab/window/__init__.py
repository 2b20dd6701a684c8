"""The session window: the last turns verbatim, and when to compress the rest.

`triggers` decides (A message count, B token count, C time/day, any-of
combinations); the running summary of what left the window lives in `summary`.
"""
