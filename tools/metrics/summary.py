"""What are the TTFT, TPOT, ITL and E2E latency distributions, throughput and goodput of this benchmark?

``compute_metrics(MetricsRequest) -> MetricsReport`` reads per-request records (a file, inline
text, or inline records), any supported tool's result file, and computes every figure with
``vllm bench serve``'s definitions (vllm/benchmarks/serve.py ``calculate_metrics``):

- TTFT = first token chunk - send; E2EL = last token chunk - send (client side);
- TPOT = (E2EL - TTFT) / (output tokens - 1) per request with > 1 output token, request-weighted;
- ITL = the gaps between streamed chunks, flattened over requests (chunk-weighted);
- throughput = totals over successful requests / the run's duration;
- goodput = successful requests meeting every SLO (value <= SLO) / duration; 1-token requests
  count as TPOT 0; SLO attainment = those requests / all requests (failures count as misses);
- numpy linear percentiles, population std; failed requests excluded from statistics, counted.

Each figure's formula, observation point and denominator are in ``MetricsReport.definitions``;
where the file's own tool defines a figure differently, ``source_reported`` says how.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .formats import FORMATS, InputFormat, load_trace
from .formats.generic import read_records
from .goodput import good_mask
from .latency import Distribution, distribution, percentile_key, tpot_s
from .records import RequestRecord, SourceReported, Trace
from ..errors import argument
from .crosscheck import compare_with_source
from .definitions import DEFINITIONS, MetricDefinition, definitions_for
from .source import open_input
from .workload import Workload, describe_workload

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "DEFINITIONS",
    "MetricDefinition",
    "MetricsReport",
    "MetricsRequest",
    "SLOs",
    "SessionThroughput",
    "compute_metrics",
    "load_request_trace",
]

SHORT_OUTPUT_TOKENS = 32
"""Below this many output tokens a request's TPOT mostly reflects start-up, not steady decode."""

SloMs = Annotated[float, Field(ge=0, le=1e9)]


class MetricsRequest(BaseModel):
    """Benchmark input (exactly one of path, text, records) and what to compute from it."""

    model_config = ConfigDict(extra="forbid")

    path: str | None = Field(
        default=None,
        max_length=4096,
        description="Path of a result file (JSON, JSONL or CSV) on the machine running the tool; a regular file under max_file_mb.",
    )
    text: str | None = Field(
        default=None,
        max_length=64 * 2**20,
        description="The file's content inline (JSON, JSONL or CSV text) instead of a path.",
    )
    records: list[RequestRecord] | None = Field(
        default=None,
        max_length=1_000_000,
        description="Per-request records inline (generic schema: ttft_ms, itl_ms, e2el_ms, output_tokens, ... or timestamps).",
    )
    format: InputFormat = Field(
        default="auto",
        description="Input format; 'auto' detects it. " + "; ".join(f"{k}: {v}" for k, v in FORMATS.items()),
    )
    run_index: int | None = Field(
        default=None,
        ge=0,
        le=1_000_000,
        description="Which run of a multi-run file (appended JSONL runs, guidellm benchmarks, genai-perf experiments); default the first.",
    )
    slo_ttft_ms: SloMs | None = Field(default=None, description="TTFT SLO for goodput (ms, met when TTFT <= SLO).")
    slo_tpot_ms: SloMs | None = Field(
        default=None, description="TPOT SLO for goodput (ms, met when TPOT <= SLO; 1-token requests count as TPOT 0)."
    )
    slo_e2el_ms: SloMs | None = Field(default=None, description="E2E latency SLO for goodput (ms, met when E2EL <= SLO).")
    percentiles: list[Annotated[float, Field(ge=0, le=100)]] = Field(
        default_factory=list,
        max_length=20,
        description="Extra percentiles to report besides p90, p95, p99 (e.g. [50, 99.9]).",
    )
    duration_s: float | None = Field(
        default=None,
        gt=0,
        le=1e9,
        description="Run duration for throughput (s); default the file's own duration, else first send to last token.",
    )
    max_file_mb: int = Field(default=256, ge=1, le=4096, description="Refuse files (or inline text) larger than this (MiB).")

    @model_validator(mode="after")
    def _one_input(self) -> MetricsRequest:
        given = [name for name in ("path", "text", "records") if getattr(self, name) is not None]
        if len(given) != 1:
            raise ValueError(f"give exactly one of path, text or records (got {', '.join(given) or 'none'})")
        if self.records is not None and self.format not in ("auto", "records"):
            raise ValueError("format must be 'auto' or 'records' with inline records")
        return self

    def slos(self) -> dict[str, float]:
        pairs = {"ttft": self.slo_ttft_ms, "tpot": self.slo_tpot_ms, "e2el": self.slo_e2el_ms}
        return {k: v for k, v in pairs.items() if v is not None}


