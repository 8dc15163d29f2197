"""SGLang ``python -m sglang.bench_serving`` JSONL (one run object per line), ``--output-details`` arrays included.

Details (``input_lens``, ``output_lens``, ``ttfts``, ``itls``, ``errors``) sit at the top level,
or under ``"details"`` in some versions. There are no per-request latencies or start times,
so E2E is rebuilt as TTFT + sum(ITL), which ends at the last content chunk; SGLang's own
latency runs to the last line received ([DONE] or a usage chunk included).
"""

from __future__ import annotations

from typing import Any

from ..records import SourceReported, Trace
from .arrays import trace_from_arrays
from .fields import load_setting, optional_number, summary_figures

__all__ = ["OBSERVATION_POINT", "is_sglang_run", "read_sglang_run"]

OBSERVATION_POINT = (
    "client (sglang bench_serving): start = perf_counter before the POST, inside the concurrency semaphore; "
    "first token = first chunk with non-empty content; end = last content chunk here (SGLang's own latency: "
    "last line received, [DONE] included)"
)

_SCALARS = (
    "duration",
    "completed",
    "total_input_tokens",
    "total_output_tokens",
    "total_output_tokens_retokenized",
    "total_input",
    "total_output",
    "total_output_retokenized",
    "output_throughput_retokenized",
    "total_throughput_retokenized",
    "request_throughput",
    "input_throughput",
    "output_throughput",
    "total_throughput",
    "concurrency",
    "accept_length",
    "max_output_tokens_per_s",
    "max_concurrent_requests",
)

DIFFERENCES = [
    "TPOT and E2E: SGLang's per-request latency ends at the last line received ([DONE]/usage chunk included), "
    "so its TPOT and E2E run slightly above the figures rebuilt here from TTFT + sum(ITL).",
    "Output tokens: server usage, but SGLang falls back to the requested output length when the server reports "
    "none (trt/truss backends always); retokenized totals are reported separately.",
    "Input tokens: totals use the dataset's prompt lengths; details' input_lens carry the server's usage.prompt_tokens.",
    "ITL: chunk gaps on OpenAI routes; the native /generate route splits each gap over the chunk's tokens.",
    "Failed requests are not counted in SGLang's summary (only 'completed').",
]


def is_sglang_run(obj: dict[str, Any]) -> bool:
    return "duration" in obj and any(
        k in obj for k in ("total_throughput", "mean_e2e_latency_ms", "total_output_tokens_retokenized", "total_output_retokenized")
    )


def read_sglang_run(obj: dict[str, Any], where: str, *, source: str) -> Trace:
    details = obj.get("details") if isinstance(obj.get("details"), dict) else obj
    reported = SourceReported(tool="sglang bench_serving", figures=summary_figures(obj, _SCALARS), definition_differences=DIFFERENCES)
    if "ttfts" in details and "itls" in details and "output_lens" in details:
        trace = trace_from_arrays(details, where, source_format="sglang", source=source, observation_point=OBSERVATION_POINT)
    else:
        summary: dict[str, float] = {}
        # key names differ by version: total_input_tokens / total_output_tokens (bench_serving.py) or
        # total_input / total_output (benchmark/metrics.py's BenchmarkMetrics dumped with **__dict__)
        for ours, keys in (
            ("completed", ("completed",)),
            ("total_input_tokens", ("total_input_tokens", "total_input")),
            ("total_output_tokens", ("total_output_tokens", "total_output")),
        ):
            for key in keys:
                if (v := optional_number(obj, key, where)) is not None:
                    summary[ours] = v
                    break
        trace = Trace.summary_only_trace("sglang", source, OBSERVATION_POINT, summary)
        trace.warnings.append(
            "no per-request arrays (run without --output-details): latency figures are only in source_reported"
        )
    trace.duration_s = optional_number(obj, "duration", where)
    trace.duration_basis = "the file's 'duration': wall time of the run"
    trace.load = load_setting(obj)
    trace.source_reported = reported
    trace.source_percentiles = tuple(
        sorted({float(k[1:].split("_", 1)[0]) for k in reported.figures if k.startswith("p")})
    )
    return trace
