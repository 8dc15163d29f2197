"""How does a deployment behave as load rises? Runs at several rates or concurrencies, as one curve.

``analyze_sweep(SweepRequest) -> SweepReport``: every run (several files, or one file holding
many: vLLM ``--append-result`` lines, a GuideLLM sweep, an AIPerf artifact folder) is
recomputed under one definition and becomes a point, ordered by offered load. From the
points: the Pareto frontier of per-user output speed against total throughput (per GPU when
the GPU count is given), the knee of the throughput-latency curve, and capacity goodput in
DistServe's sense: the highest request rate whose SLO attainment meets a target share,
interpolated between the two points that bracket the target and labelled so.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field

from .confounders import Confounder, find_confounders
from .cost import CostEstimate, cost_estimate
from .runs import Measured, RunInput, measure_runs

__all__ = ["CapacityGoodput", "LatencySummary", "SweepPoint", "SweepReport", "SweepRequest", "analyze_sweep"]

SloMs = Annotated[float, Field(ge=0, le=1e9)]


class SweepRequest(BaseModel):
    """The runs of a sweep, the SLOs and attainment target for capacity goodput, and GPU count and price."""

    model_config = ConfigDict(extra="forbid")

    runs: list[RunInput] = Field(
        min_length=1, max_length=100,
        description="Files (or AIPerf folders) holding the sweep's runs; a multi-run file gives every run unless run_index is set.",
    )
    slo_ttft_ms: SloMs | None = Field(default=None, description="TTFT SLO (ms, met when TTFT <= SLO).")
    slo_tpot_ms: SloMs | None = Field(default=None, description="TPOT SLO (ms; 1-token requests count as TPOT 0, as vLLM).")
    slo_e2el_ms: SloMs | None = Field(default=None, description="E2E latency SLO (ms).")
    attainment: float = Field(
        default=0.9, gt=0, le=1, description="Target share of requests meeting every SLO for capacity goodput (DistServe: 0.9)."
    )
    gpus: int | None = Field(default=None, ge=1, le=100_000, description="GPUs serving each point: per-GPU throughput and goodput.")
    gpu_hour_usd: float | None = Field(default=None, gt=0, le=10_000, description="Price of one GPU-hour (USD), with gpus, for cost.")
    max_file_mb: int = Field(default=256, ge=1, le=4096, description="Refuse files (or inline text) larger than this (MiB).")

    def slos(self) -> dict[str, float]:
        pairs = {"ttft": self.slo_ttft_ms, "tpot": self.slo_tpot_ms, "e2el": self.slo_e2el_ms}
        return {k: v for k, v in pairs.items() if v is not None}


class LatencySummary(BaseModel):
    """Median and tail of one latency at one point (ms)."""

    model_config = ConfigDict(extra="forbid")

    median: float = Field(description="Median (ms).")
    p90: float = Field(description="90th percentile, numpy linear (ms).")
    p99: float = Field(description="99th percentile, numpy linear (ms).")
    n: int = Field(description="Sample size.")


class SweepPoint(BaseModel):
    """One run of the sweep."""

    model_config = ConfigDict(extra="forbid")

    label: str = Field(description="Run name (file, #run index within a multi-run file).")
    source: str = Field(description="The file it came from.")
    format: str = Field(description="The format read.")
    request_rate: float | None = Field(description="Requested arrival rate (requests/s) as the file states it; None if unlimited or unstated.")
    concurrency: int | None = Field(description="Requested concurrency cap as the file states it; None if none or unstated.")
    offered_load: float = Field(description="The value points are ordered by (see offered_load_basis).")
    offered_load_basis: str = Field(description="requested rate, requested concurrency, achieved arrival rate or request throughput.")
    arrival_rate: float | None = Field(description="Achieved send rate from the timestamps (requests/s).")
    mean_concurrency: float | None = Field(description="Time-averaged requests in flight (sum of E2E / duration).")
    completed: int = Field(description="Successful requests.")
    failed: int = Field(description="Failed requests.")
    request_throughput: float | None = Field(description="Successful requests / duration (requests/s).")
    output_throughput: float | None = Field(description="Output tokens / duration (tokens/s).")
    total_token_throughput: float | None = Field(description="Input + output tokens / duration (tokens/s).")
    output_throughput_per_gpu: float | None = Field(description="output_throughput / gpus (tokens/s per GPU), when gpus is given.")
    total_token_throughput_per_gpu: float | None = Field(description="total_token_throughput / gpus, when gpus is given.")
    output_tps_per_user: float | None = Field(description="1000 / median TPOT (ms): decode tokens/s one user sees.")
    ttft_ms: LatencySummary | None = Field(description="TTFT median and tail (ms).")
    tpot_ms: LatencySummary | None = Field(description="TPOT median and tail (ms).")
    itl_ms: LatencySummary | None = Field(description="ITL (chunk gaps) median and tail (ms).")
    e2el_ms: LatencySummary | None = Field(description="E2E latency median and tail (ms).")
    slo_attainment: float | None = Field(description="Share of requests meeting every SLO; failures count as misses (0-1).")
    request_goodput: float | None = Field(description="Requests meeting every SLO / duration (requests/s): vLLM's per-run goodput.")
    cost: CostEstimate | None = Field(description="Cost per million tokens at this point, when gpus and gpu_hour_usd are given.")


class CapacityGoodput(BaseModel):
    """DistServe's goodput: the highest request rate whose SLO attainment meets the target share."""

    model_config = ConfigDict(extra="forbid")

    request_rate: float | None = Field(description="Highest rate meeting the target (requests/s); None when no point meets it.")
    interpolated: bool = Field(description="True when found by linear interpolation between the two points that bracket the target.")
    per_gpu: float | None = Field(description="request_rate / gpus (requests/s per GPU), when gpus is given.")
    attainment_target: float = Field(description="The target share of requests meeting every SLO.")
    rate_basis: str = Field(description="The rate axis: the requested rate, else the achieved send rate, else request throughput.")
    between: list[int] = Field(description="Indices of the points the figure rests on (one, or the bracketing two).")
    note: str = Field(description="How to read it (lower bound, interpolated, not reached, non-monotonic attainment).")
    cost: CostEstimate | None = Field(description="Cost per million tokens at that rate (throughput interpolated too), when priced.")