class SLOs(BaseModel):
    """The service-level objectives goodput was computed against (ms)."""

    model_config = ConfigDict(extra="forbid")

    ttft_ms: float | None = Field(default=None, description="TTFT SLO (ms); met when TTFT <= it.")
    tpot_ms: float | None = Field(default=None, description="TPOT SLO (ms); met when TPOT <= it; 1-token requests count as TPOT 0.")
    e2el_ms: float | None = Field(default=None, description="E2E latency SLO (ms); met when E2E <= it.")


class SessionThroughput(BaseModel):
    """Throughput one session (one request stream, what a single user sees) gets, per request.

    Each value is a per-request ratio over that request's own E2E latency (send -> last token
    chunk, TTFT included); the distribution is over successful requests. Aggregate figures
    (``MetricsReport.request_throughput`` ...) divide run totals by the run's duration instead.
    """

    model_config = ConfigDict(extra="forbid")

    request_throughput: Distribution | None = Field(description="1 / e2el per request (requests/s a session sustains back to back).")
    input_throughput: Distribution | None = Field(description="prompt_tokens / e2el per request (tokens/s).")
    output_throughput: Distribution | None = Field(description="output_tokens / e2el per request (tokens/s; = output_speed_tps).")
    total_token_throughput: Distribution | None = Field(description="(prompt + output tokens) / e2el per request (tokens/s).")


