"""Why two runs may differ for reasons other than the change under test, found before any verdict.

Each run is checked against the first (the baseline) for a different workload (prompt and
output lengths, request count), different token counting, a different load (rate asked
for and achieved, concurrency, open or closed loop), signs of a warm cache, failures,
warm-up, and a different observation point. Every finding quotes the observed values.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .summary import MetricsReport

__all__ = ["CONFOUNDER_KINDS", "Confounder", "find_confounders"]

ConfounderKind = Literal[
    "output_length",
    "prompt_length",
    "request_count",
    "token_counting",
    "request_rate",
    "concurrency",
    "warm_cache",
    "failures",
    "warmup",
    "observation_point",
]
CONFOUNDER_KINDS: tuple[str, ...] = ConfounderKind.__args__  # type: ignore[attr-defined]

LENGTH_TOLERANCE = 0.10
"""Median or mean token lengths differing by more than this share of the baseline's: a different workload."""
RATE_TOLERANCE = 0.15
"""Achieved arrival rates differing by more than this share, or falling this far short of the rate asked for."""
CONCURRENCY_TOLERANCE = 0.25
"""Mean in-flight concurrency differing by more than this share of the baseline's."""
CLIENT_COUNT_TOLERANCE = 0.05
"""A client tokenizer's mean count off the server's by more than this share: token counting differs."""


class Confounder(BaseModel):
    """A difference between runs, other than the one under test, that can explain a metric difference."""

    model_config = ConfigDict(extra="forbid")

    kind: ConfounderKind = Field(description="What differs: " + ", ".join(CONFOUNDER_KINDS) + ".")
    runs: list[int] = Field(description="Indices (into runs) of the runs concerned; 0 is the baseline.")
    detail: str = Field(description="What was observed, with the values of each run.")


def _rel(a: float, b: float) -> float:
    return abs(b - a) / abs(a) if a else (0.0 if b == a else float("inf"))


def _source_kind(source: str) -> str:
    low = source.lower()
    if "client tokenizer" in low:
        return "client tokenizer"
    if "chunk" in low and "server" not in low:
        return "one token per chunk"
    return "server usage"


def find_confounders(reports: list[MetricsReport], labels: list[str]) -> list[Confounder]:
    """Confounders of every run against run 0, in a fixed kind order."""
    found: list[Confounder] = []
    base = reports[0]
    for k in range(1, len(reports)):
        found.extend(_pair(base, reports[k], labels[0], labels[k], k))
    found.extend(_each_run(reports, labels))
    order = {kind: i for i, kind in enumerate(CONFOUNDER_KINDS)}
    return sorted(found, key=lambda c: (order[c.kind], c.runs))


def _lengths(kind: str, name: str, a: MetricsReport, b: MetricsReport, la: str, lb: str, k: int) -> list[Confounder]:
    da = getattr(a.workload, name) if a.workload else None
    db = getattr(b.workload, name) if b.workload else None
    if da is None or db is None:
        return []
    if _rel(da.median, db.median) > LENGTH_TOLERANCE or _rel(da.mean, db.mean) > LENGTH_TOLERANCE:
        what = "prompt tokens" if kind == "prompt_length" else "completed output tokens"
        return [Confounder(kind=kind, runs=[0, k], detail=(
            f"{what} per request: {la} median {da.median:g} (mean {da.mean:.1f}, {da.min:g}-{da.max:g}), {lb} median {db.median:g} "
            f"(mean {db.mean:.1f}, {db.min:g}-{db.max:g}): the runs served different work"
            + (", so TPOT, E2E and tokens/s describe different output lengths" if kind == "output_length" else
               ", so TTFT and prefill figures describe different prompt lengths")))]
    return []