class SweepReport(BaseModel):
    """Points ordered by load, the Pareto frontier, the knee and capacity goodput."""

    model_config = ConfigDict(extra="forbid")

    headline: str = Field(description="One line: points, frontier, knee and capacity goodput.")
    points: list[SweepPoint] = Field(description="One per run, ordered by offered load.")
    pareto: list[int] = Field(description="Indices of points on the frontier (none has both more throughput and more per-user speed).")
    pareto_axes: str = Field(description="The two axes of the frontier.")
    knee: int | None = Field(description="Index of the knee point; None with fewer than 3 points or no latency.")
    knee_method: str = Field(description="How the knee is chosen.")
    capacity_goodput: CapacityGoodput | None = Field(description="Present when SLOs are given.")
    confounders: list[Confounder] = Field(
        description="Differences between points other than the load (workload, token counting, cache, failures, warm-up)."
    )
    warnings: list[str] = Field(description="Per-point warnings, prefixed with the point's label.")
    definitions: str = Field(description="Definitions used and where they are explained.")

    def to_text(self) -> str:
        """The curve as a table, then frontier, knee and capacity goodput."""
        lines = [self.headline, ""]
        lines.append(f"{'#':>3} {'label':<28}{'load':>10}{'req/s':>9}{'out tok/s':>11}{'tok/s/user':>11}"
                     f"{'TTFT p50':>10}{'TTFT p99':>10}{'TPOT p50':>10}{'TPOT p99':>10}{'attain':>8}")
        for i, p in enumerate(self.points):
            mark = ("*" if i in self.pareto else " ") + ("K" if i == self.knee else " ")

            def f(x: float | None, digits: str = ".1f") -> str:
                return "-" if x is None else format(x, digits)

            lines.append(
                f"{i:>3}{mark}{p.label[:27]:<28}{p.offered_load:>10.4g}{f(p.request_throughput, '.2f'):>9}"
                f"{f(p.output_throughput):>11}{f(p.output_tps_per_user):>11}"
                f"{f(p.ttft_ms.median if p.ttft_ms else None):>10}{f(p.ttft_ms.p99 if p.ttft_ms else None):>10}"
                f"{f(p.tpot_ms.median if p.tpot_ms else None, '.2f'):>10}{f(p.tpot_ms.p99 if p.tpot_ms else None, '.2f'):>10}"
                f"{f(p.slo_attainment, '.2f'):>8}"
            )
        lines.append(f"load = {self.points[0].offered_load_basis}; * = Pareto frontier ({self.pareto_axes}); K = knee")
        if self.capacity_goodput is not None:
            c = self.capacity_goodput
            lines.append(f"capacity goodput: {c.note}")
            if c.cost is not None:
                lines.append(f"  cost there (Estimate): ${c.cost.usd_per_million_output:.4g} per 1M output tokens" if c.cost.usd_per_million_output else "")
        if self.confounders:
            lines.append("")
            lines.append("confounders between points:")
            lines.extend(f"  - {c.kind}: {c.detail}" for c in self.confounders)
        return "\n".join(lines)


