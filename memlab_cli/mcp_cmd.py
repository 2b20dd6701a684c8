"""`memory-lab mcp`: serve one tenant's memory to MCP clients.

Over stdio by default (the client starts this command and talks on its stdin
and stdout, so nothing else may be written there: every log line goes to
stderr), or over streamable HTTP with `--http`, where each request must carry
`Authorization: Bearer <token>`: the token in MEMORY_LAB_MCP_TOKEN, else one
generated now and printed on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import logging
import os
import sys

from memory_lab.errors import MemoryLabError

DEFAULT_PORT = 8765
LOOPBACK = "127.0.0.1"


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `mcp` sub-command."""
    p = sub.add_parser(
        "mcp",
        help="serve one tenant's memory as MCP tools (stdio, or HTTP with --http)",
        description="Tools: memory_add, memory_recall, memory_search, memory_save, "
        "memory_update, memory_forget, memory_confirm, memory_list, memory_link, "
        "memory_unlink, memory_links. The tenant is fixed for the process. Stops "
        "when the client closes stdin, on SIGTERM or on Ctrl-C, and closes the "
        "memory first, finishing the work owed.",
    )
    p.add_argument(
        "--data",
        required=True,
        help="the memory: a folder, ':memory:' or a postgresql:// URL",
    )
    p.add_argument("--tenant", required=True, help="whose memory every tool uses")
    p.add_argument("--recipe", default="A", help="when to compress (default A)")
    p.add_argument(
        "--http",
        action="store_true",
        help="serve streamable HTTP at http://HOST:PORT/mcp instead of stdio; "
        "requests need the bearer token (MEMORY_LAB_MCP_TOKEN, else printed)",
    )
    p.add_argument(
        "--port",
        type=int,
        help=f"HTTP port (default {DEFAULT_PORT}); only with --http",
    )
    p.add_argument(
        "--host",
        help=f"HTTP address (default {LOOPBACK}); any other is warned about",
    )
    p.set_defaults(func=_run_mcp)


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _run_mcp(args: argparse.Namespace) -> int:
    if not args.http and (args.port is not None or args.host is not None):
        raise MemoryLabError("--port and --host need --http (stdio has no address)")
    host = args.host or LOOPBACK
    port = DEFAULT_PORT if args.port is None else args.port
    if not 0 < port < 65536:
        raise MemoryLabError(f"--port must be 1..65535, got {port}")
    logging.basicConfig(
        level=logging.WARNING,
        stream=sys.stderr,
        format="memory-lab mcp: %(message)s",
        force=True,
    )
    logging.getLogger("memory_lab.adapters.mcp_server").setLevel(logging.INFO)
    say = logging.getLogger("memory_lab.adapters.mcp_server").info

    try:
        from memory_lab.adapters.mcp_auth import (
            StaticTokenVerifier,
            auth_settings,
            server_token,
        )
        from memory_lab.adapters.mcp_server import (
            MAX_MESSAGE_CHARS,
            build_server,
            serve,
        )
    except ImportError as err:
        raise MemoryLabError(
            f"the MCP server needs the MCP SDK: pip install 'memory-lab[mcp]' ({err})"
        ) from err
    from memory_lab.api import Memory
    from memory_lab.config import LimitsConfig, MemoryConfig
    from memory_lab.errors import require_tenant

    tenant = require_tenant(args.tenant)
    token = None
    if args.http:
        token, generated = server_token(os.environ)
    config = MemoryConfig(limits=LimitsConfig(max_message_chars=MAX_MESSAGE_CHARS))
    # Loading the stores and models must not print onto the protocol stream.
    with contextlib.redirect_stdout(sys.stderr):
        memory = Memory.open(
            args.data, recipe=args.recipe, brain=args.models.llm, config=config
        )
    try:
        if token is None:
            server = build_server(memory, tenant)
        else:
            server = build_server(
                memory,
                tenant,
                auth=auth_settings(host, port),
                token_verifier=StaticTokenVerifier(token),
            )
    except BaseException:
        memory.close()
        raise
    if token is None:
        say("serving tenant %r of %s on stdio (pid %d)", tenant, args.data, os.getpid())
        return serve(server, memory)
    shown = f"[{host}]" if ":" in host else host
    if not _is_loopback(host):
        print(
            f"memory-lab mcp: warning: serving on {host}, not {LOOPBACK}: other "
            f"machines can reach it, and anyone holding the token reads and "
            f"changes tenant {tenant!r}'s memory; the traffic is not encrypted",
            file=sys.stderr,
        )
    if generated:
        print(
            f"memory-lab mcp: bearer token (set MEMORY_LAB_MCP_TOKEN to choose "
            f"one): {token}",
            file=sys.stderr,
        )
    say(
        "serving tenant %r of %s at http://%s:%d/mcp (pid %d)",
        tenant,
        args.data,
        shown,
        port,
        os.getpid(),
    )
    return serve(server, memory, http=(host, port))
