"""InputSource reads files in blocks: its lines, line numbers, cap and UTF-8 errors match a plain readline loop."""

from __future__ import annotations

import io
import random

import pytest

from llm_inference_fundamentals.tools.errors import InputFormatError
from llm_inference_fundamentals.tools.metrics import source
from llm_inference_fundamentals.tools.metrics.source import InputSource


def _readline_reference(data: bytes, max_bytes: int):
    """The straightforward reader: readline up to the cap, decode each line, strip the newline."""
    fh, read, out = io.BytesIO(data), 0, []
    for number, raw in enumerate(iter(lambda: fh.readline(max_bytes + 1 - read), b""), start=1):
        read += len(raw)
        if read > max_bytes:
            return out, ("cap", number)
        try:
            out.append((number, raw.decode("utf-8").rstrip("\r\n")))
        except UnicodeDecodeError:
            return out, ("utf8", number)
    return out, None


def _failure(exc: InputFormatError):
    text = str(exc)
    return ("cap" if "MiB" in text else "utf8", int(text.split("line ")[1].split()[0]))


def _blocked(data: bytes, max_bytes: int):
    src = InputSource(label="x", max_bytes=max_bytes, handle=io.BytesIO(data))
    lines, error = [], None
    try:
        lines.extend(src.lines())
    except InputFormatError as exc:
        error = _failure(exc)
    try:
        count, count_error = src.count_content_lines(), None
    except InputFormatError as exc:
        count, count_error = None, _failure(exc)
    return lines, error, count, count_error


@pytest.mark.parametrize("block", [1, 2, 3, 7, 1 << 20])
def test_block_reading_matches_readline_on_random_bytes(monkeypatch, block):
    # blank lines, \r, ASCII separators that str.strip() removes (\x1c), non-ASCII spaces (U+00A0, U+3000),
    # invalid UTF-8 (\xff), lines split across blocks of every size, and caps that cut a line
    monkeypatch.setattr(source, "_BLOCK", block)
    rng = random.Random(block)
    alphabet = [b"a", b" ", b"\n", b"\r", b"\t", b"\x1c", "é".encode(), "\u00a0".encode(), b"\xff", b"{", "\u3000".encode()]
    for _ in range(1500):
        data = b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        cap = rng.choice([5, 10, 20, 1000])
        expected, expected_error = _readline_reference(data, cap)
        lines, error, count, count_error = _blocked(data, cap)
        assert (lines, error) == (expected, expected_error), (data, cap)
        # counting lines with content fails where reading fails, and otherwise counts what strip() keeps
        assert count_error == expected_error, (data, cap)
        if expected_error is None:
            assert count == sum(1 for _, line in expected if line.strip()), (data, cap)
