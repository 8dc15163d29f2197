"""Where benchmark input comes from: a user's file (checked, size-capped, streamed) or inline text.

``open_input`` opens a path once through ``tools.files`` (consent, a regular file, under
the size cap; not a directory, device, FIFO or /proc entry) and hands out numbered lines
from that one descriptor without ever holding more than one line, or the whole text when
a format needs one JSON document. Every failure is an ``InputFormatError`` that names the
path and the reason.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO

from ..errors import InputFormatError, argument
from ..files import open_user_file

try:
    import orjson as _orjson
except ImportError:  # a checkout run without installing: the standard parser alone
    _orjson = None

__all__ = ["InputSource", "json_error", "loads", "open_input", "safe_name"]

_NAME = re.compile(r"^[A-Za-z0-9_.:()/ -]{1,40}$")
_BLOCK = 1 << 20
"""Bytes read at a time when a file is streamed line by line."""
_ASCII_SPACE = b" \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f"
"""The ASCII characters ``str.strip()`` removes."""


@dataclass
class InputSource:
    """A file (one checked descriptor) or an inline text, read as numbered lines or as one document, never past
    the cap. Use it as a context manager so the file is closed."""

    label: str
    max_bytes: int
    handle: BinaryIO | None = None
    text: str | None = None
    suffix: str = ""
    path: Path | None = None  # the path as given, to find a sibling file (opened through tools.files too)
    _parsed: dict[str, Any] = field(default_factory=dict, init=False, repr=False)  # first_json / load_json, once each

    def __enter__(self) -> InputSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the file and forget what was parsed (a detailed file's parsed JSON is large)."""
        self._parsed.clear()
        if self.handle is not None:
            self.handle.close()

    def _rewound(self) -> BinaryIO:
        assert self.handle is not None
        self.handle.seek(0)
        return self.handle

    def _blocks(self) -> Iterator[list[bytes]]:
        """The file in blocks, each split at newlines (a block's last piece continues in the next block); never
        reads past the cap plus one byte, so a longer file shows up as more than ``max_bytes`` consumed."""
        fh = self._rewound()
        read = 0
        while read <= self.max_bytes:
            block = fh.read(min(_BLOCK, self.max_bytes + 1 - read))
            if not block:
                return
            read += len(block)
            yield block.split(b"\n")

    def _raw_lines(self) -> Iterator[tuple[int, bytes]]:
        """``(line_number, bytes)`` of a file, newline kept, read in blocks (``readline`` assembles a 50 MB line,
        the usual shape of a detailed result file, several times more slowly)."""
        pending: list[bytes] = []
        number = consumed = 0
        for pieces in self._blocks():
            for piece in pieces[:-1]:
                number += 1
                line = b"".join([*pending, piece, b"\n"]) if pending else piece + b"\n"
                pending = []
                consumed += len(line)
                self._check_cap(consumed, number)
                yield number, line
            if pieces[-1]:
                pending.append(pieces[-1])
        if pending:
            line = b"".join(pending)
            self._check_cap(consumed + len(line), number + 1)
            yield number + 1, line

    def _check_cap(self, consumed: int, number: int) -> None:
        if consumed > self.max_bytes:
            raise InputFormatError(f"{self.label}: more than {self.max_bytes / 2**20:.0f} MiB; stopped at line {number}")

    def lines(self) -> Iterator[tuple[int, str]]:
        """Yield ``(line_number, line)`` (1-based, newline stripped), streaming a file line by line."""
        if self.text is not None:
            for number, line in enumerate(self.text.splitlines(), start=1):
                yield number, line
            return
        for number, raw in self._raw_lines():
            try:
                yield number, raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                raise InputFormatError(f"{self.label}: line {number} is not UTF-8 text") from None

    def count_content_lines(self) -> int:
        """How many lines hold more than whitespace: the count of ``lines()`` whose ``strip()`` is not empty, with the
        same errors, but without assembling or decoding ASCII lines (a second look at a 50 MB line costs little)."""
        if self.text is not None:
            return sum(1 for line in self.text.splitlines() if line.strip())
        count = number = consumed = 0
        content = unfinished = False
        wide: list[bytes] = []  # the pieces of a line with non-ASCII bytes, decoded whole at its end

        def finish() -> None:
            nonlocal count, content, wide
            if wide:
                try:
                    text = b"".join(wide).decode("utf-8")
                except UnicodeDecodeError:
                    raise InputFormatError(f"{self.label}: line {number} is not UTF-8 text") from None
                content = content or bool(text.strip())
            count += content
            content, wide = False, []

        for pieces in self._blocks():
            last = len(pieces) - 1
            for i, piece in enumerate(pieces):
                consumed += len(piece) + (i < last)
                unfinished = unfinished or bool(piece)
                if wide or not piece.isascii():
                    wide.append(piece)
                elif not content:
                    content = bool(piece.strip(_ASCII_SPACE))
                if i < last:
                    number += 1
                    self._check_cap(consumed, number)
                    finish()
                    unfinished = False
        if unfinished:  # a last line without a newline
            number += 1
            self._check_cap(consumed, number)
            finish()
        return count

    def head(self, max_chars: int = 65536) -> str:
        """The first characters (for format detection)."""
        if self.text is not None:
            return self.text[:max_chars]
        return self._rewound().read(max_chars).decode("utf-8", errors="replace")

    def read_text(self) -> str:
        """The whole text, for formats that are one JSON document (bounded by the cap)."""
        if self.text is not None:
            return self.text
        data = self._rewound().read(self.max_bytes + 1)
        if len(data) > self.max_bytes:
            raise InputFormatError(f"{self.label}: more than {self.max_bytes / 2**20:.0f} MiB")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputFormatError(f"{self.label}: not UTF-8 text (byte {exc.start})") from None

    def load_json(self) -> object:
        """The whole input as one JSON document, parsed once per source (telling a sweep's run count, then reading
        each run, all need it)."""
        if "whole" not in self._parsed:
            text = self.read_text()
            try:
                self._parsed["whole"] = parse_json(text)
            except json.JSONDecodeError as exc:
                raise json_error(self.label, exc, text) from None
            except RecursionError:
                raise InputFormatError(f"{self.label}: JSON nested too deeply") from None
        return self._parsed["whole"]

    def first_json(self) -> tuple[int, Any, str | None] | None:
        """The first non-blank line: its number, its JSON value and why it does not parse on its own (``"syntax"``,
        ``"nesting"``; None when it parses), or None when every line is blank. Parsed once per source: telling the
        format and the run count, then reading, all start from it (a detailed vLLM file is one 50 MB line)."""
        if "first" not in self._parsed:
            found = None
            for number, line in self.lines():
                if line.strip():
                    try:
                        found = (number, parse_json(line.lstrip("\ufeff")), None)
                    except RecursionError:
                        found = (number, None, "nesting")
                    except json.JSONDecodeError:
                        found = (number, None, "syntax")
                    break
            self._parsed["first"] = found
        return self._parsed["first"]


