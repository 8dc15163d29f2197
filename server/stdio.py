"""The stdio transport, with an answer for every line and a word for a person at a terminal.

The SDK's stdio transport reads whole lines of any length and drops a line it
cannot parse (too deeply nested JSON, an ``id`` of ``1e999`` that turns a
request into a notification) without answering, so the client waits forever.
Here each line is checked first (``jsonrpc.check_message``): a line that is not
a valid JSON-RPC message gets a JSON-RPC error (``-32700`` parse error or
``-32600`` invalid request) carrying the request's ``id`` when one can be read,
and a line over the size cap is discarded unread with the same kind of answer. Valid lines go to the
SDK unchanged. stdout carries only JSON-RPC; notices go to stderr.
"""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio
import mcp_types as types
from mcp.server.mcpserver import MCPServer
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage

from .jsonrpc import check_message, error_message

__all__ = ["MAX_LINE_BYTES", "serve_stdio", "terminal_notice"]

MAX_LINE_BYTES = 16 * 2**20
"""Longest JSON-RPC line read over stdio (a request over this is refused unread)."""

class _CheckedLines:
    """The lines of the wire, each checked; bad ones answered through ``write`` and not passed on."""

    def __init__(self, fd: int, max_bytes: int = MAX_LINE_BYTES) -> None:
        self._fd, self._max = fd, max_bytes
        self._write: Any = None
        self._ready = anyio.Event()

    def attach(self, write_stream: Any) -> None:
        self._write = write_stream
        self._ready.set()

    async def _raw_lines(self) -> AsyncIterator[bytes | None]:
        """Lines as bytes; None for a line over the cap (its bytes are skipped, never kept)."""
        buffer = bytearray()
        skipping = False
        while True:
            chunk = await anyio.to_thread.run_sync(os.read, self._fd, 1 << 16, abandon_on_cancel=True)
            if not chunk:
                if buffer and not skipping:
                    yield bytes(buffer)
                return
            while chunk:
                cut = chunk.find(b"\n")
                part, chunk = (chunk, b"") if cut < 0 else (chunk[:cut], chunk[cut + 1 :])
                if not skipping:
                    buffer += part
                    if len(buffer) > self._max:
                        buffer.clear()
                        skipping = True
                if cut >= 0:
                    if skipping:
                        yield None
                    else:
                        yield bytes(buffer)
                    buffer.clear()
                    skipping = False

    async def __aiter__(self) -> AsyncIterator[str]:
        async for raw in self._raw_lines():
            if raw is None:
                await self._send(error_message(None, types.INVALID_REQUEST,
                                        f"Invalid request: the line is over {self._max:,} bytes"))
                continue
            line = raw.decode("utf-8", errors="replace")
            if not line.strip():
                continue
            answer = check_message(line)
            if answer is None:
                yield line
            else:
                await self._send(answer)

    async def _send(self, error: types.JSONRPCError) -> None:
        await self._ready.wait()
        await self._write.send(SessionMessage(error))


def terminal_notice(readable: list[str]) -> str:
    """What ``lif serve`` tells a person who started it in a terminal (on stderr)."""
    return (
        "lif serve: this is the MCP server over stdio; it reads JSON-RPC on standard input and waits for an MCP "
        "client, so nothing will happen here. Register it with your client instead, e.g. "
        "`claude mcp add llm-inference -- lif serve`, or serve HTTP with `lif serve --http`. "
        f"Readable folders: {', '.join(readable) or 'none (add --allow-dir DIR, or share roots from the client)'}. "
        "Stop with Ctrl-D or Ctrl-C."
    )


async def serve_stdio(server: MCPServer, *, notice: str | None = None) -> None:
    """Serve ``server`` over this process's stdin/stdout (fd 0 is diverted to the null device while serving)."""
    if notice is not None and sys.stdin.isatty():
        print(notice, file=sys.stderr, flush=True)
    wire = os.dup(0)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)  # handlers and child processes read EOF, never the protocol
    os.close(null)
    lines = _CheckedLines(wire)
    low = server._lowlevel_server  # noqa: SLF001 - as in MCPServer.run_stdio_async, with our stdin
    try:
        async with stdio_server(stdin=lines) as (read_stream, write_stream):  # type: ignore[arg-type]
            lines.attach(write_stream)
            await low.run(read_stream, write_stream, low.create_initialization_options())
    finally:
        os.dup2(wire, 0)
        os.close(wire)
