"""JSON-RPC messages the SDK would drop without an answer, and the answer they get instead.

The SDK parses each message with pydantic: a line nested past its depth limit
fails (over stdio it is then dropped silently), and an ``id`` that is neither a
string nor an integer (``1e999``) makes a request parse as a notification, which
is never answered. ``check_message`` finds both and builds the JSON-RPC error to
send back, with the request's ``id`` when one can be read. ``MessageCheckMiddleware``
does the same for streamable HTTP (where the SDK already answers parse errors).
"""

from __future__ import annotations

import json
import re
from collections import deque
from typing import Any

import mcp_types as types
from pydantic import ValidationError
from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["MessageCheckMiddleware", "check_message", "error_message", "first_level_id"]

_INTEGER = re.compile(r"(-?\d{1,18})\s*(?:[,}]|$)")


def _string_end(text: str, start: int) -> int:
    """Index of the closing quote of the JSON string opening at ``start`` (or len(text))."""
    i = start + 1
    while i < len(text) and text[i] != '"':
        i += 2 if text[i] == "\\" else 1
    return i


def first_level_id(line: str) -> str | int | None:
    """The ``id`` member of a JSON object line, found by scanning, not parsing (depth cannot hurt)."""
    depth, i, n = 0, 0, len(line)
    key: object = None
    expect_key = after_colon = False
    while i < n:
        c = line[i]
        if c == '"':
            j = _string_end(line, i)
            if depth == 1:
                try:
                    token = json.loads(line[i : j + 1])
                except ValueError:
                    return None
                if expect_key:
                    key, expect_key = token, False
                elif after_colon and key == "id":
                    return token if isinstance(token, str) else None
                after_colon = False
            i = j + 1
            continue
        if depth == 1 and after_colon and key == "id":
            if c == "-" or c.isdigit():
                number = _INTEGER.match(line, i)
                return int(number.group(1)) if number else None
            if not c.isspace():
                return None  # null, true, an object or an array: no usable id
        if c in "{[":
            depth += 1
            expect_key = depth == 1
        elif c in "}]":
            depth -= 1
        elif depth == 1 and c == ",":
            expect_key, key = True, None
        elif depth == 1 and c == ":":
            after_colon = True
        i += 1
    return None


def check_message(line: str) -> types.JSONRPCError | None:
    """The error answer for a line the SDK would drop; None when the line is a valid message."""
    try:
        message = types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    except ValidationError as exc:
        kinds = {e["type"] for e in exc.errors()}
        if "json_invalid" in kinds:
            deep = any("recursion" in str(e["msg"]) for e in exc.errors())
            code, text = (types.INVALID_REQUEST, "Invalid request: nested deeper than this server accepts") if deep \
                else (types.PARSE_ERROR, "Parse error: the line is not valid JSON")
        else:
            code, text = types.INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 message"
        return error_message(first_level_id(line), code, text)
    if isinstance(message, types.JSONRPCNotification) and first_level_id(line) is None and '"id"' in line:
        try:
            raw: Any = json.loads(line)
        except (ValueError, RecursionError):
            raw = None
        if isinstance(raw, dict) and "id" in raw:  # e.g. "id": 1e999, which the SDK reads as a notification
            return error_message(None, types.INVALID_REQUEST, "Invalid request: id must be a string or an integer")
    return None


def error_message(request_id: str | int | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))



_NON_INTEGER_ID = re.compile(rb'"id"\s*:\s*-?\d+(?:\.\d*|[eE])')


class MessageCheckMiddleware:
    """Answers 400 (a JSON-RPC invalid-request error) for a POSTed request whose ``id`` is not a string or an integer.

    Only a body where a regular expression spots a fractional or exponent ``id`` is parsed here; every other
    request passes through untouched. Bodies are buffered up to ``max_bytes`` (413 above, as the SDK would).
    """

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        body = bytearray()
        messages: deque[Message] = deque()
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            body += message.get("body", b"")
            if len(body) > self.max_bytes:
                break  # the SDK's own limit answers 413 on replay
            if not message.get("more_body", False):
                break
        if len(body) <= self.max_bytes and _NON_INTEGER_ID.search(body):
            answer = check_message(body.decode("utf-8", errors="replace"))
            if answer is not None:
                payload = answer.model_dump_json(by_alias=True, exclude_unset=True).encode()
                await send({"type": "http.response.start", "status": 400,
                            "headers": [(b"content-type", b"application/json"),
                                        (b"content-length", str(len(payload)).encode())]})
                await send({"type": "http.response.body", "body": payload})
                return

        async def replay() -> Message:
            return messages.popleft() if messages else await receive()

        await self.app(scope, replay, send)
