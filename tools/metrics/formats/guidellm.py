"""GuideLLM ``benchmarks.json`` (GenerativeBenchmarksReport): one benchmark per strategy, per-request timings inside.

Each request under ``requests.successful`` carries ``info.timings`` (wall-clock seconds:
``request_start``, ``first_token_iteration``, ``last_token_iteration``, ``request_end``,
``targeted_start``) and token counts. There are no per-chunk times, so vLLM's ITL (chunk
gaps) cannot be rebuilt. Errored requests are counted as failed; incomplete ones (cut at
the measurement window) are left out and counted in a warning.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ...errors import InputFormatError, argument
from ..records import LoadSetting, SourceReported, Trace, TraceBuilder
from .fields import mapping, optional_number

__all__ = ["DIFFERENCES", "OBSERVATION_POINT", "is_guidellm", "read_guidellm"]

OBSERVATION_POINT = (
    "client (guidellm): start = request_start (time.time() before the stream opens); first token = "
    "first_token_iteration (first content line); end = last_token_iteration here (guidellm's request_latency "
    "runs to request_end, after [DONE])"
)

DIFFERENCES = [
    "guidellm's time_per_output_token_ms = (last token - request start) / output tokens: it includes TTFT, and "
    "its statistics are token-weighted; vLLM's TPOT excludes the first token and is request-weighted.",
    "guidellm's inter_token_latency_ms = (last token - first token) / (output tokens - 1) is vLLM's per-request "
    "TPOT, but aggregated token-weighted (weights n - 1); vLLM's ITL is the flattened chunk gaps.",
    "guidellm percentiles come from a weighted inverse CDF without interpolation; vLLM uses numpy linear.",
    "guidellm rates (requests_per_second, output_tokens_per_second) are time-weighted over the measurement window.",
    "guidellm goodput: requests with <= 1 output token or a missing measurement are undetermined (excluded from "
    "slo_attainment); errored requests count as misses; tpot_ms is compared with its inter_token_latency_ms.",
    "guidellm's request_latency ends at request_end (after [DONE]); E2E here ends at last_token_iteration.",
    "guidellm 0.2.x files: time_per_output_token_ms = (last token - first token) / output tokens (TTFT excluded, "
    "but n rather than n - 1 in the denominator); start_time/first_token_time/last_token_time per request.",
]

_STATS = ("mean", "median", "std_dev", "min", "max", "count")
_PCTS = ("p50", "p90", "p95", "p99")
_METRICS = (
    "time_to_first_token_ms",
    "time_per_output_token_ms",
    "inter_token_latency_ms",
    "request_latency",
    "output_tokens_per_second",
    "requests_per_second",
    "request_goodput",
)


def is_guidellm(obj: dict[str, Any]) -> bool:
    benchmarks = obj.get("benchmarks")
    if not isinstance(benchmarks, list):
        return False
    if "metadata" in obj or "config" in obj:
        return True
    # guidellm 0.2.x: the report is only {"benchmarks": [...]}, each a "generative_benchmark"
    return bool(benchmarks) and isinstance(benchmarks[0], dict) and benchmarks[0].get("type_") == "generative_benchmark"


def _request_times(item: dict[str, Any], rwhere: str) -> tuple[float | None, float | None, float | None, float | None]:
    """(request_start, first_token, last_token, targeted_start) in s from a 0.3+ ``info.timings`` or a 0.2.x record."""
    info = item.get("info")
    if info is None and "start_time" in item:  # guidellm 0.2.x GenerativeTextResponseStats / ErrorStats
        sched = item.get("scheduler_info") if isinstance(item.get("scheduler_info"), dict) else {}
        return (
            optional_number(item, "start_time", rwhere, minimum=None),
            optional_number(item, "first_token_time", rwhere, minimum=None),
            optional_number(item, "last_token_time", rwhere, minimum=None),
            optional_number(sched, "targeted_start_time", f"{rwhere}.scheduler_info", minimum=None),
        )
    timings = mapping(mapping(info, f"{rwhere}.info").get("timings"), f"{rwhere}.info.timings")
    where = f"{rwhere}.info.timings"
    return (
        optional_number(timings, "request_start", where, minimum=None),
        optional_number(timings, "first_token_iteration", where, minimum=None),
        optional_number(timings, "last_token_iteration", where, minimum=None),
        optional_number(timings, "targeted_start", where, minimum=None),
    )


def read_guidellm(obj: dict[str, Any], *, label: str, run_index: int | None) -> Trace:
    benchmarks = obj["benchmarks"]
    if not benchmarks:
        raise InputFormatError(f"{label}: field 'benchmarks' is empty")
    index = 0 if run_index is None else run_index
    if not 0 <= index < len(benchmarks):
        raise InputFormatError(f"{label}: {argument('run_index')} {index} is out of range; the file has {len(benchmarks)} benchmarks (0-{len(benchmarks) - 1})")
    where = f"{label}: benchmarks[{index}]"
    bench = mapping(benchmarks[index], where)
    requests = mapping(bench.get("requests"), f"{where}.requests")
    builder = TraceBuilder()
    for status in ("successful", "errored"):
        items = requests.get(status) or []
        if not isinstance(items, list):
            raise InputFormatError(f"{where}.requests.{status} must be a list")
        for i, item in enumerate(items):
            rwhere = f"{where}.requests.{status}[{i}]"
            item = mapping(item, rwhere)
            start, first, last, targeted = _request_times(item, rwhere)
            if status == "errored":
                builder.add(ok=False, start_s=start)
                continue
            if start is None or first is None or last is None:
                raise InputFormatError(
                    f"{rwhere}: request start, first token and last token times are required "
                    "(info.timings.request_start / first_token_iteration / last_token_iteration, or 0.2.x start_time / "
                    "first_token_time / last_token_time)"
                )
            if not start <= first <= last:
                raise InputFormatError(f"{rwhere}: expected request start <= first token <= last token time")
            out = optional_number(item, "output_tokens", rwhere)
            prompt = optional_number(item, "prompt_tokens", rwhere)
            requested, prompt_id = _request_args(item.get("request_args"))
            builder.add(
                ok=True,
                ttft_s=first - start,
                e2el_s=last - start,
                output_tokens=out,
                prompt_tokens=prompt,
                start_s=start,
                queue_s=None if targeted is None else max(0.0, start - targeted),
                itl_ms=None,
                requested_output_tokens=requested,
                cached_tokens=_cached_tokens(item, rwhere),
                prompt_id=prompt_id,
            )
    trace = builder.build(source_format="guidellm", source=label, observation_point=OBSERVATION_POINT)
    incomplete = requests.get("incomplete") or []
    if isinstance(incomplete, list) and incomplete:
        trace.warnings.append(f"{len(incomplete)} incomplete requests (cut at the measurement window) left out")
    totals = (bench.get("metrics") or {}).get("request_totals") if isinstance(bench.get("metrics"), dict) else None
    if isinstance(totals, dict) and isinstance(totals.get("successful"), int):
        listed = len(requests.get("successful") or [])
        if totals["successful"] > listed:
            trace.warnings.append(
                f"the file lists {listed} of {totals['successful']} successful requests (guidellm sample_size): "
                "distributions here come from the sample"
            )
    duration = optional_number(bench, "duration", where)
    if duration:
        trace.duration_s = duration
        trace.duration_basis = "the benchmark's 'duration' (guidellm's measurement window)"
    if len(benchmarks) > 1 and run_index is None:
        trace.warnings.append(f"the file holds {len(benchmarks)} benchmarks; computed benchmarks[0] (set {argument('run_index')})")
    trace.load = _load(bench)
    trace.output_token_source = "server usage (guidellm prefers the response's usage; else one token per chunk)"
    trace.source_reported = SourceReported(tool="guidellm", figures=_figures(bench), definition_differences=DIFFERENCES)
    trace.warnings.append("guidellm records have no per-chunk times: ITL (chunk gaps) cannot be rebuilt")
    return trace


def _figures(bench: dict[str, Any]) -> dict[str, float | None]:
    metrics = bench.get("metrics") if isinstance(bench.get("metrics"), dict) else {}
    figures: dict[str, float | None] = {}
    for name in _METRICS:
        summary = (metrics.get(name) or {}).get("successful") if isinstance(metrics.get(name), dict) else None
        if not isinstance(summary, dict):
            continue
        for stat in _STATS:
            if isinstance(summary.get(stat), (int, float)):
                figures[f"{name}.{stat}"] = float(summary[stat])
        pcts = summary.get("percentiles") if isinstance(summary.get("percentiles"), dict) else {}
        for p in _PCTS:
            if isinstance(pcts.get(p), (int, float)):
                figures[f"{name}.{p}"] = float(pcts[p])
    for key in ("slo_attainment", "slo_determined_requests"):
        if isinstance(metrics.get(key), (int, float)):
            figures[key] = float(metrics[key])
    totals = metrics.get("request_totals")
    if isinstance(totals, dict):
        for key in ("successful", "errored", "incomplete", "total"):
            if isinstance(totals.get(key), int):
                figures[f"request_totals.{key}"] = float(totals[key])
    if isinstance(bench.get("duration"), (int, float)):
        figures["duration"] = float(bench["duration"])
    return figures


def _request_args(raw: Any) -> tuple[int | None, str | None]:
    """(requested max tokens, a hash of the prompt) from a request's ``request_args`` (a JSON string in 0.8)."""
    if isinstance(raw, str):
        try:
            raw = json.loads(raw)
        except (json.JSONDecodeError, RecursionError):
            return None, None
    if not isinstance(raw, dict):
        return None, None
    body = raw.get("body") if isinstance(raw.get("body"), dict) else raw
    requested = None
    for key in ("max_completion_tokens", "max_tokens"):
        value = body.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            requested = value
            break
    prompt = body.get("messages", body.get("prompt"))
    prompt_id = None
    if prompt is not None:
        text = json.dumps(prompt, sort_keys=True, ensure_ascii=False)
        prompt_id = hashlib.sha256(text.encode("utf-8", errors="replace")).hexdigest()[:16]
    return requested, prompt_id