def _latency(report, name: str) -> LatencySummary | None:
    d = getattr(report, name)
    return None if d is None else LatencySummary(median=d.median, p90=d.p90, p99=d.p99, n=d.count)


def _axis(measured: list[Measured]) -> tuple[list[float], str]:
    loads = [m.report.workload.load if m.report.workload else None for m in measured]
    if all(load is not None and load.request_rate is not None for load in loads):
        return [load.request_rate for load in loads], "requested rate (requests/s)"  # type: ignore[union-attr]
    if all(load is not None and load.max_concurrency is not None for load in loads):
        return [float(load.max_concurrency) for load in loads], "requested concurrency"  # type: ignore[union-attr]
    arrivals = [m.report.workload.arrival_rate if m.report.workload else None for m in measured]
    if all(a is not None for a in arrivals):
        return arrivals, "achieved arrival rate (requests/s, from the send times)"  # type: ignore[return-value]
    return [m.report.request_throughput or 0.0 for m in measured], "request throughput (requests/s)"


def pareto_front(xs: list[float | None], ys: list[float | None]) -> list[int]:
    """Indices i with both values known and no j having x_j >= x_i and y_j >= y_i, one of them strictly."""
    known = [i for i in range(len(xs)) if xs[i] is not None and ys[i] is not None]
    front = []
    for i in known:
        dominated = any(
            xs[j] >= xs[i] and ys[j] >= ys[i] and (xs[j] > xs[i] or ys[j] > ys[i])  # type: ignore[operator]
            for j in known if j != i
        )
        if not dominated:
            front.append(i)
    return front


def knee_point(throughput: list[float | None], latency: list[float | None]) -> int | None:
    """argmax over points of (throughput - latency), each min-max normalised over the points: the most throughput
    gained for the least latency added. None with fewer than 3 usable points or no spread."""
    usable = [i for i in range(len(throughput)) if throughput[i] is not None and latency[i] is not None]
    if len(usable) < 3:
        return None
    t = [throughput[i] for i in usable]
    lat = [latency[i] for i in usable]
    t_span, l_span = max(t) - min(t), max(lat) - min(lat)  # type: ignore[type-var, operator]
    if t_span <= 0 or l_span <= 0:
        return None
    score = [((ti - min(t)) / t_span) - ((li - min(lat)) / l_span) for ti, li in zip(t, lat)]  # type: ignore[operator]
    return usable[max(range(len(score)), key=score.__getitem__)]


