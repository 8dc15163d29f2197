"""A benchmark tool's result file as a document: which fields record which contract item, their values, and
the lines they sit on.

The per-format table (``data/result_files.json``, each entry with its source) says where a tool writes its
configuration; ``ResultDoc.find`` reads a value by path and ``ResultDoc.quote`` finds the line it sits on,
walking the JSON text itself so the line is exact even when a file is one long line or a key repeats in
several runs. Per-request records that are warm-up (``tools.metrics.formats.is_warmup_record``, the rule the
metrics readers drop them by) are never quoted.
"""

from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass, field
from importlib.resources import files
from json.decoder import scanstring
from typing import Any

from ..metrics.formats import is_warmup_record
from .models import Evidence

__all__ = ["Found", "ResultDoc", "format_table", "server_side", "show"]

QUOTE_CHARS = 160
"""A quoted line longer than this is cut to a window starting at the field quoted."""

_MISSING = object()
_DECODER = json.JSONDecoder()
_WS = re.compile(r"[ \t\n\r]*")
_SEGMENT = re.compile(r"([^.\[\]]+)|\[(\d+|\*|\{run\}|[^\]=]+=[^\]]*)\]")


@functools.cache
def _table() -> dict:
    return json.loads((files(__package__) / "data" / "result_files.json").read_text(encoding="utf-8"))


def format_table(fmt: str) -> dict:
    """The table entry of one format (a ``source_format`` of tools/metrics)."""
    return _table()["formats"][fmt]


def server_side() -> dict[str, str]:
    """Contract item -> what of the server a client result file cannot record."""
    return _table()["server_side"]["items"]


def show(value: Any, limit: int = 60) -> str:
    """A value as it reads in a why: JSON, cut to ``limit`` characters."""
    text = value if isinstance(value, str) else json.dumps(value)
    text = " ".join(text.split())
    return repr(text[:limit]) if isinstance(value, str) else text[:limit]


def _segments(path: str, run: int) -> list[tuple]:
    out: list[tuple] = []
    for key, bracket in _SEGMENT.findall(path):
        if key:
            out.append(("key", key))
        elif bracket == "*":
            out.append(("any",))
        elif bracket == "{run}":
            out.append(("index", run))
        elif bracket.isdigit():
            out.append(("index", int(bracket)))
        else:
            k, v = bracket.split("=", 1)
            out.append(("match", k, v))
    return out


def _decoded(value: Any) -> Any:
    """A string holding a JSON object is read as that object (guidellm's request_args, genai-perf's payload)."""
    if isinstance(value, str) and value.lstrip().startswith("{"):
        try:
            return json.loads(value)
        except (json.JSONDecodeError, RecursionError):
            return value
    return value


def _walk(value: Any, segs: list[tuple]) -> Any:
    """The value at ``segs`` under ``value``, or ``_MISSING``."""
    for i, seg in enumerate(segs):
        value = _decoded(value)
        if seg[0] == "key":
            if not isinstance(value, dict) or seg[1] not in value:
                return _MISSING
            value = value[seg[1]]
        elif not isinstance(value, list):
            return _MISSING
        elif seg[0] == "index":
            if not 0 <= seg[1] < len(value):
                return _MISSING
            value = value[seg[1]]
        else:
            rest = segs[i + 1:]
            for element in value:
                element = _decoded(element)
                if seg[0] == "match":
                    if isinstance(element, dict) and str(element.get(seg[1])) == seg[2]:
                        return _walk(element, rest)
                elif _walk(element, rest) is not _MISSING:
                    return _walk(element, rest)
            return _MISSING
    return value


@dataclass
class Found:
    """One field read from the file: its path (run index filled in), value, the lines quoting it, and whether
    it was read in aiperf's summary beside the records (then it has no line in the audited file)."""

    path: str
    value: Any
    evidence: list[Evidence] = field(default_factory=list)
    in_summary: bool = False

    @property
    def null(self) -> bool:
        return self.value is None or self.value == "" or self.value == [] or self.value == {}

    def said(self) -> str:
        """'path = value' for a why, naming aiperf's summary file when the value was read there."""
        where = " (in profile_export_aiperf.json beside the records)" if self.in_summary else ""
        return f"{self.path} = {show(self.value)}{where}"