def safe_name(name: object) -> str:
    """A key or column name from the input, quoted, for an error message; anything that is not a short
    identifier-like name is not echoed (error messages must not carry file content)."""
    text = str(name)
    return repr(text) if _NAME.match(text) else "(a name that is not a short identifier)"


def parse_json(text: str) -> object:
    """JSON text to Python values, as ``json.loads`` gives them: orjson when it accepts the text (about 2.5x
    faster on a 50 MB result file), else the standard parser, which also reads NaN and Infinity and lone
    surrogates, and raises the errors the callers word (``json.JSONDecodeError``, ``RecursionError``).

    One difference is kept: an integer past 64 bits comes back as the nearest float (no count or timestamp
    in a result file is that large, and every figure is computed in floats)."""
    if _orjson is not None:
        try:
            return _orjson.loads(text)
        except _orjson.JSONDecodeError:
            pass
    return json.loads(text)


def loads(text: str, label: str, *, line: int | None = None) -> object:
    """``json.loads`` whose failures (syntax, truncation, nesting too deep) are ``InputFormatError``s naming the line."""
    try:
        return parse_json(text)
    except json.JSONDecodeError as exc:
        raise json_error(label, exc, text, line=line) from None
    except RecursionError:
        where = f"line {line}: " if line is not None else ""
        raise InputFormatError(f"{label}: {where}JSON nested too deeply") from None


def json_error(label: str, exc: json.JSONDecodeError, text: str, *, line: int | None = None) -> InputFormatError:
    """An ``InputFormatError`` naming the line and column of a JSON syntax error (and truncation)."""
    where = f"line {line}" if line is not None else f"line {exc.lineno} column {exc.colno}"
    truncated = " (the input ends early: truncated?)" if exc.pos >= len(text.rstrip()) else ""
    return InputFormatError(f"{label}: {where}: invalid JSON: {exc.msg}{truncated}")


def open_input(*, path: str | None, text: str | None, max_bytes: int, field: str = "path") -> InputSource:
    """An ``InputSource`` for exactly one of a path or an inline text; ``field`` names the path argument."""
    if path is not None:
        handle = open_user_file(path, field=field, max_bytes=max_bytes)
        if os.fstat(handle.fileno()).st_size == 0:  # also /proc entries, whose size is not known
            handle.close()
            raise InputFormatError(f"{argument(field)}: {path!r} is empty")
        return InputSource(label=str(path), max_bytes=max_bytes, handle=handle, suffix=Path(path).suffix.lower(),
                           path=Path(path).expanduser())
    if text is None:
        raise InputFormatError("give one of path, text or records")
    if len(text.encode("utf-8", errors="replace")) > max_bytes:
        raise InputFormatError(f"{argument('text')}: more than {max_bytes / 2**20:.0f} MiB")
    if not text.strip():
        raise InputFormatError(f"{argument('text')}: empty")
    return InputSource(label="text", max_bytes=max_bytes, text=text)
