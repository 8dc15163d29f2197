"""Reading the input: inline text or a file, and whether it is JSON, JSONL, YAML or CSV.

File access goes through ``read_file`` only, so a central safe reader can replace it in one place.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path
from typing import Any

from ..errors import InputFormatError, argument
from .models import MAX_TEXT_CHARS, AuditRequest

__all__ = ["MANIFEST_KEYS", "MAX_RESULT_FILE_BYTES", "parse_structured", "read_source"]


MAX_RESULT_FILE_BYTES = 256 * 1024 * 1024


def read_source(request: AuditRequest) -> tuple[str, str, str]:
    """(text, source label, file suffix) with clear errors for unreadable input."""
    if request.text is not None:
        text = request.text if isinstance(request.text, str) else json.dumps(request.text, indent=1)
        if "\x00" in text:
            raise InputFormatError(f"{argument('text')}: contains NUL bytes (binary data?); paste a markdown/plain-text write-up, a manifest or a result JSON")
        return text, "inline", ""
    path = Path(request.path).expanduser()
    if not path.is_file():
        raise InputFormatError(f"{argument('path')}: no such file: {request.path}")
    size = path.stat().st_size
    suffix = path.suffix.lower()
    limit = MAX_RESULT_FILE_BYTES if suffix in (".json", ".jsonl", ".csv") else MAX_TEXT_CHARS * 4
    if size > limit:
        raise InputFormatError(f"{argument('path')}: {request.path} is {size:,} bytes; the limit for {suffix or 'text'} files is {limit:,} bytes")
    data = path.read_bytes()
    if b"\x00" in data:
        raise InputFormatError(f"{argument('path')}: {request.path} looks binary (NUL bytes); expected a markdown/text write-up, a JSON/YAML manifest or a result file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFormatError(f"{argument('path')}: {request.path} is not UTF-8 text (byte {exc.start}); expected a write-up, manifest or result file") from None
    if not text.strip():
        raise InputFormatError(f"{argument('path')}: {request.path} is empty; nothing to audit")
    return text, str(request.path), suffix


MANIFEST_KEYS = {"manifest_version", "stack", "workload", "state", "distributions", "speculative", "aggregation", "results", "comparison"}


def parse_structured(text: str, suffix: str) -> Any | None:
    """JSON or YAML mapping/list, or None when the text is neither."""
    stripped = text.lstrip()
    if suffix == ".jsonl" or (stripped.startswith("{") and "\n{" in stripped.rstrip() and suffix not in (".json", ".yaml", ".yml")):
        rows = []
        for n, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):  # not splitlines(): JSON strings may hold \u2028
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    if suffix == ".jsonl":
                        raise InputFormatError(f"line {n}: not valid JSON ({exc.msg}); a .jsonl result file holds one JSON object per line") from None
                    rows = None
                    break
        if rows is not None:
            return rows
    if stripped.startswith(("{", "[")) or suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
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
        rows = list(csv.DictReader(io.StringIO(text)))
        if not rows:
            raise InputFormatError("csv: no data rows under the header")
        return rows
    return None
