"""The bearer token that guards `memory-lab mcp --http`.

One static token per server process: the SDK's own bearer middleware asks
`StaticTokenVerifier` about every request to the MCP endpoint, and a request
without the token, or with another, is answered 401 before it reaches a tool.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping

from mcp.server.auth.provider import AccessToken
from mcp.server.auth.settings import AuthSettings

TOKEN_ENV = "MEMORY_LAB_MCP_TOKEN"
"""The environment variable that names the token; unset, one is generated."""


class StaticTokenVerifier:
    """Accepts exactly one token, compared in constant time (a `TokenVerifier`)."""

    def __init__(self, token: str) -> None:
        if not token:
            raise ValueError("the bearer token must not be empty")
        self._token = token.encode()

    async def verify_token(self, token: str) -> AccessToken | None:
        """The access the token grants, or None for any other token."""
        if hmac.compare_digest(token.encode(), self._token):
            return AccessToken(token=token, client_id="memory-lab", scopes=[])
        return None


def server_token(environ: Mapping[str, str]) -> tuple[str, bool]:
    """The token to require, and whether it was generated here (so must be shown).

    Raises:
        ValueError: when the variable is set but blank; a typo must not leave
            the server guarded by a token nobody chose or saw.
    """
    given = environ.get(TOKEN_ENV)
    if given is None:
        return secrets.token_urlsafe(32), True
    if not given.strip():
        raise ValueError(f"{TOKEN_ENV} is set but empty: unset it or give a token")
    return given.strip(), False


def auth_settings(host: str, port: int) -> AuthSettings:
    """The SDK's auth settings for a server that checks tokens itself.

    No authorization server and no resource metadata: the issuer is this
    server's own address, which the SDK requires but nothing here serves.
    """
    shown = f"[{host}]" if ":" in host else host
    return AuthSettings(
        issuer_url=f"http://{shown}:{port}",  # type: ignore[arg-type]
        resource_server_url=None,
        required_scopes=[],
    )
