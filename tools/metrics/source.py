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
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from ..errors import InputFormatError, argument
from ..files import open_user_file

__all__ = ["InputSource", "json_error", "loads", "open_input", "safe_name"]

_NAME = re.compile(r"^[A-Za-z0-9_.:()/ -]{1,40}$")


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

    def __enter__(self) -> InputSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.handle is not None:
            self.handle.close()

    def _rewound(self) -> BinaryIO:
        assert self.handle is not None
        self.handle.seek(0)
        return self.handle

    def lines(self) -> Iterator[tuple[int, str]]:
        """Yield ``(line_number, line)`` (1-based, newline stripped), streaming a file line by line."""
        if self.text is not None:
            for number, line in enumerate(self.text.splitlines(), start=1):
                yield number, line
            return
        fh = self._rewound()
        read = 0
        for number, raw in enumerate(iter(lambda: fh.readline(self.max_bytes + 1 - read), b""), start=1):
            read += len(raw)
            if read > self.max_bytes:
                raise InputFormatError(f"{self.label}: more than {self.max_bytes / 2**20:.0f} MiB; stopped at line {number}")
            try:
                yield number, raw.decode("utf-8").rstrip("\r\n")
            except UnicodeDecodeError:
                raise InputFormatError(f"{self.label}: line {number} is not UTF-8 text") from None

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
        text = self.read_text()
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            raise json_error(self.label, exc, text) from None
        except RecursionError:
            raise InputFormatError(f"{self.label}: JSON nested too deeply") from None


def safe_name(name: object) -> str:
    """A key or column name from the input, quoted, for an error message; anything that is not a short
    identifier-like name is not echoed (error messages must not carry file content)."""
    text = str(name)
    return repr(text) if _NAME.match(text) else "(a name that is not a short identifier)"


def loads(text: str, label: str, *, line: int | None = None) -> object:
    """``json.loads`` whose failures (syntax, truncation, nesting too deep) are ``InputFormatError``s naming the line."""
    try:
        return json.loads(text)
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
