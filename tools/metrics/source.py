"""Where benchmark input comes from: a user's file (checked, size-capped, streamed) or inline text.

``open_input`` resolves a path safely (a regular file, not a directory, device, FIFO or
/proc entry; under the size cap) and hands out numbered lines without ever holding more
than one line, or the whole text when a format needs one JSON document. Every failure is
an ``InputFormatError`` that names the path and the reason.
"""

from __future__ import annotations

import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import InputFormatError, argument

__all__ = ["InputSource", "json_error", "loads", "open_input", "resolve_input_path", "safe_name"]

_NAME = re.compile(r"^[A-Za-z0-9_.:()/ -]{1,40}$")


def resolve_input_path(path: str, *, max_bytes: int) -> Path:
    """The absolute path of a readable regular file no larger than ``max_bytes``.

    Symlinks are followed; the target must be a regular file. Empty files and files with
    no reported size (e.g. /proc entries) are refused, and reading stops at the cap anyway.
    """
    if not path or "\x00" in path:
        raise InputFormatError(f"{argument('path')}: empty or contains a NUL byte")
    try:
        resolved = Path(path).expanduser().resolve(strict=True)
    except FileNotFoundError:
        raise InputFormatError(f"{argument('path')}: {path!r} does not exist") from None
    except (OSError, RuntimeError) as exc:  # permission, symlink loop
        raise InputFormatError(f"{argument('path')}: {path!r} cannot be resolved ({exc.__class__.__name__})") from None
    try:
        st = resolved.stat()
    except OSError as exc:
        raise InputFormatError(f"{argument('path')}: {path!r} cannot be read ({exc.strerror})") from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a directory" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise InputFormatError(f"{argument('path')}: {path!r} is {kind}; give a result file (JSON, JSONL or CSV)")
    if st.st_size == 0:
        raise InputFormatError(f"{argument('path')}: {path!r} is empty")
    if st.st_size > max_bytes:
        raise InputFormatError(
            f"{argument('path')}: {path!r} is {st.st_size / 2**20:.1f} MiB, over the {max_bytes / 2**20:.0f} MiB cap "
            f"(raise {argument('max_file_mb')}, or split the file)"
        )
    if not os.access(resolved, os.R_OK):
        raise InputFormatError(f"{argument('path')}: {path!r} is not readable")
    return resolved


@dataclass
class InputSource:
    """A file or an inline text, read as numbered lines or as one document, never past the cap."""

    label: str
    max_bytes: int
    path: Path | None = None
    text: str | None = None
    suffix: str = ""

    def lines(self) -> Iterator[tuple[int, str]]:
        """Yield ``(line_number, line)`` (1-based, newline stripped), streaming a file line by line."""
        if self.text is not None:
            for number, line in enumerate(self.text.splitlines(), start=1):
                yield number, line
            return
        assert self.path is not None
        read = 0
        with self.path.open("rb") as fh:
            for number, raw in enumerate(fh, start=1):
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
        assert self.path is not None
        with self.path.open("rb") as fh:
            return fh.read(max_chars).decode("utf-8", errors="replace")

    def read_text(self) -> str:
        """The whole text, for formats that are one JSON document (bounded by the cap)."""
        if self.text is not None:
            return self.text
        assert self.path is not None
        with self.path.open("rb") as fh:
            data = fh.read(self.max_bytes + 1)
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


def open_input(*, path: str | None, text: str | None, max_bytes: int) -> InputSource:
    """An ``InputSource`` for exactly one of a path or an inline text."""
    if path is not None:
        resolved = resolve_input_path(path, max_bytes=max_bytes)
        return InputSource(label=str(path), max_bytes=max_bytes, path=resolved, suffix=resolved.suffix.lower())
    if text is None:
        raise InputFormatError("give one of path, text or records")
    if len(text.encode("utf-8", errors="replace")) > max_bytes:
        raise InputFormatError(f"{argument('text')}: more than {max_bytes / 2**20:.0f} MiB")
    if not text.strip():
        raise InputFormatError(f"{argument('text')}: empty")
    return InputSource(label="text", max_bytes=max_bytes, text=text)
