"""Readers for benchmark result files, and the detection that picks one.

Which tool wrote this file? ``load_trace`` answers from the first JSON line (or the whole
document when the JSON spans lines), unless ``format`` says. JSONL inputs (generic
records, AIPerf records, appended vLLM/SGLang runs) are streamed line by line.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, Literal

from ...errors import FundamentalsError, InputFormatError, argument
from ...files import read_user_file
from ..records import Trace
from ..source import InputSource, loads, safe_name
from .aiperf import SUMMARY_NAME, is_aiperf_record, is_metric_summary, read_aiperf_records, read_metric_summary, record_phase, summary_load
from .generic import looks_like_record, read_csv, read_record_lines, read_records
from .genai_perf import is_genai_perf, read_genai_perf
from .guidellm import is_guidellm, read_guidellm
from .sglang import is_sglang_run, read_sglang_run
from .vllm import is_vllm_run, read_vllm_run

__all__ = ["FORMATS", "InputFormat", "detect_format", "is_warmup_record", "load_trace"]

InputFormat = Literal[
    "auto",
    "records",
    "csv",
    "vllm",
    "sglang",
    "aiperf",
    "aiperf-summary",
    "genai-perf",
    "genai-perf-summary",
    "guidellm",
]

FORMATS: dict[str, str] = {
    "records": "generic per-request records, JSONL or a JSON array (RequestRecord schema)",
    "csv": "generic per-request records as CSV (header = RequestRecord field names)",
    "vllm": "vllm bench serve --save-result JSON (with or without --save-detailed; legacy benchmark_serving.py too)",
    "sglang": "sglang.bench_serving JSONL, one run per line (--output-details arrays used when present)",
    "aiperf": "AIPerf profile_export.jsonl (per-request records; warm-up dropped)",
    "aiperf-summary": "AIPerf profile_export_aiperf.json (summary only)",
    "genai-perf": "GenAI-Perf / perf_analyzer profile_export.json (raw requests and SSE responses)",
    "genai-perf-summary": "GenAI-Perf profile_export_genai_perf.json (summary only)",
    "guidellm": "GuideLLM benchmarks.json",
}


def detect_format(obj: Any) -> str:
    """The format of one parsed JSON object (a line or a whole document)."""
    if isinstance(obj, list):
        return "records"
    if not isinstance(obj, dict):
        raise InputFormatError(f"expected a JSON object or array, got {type(obj).__name__}")
    if is_aiperf_record(obj):
        return "aiperf"
    if is_guidellm(obj):
        return "guidellm"
    if is_genai_perf(obj):
        return "genai-perf"
    if is_metric_summary(obj):
        return "aiperf-summary" if ("schema_version" in obj or "aiperf_version" in obj or "records" in obj) else "genai-perf-summary"
    if is_sglang_run(obj):
        return "sglang"
    if is_vllm_run(obj):
        return "vllm"
    if looks_like_record(obj):
        return "records"
    keys = ", ".join(safe_name(k) for k in list(obj)[:8])
    raise InputFormatError(
        f"cannot tell which tool wrote this input (top-level keys: {keys}); set format to one of: {', '.join(FORMATS)}"
    )


def is_warmup_record(obj: Any) -> bool:
    """True for a per-request record the readers drop as warm-up: an aiperf record in phase 'warmup', or a
    generic record (or CSV row) with ``phase`` 'warmup'. Other tools' files hold no warm-up records."""
    if not isinstance(obj, dict):
        return False
    if is_aiperf_record(obj):
        return record_phase(obj) == "warmup"
    return obj.get("phase") == "warmup"


def _json_lines(source: InputSource) -> Iterator[tuple[int, Any]]:
    for number, line in source.lines():
        if not line.strip():
            continue
        yield number, loads(line, source.label, line=number)


def _objects(source: InputSource) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, obj in _json_lines(source):
        if not isinstance(obj, dict):
            raise InputFormatError(f"{source.label}: line {number}: expected a JSON object")
        yield number, obj