class MetricsReport(BaseModel):
    """Latency distributions, throughput and goodput of one benchmark run, with their definitions."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(description="The file path, 'text' or 'records'.")
    source_format: str = Field(description="The format read (detected or given).")
    observation_point: str = Field(description="Where the times were taken: client, which events start and end them.")
    definitions: dict[str, MetricDefinition] = Field(description="Formula, denominator and unit of every figure.")
    completed: int = Field(description="Successful requests (after warm-up records were dropped).")
    failed: int = Field(description="Failed requests: excluded from latency statistics, counted here.")
    warmup_dropped: int = Field(description="Warm-up records found and dropped.")
    duration_s: float | None = Field(description="The run's duration used for rates (s).")
    duration_basis: str = Field(description="Where duration_s comes from.")
    total_input_tokens: int | None = Field(description="Prompt tokens of successful requests (definitions.total_input_tokens).")
    total_output_tokens: int | None = Field(description="Output tokens of successful requests (definitions.total_output_tokens).")
    ttft_ms: Distribution | None = Field(description="Time to first token per successful request (ms); None when not recorded.")
    tpot_ms: Distribution | None = Field(description="Time per output token after the first, per request with > 1 token (ms).")
    itl_ms: Distribution | None = Field(description="Gaps between streamed chunks, flattened over requests (ms).")
    e2el_ms: Distribution | None = Field(description="End-to-end latency per successful request, send to last chunk (ms).")
    e2el_incl_queue_ms: Distribution | None = Field(description="E2E latency plus the client's queue time before the send (ms).")
    output_speed_tps: Distribution | None = Field(description="Output tokens / E2E latency per request (tokens/s, TTFT included).")
    decode_speed_tps: Distribution | None = Field(description="1 / TPOT per request (tokens/s after the first token).")
    effective_prefill_tps: Distribution | None = Field(description="Prompt tokens / TTFT per request (tokens/s; an end-to-end ratio).")
    request_throughput: float | None = Field(description="Successful requests / duration_s (requests/s).")
    input_throughput: float | None = Field(description="Prompt tokens of successful requests / duration_s (tokens/s).")
    output_throughput: float | None = Field(description="Output tokens of successful requests / duration_s (tokens/s).")
    total_token_throughput: float | None = Field(description="Prompt + output tokens of successful requests / duration_s (tokens/s).")
    per_session: SessionThroughput = Field(description="Per-session (per-request) throughput distributions, next to the aggregate rates above.")
    slos: SLOs | None = Field(description="The SLOs given for goodput, if any.")
    good_requests: int | None = Field(description="Successful requests meeting every SLO; None without SLOs or per-request data.")
    request_goodput: float | None = Field(description="good_requests / duration_s (requests/s).")
    slo_attainment: float | None = Field(description="good_requests / (completed + failed): failures count as misses (0-1).")
    workload: Workload | None = Field(
        default=None, description="The work the run served and its load: token lengths, token counting, cache reuse, concurrency."
    )
    source_reported: SourceReported | None = Field(description="The file's own summary figures and definition differences.")
    warnings: list[str] = Field(description="What to know before trusting a figure, each quoting the observed values.")

    def to_text(self) -> str:
        """A compact table: counts, distributions, rates, goodput, the file's own figures, warnings."""
        lines = [f"metrics: {self.source} ({self.source_format})", f"observed at: {self.observation_point}"]
        dur = f"{self.duration_s:.3f} s" if self.duration_s is not None else "unknown"
        lines.append(f"completed {self.completed}, failed {self.failed}, duration {dur} ({self.duration_basis or 'n/a'})")
        if self.warmup_dropped:
            lines.append(f"warm-up records dropped: {self.warmup_dropped}")
        dists = [
            ("ttft_ms", self.ttft_ms),
            ("tpot_ms", self.tpot_ms),
            ("itl_ms", self.itl_ms),
            ("e2el_ms", self.e2el_ms),
            ("e2el_incl_queue_ms", self.e2el_incl_queue_ms),
            ("output_speed_tps", self.output_speed_tps),
            ("decode_speed_tps", self.decode_speed_tps),
            ("effective_prefill_tps", self.effective_prefill_tps),
            ("session req/s", self.per_session.request_throughput),
            ("session input tok/s", self.per_session.input_throughput),
            ("session output tok/s", self.per_session.output_throughput),
            ("session total tok/s", self.per_session.total_token_throughput),
        ]
        extras = sorted({k for _, d in dists if d for k in d.percentiles}, key=lambda k: float(k[1:]))
        cols = ["count", "mean", "median", "std", "p90", "p95", "p99", *extras]
        lines.append("")
        lines.append(f"{'metric':<22}" + "".join(f"{c:>11}" for c in cols))
        for name, d in dists:
            if d is None:
                lines.append(f"{name:<22}{'-':>11}")
                continue
            values = [d.count, d.mean, d.median, d.std, d.p90, d.p95, d.p99, *(d.percentiles.get(k) for k in extras)]
            cells = "".join(f"{v:>11d}" if isinstance(v, int) else f"{_fmt(v):>11}" for v in values)
            lines.append(f"{name:<22}{cells}")
        lines.append("")
        rates = [
            ("request_throughput", self.request_throughput, "req/s"),
            ("input_throughput", self.input_throughput, "tok/s"),
            ("output_throughput", self.output_throughput, "tok/s"),
            ("total_token_throughput", self.total_token_throughput, "tok/s"),
        ]
        lines.append(f"aggregate rates over duration_s ({self.duration_basis or 'unknown'}):")
        for name, value, unit in rates:
            lines.append(f"{name:<24}{_fmt(value):>12} {unit}")
        if self.slos is not None:
            given = ", ".join(f"{k} <= {v:g}" for k, v in self.slos.model_dump().items() if v is not None)
            good = "not computable" if self.good_requests is None else f"{self.good_requests} good"
            lines.append(f"{'request_goodput':<24}{_fmt(self.request_goodput):>12} req/s   ({good}; SLO {given})")
            lines.append(f"{'slo_attainment':<24}{_fmt(self.slo_attainment):>12}")
        if self.source_reported is not None and self.source_reported.figures:
            shown = _headline_figures(self.source_reported.figures)
            lines.append("")
            lines.append(f"reported by {self.source_reported.tool} (its own definitions):")
            for key, value in shown:
                lines.append(f"  {key:<40}{_fmt(value):>14}")
            if len(self.source_reported.figures) > len(shown):
                lines.append(f"  ... {len(self.source_reported.figures) - len(shown)} more with --json")
        if self.source_reported is not None:
            for diff in self.source_reported.definition_differences:
                lines.append(f"  * {diff}")
            if self.source_reported.comparisons:
                lines.append("its figures beside this report's:")
                lines.extend(f"  = {line}" for line in self.source_reported.comparisons)
        if self.warnings:
            lines.append("")
            lines.append("warnings:")
            lines.extend(f"  - {w}" for w in self.warnings)
        return "\n".join(lines)


