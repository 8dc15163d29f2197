"""Reading the input: inline text or a file, and whether it is JSON, JSONL, YAML or CSV.

A file is read through ``tools.files.read_user_file`` (consent, one checked descriptor, a size cap), and only
when its suffix says it is a write-up, a manifest or a result file.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from ..errors import InputFormatError, argument
from ..files import read_user_file
from .models import MAX_TEXT_CHARS, AuditRequest

__all__ = ["FILE_KINDS", "KEPT_ROWS", "MANIFEST_KEYS", "MAX_RESULT_FILE_BYTES", "RecordRows", "parse_structured",
           "read_source"]


MAX_RESULT_FILE_BYTES = 256 * 1024 * 1024

FILE_KINDS = frozenset({".md", ".markdown", ".txt", ".rst", ".json", ".jsonl", ".yaml", ".yml", ".csv"})
"""Suffixes of the files the audit reads: anything else (.env, .netrc, no suffix) is refused unread."""


def read_source(request: AuditRequest) -> tuple[str, str, str]:
    """(text, source label, file suffix) with clear errors for unreadable input."""
    if request.text is not None:
        text = request.text if isinstance(request.text, str) else json.dumps(request.text, indent=1)
        if "\x00" in text:
            raise InputFormatError(f"{argument('text')}: contains NUL bytes (binary data?); paste a markdown/plain-text write-up, a manifest or a result JSON")
        return text, "inline", ""
    suffix = Path(request.path).suffix.lower()
    if suffix not in FILE_KINDS:
        raise InputFormatError(
            f"{argument('path')}: {request.path!r} is not a file the audit reads ({', '.join(sorted(FILE_KINDS))}: write-ups, "
            "manifests and result files); name such a file, or pass the content inline as text")
    limit = MAX_RESULT_FILE_BYTES if suffix in (".json", ".jsonl", ".csv") else MAX_TEXT_CHARS * 4
    data = read_user_file(request.path, field="path", max_bytes=limit)
    if b"\x00" in data:
        raise InputFormatError(f"{argument('path')}: {request.path} looks binary (NUL bytes); expected a markdown/text write-up, a JSON/YAML manifest or a result file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFormatError(f"{argument('path')}: {request.path} is not UTF-8 text (byte {exc.start}); expected a write-up, manifest or result file") from None
    if not text.strip():
        raise InputFormatError(f"{argument('path')}: {request.path} is empty; nothing to audit")
    return text, str(request.path), suffix


KEPT_ROWS = 1000
"""Records of a JSONL/CSV result file kept as objects: the audit reads the file's fields, not every request,
so a 200 MB per-request file costs a count, not millions of dicts (the rest are validated and counted)."""


class RecordRows(list):  # type: ignore[type-arg]
    """The first ``KEPT_ROWS`` records of a result file, and ``total``, how many it holds."""

    total: int = 0


MANIFEST_KEYS = {"manifest_version", "stack", "workload", "state", "distributions", "speculative", "aggregation", "results", "comparison"}


def parse_structured(text: str, suffix: str) -> Any | None:
    """JSON or YAML mapping/list, or None when the text is neither."""
    try:
        return _parse_structured(text, suffix)
    except RecursionError:
        # inline text has no suffix; a file always has one (read_source refuses the others)
        raise InputFormatError(f"{argument('path' if suffix else 'text')}: JSON or YAML nested too deeply to read "
                               "(a manifest or result file is a few levels deep)") from None


def _parse_structured(text: str, suffix: str) -> Any | None:
    stripped = text.lstrip()
    if suffix == ".jsonl" or (stripped.startswith("{") and "\n{" in stripped.rstrip() and suffix not in (".json", ".yaml", ".yml")):
        rows = RecordRows()
        for n, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):  # not splitlines(): JSON strings may hold \u2028
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                if suffix == ".jsonl":
                    raise InputFormatError(f"line {n}: not valid JSON ({exc.msg}); a .jsonl result file holds one JSON object per line") from None
                break  # not JSONL after all: read as one document below
            rows.total += 1
            if len(rows) < KEPT_ROWS:
                rows.append(row)
        else:
            return rows
    if stripped.startswith(("{", "[")) or suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            rows = _json_lines(text) if exc.msg == "Extra data" else None
            if rows is not None:  # `vllm bench serve --append-result` appends one run per line to its .json file
                return rows
            if suffix == ".json":
                raise InputFormatError(f"line {exc.lineno}: not valid JSON ({exc.msg})") from None
            return None
    if suffix in (".yaml", ".yml") or re.match(r"(?m)^(?:manifest_version|stack|workload)\s*:", stripped):
        import yaml

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}: " if mark else ""
            raise InputFormatError(f"{where}not valid YAML ({getattr(exc, 'problem', exc)})") from None
        return data if isinstance(data, (dict, list)) else None
    if suffix == ".csv":
        handle = io.StringIO(text)
        reader = csv.DictReader(handle)
        rows = RecordRows(row for _, row in zip(range(KEPT_ROWS), reader))
        rows.total = len(rows) + sum(1 for _ in csv.reader(handle))  # the rest counted, not kept
        if not rows:
            raise InputFormatError("csv: no data rows under the header")
        return rows
    return None


def _json_lines(text: str) -> list[Any] | None:
    """One JSON object per non-blank line, or None when a line is not one."""
    rows = []
    for line in re.split(r"\r\n|\r|\n", text):
        if line.strip():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                return None
            if not isinstance(row, dict):
                return None
            rows.append(row)
    return rows