def load_trace(source: InputSource, fmt: str = "auto", *, run_index: int | None = None) -> Trace:
    """Read ``source`` in format ``fmt`` (``"auto"`` detects it) into a trace."""
    head = source.head(4096).lstrip("\ufeff \t\r\n")
    if not head:
        raise InputFormatError(f"{source.label}: empty")
    if fmt == "csv" or (fmt == "auto" and (source.suffix == ".csv" or head[0] not in "{[")):
        return read_csv(source.lines(), label=source.label)

    # One JSON document spread over lines (pretty-printed) or a JSON array: parse it whole.
    first = source.first_json()
    assert first is not None
    first_number, first_obj, problem = first
    whole: Any = None
    if problem == "nesting":
        raise InputFormatError(f"{source.label}: line {first_number}: JSON nested too deeply")
    if problem == "syntax":
        whole = source.load_json()
    if whole is None and isinstance(first_obj, list):
        whole = first_obj
    if isinstance(whole, list) or (whole is None and isinstance(first_obj, list)):
        if fmt not in ("auto", "records"):
            raise InputFormatError(f"{source.label}: a JSON array holds generic records, not format {fmt!r}")
        return read_records(whole, label=source.label)

    sample = whole if whole is not None else first_obj
    detected = detect_format(sample) if fmt == "auto" else fmt
    if fmt != "auto":
        _check_forced_format(sample, fmt, source.label)

    if detected == "records":
        if whole is not None:
            return read_records([whole], label=source.label)
        return read_record_lines(source.lines(), label=source.label)
    if detected == "aiperf":
        objects = iter([(1, whole)]) if whole is not None else _objects(source)
        trace = read_aiperf_records(objects, label=source.label)
        trace.load = _sibling_aiperf_load(source)
        return trace

    # Run-level formats: one object per line (appended runs) or one document.
    runs = 1 if whole is not None else source.count_content_lines()
    if detected in ("vllm", "sglang"):
        index = 0 if run_index is None else run_index
        if not 0 <= index < runs:
            raise InputFormatError(f"{source.label}: {argument('run_index')} {index} is out of range; the file holds {runs} runs (0-{runs - 1})")
        if whole is None and index == 0:
            obj, number = first_obj, first_number  # already parsed: a detailed file can be one 100 MB line
        else:
            obj, number = _run_object(source, whole, index)
        where = f"{source.label}: line {number}" if number else source.label
        reader = read_vllm_run if detected == "vllm" else read_sglang_run
        trace = reader(obj, where, source=source.label)
        if runs > 1 and run_index is None:
            trace.warnings.append(f"the file holds {runs} runs (one per line); computed run 0 (set {argument('run_index')})")
        return trace
    doc = whole if whole is not None else first_obj
    if runs > 1:
        raise InputFormatError(f"{source.label}: a {detected} file is one JSON document; found {runs} lines of JSON")
    if not isinstance(doc, dict):
        raise InputFormatError(f"{source.label}: expected a JSON object")
    if detected == "guidellm":
        if not is_guidellm(doc):
            raise InputFormatError(f"{source.label}: not a guidellm report (no 'benchmarks' list)")
        return read_guidellm(doc, label=source.label, run_index=run_index)
    if detected == "genai-perf":
        if not is_genai_perf(doc):
            raise InputFormatError(f"{source.label}: not a genai-perf profile_export.json (no 'experiments[].requests')")
        return read_genai_perf(doc, label=source.label, run_index=run_index)
    if detected in ("aiperf-summary", "genai-perf-summary"):
        return read_metric_summary(doc, label=source.label)
    raise InputFormatError(f"{argument('format')}: {fmt!r} is not one of: auto, {', '.join(FORMATS)}")


_LOOKS_LIKE = {
    "vllm": is_vllm_run,
    "sglang": is_sglang_run,
    "aiperf": is_aiperf_record,
    "aiperf-summary": is_metric_summary,
    "genai-perf-summary": is_metric_summary,
    "guidellm": is_guidellm,
    "genai-perf": is_genai_perf,
}


def _check_forced_format(sample: Any, fmt: str, label: str) -> None:
    """A forced format must fit the file: reading a guidellm report as vLLM would give an empty table, not an error."""
    check = _LOOKS_LIKE.get(fmt)
    if check is None or (isinstance(sample, dict) and check(sample)):
        return
    try:
        found = detect_format(sample)
    except InputFormatError:
        found = "none of the supported formats"
    raise InputFormatError(
        f"{label}: {argument('format')} {fmt!r} does not match this file (it looks like {found}); "
        f"{fmt} means: {FORMATS[fmt]}. Leave {argument('format')} at 'auto' to detect it"
    )


def _sibling_aiperf_load(source: InputSource):  # -> LoadSetting | None
    """The requested load from the aiperf summary beside a profile_export.jsonl, when there is one (and it parses)."""
    if source.path is None:
        return None
    sibling = source.path.parent / SUMMARY_NAME
    try:  # through tools.files: the same consent and checks as the records file itself
        doc = json.loads(read_user_file(str(sibling), field="path", max_bytes=16 * 2**20).decode("utf-8"))
    except (FundamentalsError, ValueError, RecursionError):
        return None
    return summary_load(doc) if isinstance(doc, dict) else None


def _run_object(source: InputSource, whole: Any, index: int) -> tuple[dict[str, Any], int | None]:
    if whole is not None:
        if not isinstance(whole, dict):
            raise InputFormatError(f"{source.label}: expected a JSON object")
        return whole, None
    seen = 0
    for number, line in source.lines():
        if not line.strip():
            continue
        if seen == index:
            obj = loads(line, source.label, line=number)
            if not isinstance(obj, dict):
                raise InputFormatError(f"{source.label}: line {number}: expected a JSON object")
            return obj, number
        seen += 1
    raise InputFormatError(f"{source.label}: run {index} not found")  # pragma: no cover (counted above)
