"""Talking to language models: one chat client, its cache, and a local model server.

`client` is the single place that sends chat requests for the LLM brain, the answer
model and the judge, so retries, caching, usage counts and structured-output quirks
are handled once. `local_server` runs llama.cpp's OpenAI-compatible server on a
packaged small model, so the whole stack can be exercised on a machine with no
model API.
"""