class ResultDoc:
    """The audited text, its parsed data and lines, for one run of one format."""

    def __init__(self, text: str, data: Any, lines: list[str], fmt: str, *, run: int = 0, jsonl: bool = False,
                 summary: dict | None = None, index: dict | None = None) -> None:
        self.text, self.data, self.lines, self.fmt, self.run = text, data, lines, fmt, run
        self.table = format_table(fmt)
        self.summary = summary
        self.jsonl = jsonl
        self.index = {} if index is None else index  # object/array offsets in ``text``, shared by the runs of one file
        # offsets of the lines kept (a records file keeps its first lines only: tools/audit/source.py KEPT_ROWS)
        breaks = re.finditer(r"\r\n|\r|\n", text)
        self._starts = [0] + [m.end() for _, m in zip(range(max(0, len(lines) - 1)), breaks)]
        self.row_lines = [n for n, line in enumerate(lines, 1) if line.strip()] if jsonl else []
        if fmt == "csv":  # line 1 is the header
            self.row_lines = [n for n, line in enumerate(lines, 1) if line.strip()][1:]
        rows = data if isinstance(data, list) else []
        self.warm_rows = {i for i, row in enumerate(rows) if isinstance(row, dict) and is_warmup_record(row)}

    # ------------------------------------------------------------------ records
    def record_rows(self) -> list[int]:
        """Indices of the per-request rows that are not warm-up (JSONL records or CSV rows)."""
        if self.fmt not in ("aiperf", "records", "csv") or not isinstance(self.data, list):
            return []
        return [i for i in range(len(self.data)) if i not in self.warm_rows]

    def warm_lines(self) -> list[int]:
        """Line numbers of warm-up records (named in a why, never quoted)."""
        return [self.row_lines[i] for i in sorted(self.warm_rows) if i < len(self.row_lines)]

    def first_row(self) -> int | None:
        rows = self.record_rows()
        return rows[0] if rows else None

    # ------------------------------------------------------------------ values
    def _doc(self, where: str) -> tuple[Any, int | None]:
        """(document, its offset in the text) for 'run', 'file', 'summary' or 'row'."""
        if where == "summary":
            return self.summary, None
        if where == "row":
            row = self.first_row()
            if row is None:
                return None, None
            return self.data[row], self._line_offset(self.row_lines[row]) if self.fmt != "csv" else None
        if where == "run" and isinstance(self.data, list):
            if not 0 <= self.run < len(self.data):
                return None, None
            return self.data[self.run], self._line_offset(self.row_lines[self.run]) if self.row_lines else None
        return self.data, 0

    def find(self, path: str) -> Found | None:
        """The field at ``path`` ('row:' paths in the first non-warm-up record), or None when absent."""
        where = "row" if path.startswith("row:") else self.table.get("doc", "file")
        path = path.removeprefix("row:")
        if where == "none":
            where = "file"
        doc, offset = self._doc(where)
        if doc is None:
            return None
        segs = _segments(path, self.run)
        value = _walk(doc, segs)
        if value is _MISSING:
            return None
        shown = path.replace("{run}", str(self.run))
        if where == "summary":
            return Found(shown, value, in_summary=True)
        return Found(shown, value, self._quote(offset, segs, csv_key=segs[-1][1] if segs and segs[-1][0] == "key" else None))

    def config(self, item: str) -> list[Found]:
        """Every path the table gives for ``item`` that exists in the file, in table order."""
        return [f for f in (self.find(p) for p in self.table.get("config", {}).get(item, ())) if f is not None]

    def evidence_for(self, key: str) -> list[Evidence]:
        """The lines the table names for an item or rule id (``evidence`` of the format), the first found."""
        return self.evidence(*self.table.get("evidence", {}).get(key, ()))

    def evidence(self, *paths: str) -> list[Evidence]:
        """The lines quoting the first of ``paths`` found."""
        for path in paths:
            found = self.find(path)
            if found is not None and found.evidence:
                return found.evidence
        return []

    # ------------------------------------------------------------------ lines
    def _line_offset(self, line: int) -> int:
        return self._starts[line - 1] if 0 < line <= len(self._starts) else 0

    def _line_of(self, offset: int) -> int:
        import bisect

        return bisect.bisect_right(self._starts, offset)

    def _quote(self, offset: int | None, segs: list[tuple], *, csv_key: str | None) -> list[Evidence]:
        if self.fmt == "csv":
            return self._quote_csv(csv_key)
        if offset is None:
            return []
        try:
            at = _offset(self.text, offset, segs, self.index)
        except (ValueError, IndexError):
            at = None
        if at is None:
            return []
        line = self._line_of(at)
        if line in set(self.warm_lines()):
            return []
        return [self.quote_line(line, at - self._starts[line - 1])]

    def _quote_csv(self, key: str | None) -> list[Evidence]:
        row = self.first_row()
        out = []
        if key and self.lines:
            col = self.lines[0].find(key)
            if col >= 0:
                out.append(self.quote_line(1, col))
        if row is not None and row < len(self.row_lines):
            out.append(self.quote_line(self.row_lines[row], 0))
        return out

    def quote_line(self, line: int, column: int = 0) -> Evidence:
        """Line ``line`` quoted; a long line as a window starting at ``column``."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        if len(text) > QUOTE_CHARS:
            text = text[column:column + QUOTE_CHARS]
        return Evidence(line=line, text=text.strip())


def _skip(text: str, i: int) -> int:
    return _WS.match(text, i).end()


def _members(text: str, i: int, index: dict) -> dict[str, tuple[int, int]]:
    """key -> (offset of the key's opening quote, offset of its value) for the object at ``i``; built once per
    object (each value skipped once), so later look-ups in a long one-line file cost nothing."""
    if ("o", i) in index:
        return index[("o", i)]
    out: dict[str, tuple[int, int]] = {}
    j = _skip(text, i + 1)
    while j < len(text) and text[j] == '"':
        start = j
        key, j = scanstring(text, j + 1)
        j = _skip(text, _skip(text, j) + 1)  # past the ':'
        out.setdefault(key, (start, j))
        _, j = _DECODER.raw_decode(text, j)
        j = _skip(text, j)
        if j < len(text) and text[j] == ",":
            j = _skip(text, j + 1)
    index[("o", i)] = out
    return out


def _elements(text: str, i: int, index: dict) -> list[int]:
    """Offsets of the elements of the array at ``i`` (built once per array)."""
    if ("a", i) in index:
        return index[("a", i)]
    out: list[int] = []
    j = _skip(text, i + 1)
    while j < len(text) and text[j] != "]":
        out.append(j)
        _, j = _DECODER.raw_decode(text, j)
        j = _skip(text, j)
        if j < len(text) and text[j] == ",":
            j = _skip(text, j + 1)
    index[("a", i)] = out
    return out


def _offset(text: str, i: int, segs: list[tuple], index: dict) -> int | None:
    """Where, in ``text``, the last key of ``segs`` sits (its opening quote), walking from the value at ``i``;
    a JSON string holding JSON stops the walk at the key that holds it."""
    at: int | None = None
    i = _skip(text, i)
    for n, seg in enumerate(segs):
        if i >= len(text):
            return at
        if seg[0] == "key":
            if text[i] != "{":
                return at  # e.g. a string holding JSON: the key above is the closest line
            member = _members(text, i, index).get(seg[1])
            if member is None:
                return None
            at, i = member
            continue
        if text[i] != "[":
            return at
        elements = _elements(text, i, index)
        if seg[0] == "index":
            if not 0 <= seg[1] < len(elements):
                return None
            i = elements[seg[1]]
            continue
        for start in elements:
            element = _decoded(_DECODER.raw_decode(text, start)[0])
            if seg[0] == "match":
                hit = isinstance(element, dict) and str(element.get(seg[1])) == seg[2]
            else:
                hit = _walk(element, segs[n + 1:]) is not _MISSING
            if hit:
                i = start
                break
        else:
            return None
    return at