def _pair(a: MetricsReport, b: MetricsReport, la: str, lb: str, k: int) -> list[Confounder]:
    out: list[Confounder] = []
    out += _lengths("output_length", "output_tokens", a, b, la, lb, k)
    out += _lengths("prompt_length", "prompt_tokens", a, b, la, lb, k)
    wa, wb = a.workload, b.workload
    ra, rb = wa.requested_output_tokens if wa else None, wb.requested_output_tokens if wb else None
    if ra and rb and _rel(ra.mean, rb.mean) > LENGTH_TOLERANCE:
        out.append(Confounder(kind="output_length", runs=[0, k], detail=(
            f"requested output tokens: {la} asked for {ra.mean:.0f} on average, {lb} for {rb.mean:.0f}")))
    if a.completed and b.completed and max(a.completed, b.completed) > 2 * min(a.completed, b.completed):
        out.append(Confounder(kind="request_count", runs=[0, k], detail=(
            f"{la} completed {a.completed} requests, {lb} {b.completed}: the smaller run's percentiles and intervals are "
            "much wider")))
    if wa and wb:
        sa, sb = _source_kind(wa.output_token_source), _source_kind(wb.output_token_source)
        if sa != sb:
            out.append(Confounder(kind="token_counting", runs=[0, k], detail=(
                f"output tokens counted by {sa} in {la} ({wa.output_token_source}) and by {sb} in {lb} "
                f"({wb.output_token_source}): TPOT and tokens/s use different token counts")))
        out += _load(a, b, la, lb, k)
        out += _cache(a, b, la, lb, k)
    fa = a.failed / (a.completed + a.failed) if (a.completed + a.failed) else 0.0
    fb = b.failed / (b.completed + b.failed) if (b.completed + b.failed) else 0.0
    if a.failed != b.failed and (fa or fb) and abs(fa - fb) >= 0.005:
        out.append(Confounder(kind="failures", runs=[0, k], detail=(
            f"{la} failed {a.failed} of {a.completed + a.failed} requests ({fa:.1%}), {lb} {b.failed} of "
            f"{b.completed + b.failed} ({fb:.1%}): latency statistics exclude failures, so the run with more of them can "
            "look faster")))
    if a.warmup_dropped != b.warmup_dropped:
        out.append(Confounder(kind="warmup", runs=[0, k], detail=(
            f"warm-up records dropped: {la} {a.warmup_dropped}, {lb} {b.warmup_dropped}: the runs did not warm up the same way")))
    if a.source_format != b.source_format:
        out.append(Confounder(kind="observation_point", runs=[0, k], detail=(
            f"{la} was written by {a.source_format} and {lb} by {b.source_format}: both are recomputed here under one "
            f"definition, but the client events that start and end each time differ ({la}: {a.observation_point}; "
            f"{lb}: {b.observation_point})")))
    return out


def _load(a: MetricsReport, b: MetricsReport, la: str, lb: str, k: int) -> list[Confounder]:
    out: list[Confounder] = []
    wa, wb = a.workload, b.workload
    assert wa is not None and wb is not None
    la_set, lb_set = wa.load, wb.load
    if la_set and lb_set:
        if la_set.request_rate != lb_set.request_rate:
            out.append(Confounder(kind="request_rate", runs=[0, k], detail=(
                f"requested rate: {la} {_rate(la_set.request_rate)}, {lb} {_rate(lb_set.request_rate)}")))
        if la_set.max_concurrency != lb_set.max_concurrency or la_set.loop != lb_set.loop:
            out.append(Confounder(kind="concurrency", runs=[0, k], detail=(
                f"requested concurrency: {la} {la_set.max_concurrency or 'no cap'} ({la_set.loop or 'loop not stated'} loop), "
                f"{lb} {lb_set.max_concurrency or 'no cap'} ({lb_set.loop or 'loop not stated'} loop)")))
    # In an open loop the rate is the setting and requests in flight follow from it and the latency (Little's law);
    # in a closed loop it is the other way round. Only the side that is a setting is compared achieved-vs-achieved.
    closed = bool(la_set and lb_set and la_set.loop == "closed" and lb_set.loop == "closed")
    if not closed and wa.arrival_rate and wb.arrival_rate and _rel(wa.arrival_rate, wb.arrival_rate) > RATE_TOLERANCE:
        if not any(c.kind == "request_rate" for c in out):
            flight = ""
            if wa.mean_concurrency is not None and wb.mean_concurrency is not None:
                flight = f"; requests in flight follow (time average {wa.mean_concurrency:.2f} vs {wb.mean_concurrency:.2f})"
            out.append(Confounder(kind="request_rate", runs=[0, k], detail=(
                f"achieved arrival rate: {la} {wa.arrival_rate:.2f} req/s, {lb} {wb.arrival_rate:.2f} req/s{flight}")))
    if closed and wa.mean_concurrency and wb.mean_concurrency and _rel(wa.mean_concurrency, wb.mean_concurrency) > CONCURRENCY_TOLERANCE:
        if not any(c.kind == "concurrency" for c in out):
            out.append(Confounder(kind="concurrency", runs=[0, k], detail=(
                f"requests in flight (time average, from timestamps): {la} {wa.mean_concurrency:.2f} (peak {wa.peak_concurrency}), "
                f"{lb} {wb.mean_concurrency:.2f} (peak {wb.peak_concurrency}) at the same concurrency setting: a client did not "
                "keep its cap full")))
    return out


