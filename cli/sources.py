"""Where a subcommand's input comes from: a FILE the tool opens, or ``-`` for standard input read here.

The tool gets either the path (and opens it with its own checks and size cap) or the text, the same two
fields the MCP tool takes, so both front ends parse the content alike.
"""

from __future__ import annotations

import sys

from ..tools.errors import InputFormatError

__all__ = ["path_or_stdin", "read_stdin"]


def path_or_stdin(file: str, *, max_bytes: int) -> dict[str, str]:
    """The request's source fields: ``{"text": ...}`` from standard input when ``file`` is ``-``, else ``{"path": file}``."""
    return {"text": read_stdin(max_bytes)} if file == "-" else {"path": file}


def read_stdin(max_bytes: int) -> str:
    """Standard input as text, refused past ``max_bytes`` (read in chunks: never more than the cap is held)."""
    buffer = getattr(sys.stdin, "buffer", None)
    data = buffer.read(max_bytes + 1) if buffer is not None else sys.stdin.read(max_bytes + 1)  # text: a test's StringIO
    if len(data) > max_bytes:
        raise InputFormatError(f"standard input: more than {max_bytes:,} bytes; pass a file instead, or a smaller input")
    if isinstance(data, str):
        return data
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFormatError(f"standard input: not UTF-8 text (byte {exc.start})") from None
