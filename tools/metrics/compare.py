"""Are these runs different? Two or more result files, of any supported tools, recomputed under one definition.

``compare_runs(CompareRequest) -> CompareReport``: each run is read by the ``compute_metrics``
readers and arithmetic (vllm bench serve's definitions). Confounders come first: what else
differs between the runs (workload, token counting, load, cache, failures, warm-up). Then,
per metric and statistic, each run against the first (the baseline): the relative difference
and a bootstrap percentile interval (requests resampled with replacement, seeded), and a
verdict sentence. With ``repeats``, the runs are taken as repeats of one configuration:
across-run mean, spread and interval, and a warning when they disagree beyond their noise.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from .bootstrap import STATISTICS, RunSample, relative_interval, replicates
from .confounders import Confounder, find_confounders
from .cost import CostEstimate, cost_estimate
from .latency import tpot_s
from .repeats import RepeatsSummary, summarise_repeats
from .runs import Measured, RunInput, measure_runs

__all__ = ["CompareReport", "CompareRequest", "MetricComparison", "RunSummary", "compare_runs", "compare_measured"]

SloMs = Annotated[float, Field(ge=0, le=1e9)]
LATENCIES = ("ttft_ms", "tpot_ms", "itl_ms", "e2el_ms")
RATES = ("request_throughput", "output_throughput", "total_token_throughput")
NAMES = {"ttft_ms": "TTFT", "tpot_ms": "TPOT", "itl_ms": "ITL", "e2el_ms": "E2E latency",
         "request_throughput": "request throughput", "output_throughput": "output throughput",
         "total_token_throughput": "total token throughput", "request_goodput": "goodput", "slo_attainment": "SLO attainment"}
UNITS = {"request_throughput": "requests/s", "output_throughput": "tokens/s", "total_token_throughput": "tokens/s",
         "request_goodput": "requests/s", "slo_attainment": "fraction"}
_SAMPLE_KEY = {"ttft_ms": "ttft", "tpot_ms": "tpot", "e2el_ms": "e2el", "itl_ms": "itl"}


class CompareRequest(BaseModel):
    """Runs to compare (the first is the baseline), SLOs, and how to estimate the intervals."""

    model_config = ConfigDict(extra="forbid")

    runs: list[RunInput] = Field(min_length=2, max_length=20, description="Two or more runs; the first is the baseline.")
    slo_ttft_ms: SloMs | None = Field(default=None, description="TTFT SLO for goodput and attainment (ms, met when TTFT <= SLO).")
    slo_tpot_ms: SloMs | None = Field(default=None, description="TPOT SLO (ms; 1-token requests count as TPOT 0, as vLLM).")
    slo_e2el_ms: SloMs | None = Field(default=None, description="E2E latency SLO (ms).")
    confidence: float = Field(default=0.95, ge=0.5, le=0.999, description="Confidence level of the intervals (e.g. 0.95).")
    resamples: int = Field(default=1000, ge=200, le=20000, description="Bootstrap resamples per run.")
    seed: int = Field(default=0, ge=0, le=2**32 - 1, description="Random seed of the bootstrap (run k uses seed + k).")
    repeats: bool = Field(
        default=False, description="Treat the runs as repeats of one configuration: across-run mean, spread and interval."
    )
    gpu_hour_usd: float | None = Field(default=None, gt=0, le=10_000, description="Price of one GPU-hour (USD) for cost per token.")
    gpus: int | None = Field(default=None, ge=1, le=100_000, description="GPUs that served each run, for cost per token.")
    max_file_mb: int = Field(default=256, ge=1, le=4096, description="Refuse files (or inline text) larger than this (MiB).")

    def slos(self) -> dict[str, float]:
        pairs = {"ttft": self.slo_ttft_ms, "tpot": self.slo_tpot_ms, "e2el": self.slo_e2el_ms}
        return {k: v for k, v in pairs.items() if v is not None}


class RunSummary(BaseModel):
    """One compared run: where it came from and its counts."""

    model_config = ConfigDict(extra="forbid")

    label: str = Field(description="Short name used in the verdicts.")
    source: str = Field(description="The file path, 'text' or 'records'.")
    format: str = Field(description="The format read (detected or given).")
    run_index: int | None = Field(description="Which run of a multi-run file; None for a single-run file.")
    completed: int = Field(description="Successful requests.")
    failed: int = Field(description="Failed requests.")
    duration_s: float | None = Field(description="Duration used for its rates (s).")
    warnings: list[str] = Field(description="compute_metrics' warnings for this run, quoting observed values.")


class MetricComparison(BaseModel):
    """One statistic of one metric across the runs, each against the first."""

    model_config = ConfigDict(extra="forbid")

    metric: str = Field(description="ttft_ms, tpot_ms, itl_ms, e2el_ms (latency) or a rate such as output_throughput.")
    statistic: Literal["mean", "median", "p90", "p99", "value"] = Field(description="The statistic; 'value' for a run-level rate.")
    unit: str = Field(description="Unit of values.")
    values: list[float | None] = Field(description="The statistic per run (None where the run does not record it).")
    n: list[int | None] = Field(description="Sample size behind each value (requests, or chunk gaps for ITL).")
    relative_difference: list[float | None] = Field(description="values[k] / values[0] - 1 per run; 0 for the first.")
    ci: list[tuple[float, float] | None] = Field(
        description="Bootstrap percentile interval [low, high] of the relative difference per run; None for the first, and for "
        "rates (one run gives one rate: use repeats)."
    )


class CompareReport(BaseModel):
    """Confounders first, then each metric side by side with intervals, then the verdicts."""

    model_config = ConfigDict(extra="forbid")

    headline: str = Field(description="One line: how many runs, whether confounders were found, how many figures differ.")
    runs: list[RunSummary] = Field(description="The runs, the first being the baseline.")
    confounders: list[Confounder] = Field(description="What else differs between the runs; read these before the verdicts.")
    metrics: list[MetricComparison] = Field(description="Each metric and statistic across the runs.")
    verdicts: list[str] = Field(description="One sentence per latency statistic and run against the baseline.")
    method: str = Field(description="How the intervals were computed (resampling unit, resamples, seed, interval type).")
    definitions: str = Field(description="The definitions every run was recomputed under, and where they are explained.")
    repeats: RepeatsSummary | None = Field(description="Across-run spread when the runs are repeats (repeats=true).")
    cost: list[CostEstimate | None] | None = Field(description="Cost per million tokens per run, when gpu_hour_usd and gpus are given.")

    def to_text(self) -> str:
        """Headline, confounders, a table of the metrics with intervals, verdicts."""
        labels = [r.label for r in self.runs]
        lines = [self.headline, ""]
        for i, r in enumerate(self.runs):
            lines.append(f"[{i}] {r.label}: {r.source} ({r.format}), completed {r.completed}, failed {r.failed}")
        lines.append("")
        lines.append("confounders (read before the verdicts):" if self.confounders else "confounders: none found")
        lines.extend(f"  - {c.kind}: {c.detail}" for c in self.confounders)
        lines.append("")
        head = f"{'metric':<24}{'stat':<7}" + "".join(f"{label[:22]:>24}" for label in labels)
        lines.append(head)
        for m in self.metrics:
            cells = []
            for k, value in enumerate(m.values):
                cell = "-" if value is None else f"{value:.4g}"
                if k and m.relative_difference[k] is not None:
                    cell += f" ({m.relative_difference[k]:+.0%})"
                cells.append(f"{cell:>24}")
            lines.append(f"{m.metric:<24}{m.statistic:<7}" + "".join(cells))
        lines.append("")
        lines.append("verdicts:")
        lines.extend(f"  - {v}" for v in self.verdicts)
        if self.repeats is not None:
            lines.append("")
            lines.append(self.repeats.to_text())
        if self.cost:
            lines.append("")
            lines.append("cost (Estimate):")
            for label, c in zip(labels, self.cost):
                if c is not None:
                    lines.append(f"  {label}: ${_money(c.usd_per_million_output)} per 1M output tokens, "
                                 f"${_money(c.usd_per_million_total)} per 1M tokens ({c.gpus} GPU x ${c.gpu_hour_usd:g}/h)")
        lines.append("")
        lines.append(f"method: {self.method}")
        return "\n".join(lines)


def _money(value: float | None) -> str:
    return "-" if value is None else f"{value:.4g}"


def _sample(m: Measured) -> RunSample:
    trace = m.trace
    ok = trace.ok
    return RunSample(
        per_request={
            "ttft": trace.ttft_s[ok],
            "tpot": tpot_s(trace.e2el_s[ok], trace.ttft_s[ok], trace.output_tokens[ok]),
            "e2el": trace.e2el_s[ok],
        },
        itl_s=trace.itl_s,
        n_itl=trace.n_itl[ok],
    )


def compare_runs(request: CompareRequest, *, plot_path: str | Path | None = None) -> CompareReport:
    """Compare the runs of ``request`` (see the module docstring); with ``plot_path``, also draw their latency CDFs.

    >>> from llm_inference_fundamentals.tools.metrics import CompareRequest, RunInput, RequestRecord, compare_runs
    >>> fast = [RequestRecord(ttft_ms=100 + i % 7, e2el_ms=300, output_tokens=11) for i in range(50)]
    >>> slow = [RequestRecord(ttft_ms=150 + i % 7, e2el_ms=300, output_tokens=11) for i in range(50)]
    >>> r = compare_runs(CompareRequest(runs=[RunInput(records=fast), RunInput(records=slow)]))
    >>> r.metrics[0].metric, r.metrics[0].statistic, round(r.metrics[0].relative_difference[1], 3)
    ('ttft_ms', 'mean', 0.486)
    """
    measured = measure_runs(request.runs, slos=request.slos(), max_file_mb=request.max_file_mb, every_run=False)
    report = compare_measured(measured, request)
    if plot_path is not None:
        from .plot import plot_comparison

        plot_comparison([m.trace for m in measured], [m.label for m in measured], Path(plot_path))
    return report


def compare_measured(measured: list[Measured], request: CompareRequest) -> CompareReport:
    """The comparison of already-measured runs (shared with sweeps and the benchmarks)."""
    reports = [m.report for m in measured]
    labels = [m.label for m in measured]
    confounders = find_confounders(reports, labels)
    reps = [replicates(_sample(m), resamples=request.resamples, seed=request.seed + k) for k, m in enumerate(measured)]

    metrics: list[MetricComparison] = []
    verdicts: list[str] = []
    detectable = total = 0
    for metric in LATENCIES:
        for stat in STATISTICS:
            values, ns = [], []
            for r in reports:
                d = getattr(r, metric)
                values.append(None if d is None else getattr(d, stat))
                ns.append(None if d is None else d.count)
            rel = _relative(values)
            cis: list[tuple[float, float] | None] = [None]
            key = _SAMPLE_KEY[metric]
            for k in range(1, len(reports)):
                base, other = reps[0].get(key, {}).get(stat), reps[k].get(key, {}).get(stat)
                ci = None if base is None or other is None or values[0] is None or values[k] is None else relative_interval(
                    base, other, request.confidence)
                cis.append(ci)
                if rel[k] is None:
                    continue
                total += 1
                sentence, found = _verdict(metric, stat, labels[0], labels[k], rel[k], ci, request.confidence, ns[0], ns[k])
                detectable += found
                verdicts.append(sentence)
            metrics.append(MetricComparison(metric=metric, statistic=stat, unit="ms", values=values, n=ns,
                                            relative_difference=rel, ci=cis))
    for k, r in enumerate(reports):
        if all(getattr(r, metric) is None for metric in LATENCIES):
            own = f"; its tool's own figures are in the compute_metrics source_reported of {labels[k]}" if r.source_reported else ""
            verdicts.append(f"{labels[k]} has no per-request latencies (a summary-only file): its latency figures cannot be "
                            f"recomputed or compared here{own}")
    rate_names = list(RATES) + (["request_goodput", "slo_attainment"] if request.slos() else [])
    for name in rate_names:
        values = [getattr(r, name) for r in reports]
        metrics.append(MetricComparison(metric=name, statistic="value", unit=UNITS[name], values=values,
                                        n=[r.completed + (r.failed if name == "slo_attainment" else 0) for r in reports],
                                        relative_difference=_relative(values), ci=[None] * len(reports)))

    cost = None
    if request.gpu_hour_usd is not None and request.gpus is not None:
        cost = [cost_estimate(input_tps=r.input_throughput, output_tps=r.output_throughput, gpu_hour_usd=request.gpu_hour_usd,
                              gpus=request.gpus, where=f"the throughput measured in {label}") for r, label in zip(reports, labels)]
    repeats = summarise_repeats(metrics, reps, labels, request.confidence) if request.repeats else None

    kinds = sorted({c.kind for c in confounders}, key=[c.kind for c in confounders].index)
    head = f"{len(measured)} runs compared against {labels[0]}"
    if confounders:
        head += f"; confounders found ({', '.join(kinds)}): read them before the verdicts"
    else:
        head += "; no confounders found"
    head += f"; {detectable} of {total} latency figures differ beyond the {request.confidence:.0%} interval"
    return CompareReport(
        headline=head,
        runs=[RunSummary(label=m.label, source=m.source, format=m.report.source_format, run_index=m.run_index,
                         completed=m.report.completed, failed=m.report.failed, duration_s=m.report.duration_s,
                         warnings=m.report.warnings) for m in measured],
        confounders=confounders,
        metrics=metrics,
        verdicts=verdicts,
        method=(
            f"bootstrap: each run's successful requests resampled with replacement ({request.resamples} resamples, seed "
            f"{request.seed} + run index), a request's TTFT, TPOT, E2E and chunk gaps kept together; interval = "
            f"{request.confidence:.0%} percentile interval of stat(run*) / stat(baseline*) - 1 over independent resamples of "
            "the two runs; each replicate is exact: numpy linear percentiles of the resample (ITL over its requests' chunk "
            "gaps), computed from the draw counts without building the resample; "
            "values themselves are the exact statistics (numpy linear percentiles)"
        ),
        definitions="every run recomputed with vllm bench serve's definitions (compute_metrics; references/metrics.md#tpot, "
        "#itl, #percentiles-and-distributions); intervals and verdicts: references/benchmarking.md#comparing-runs",
        repeats=repeats,
        cost=cost,
    )


def _relative(values: list[float | None]) -> list[float | None]:
    base = values[0]
    out: list[float | None] = [0.0 if base is not None else None]
    for v in values[1:]:
        out.append(None if v is None or base is None or base == 0 else v / base - 1)
    return out


def _verdict(metric: str, stat: str, la: str, lb: str, rel: float, ci: tuple[float, float] | None, confidence: float,
             na: int | None, nb: int | None) -> tuple[str, bool]:
    what = f"{'mean' if stat == 'mean' else stat} {NAMES[metric]}"
    conf = f"{confidence:.0%}"
    note = ""
    if stat == "p99" and min(na or 0, nb or 0) < 100:
        note = f" (p99 over n = {na} and {nb}: below 100 values it is near the maximum; treat as indicative)"
    if ci is None:
        return f"{lb}'s {what} is {abs(rel):.0%} {'higher' if rel > 0 else 'lower'} than {la}'s; no interval (no per-request data){note}", False
    lo, hi = ci
    if lo > 0 or hi < 0:
        word = "higher" if rel > 0 else "lower"
        a, b = sorted((abs(lo), abs(hi)))
        return f"{lb}'s {what} is {abs(rel):.0%} {word} than {la}'s, {conf} CI {a:.0%}-{b:.0%} {word}{note}", True
    return f"{what}: no difference this sample can detect ({lb} vs {la}: {rel:+.0%}, {conf} CI {lo:+.0%} to {hi:+.0%}){note}", False
