"""Ways into one memory from other agent frameworks.

- `mcp_server`: `memory-lab mcp`, the memory tools over the Model Context
  Protocol (stdio or streamable HTTP), on the official SDK.
- `langgraph`: `MemoryLabStore`, a LangGraph `BaseStore`.
- `langchain`: `MemoryLabChatHistory`, a LangChain `BaseChatMessageHistory`.

Each is built on `memory_lab.api.Memory` and nothing below it.
"""