def _cache(a: MetricsReport, b: MetricsReport, la: str, lb: str, k: int) -> list[Confounder]:
    wa, wb = a.workload, b.workload
    assert wa is not None and wb is not None
    share_a, share_b = wa.cached_share or 0.0, wb.cached_share or 0.0
    rep_a, rep_b = wa.repeated_prompts or 0, wb.repeated_prompts or 0
    if abs(share_a - share_b) >= 0.01 or (rep_a != rep_b and (rep_a or rep_b)):

        def say(label: str, w) -> str:
            parts = []
            parts.append("no cached tokens recorded" if w.cached_share is None else f"{w.cached_share:.0%} of prompt tokens cached")
            if w.repeated_prompts is not None:
                parts.append(f"{w.repeated_prompts} repeated prompts")
            return f"{label}: {', '.join(parts)}"

        return [Confounder(kind="warm_cache", runs=[0, k], detail=(
            f"{say(la, wa)}; {say(lb, wb)}: a warm prefix cache skips prefill, lowering TTFT and raising throughput"))]
    return []


def _rate(rate: float | None) -> str:
    return "unlimited or not stated" if rate is None else f"{rate:g} req/s"


def _each_run(reports: list[MetricsReport], labels: list[str]) -> list[Confounder]:
    """Findings about a single run that bias any comparison with it (generator behind schedule, client counts, cold start)."""
    out: list[Confounder] = []
    for i, (r, label) in enumerate(zip(reports, labels)):
        w = r.workload
        if w is None:
            continue
        if w.load and w.load.request_rate and w.arrival_rate and w.arrival_rate < (1 - RATE_TOLERANCE) * w.load.request_rate:
            out.append(Confounder(kind="request_rate", runs=[i], detail=(
                f"{label} asked for {w.load.request_rate:g} req/s but sent {w.arrival_rate:.2f} req/s: the load generator fell "
                "behind its schedule (client-bound), so the server saw less load than stated")))
        if w.client_output_tokens and w.output_tokens and _rel(w.output_tokens.mean, w.client_output_tokens.mean) > CLIENT_COUNT_TOLERANCE:
            out.append(Confounder(kind="token_counting", runs=[i], detail=(
                f"{label}: the client tokenizer counted {w.client_output_tokens.mean:.1f} output tokens per request on average, "
                f"the server {w.output_tokens.mean:.1f}: figures the tool derived from its own count differ from the server's")))
        if w.first_requests_ttft_ratio is not None and w.first_requests_ttft_ratio >= 2:
            out.append(Confounder(kind="warmup", runs=[i], detail=(
                f"{label}: the first requests' median TTFT is {w.first_requests_ttft_ratio:.1f}x the rest's: warm-up looks "
                "included")))
    return out