_SHOWN_FIGURES = 24
_HEADLINE_METRIC = re.compile(
    r"ttft|time_to_first_token|tpot|time_per_output_token|itl|inter_token_latency|inter_chunk_latency|e2el|"
    r"request_latency|throughput|goodput|tokens_per_second|requests_per_second|duration|completed|failed")
_MINOR_STATS = {"std", "std_dev", "stddev", "min", "max", "count", "sum", "p1", "p5", "p10", "p25", "p75"}


def _headline_figures(figures: dict[str, float]) -> list[tuple[str, float]]:
    """At most ``_SHOWN_FIGURES`` of a tool's own figures for the text view: all of them when few, else the
    latency / throughput headlines (mean, median, high percentiles) first, so TTFT and ITL are never cut off
    behind the spread statistics of one metric."""
    items = list(figures.items())
    if len(items) <= _SHOWN_FIGURES:
        return items

    def stat(key: str) -> str | None:
        lead = re.match(r"(mean|median|std|p\d+(?:\.\d+)?)_", key)  # vLLM: p99_ttft_ms
        if lead:
            return lead.group(1)
        return key.rsplit(".", 1)[1].lower() if "." in key else None  # guidellm / aiperf: ttft.p99

    def headline(key: str) -> bool:
        low = key.lower()
        return (not low.startswith(("adj_", "active_", "effective_")) and "per_user" not in low
                and bool(_HEADLINE_METRIC.search(low)) and stat(key) not in _MINOR_STATS)

    first = [kv for kv in items if headline(kv[0])]
    rest = [kv for kv in items if not headline(kv[0])]
    return (first + rest)[:_SHOWN_FIGURES]


def _fmt(value: float | None) -> str:
    if value is None:
        return "-"
    if abs(value) >= 1e5:
        return f"{value:.4g}"
    return f"{value:.3f}" if abs(value) < 1000 else f"{value:.1f}"


def load_request_trace(request: MetricsRequest) -> Trace:
    """Read the request's input into a trace (the step ``compute_metrics`` and plotting share)."""
    if request.records is not None:
        return read_records(request.records, label="records")
    with open_input(path=request.path, text=request.text, max_bytes=request.max_file_mb * 2**20) as source:
        return load_trace(source, request.format, run_index=request.run_index)


def compute_metrics(request: MetricsRequest, *, plot_path: str | Path | None = None) -> MetricsReport:
    """Compute the report for ``request``; with ``plot_path``, also draw TTFT/ITL histograms and output tokens/s over time.

    >>> from llm_inference_fundamentals.tools.metrics import MetricsRequest, RequestRecord, compute_metrics
    >>> r = compute_metrics(MetricsRequest(records=[RequestRecord(ttft_ms=100, itl_ms=[10, 10], output_tokens=3)]))
    >>> r.tpot_ms.mean
    10.0
    """
    trace = load_request_trace(request)
    report = _report(trace, request)
    if plot_path is not None:
        from .plot import plot_trace

        plot_trace(trace, Path(plot_path))
    return report


