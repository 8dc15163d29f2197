"""Generic per-request records (``RequestRecord`` schema) as JSONL, a JSON array, CSV, or inline objects.

JSONL and CSV are streamed line by line; each record is validated by pydantic and folded
into the trace at once, so memory grows with the numbers kept, not with the text. CSV
columns are the record's field names; list cells (``itl_ms``, ``token_times_s``) hold a
JSON array or numbers separated by spaces or semicolons.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterable, Iterator
from typing import Any

from pydantic import ValidationError

from ...errors import InputFormatError
from ..records import RECORD_FIELDS, RequestRecord, Trace, TraceBuilder
from ..source import safe_name

__all__ = ["OBSERVATION_POINT", "looks_like_record", "read_csv", "read_record_lines", "read_records"]

OBSERVATION_POINT = (
    "as recorded by the client that wrote the records: start_s (send) -> first_token_s / token_times_s (chunk "
    "arrivals) -> end_s or the last chunk"
)

_LIST_FIELDS = ("itl_ms", "token_times_s")


_TIMING_FIELDS = {"ttft_ms", "itl_ms", "e2el_ms", "start_s", "first_token_s", "token_times_s", "end_s"}


def looks_like_record(obj: dict[str, Any]) -> bool:
    """All keys are record fields, or a timing field is present (then validation names any stray key)."""
    return bool(obj) and (set(obj) <= set(RECORD_FIELDS) or bool(_TIMING_FIELDS & set(obj)))


def _error(where: str, exc: ValidationError) -> InputFormatError:
    err = exc.errors(include_url=False)[0]
    if err["type"] == "json_invalid":
        return InputFormatError(f"{where}: invalid JSON ({err['msg']})")
    field = ".".join(str(p) for p in err["loc"]) or "record"
    if err["type"] == "extra_forbidden":
        return InputFormatError(f"{where}: unknown field {safe_name(field)}; record fields are: {', '.join(RECORD_FIELDS)}")
    more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
    return InputFormatError(f"{where}: field {safe_name(field)}: {err['msg']}{more}")


def _finish(builder: TraceBuilder, *, source_format: str, label: str) -> Trace:
    trace = builder.build(source_format=source_format, source=label, observation_point=OBSERVATION_POINT)
    if trace.n_requests == 0 and trace.warmup_dropped == 0:
        raise InputFormatError(f"{label}: no records")
    return trace


def read_record_lines(lines: Iterable[tuple[int, str]], *, label: str) -> Trace:
    """JSONL: one ``RequestRecord`` object per non-empty line."""
    builder = TraceBuilder()
    for number, line in lines:
        if not line.strip():
            continue
        try:
            record = RequestRecord.model_validate_json(line)
        except ValidationError as exc:
            raise _error(f"{label}: line {number}", exc) from None
        builder.add_record(record)
    return _finish(builder, source_format="records", label=label)


def read_records(records: Iterable[RequestRecord | dict[str, Any]], *, label: str) -> Trace:
    """Records already in memory (inline MCP argument or a parsed JSON array)."""
    builder = TraceBuilder()
    for i, item in enumerate(records):
        if isinstance(item, RequestRecord):
            record = item
        else:
            try:
                record = RequestRecord.model_validate(item)
            except ValidationError as exc:
                raise _error(f"{label}: record {i}", exc) from None
        builder.add_record(record)
    return _finish(builder, source_format="records", label=label)


def _cell_list(value: str) -> list[Any]:
    value = value.strip()
    if value.startswith("["):
        return json.loads(value)
    return [v for v in value.replace(";", " ").split() if v]


def read_csv(lines: Iterator[tuple[int, str]], *, label: str) -> Trace:
    """CSV with a header row of record field names."""
    numbers: list[int] = []

    def text_lines() -> Iterator[str]:
        for number, line in lines:
            numbers.append(number)
            yield line

    reader = csv.reader(text_lines())
    try:
        header = [h.strip() for h in next(reader)]
    except StopIteration:
        raise InputFormatError(f"{label}: empty CSV") from None
    except csv.Error as exc:
        raise InputFormatError(f"{label}: line 1: {exc}") from None
    unknown = [h for h in header if h not in RECORD_FIELDS]
    if unknown and len(unknown) == len(header):
        # no cell names a record field: not our CSV (or not a CSV); the cells are not echoed (they may be content)
        raise InputFormatError(
            f"{label}: line 1: unknown CSV columns (no header cell is a record field name); the header must use the "
            f"record field names (times in ms or s as the name says): {', '.join(RECORD_FIELDS)}"
        )
    if unknown:
        names = ", ".join(safe_name(h) for h in unknown[:8])
        raise InputFormatError(f"{label}: line 1: unknown CSV column(s) {names}; columns are: {', '.join(RECORD_FIELDS)}")
    builder = TraceBuilder()
    try:
        for row in reader:
            number = numbers[-1]
            if not any(cell.strip() for cell in row):
                continue
            if len(row) != len(header):
                raise InputFormatError(f"{label}: line {number}: {len(row)} cells, the header has {len(header)}")
            item: dict[str, Any] = {}
            for key, cell in zip(header, row):
                if not cell.strip():
                    continue
                if key in _LIST_FIELDS:
                    try:
                        item[key] = _cell_list(cell)
                    except json.JSONDecodeError:
                        raise InputFormatError(f"{label}: line {number}: column {key!r} is not a list of numbers") from None
                else:
                    item[key] = cell.strip()
            try:
                builder.add_record(RequestRecord.model_validate(item))
            except ValidationError as exc:
                raise _error(f"{label}: line {number}", exc) from None
    except csv.Error as exc:
        raise InputFormatError(f"{label}: line {numbers[-1] if numbers else 1}: {exc}") from None
    return _finish(builder, source_format="csv", label=label)