def _cached_tokens(item: dict[str, Any], rwhere: str) -> float | None:
    cached = optional_number(item, "cached_tokens", rwhere)
    if cached is None and isinstance(item.get("input_metrics"), dict):
        cached = optional_number(item["input_metrics"], "cached_tokens", f"{rwhere}.input_metrics")
    return cached


def _load(bench: dict[str, Any]) -> LoadSetting | None:
    """The benchmark's scheduling strategy as a load setting (guidellm: synchronous, concurrent, constant, poisson, throughput)."""
    config = bench.get("config") if isinstance(bench.get("config"), dict) else {}
    strategy = config.get("strategy") if isinstance(config.get("strategy"), dict) else None
    if strategy is None and isinstance(bench.get("args"), dict):  # guidellm 0.2.x: args.strategy
        strategy = bench["args"].get("strategy") if isinstance(bench["args"].get("strategy"), dict) else None
    if strategy is None:
        return None
    kind = str(strategy.get("type_", ""))
    number = lambda key: strategy[key] if isinstance(strategy.get(key), (int, float)) and not isinstance(strategy.get(key), bool) else None  # noqa: E731
    if kind == "synchronous":
        return LoadSetting(max_concurrency=1, loop="closed", stated_by="config.strategy.type_ = synchronous")
    if kind == "concurrent" and number("streams") is not None:
        return LoadSetting(max_concurrency=int(number("streams")), loop="closed", stated_by="config.strategy.streams")
    if kind in ("constant", "poisson", "async_constant", "async_poisson") and number("rate") is not None:
        cap = number("max_concurrency")
        return LoadSetting(request_rate=float(number("rate")), max_concurrency=None if cap is None else int(cap), loop="open",
                           stated_by=f"config.strategy.rate ({kind})")
    if kind == "throughput":
        cap = number("max_concurrency")
        return LoadSetting(max_concurrency=None if cap is None else int(cap), loop="open",
                           stated_by="config.strategy.type_ = throughput (all requests at once)")
    return None
