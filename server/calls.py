"""How the server runs one tool call: which folders it may read, and where it runs.

``CallPolicy`` is the part of the adapter between an MCP request and a tools
function. It answers two questions per call:

- **Which folders may the call read?** Those the user granted when starting
  the server (``--allow-dir``, ``LIF_ALLOWED_DIRS``) and, over stdio, the
  client's MCP roots (asked with ``roots/list`` and cached for a few seconds
  per session; a client without roots simply adds none). Never the working
  directory by default.
- **Where does it run?** Module-level tools functions run in the worker pool
  (bounded in time and memory); the corpus tools (methods of a loaded
  corpus, fast and small) run on a thread.
"""

from __future__ import annotations

import inspect
import logging
import time
import warnings
from collections import OrderedDict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import anyio
from mcp.shared.exceptions import MCPDeprecationWarning, MCPError
from pydantic import BaseModel, ValidationError

from ..tools.files import GRANT_HINT, REMOTE_GRANT_HINT
from .workers import ProcessRunner, ThreadRunner

__all__ = ["CallPolicy", "ROOTS_CACHE_S"]

logger = logging.getLogger(__name__)

ROOTS_CACHE_S = 10.0
"""How long a session's answer to roots/list is reused before asking again."""

_ROOTS_TIMEOUT_S = 2.0

Runner = ProcessRunner | ThreadRunner


def file_uri_path(uri: str) -> str | None:
    """The local path of a ``file://`` root URI (None for any other scheme or a remote host)."""
    parts = urlsplit(uri)
    if parts.scheme != "file" or parts.netloc not in ("", "localhost"):
        return None
    return unquote(parts.path) or None


class CallPolicy:
    """The readable folders and the runners of one server's tool calls."""

    def __init__(self, *, allow_dirs: Sequence[str | Path] = (), client_roots: bool = True,
                 runner: Runner | None = None, inline: ThreadRunner | None = None) -> None:
        self.allow_dirs = tuple(str(Path(d).expanduser()) for d in allow_dirs)
        self.client_roots = client_roots
        self.grant_hint = GRANT_HINT if client_roots else REMOTE_GRANT_HINT
        self.inline = inline or ThreadRunner()
        self.runner = runner or self.inline
        self._roots: OrderedDict[int, tuple[Any, float, tuple[str, ...]]] = OrderedDict()

    def runner_for(self, fn: Callable[..., BaseModel]) -> Runner:
        """The pool for module-level functions (they can be sent to a worker by name), else the thread runner."""
        if inspect.ismethod(fn) or "<locals>" in getattr(fn, "__qualname__", "<locals>"):
            return self.inline
        return self.runner

    async def readable(self, ctx: Any) -> tuple[str, ...]:
        """The folders this call may read: the granted ones plus, over stdio, the client's roots."""
        if not self.client_roots or ctx is None:
            return self.allow_dirs
        return tuple(dict.fromkeys([*self.allow_dirs, *await self._client_roots(ctx)]))

    async def _client_roots(self, ctx: Any) -> tuple[str, ...]:
        try:
            session = ctx.session
        except (AttributeError, ValueError):
            return ()
        # The SDK hands each request a new session object; the connection's initialize parameters are one
        # object for the connection's life, so they identify it (held here, so their id cannot be reused).
        owner = getattr(session, "client_params", None) or session
        cached = self._roots.get(id(owner))
        if cached is not None and cached[0] is owner and cached[1] > time.monotonic():
            self._roots.move_to_end(id(owner))
            return cached[2]
        roots, answered = await self._ask_roots(session)
        # A client that offers roots but does not answer (some do) is not asked again on this connection,
        # so it costs one short wait, not one per call.
        lifetime = ROOTS_CACHE_S if answered else float("inf")
        self._roots[id(owner)] = (owner, time.monotonic() + lifetime, roots)
        while len(self._roots) > 1024:
            self._roots.popitem(last=False)
        return roots

    @staticmethod
    async def _ask_roots(session: Any) -> tuple[tuple[str, ...], bool]:
        """The client's file roots, and whether it answered (False: no roots offered, or the request failed)."""
        caps = getattr(session, "client_capabilities", None)
        if caps is None or getattr(caps, "roots", None) is None:
            return (), False  # the client does not offer roots
        try:
            with anyio.fail_after(_ROOTS_TIMEOUT_S), warnings.catch_warnings():
                warnings.simplefilter("ignore", MCPDeprecationWarning)  # roots is deprecated from 2026-07-28 on
                result = await session.list_roots()
        except (MCPError, TimeoutError, ValidationError) as exc:
            logger.info("the client offers roots but roots/list failed: %s", type(exc).__name__)
            return (), False
        paths = [file_uri_path(str(root.uri)) for root in result.roots]
        return tuple(p for p in paths if p), True