def _report(trace: Trace, request: MetricsRequest) -> MetricsReport:
    import numpy as np

    warnings = list(trace.warnings)
    extra = tuple(dict.fromkeys([*request.percentiles, *trace.source_percentiles]))
    ok = trace.ok
    completed = int(ok.sum())
    failed = int((~ok).sum()) + trace.failed_without_record
    summary = trace.summary_only or {}
    if "completed" in summary and trace.n_requests == 0:
        completed = int(summary["completed"])
    if "failed" in summary:
        failed = int(summary["failed"])

    ttft = trace.ttft_s[ok]
    e2el = trace.e2el_s[ok]
    n_out = trace.output_tokens[ok]
    n_in = trace.prompt_tokens[ok]
    n_itl = trace.n_itl[ok]
    tpot = tpot_s(e2el, ttft, n_out)

    def known(x: np.ndarray) -> np.ndarray:
        return x[np.isfinite(x)]

    ttft_k, e2el_k, tpot_k = known(ttft), known(e2el), known(tpot)
    if trace.n_requests and completed and ttft_k.size < completed and ttft_k.size:
        warnings.append(f"{completed - ttft_k.size} successful requests have no TTFT: left out of TTFT statistics")
    itl = trace.itl_s if (n_itl >= 0).any() else np.zeros(0)

    # Token counts and the warnings they call for.
    if trace.output_tokens_counted_from_chunks:
        warnings.append(
            f"missing usage counts: {trace.output_tokens_counted_from_chunks} requests carry no output token count; "
            "counted one token per chunk (undercounts when chunks carry several tokens)"
        )
    unknown_out = int(np.isnan(n_out).sum())
    if unknown_out and "total_output_tokens" not in summary:
        warnings.append(f"{unknown_out} successful requests have no output token count: left out of TPOT and output throughput")
    one_token = int((n_out == 1).sum())
    if one_token:
        warnings.append(
            f"{one_token} requests produced 1 output token: no TPOT (left out of its statistics), counted as TPOT 0 for goodput (vLLM)"
        )
    short_mask = (n_out > 1) & (n_out < SHORT_OUTPUT_TOKENS)
    if short_mask.any():
        lo, hi = int(n_out[short_mask].min()), int(n_out[short_mask].max())
        observed = f"{lo}" if lo == hi else f"{lo}-{hi}"
        warnings.append(
            f"{int(short_mask.sum())} requests have fewer than {SHORT_OUTPUT_TOKENS} output tokens (observed {observed}): too "
            "short for steady decode; their TPOT mostly reflects start-up, not the decode rate"
        )
    has_chunks = (n_itl >= 0) & np.isfinite(n_out)
    multi = has_chunks & (n_out > n_itl + 1)
    if multi.any():
        ratio = float(n_out[multi].sum() / (n_itl[multi] + 1).sum())
        warnings.append(
            f"{int(multi.sum())} requests carry more tokens than chunks ({ratio:.2f} tokens per chunk): speculative "
            "decoding, MTP or a stream interval; ITL (per chunk) reads higher than TPOT (per token)"
        )
    if trace.warmup_dropped:
        warnings.append(f"warm-up records present: {trace.warmup_dropped} dropped before computing")

    # Duration and totals.
    duration = request.duration_s or trace.duration_s
    basis = "given (duration_s)" if request.duration_s else trace.duration_basis
    if duration is None:
        starts = trace.start_s
        ends = trace.start_s[ok] + trace.e2el_s[ok]
        if np.isfinite(starts).any() and np.isfinite(ends).any():
            span = float(np.nanmax(ends) - np.nanmin(starts))
            if span > 0:
                duration = span
                basis = "first request send to last token of the records (start_s .. start_s + e2el)"
    if duration is None:
        basis = "unknown"
        warnings.append("no duration: the input has no timestamps or duration; "
                        f"set {argument('duration_s')} to get throughput")

    if "total_output_tokens" in summary:
        total_out: float | None = summary["total_output_tokens"]
    else:
        total_out = float(np.nansum(n_out)) if completed and not np.isnan(n_out).all() else (0.0 if completed == 0 else None)
    if "total_input_tokens" in summary:
        total_in: float | None = summary["total_input_tokens"]
    elif completed and not np.isnan(n_in).all():
        total_in = float(np.nansum(n_in))
        if np.isnan(n_in).any():
            warnings.append(f"{int(np.isnan(n_in).sum())} successful requests have no prompt token count: input throughput undercounts")
    else:
        total_in = None if completed else 0.0

    def rate(x: float | None) -> float | None:
        return None if x is None or duration is None else x / duration

    # Goodput.
    slos = request.slos()
    good: int | None = None
    if slos:
        per_request = {"ttft": ttft, "e2el": e2el, "tpot": np.where(n_out <= 1, 0.0, tpot)}
        # All requests failed: nothing can be good, goodput is 0 (vLLM); no requests at all (a summary-only
        # file) or no value of an SLO's metric: not computable.
        absent = [key for key in slos if trace.n_requests == 0 or (completed and bool(np.isnan(per_request[key]).all()))]
        if absent:
            warnings.append(f"goodput not computed: the input has no per-request {', '.join(absent)}")
        else:
            mask = good_mask(ttft_s=ttft, tpot_s=tpot, e2el_s=e2el, output_tokens=n_out, slo_ms=slos)
            good = int(mask.sum())
            for key in slos:
                gaps = int(np.isnan(per_request[key]).sum())
                if gaps:
                    warnings.append(f"{gaps} successful requests lack {key}: they count as missing the {key} SLO")

    queue = trace.queue_s[ok]
    incl_queue = None
    if completed and np.isfinite(queue).any():
        both = np.isfinite(queue) & np.isfinite(e2el)
        incl_queue = distribution(e2el[both] + queue[both], extra, scale=1000)
    prefill_mask = np.isfinite(n_in) & np.isfinite(ttft) & (ttft > 0)
    e2e_ok = np.isfinite(e2el) & (e2el > 0)
    in_ok = np.isfinite(n_in)
    speed_mask = np.isfinite(n_out) & e2e_ok
    decode = tpot_k[tpot_k > 0]

    workload = describe_workload(trace, duration_s=duration, warnings=warnings)
    report = MetricsReport(
        source=trace.source,
        source_format=trace.source_format,
        observation_point=trace.observation_point,
        definitions=definitions_for(basis),
        completed=completed,
        failed=failed,
        warmup_dropped=trace.warmup_dropped,
        duration_s=duration,
        duration_basis=basis,
        total_input_tokens=None if total_in is None else int(round(total_in)),
        total_output_tokens=None if total_out is None else int(round(total_out)),
        ttft_ms=distribution(ttft_k, extra, scale=1000),
        tpot_ms=distribution(tpot_k, extra, scale=1000),
        itl_ms=distribution(itl, extra, scale=1000),
        e2el_ms=distribution(e2el_k, extra, scale=1000),
        e2el_incl_queue_ms=incl_queue,
        output_speed_tps=distribution(n_out[speed_mask] / e2el[speed_mask], extra),
        decode_speed_tps=distribution(1.0 / decode, extra),
        effective_prefill_tps=distribution(n_in[prefill_mask] / ttft[prefill_mask], extra),
        request_throughput=rate(float(completed)) if (completed or trace.n_requests or summary) else None,
        input_throughput=rate(total_in),
        output_throughput=rate(total_out),
        total_token_throughput=rate(None if total_in is None or total_out is None else total_in + total_out),
        per_session=SessionThroughput(
            request_throughput=distribution(1.0 / e2el[e2e_ok], extra),
            input_throughput=distribution(n_in[e2e_ok & in_ok] / e2el[e2e_ok & in_ok], extra),
            output_throughput=distribution(n_out[speed_mask] / e2el[speed_mask], extra),
            total_token_throughput=distribution((n_in + n_out)[speed_mask & in_ok] / e2el[speed_mask & in_ok], extra),
        ),
        slos=SLOs(ttft_ms=slos.get("ttft"), tpot_ms=slos.get("tpot"), e2el_ms=slos.get("e2el")) if slos else None,
        good_requests=good,
        request_goodput=rate(float(good)) if good is not None else None,
        slo_attainment=(good / (completed + failed)) if good is not None and (completed + failed) else None,
        workload=workload,
        source_reported=trace.source_reported.model_copy(deep=True) if trace.source_reported else None,
        warnings=warnings,
    )
    report.warnings.extend(small_sample_warnings(report, extra))
    if report.source_reported is not None:
        report.source_reported.comparisons = compare_with_source(report, workload)
    return report


def small_sample_warnings(report: MetricsReport, extra: tuple[float, ...] = ()) -> list[str]:
    """A warning naming each latency sample too small for a reported percentile p: with n < 100 / (100 - p) no value
    lies above p, so numpy's linear pXX interpolates between the largest values (p99 with n < 100)."""
    percentiles = sorted(p for p in {90.0, 95.0, 99.0, *extra} if p < 100)
    need = {p: math.ceil(100 / (100 - p) - 1e-9) for p in percentiles}
    parts = []
    for name in ("ttft_ms", "tpot_ms", "itl_ms", "e2el_ms"):
        d = getattr(report, name)
        if d is None:
            continue
        short = [percentile_key(p) for p in percentiles if d.count < need[p]]
        if short:
            parts.append(f"{name} n={d.count} ({', '.join(short)})")
    if not parts:
        return []
    needs = ", ".join(f"{percentile_key(p)} >= {need[p]}" for p in percentiles if need[p] > 1)
    return [
        f"small sample: {'; '.join(parts)}. A percentile needs enough values to have one above it ({needs}); below "
        "that it is interpolated between the largest values, close to the maximum, not a tail estimate"
    ]
