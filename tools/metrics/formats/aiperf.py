"""NVIDIA AIPerf exports: ``profile_export.jsonl`` (one record per request) and ``profile_export_aiperf.json`` (summary).

The JSONL holds warm-up records too (``metadata.benchmark_phase == "warmup"``); they are
dropped and counted. A failed record carries ``error`` and almost no metrics. The summary
file (schema 1.x, or the older ``{"records": {...}}`` layout) has no per-request data, so
its figures go to ``source_reported`` only. GenAI-Perf's ``profile_export_genai_perf.json``
has the same flat ``{tag: {unit, avg, p50, ...}}`` shape and is read by the same function.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...errors import InputFormatError
from ..records import LoadSetting, SourceReported, Trace, TraceBuilder
from ..source import safe_name
from .fields import mapping, optional_number

__all__ = [
    "AIPERF_DIFFERENCES",
    "OBSERVATION_POINT",
    "is_aiperf_record",
    "is_metric_summary",
    "read_aiperf_records",
    "read_metric_summary",
    "record_phase",
    "summary_load",
]

OBSERVATION_POINT = (
    "client (aiperf): start = request_start_ns (after the credit is issued; older exports: timestamp_ns); first token = first non-empty "
    "content chunk; end = last content chunk (usage-only chunks and [DONE] excluded)"
)

AIPERF_DIFFERENCES = [
    "aiperf's 'inter_token_latency' is vLLM's TPOT ((latency - TTFT) / (OSL - 1), request-weighted); its "
    "'inter_chunk_latency' is vLLM's ITL (flattened chunk gaps).",
    "aiperf counts OSL/ISL with the client tokenizer unless --use-server-token-count; this report prefers the "
    "server's usage counts (usage_completion_tokens / usage_prompt_tokens) when the records carry them.",
    "aiperf goodput: any metric tag may be an SLO; a request missing the metric (e.g. ITL of a 1-token request) "
    "is not good, where vLLM counts its TPOT as 0.",
    "aiperf benchmark_duration = last valid response - first valid request start, which this report also uses "
    "for aiperf records.",
]

_TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0, "sec": 1.0}


def is_aiperf_record(obj: dict[str, Any]) -> bool:
    return isinstance(obj.get("metadata"), dict) and isinstance(obj.get("metrics"), dict)


def is_metric_summary(obj: dict[str, Any]) -> bool:
    """aiperf summary (new flat or old ``records`` layout) or GenAI-Perf ``profile_export_genai_perf.json``."""
    if isinstance(obj.get("records"), dict) and ("input_config" in obj or "start_time" in obj):
        return True
    ttft = obj.get("time_to_first_token")
    return isinstance(ttft, dict) and "unit" in ttft and ("avg" in ttft or "p50" in ttft)


def record_phase(obj: dict[str, Any]) -> Any:
    """The phase of one profile_export.jsonl record ('warmup', 'profiling'): metadata.benchmark_phase (0.13),
    phase_kind, or credit_phase (aiperf <= 0.2)."""
    meta = obj.get("metadata") if isinstance(obj.get("metadata"), dict) else {}
    return meta.get("benchmark_phase") or meta.get("phase_kind") or meta.get("credit_phase")


def _metric(metrics: dict[str, Any], tag: str, where: str) -> Any:
    entry = metrics.get(tag)
    if entry is None:
        return None
    if not isinstance(entry, dict) or "value" not in entry:
        raise InputFormatError(f"{where}: metrics.{tag} must be an object with 'value' and 'unit'")
    return entry


def _seconds(metrics: dict[str, Any], tag: str, where: str) -> float | None:
    entry = _metric(metrics, tag, where)
    if entry is None:
        return None
    scale = _TIME_UNITS.get(str(entry.get("unit", "ms")))
    if scale is None:
        raise InputFormatError(f"{where}: metrics.{tag}.unit {safe_name(entry.get('unit'))} is not a time unit (ns, us, ms, s)")
    value = optional_number(entry, "value", f"{where}: metrics.{tag}")
    return None if value is None else value * scale


def _count(metrics: dict[str, Any], tag: str, where: str) -> float | None:
    entry = _metric(metrics, tag, where)
    return None if entry is None else optional_number(entry, "value", f"{where}: metrics.{tag}")


def read_aiperf_records(lines: Iterator[tuple[int, dict[str, Any]]], *, label: str) -> Trace:
    """Stream ``profile_export.jsonl`` records into a trace (warm-up dropped, failures counted)."""
    builder = TraceBuilder()
    client_counts = 0
    own: dict[str, list[float]] = {tag: [] for tag in _OWN_FIGURES}
    first_start: float | None = None
    last_end: float | None = None
    for number, obj in lines:
        where = f"{label}: line {number}"
        meta = mapping(obj.get("metadata"), f"{where}: metadata")
        metrics = mapping(obj.get("metrics") or {}, f"{where}: metrics")
        if record_phase(obj) == "warmup":
            builder.warmup_dropped += 1
            continue
        start_ns = optional_number(meta, "request_start_ns", f"{where}: metadata")
        if start_ns is None:  # older records: metadata.timestamp_ns, or the min_request_timestamp metric (ns)
            start_ns = optional_number(meta, "timestamp_ns", f"{where}: metadata")
        if start_ns is None and (first_ts := _seconds(metrics, "min_request_timestamp", where)) is not None:
            start_ns = first_ts * 1e9
        credit_ns = optional_number(meta, "credit_issued_ns", f"{where}: metadata")
        if obj.get("error") or meta.get("was_cancelled"):
            builder.add(ok=False, start_s=None if start_ns is None else start_ns / 1e9)
            continue
        ttft = _seconds(metrics, "time_to_first_token", where)
        if ttft is None:
            ttft = _seconds(metrics, "ttft", where)  # older records use the short tag
        latency = _seconds(metrics, "request_latency", where)
        icl = _metric(metrics, "inter_chunk_latency", where)
        itl_ms = None
        if icl is not None:
            scale = _TIME_UNITS.get(str(icl.get("unit", "ms")))
            values = icl["value"]
            if scale is None or not isinstance(values, list):
                raise InputFormatError(f"{where}: metrics.inter_chunk_latency must be a list of times with a time unit")
            try:
                itl_ms = [float(v) * scale * 1000 for v in values]
            except (TypeError, ValueError):
                raise InputFormatError(f"{where}: metrics.inter_chunk_latency holds a non-number") from None
            if any(not (v >= 0) for v in itl_ms):  # also catches NaN
                raise InputFormatError(f"{where}: metrics.inter_chunk_latency holds a negative or non-finite gap")
        elif ttft is not None and latency is not None and abs(latency - ttft) < 1e-12:
            itl_ms = []  # a single chunk: no gaps
        usage_out = _count(metrics, "usage_completion_tokens", where)
        client_out = _count(metrics, "output_sequence_length", where)
        if usage_out is None and client_out is not None:
            client_counts += 1
        for tag in _OWN_FIGURES:
            if tag in _OWN_TIMES:
                seconds = _seconds(metrics, tag, where)
                value = None if seconds is None else seconds * 1000
            else:
                value = _count(metrics, tag, where)
            if value is not None:
                own[tag].append(value)
        client_prompt = _count(metrics, "input_sequence_length", where)
        prompt = _count(metrics, "usage_prompt_tokens", where)
        if prompt is None:
            prompt = client_prompt
        requested = None
        mismatch = _metric(metrics, "osl_mismatch_diff_pct", where)
        if mismatch is not None and client_out is not None:
            pct = optional_number(mismatch, "value", f"{where}: metrics.osl_mismatch_diff_pct", minimum=None)
            if pct is not None and pct > -100:  # aiperf: (OSL - requested) / requested x 100, OSL from its tokenizer
                requested = round(client_out / (1 + pct / 100))
        if ttft is not None and latency is not None and ttft > latency * (1 + 1e-9):
            raise InputFormatError(f"{where}: time_to_first_token exceeds request_latency")
        builder.add(
            ok=True,
            ttft_s=ttft,
            e2el_s=latency,
            output_tokens=usage_out if usage_out is not None else client_out,
            prompt_tokens=prompt,
            start_s=None if start_ns is None else start_ns / 1e9,
            queue_s=None if (start_ns is None or credit_ns is None) else max(0.0, (start_ns - credit_ns) / 1e9),
            itl_ms=itl_ms,
            requested_output_tokens=requested,
            client_output_tokens=client_out if usage_out is not None else None,
            client_prompt_tokens=client_prompt if _count(metrics, "usage_prompt_tokens", where) is not None else None,
        )
        if start_ns is not None and latency is not None:
            start_s = start_ns / 1e9
            end_s = _seconds(metrics, "max_response_timestamp", where)  # older records: last response (ns)
            end_s = start_s + latency if end_s is None else end_s
            first_start = start_s if first_start is None else min(first_start, start_s)
            last_end = end_s if last_end is None else max(last_end, end_s)
    trace = builder.build(source_format="aiperf", source=label, observation_point=OBSERVATION_POINT)
    if first_start is not None and last_end is not None and last_end > first_start:
        trace.duration_s = last_end - first_start
        trace.duration_basis = "aiperf's benchmark_duration rule: last valid response - first valid request start"
    trace.client_tokenizer_tool = "aiperf's client tokenizer"
    if client_counts and client_counts == trace.n_requests - int((~trace.ok).sum()):
        trace.output_token_source = "client tokenizer (aiperf, no server usage in the records)"
    if client_counts:
        trace.warnings.append(
            f"{client_counts} records have no usage_completion_tokens: output tokens are aiperf's client-tokenizer counts"
        )
    trace.source_reported = SourceReported(tool="aiperf", figures=_own_figures(own), definition_differences=AIPERF_DIFFERENCES)
    return trace


_OWN_FIGURES = (
    "time_to_first_token",
    "request_latency",
    "inter_token_latency",
    "output_sequence_length",
    "usage_completion_tokens",
    "input_sequence_length",
    "usage_prompt_tokens",
)
_OWN_TIMES = {"time_to_first_token", "request_latency", "inter_token_latency"}
"""Per-record figures aiperf writes into profile_export.jsonl; summarised as aiperf does (avg, p50, p90, p99; numpy linear)."""


def _own_figures(own: dict[str, list[float]]) -> dict[str, float | None]:
    """aiperf's own figures over the profiling records: ``tag.avg`` etc. (times in ms, the records' unit)."""
    import numpy as np

    figures: dict[str, float | None] = {}
    for tag, values in own.items():
        if values:
            x = np.asarray(values)
            figures[f"{tag}.avg"] = float(x.mean())
            for q in (50, 90, 99):
                figures[f"{tag}.p{q}"] = float(np.percentile(x, q))
    return figures


def read_metric_summary(obj: dict[str, Any], *, label: str) -> Trace:
    """An aiperf or GenAI-Perf summary file: figures to ``source_reported``, counts and duration if present."""
    genai = "schema_version" not in obj and "aiperf_version" not in obj and "records" not in obj
    metrics = obj["records"] if isinstance(obj.get("records"), dict) else obj
    figures: dict[str, float | None] = {}
    for tag, entry in metrics.items():
        if not isinstance(entry, dict) or "unit" not in entry:
            continue
        for stat, value in entry.items():
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                figures[f"{tag}.{stat}"] = float(value)
    tool = "genai-perf" if genai else "aiperf"
    differences = list(AIPERF_DIFFERENCES)
    if genai:
        differences = [
            "genai-perf's 'inter_token_latency' is vLLM's TPOT ((latency - TTFT) / (OSL - 1), request-weighted).",
            "genai-perf counts tokens with the client tokenizer (--tokenizer), not the server's usage.",
            "genai-perf request_throughput counts requests with empty responses in its numerator.",
        ]
    trace = Trace.summary_only_trace(
        "aiperf-summary" if not genai else "genai-perf-summary",
        label,
        OBSERVATION_POINT if not genai else "client (perf_analyzer): request timestamp to response timestamps",
        {},
    )
    count = figures.get("request_count.avg") or figures.get("completed_request_count.avg")
    if count is not None:
        trace.summary_only["completed"] = count
    duration = figures.get("benchmark_duration.avg")
    if duration:
        trace.duration_s = duration
        trace.duration_basis = f"the file's benchmark_duration ({tool}: last response - first request)"
    for ours, theirs in (("total_input_tokens", "total_isl.avg"), ("total_output_tokens", "total_osl.avg")):
        if theirs in figures:
            trace.summary_only[ours] = figures[theirs]
    errors = obj.get("error_summary")
    if figures.get("error_request_count.avg") is not None:
        trace.summary_only["failed"] = figures["error_request_count.avg"]
    elif isinstance(errors, list):
        trace.summary_only["failed"] = float(
            sum(e.get("count", 0) for e in errors if isinstance(e, dict) and isinstance(e.get("count"), int))
        )
    trace.source_reported = SourceReported(tool=tool, figures=figures, definition_differences=differences)
    sibling = "profile_export.jsonl" if not genai else "profile_export.json"
    trace.warnings.append(
        f"summary file: no per-request records, so distributions are not recomputed; the {tool} figures are in "
        f"source_reported (recompute from {sibling} in the same folder)"
    )
    return trace


SUMMARY_NAME = "profile_export_aiperf.json"
"""aiperf writes this summary beside profile_export.jsonl; its input_config says what load was asked for."""


def summary_load(summary: dict[str, Any]) -> LoadSetting | None:
    """The profiling phase's load from an aiperf summary's ``input_config``: ``phases`` (0.13) or ``loadgen`` (older)."""
    config = summary.get("input_config") if isinstance(summary.get("input_config"), dict) else {}

    def num(obj: Any, key: str) -> float | None:
        value = obj.get(key) if isinstance(obj, dict) else None
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0 else None

    phases = config.get("phases") if isinstance(config.get("phases"), list) else []
    profiling = next((ph for ph in phases if isinstance(ph, dict) and ph.get("kind") == "profiling"), None)
    source = profiling if profiling is not None else config.get("loadgen")
    where = "input_config.phases[profiling]" if profiling is not None else "input_config.loadgen"
    rate = num(source, "rate") if profiling is not None else num(source, "request_rate")
    cap = num(source, "concurrency")
    if rate is None and cap is None:
        return None
    return LoadSetting(
        request_rate=rate, max_concurrency=None if cap is None else int(cap), loop="open" if rate is not None else "closed",
        stated_by=f"{where} of the {SUMMARY_NAME} beside the records",
    )
