"""``vllm bench serve`` result JSON (``--save-result``, with or without ``--save-detailed``), legacy quirks included.

Current files carry per-request ``latencies`` and ``queue_times`` always, and ``ttfts``,
``itls``, ``output_lens``, ``input_lens``, ``start_times``, ``errors`` with
``--save-detailed``. Legacy ``benchmarks/benchmark_serving.py`` files write the key
``"request_goodput:"`` (trailing colon), have no ``failed`` key, and often carry the detailed
arrays even without ``--save-detailed`` (vllm issue #15794).
"""

from __future__ import annotations

from typing import Any

from ..records import SourceReported, Trace
from .arrays import trace_from_arrays
from .fields import array_field, load_setting, optional_number, summary_figures

__all__ = ["OBSERVATION_POINT", "is_vllm_run", "read_vllm_run"]

OBSERVATION_POINT = (
    "client (vllm bench serve): start = perf_counter before the POST, after the --max-concurrency semaphore; "
    "first token = first SSE event with non-empty choices (legacy script: first non-empty text); "
    "end = last choices event (legacy completions: [DONE])"
)

_SCALARS = (
    "duration",
    "completed",
    "failed",
    "num_prompts",
    "total_input_tokens",
    "total_output_tokens",
    "request_throughput",
    "request_goodput",
    "request_goodput:",
    "output_throughput",
    "total_token_throughput",
    "max_output_tokens_per_s",
    "max_concurrent_requests",
)


def is_vllm_run(obj: dict[str, Any]) -> bool:
    return "duration" in obj and ("completed" in obj or "ttfts" in obj) and (
        "total_token_throughput" in obj or "request_goodput" in obj or "request_goodput:" in obj or "mean_ttft_ms" in obj
    )


def read_vllm_run(obj: dict[str, Any], where: str, *, source: str) -> Trace:
    """One vLLM result object as a trace; summary-only files give a trace without requests."""
    import numpy as np

    legacy = "request_goodput:" in obj or "failed" not in obj
    figures = summary_figures(obj, _SCALARS)
    differences: list[str] = ["same definitions as this report (vllm bench serve is the reference)."]
    notes: list[str] = []
    if "request_goodput:" in figures:
        figures["request_goodput"] = figures.pop("request_goodput:")
        notes.append("legacy key 'request_goodput:' (trailing colon) read as request_goodput")
    if legacy:
        differences = [
            "legacy benchmark_serving.py: TTFT waited for the first non-empty text/content (current vLLM: first "
            "choices event); completions E2E ended at [DONE]; total input tokens came from the dataset's prompt lengths."
        ]
    if "mean_e2el_ms" not in obj and "mean_ttft_ms" in obj:
        notes.append("the file has no E2EL statistics (vLLM writes them only with --percentile-metrics ...,e2el)")
    reported = SourceReported(
        tool="vllm bench serve" + (" (legacy benchmark_serving.py)" if legacy else ""),
        figures=figures,
        definition_differences=differences,
    )
    duration = optional_number(obj, "duration", where)
    percentiles = tuple(sorted({float(k[1:].split("_", 1)[0]) for k in figures if k.startswith("p")}))

    if "ttfts" in obj and "itls" in obj and "output_lens" in obj:
        trace = trace_from_arrays(obj, where, source_format="vllm", source=source, observation_point=OBSERVATION_POINT)
    else:
        completed = optional_number(obj, "completed", where)
        failed = optional_number(obj, "failed", where)
        if failed is None and completed is not None and optional_number(obj, "num_prompts", where) is not None:
            failed = max(0.0, float(obj["num_prompts"]) - completed)
        summary = {
            k: v
            for k, v in {
                "completed": completed,
                "failed": failed,
                "total_input_tokens": optional_number(obj, "total_input_tokens", where),
                "total_output_tokens": optional_number(obj, "total_output_tokens", where),
            }.items()
            if v is not None
        }
        e2el = np.zeros(0)
        ok = np.zeros(0, dtype=bool)
        if "latencies" in obj and completed is not None:
            lat = array_field(obj, "latencies", where)
            nonzero = lat[lat > 0]  # failed requests keep the 0.0 default
            if nonzero.size == int(completed):
                e2el, ok = nonzero, np.ones(nonzero.size, dtype=bool)
                summary.pop("completed", None)
                notes.append("E2E latencies taken from the 'latencies' array (zeros = failed requests)")
        empty = np.full(e2el.size, np.nan)
        trace = Trace(
            source_format="vllm",
            source=source,
            observation_point=OBSERVATION_POINT,
            ok=ok,
            ttft_s=empty,
            e2el_s=e2el,
            output_tokens=empty,
            prompt_tokens=empty,
            start_s=empty,
            queue_s=empty,
            itl_s=np.zeros(0),
            n_itl=np.full(e2el.size, -1, dtype=np.int64),
            summary_only=summary,
        )
        trace.warnings.append(
            "no per-request TTFT/ITL arrays (saved without --save-detailed): TTFT, TPOT and ITL are only in "
            "source_reported; counts and throughputs come from the file's totals"
        )
    trace.duration_s = duration
    trace.duration_basis = "the file's 'duration': wall time of the run from the first scheduled send to the last response"
    trace.load = load_setting(obj)
    if legacy:
        trace.output_token_source = "server usage (legacy script: retokenized text where usage is missing)"
    trace.source_reported = reported
    trace.source_percentiles = percentiles
    trace.warnings.extend(notes)
    return trace