def capacity(rates: list[float], attainment: list[float | None], target: float) -> tuple[float | None, bool, list[int], str]:
    """(rate, interpolated, point indices, note) of the highest rate whose attainment meets ``target``.

    Points are taken in rate order; between the highest meeting point i and the next point j that misses,
    rate = r_i + (a_i - target) / (a_i - a_j) x (r_j - r_i).
    """
    order = sorted((i for i in range(len(rates)) if attainment[i] is not None), key=lambda i: rates[i])
    meeting = [i for i in order if attainment[i] >= target]  # type: ignore[operator]
    if not meeting:
        lowest = order[0] if order else None
        where = f" (lowest rate {rates[lowest]:g}: {attainment[lowest]:.1%})" if lowest is not None else ""
        return None, False, [], f"no point meets {target:.0%} attainment{where}: capacity is below the lowest rate measured"
    i = meeting[-1]
    later = [j for j in order if rates[j] > rates[i]]
    monotone = all(attainment[j] >= target for j in order if rates[j] < rates[i])  # type: ignore[operator]
    caveat = "" if monotone else "; attainment is not monotonic in load (a lower rate misses the target): use more requests per point"
    if not later:
        return rates[i], False, [i], (
            f"at least {rates[i]:g} requests/s: the highest rate measured still meets {target:.0%} attainment "
            f"({attainment[i]:.1%}); sweep higher to find the limit{caveat}")
    j = later[0]
    ai, aj = attainment[i], attainment[j]
    if abs(ai - target) < 1e-12:  # type: ignore[operator]
        return rates[i], False, [i], (
            f"{rates[i]:g} requests/s: measured exactly at the {target:.0%} target; the next rate {rates[j]:g} misses it "
            f"({aj:.1%}){caveat}")
    rate = rates[i] + (ai - target) / (ai - aj) * (rates[j] - rates[i])  # type: ignore[operator]
    return rate, True, [i, j], (
        f"{rate:.4g} requests/s, interpolated between {rates[i]:g} ({ai:.1%} meet the SLOs) and {rates[j]:g} ({aj:.1%}) "
        f"at the {target:.0%} target{caveat}")


