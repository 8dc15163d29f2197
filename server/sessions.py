"""Limits that keep one HTTP client from crowding out the others.

- ``ClientLimitsMiddleware`` names the client of every request (its IP
  address, plus the token's principal under OAuth) and answers 429 when that
  client already has ``max_calls`` POST requests in flight.
- ``LimitedSessionManager`` is the SDK's session manager with two more rules:
  a client holds at most ``max_sessions_per_client`` sessions, and when it
  opens one more its longest-idle session is closed; when the whole table is
  full, the longest-idle session of any client is closed instead of refusing
  newcomers. So a client that opens sessions and never closes them only
  recycles its own, and idle sessions expire after ``session_idle_timeout``.
"""

from __future__ import annotations

import json
import logging
import math
from contextvars import ContextVar
from typing import Any

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.streamable_http import StreamableHTTPServerTransport
from mcp.server.streamable_http_manager import StreamableHTTPSessionManager
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["ClientLimitsMiddleware", "LimitedSessionManager", "client_key"]

logger = logging.getLogger(__name__)

_CLIENT: ContextVar[str] = ContextVar("lif_http_client", default="?")


def client_key(scope: Scope) -> str:
    """Who sent a request: ``principal@ip`` (principal only when a token names one), else ``ip``."""
    client = scope.get("client")
    ip = client[0] if client else "?"
    user = scope.get("user")
    if isinstance(user, AuthenticatedUser):
        token = user.access_token
        return f"{token.client_id}/{token.subject or '-'}@{ip}"
    return ip


class ClientLimitsMiddleware:
    """Counts POST requests in flight per client; over ``max_calls`` the answer is 429 with a JSON-RPC error."""

    def __init__(self, app: ASGIApp, *, max_calls: int) -> None:
        self.app = app
        self.max_calls = max_calls
        self._in_flight: dict[str, int] = {}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        key = client_key(scope)
        token = _CLIENT.set(key)
        try:
            if scope.get("method") != "POST":
                await self.app(scope, receive, send)
                return
            if self._in_flight.get(key, 0) >= self.max_calls:
                logger.warning("client %s has %d requests in flight; answering 429", key, self.max_calls)
                await _too_many(send, f"too many requests in flight from this client (limit {self.max_calls}); "
                                "wait for an answer before sending more")
                return
            self._in_flight[key] = self._in_flight.get(key, 0) + 1
            try:
                await self.app(scope, receive, send)
            finally:
                left = self._in_flight[key] - 1
                if left:
                    self._in_flight[key] = left
                else:
                    del self._in_flight[key]
        finally:
            _CLIENT.reset(token)


async def _too_many(send: Send, message: str) -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32000, "message": message}}).encode()
    await send({"type": "http.response.start", "status": 429,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()),
                            (b"retry-after", b"1")]})
    await send({"type": "http.response.body", "body": body})


class LimitedSessionManager(StreamableHTTPSessionManager):
    """The SDK's session manager, with a per-client cap and idle-first eviction instead of a full table."""

    def __init__(self, *args: Any, max_sessions_per_client: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.max_sessions_per_client = max_sessions_per_client
        self._clients: dict[str, str] = {}  # session id -> client key

    def sessions_of(self, key: str) -> list[str]:
        """The open sessions of one client."""
        return [sid for sid, owner in self._clients.items() if owner == key and sid in self._server_instances]

    def _idle_since(self, session_id: str) -> float:
        """When the session's idle countdown ends (smaller = idle longer); inf while a request is in flight."""
        transport = self._server_instances.get(session_id)
        scope = transport.idle_scope if transport is not None else None
        if scope is None or scope.cancel_called:
            return math.inf
        return scope.deadline

    def _evict_longest_idle(self, candidates: list[str], why: str) -> bool:
        idle = [(self._idle_since(sid), sid) for sid in candidates]
        idle = [pair for pair in idle if pair[0] != math.inf]
        if not idle:
            return False
        _, victim = min(idle)
        transport = self._server_instances.pop(victim)
        self._session_owners.pop(victim, None)
        self._clients.pop(victim, None)
        assert transport.idle_scope is not None
        transport.idle_scope.cancel()  # the session's server task ends and terminates the transport
        logger.info("closed idle session %s: %s", victim[:12], why)
        return True

    def _admit_session(self, requestor: Any) -> StreamableHTTPServerTransport | None:
        key = _CLIENT.get()
        own = self.sessions_of(key)
        if len(own) >= self.max_sessions_per_client and not self._evict_longest_idle(
            own, f"client {key} is at its limit of {self.max_sessions_per_client} sessions"
        ):
            return None
        if self.max_sessions is not None and len(self._server_instances) >= self.max_sessions:
            self._evict_longest_idle(list(self._server_instances), f"the table is full ({self.max_sessions})")
        transport = super()._admit_session(requestor)
        if transport is not None and transport.mcp_session_id is not None:
            self._clients[transport.mcp_session_id] = key
        return transport

    async def _discard_session(self, session_id: str, transport: StreamableHTTPServerTransport) -> None:
        self._clients.pop(session_id, None)
        await super()._discard_session(session_id, transport)