def analyze_sweep(request: SweepRequest, *, plot_path: str | Path | None = None) -> SweepReport:
    """Points, Pareto frontier, knee and capacity goodput of the runs in ``request`` (see the module docstring); with
    ``plot_path``, also draw the curve and the frontier.

    >>> from llm_inference_fundamentals.tools.metrics.sweep import capacity
    >>> capacity([1, 2, 3, 4], [0.99, 0.96, 0.91, 0.72], 0.9)[:3]
    (3.0526315789473686, True, [2, 3])
    """
    measured = measure_runs(request.runs, slos=request.slos(), max_file_mb=request.max_file_mb, every_run=True)
    loads, basis = _axis(measured)
    order = sorted(range(len(measured)), key=lambda i: loads[i])
    measured = [measured[i] for i in order]
    loads = [loads[i] for i in order]
    gpus = request.gpus
    points = []
    for m, load in zip(measured, loads):
        r, w = m.report, m.report.workload
        per_gpu = (lambda x: None if x is None or gpus is None else x / gpus)  # noqa: E731
        cost = None
        if gpus is not None and request.gpu_hour_usd is not None:
            cost = cost_estimate(input_tps=r.input_throughput, output_tps=r.output_throughput,
                                 gpu_hour_usd=request.gpu_hour_usd, gpus=gpus, where=f"point {m.label}")
        points.append(SweepPoint(
            label=m.label, source=m.source, format=r.source_format,
            request_rate=w.load.request_rate if w and w.load else None,
            concurrency=w.load.max_concurrency if w and w.load else None,
            offered_load=load, offered_load_basis=basis,
            arrival_rate=w.arrival_rate if w else None, mean_concurrency=w.mean_concurrency if w else None,
            completed=r.completed, failed=r.failed,
            request_throughput=r.request_throughput, output_throughput=r.output_throughput,
            total_token_throughput=r.total_token_throughput,
            output_throughput_per_gpu=per_gpu(r.output_throughput), total_token_throughput_per_gpu=per_gpu(r.total_token_throughput),
            output_tps_per_user=1000 / r.tpot_ms.median if r.tpot_ms and r.tpot_ms.median > 0 else None,
            ttft_ms=_latency(r, "ttft_ms"), tpot_ms=_latency(r, "tpot_ms"), itl_ms=_latency(r, "itl_ms"),
            e2el_ms=_latency(r, "e2el_ms"),
            slo_attainment=r.slo_attainment, request_goodput=r.request_goodput, cost=cost,
        ))
    xs = [p.total_token_throughput_per_gpu if gpus else p.total_token_throughput for p in points]
    axes = ("output tokens/s per user (1000 / median TPOT) vs total tokens/s" + (" per GPU" if gpus else "")
            + "; both higher is better")
    pareto = pareto_front(xs, [p.output_tps_per_user for p in points])
    latency = [p.e2el_ms.median if p.e2el_ms else (p.ttft_ms.median if p.ttft_ms else None) for p in points]
    knee = knee_point([p.output_throughput for p in points], latency)

    cap = None
    if request.slos():
        if basis.startswith("requested rate"):
            rate_basis, rates = "requested rate", [p.request_rate for p in points]
        elif all(p.arrival_rate is not None for p in points):
            rate_basis = "achieved arrival rate (sends per second from the timestamps; no requested rate stated)"
            rates = [p.arrival_rate for p in points]
        else:
            rate_basis = "achieved request throughput (successful requests / duration; no send times)"
            rates = [p.request_throughput or 0.0 for p in points]
        rate, interpolated, between, note = capacity(rates, [p.slo_attainment for p in points], request.attainment)  # type: ignore[arg-type]
        cap_cost = None
        if rate is not None and gpus is not None and request.gpu_hour_usd is not None:
            inp, out = _at_rate(points, rates, between, rate)
            cap_cost = cost_estimate(input_tps=inp, output_tps=out, gpu_hour_usd=request.gpu_hour_usd, gpus=gpus,
                                     where=f"the capacity goodput rate {rate:.4g} requests/s"
                                     + (" (throughput interpolated between the bracketing points)" if interpolated else ""))
        cap = CapacityGoodput(request_rate=rate, interpolated=interpolated, per_gpu=None if rate is None or gpus is None else rate / gpus,
                              attainment_target=request.attainment, rate_basis=rate_basis, between=between,
                              note=note + (f"; {rate / gpus:.4g} requests/s per GPU" if rate is not None and gpus else ""),
                              cost=cap_cost)

    confounders = [c for c in find_confounders([m.report for m in measured], [m.label for m in measured])
                   if c.kind not in ("request_rate", "concurrency") or len(c.runs) == 1]
    warnings = [f"{m.label}: {w}" for m in measured for w in m.report.warnings]
    head = f"{len(points)} points ordered by {basis}; Pareto frontier: {len(pareto)} points"
    head += f"; knee at {points[knee].label}" if knee is not None else "; no knee (fewer than 3 points, or a flat curve)"
    if cap is not None:
        if cap.request_rate is None:
            head += f"; capacity goodput: no point reaches {cap.attainment_target:.0%} attainment"
        else:
            head += f"; capacity goodput {cap.request_rate:.4g} req/s" + (" (interpolated)" if cap.interpolated else " (a lower bound)"
                                                                           if len(cap.between) == 1 and cap.between[0] == len(points) - 1 else "")
    if confounders:
        head += f"; confounders between points: {', '.join(sorted({c.kind for c in confounders}))}"
    report = SweepReport(
        headline=head, points=points, pareto=pareto, pareto_axes=axes, knee=knee,
        knee_method="argmax of normalised output throughput minus normalised median E2E latency (TTFT when E2E is missing) "
        "over the points in load order: a heuristic, the point after which extra throughput costs the most latency",
        capacity_goodput=cap, confounders=confounders, warnings=warnings,
        definitions="every point recomputed with vllm bench serve's definitions (compute_metrics); capacity goodput as DistServe "
        "(references/metrics.md#capacity-goodput); sweeps and frontiers: references/benchmarking.md#sweeps-and-pareto-frontiers",
    )
    if plot_path is not None:
        from .plot import plot_sweep

        plot_sweep(report, Path(plot_path))
    return report


def _at_rate(points: list[SweepPoint], rates: list[float], between: list[int], rate: float) -> tuple[float | None, float | None]:
    """Input and output tokens/s at ``rate``, linear between the bracketing points (or the one point)."""
    if len(between) == 1:
        p = points[between[0]]
        return _input(p), p.output_throughput
    i, j = between
    t = (rate - rates[i]) / (rates[j] - rates[i]) if rates[j] != rates[i] else 0.0

    def lerp(a: float | None, b: float | None) -> float | None:
        return None if a is None or b is None else a + t * (b - a)

    return lerp(_input(points[i]), _input(points[j])), lerp(points[i].output_throughput, points[j].output_throughput)


def _input(p: SweepPoint) -> float | None:
    if p.total_token_throughput is None or p.output_throughput is None:
        return None
    return p.total_token_throughput - p.output_throughput
