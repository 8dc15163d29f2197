"""Deployment plans: the smallest GPU deployments that hold a workload, searched over GPUs, counts, layouts and formats.

``plan_deployment(PlanRequest) -> PlanReport`` tries, for every GPU type and every pair of weight
and KV formats, GPU counts 1, 2, 4, ... up to ``max_gpus`` and every TP x PP x DP (and EP for MoE)
layout of that count, and keeps the smallest count that fits (largest margin among its layouts).
Memory figures are estimates computed exactly as ``size_deployment`` computes them; optional
targets (a per-user decode-rate floor, a TTFT ceiling) are checked against the roofline
ceilings only, so a plan can rule a deployment out but never promises a measured latency.
Candidates are ranked by GPU count, or by cost per hour when prices are known.
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import FundamentalsError, InputFormatError, argument
from .architecture import Architecture, cached_architecture
from .catalog import GPUSpec, gpu_catalog, lookup_gpu
from .deployment import MemoryFit, memory_fit, overhead_items, size_deployment
from .error_band import overhead_range
from .formats import checkpoint_weight_format, weight_format
from .placement import valid_tp
from .prices import GPUPrice, gpu_prices
from .report import Evidence, SizingReport
from .request import SizingRequest
from .source import load_model

__all__ = ["DEFAULT_KV", "DEFAULT_WEIGHTS", "PlanCandidate", "PlanReport", "PlanRequest", "TargetCheck",
           "plan_deployment"]

DEFAULT_WEIGHTS = ("bf16", "fp8", "int8", "int4-awq", "mxfp4", "nvfp4")
"""Weight formats a plan tries besides the checkpoint's own (never more bits than the checkpoint stores)."""
DEFAULT_KV = ("auto", "fp8")


def _from_sizing(name: str) -> Any:
    """A SizingRequest field reused unchanged (type, limits, description)."""
    return copy.copy(SizingRequest.model_fields[name])


class PlanRequest(BaseModel):
    """A model, a workload and optional targets; which GPUs, counts and formats to search."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = _from_sizing("model")
    config_path: str | None = _from_sizing("config_path")
    config_json: dict[str, Any] | str | None = _from_sizing("config_json")
    hub_revision: str = _from_sizing("hub_revision")
    offline: bool = _from_sizing("offline")
    tokens: int | None = Field(None, ge=1, le=100_000_000,
                               description="Tokens resident per sequence (prompt + output; a high percentile of "
                                           "your traffic). Default: prompt_tokens + output_tokens.")
    prompt_tokens: int | None = Field(None, ge=1, le=100_000_000,
                                      description="Prompt length (sizes the TTFT check's prefill ceiling).")
    output_tokens: int | None = Field(None, ge=1, le=100_000_000,
                                      description="Output tokens per request (with request_rate: Little's law).")
    concurrency: int | None = Field(None, ge=1, le=10_000_000,
                                    description="Sequences resident at once. Give this or request_rate.")
    request_rate: float | None = Field(
        None, gt=0, le=1_000_000,
        description="Requests per second; turned into resident sequences by Little's law with the targets as the "
                    "time in system: ceil(rate x (output_tokens / min_decode_tokens_per_s + max_ttft_s)).")
    min_decode_tokens_per_s: float | None = Field(
        None, gt=0, le=1_000_000, description="Target: per-user decode rate floor (tokens/s per sequence), checked "
                                              "against the decode ceiling at the planned batch.")
    max_ttft_s: float | None = Field(None, gt=0, le=3600,
                                     description="Target: TTFT ceiling in seconds for one prompt of prompt_tokens, "
                                                 "checked against the prefill ceiling.")
    gpu: list[str] | None = Field(None, max_length=64,
                                  description="GPU types to consider (catalog names). Default: the whole catalog.")
    max_gpus: int = Field(16, ge=1, le=1024, description="Largest GPU count tried (counts are 1, 2, 4, 8, ...).")
    gpus_per_node: int = Field(8, ge=1, le=64, description="TP stays within one node of this many GPUs.")
    weights: list[str] | None = Field(
        None, max_length=16, description="Weight formats to try. Default: the checkpoint's own plus bf16, fp8, int8, "
                                         "int4-awq, mxfp4, nvfp4 where they store no more bits than the checkpoint.")
    kv: list[str] | None = Field(None, max_length=8, description="KV formats to try. Default: auto (model dtype), fp8.")
    memory_utilization: float = _from_sizing("memory_utilization")
    gpu_cost: dict[str, float] | None = Field(
        None, max_length=64, description="US dollars per GPU-hour by GPU name, e.g. {'h100': 2.5, 'h200': 3.8}.")
    listed_prices: bool = Field(False, description="Use the listed on-demand prices (tools/sizing/data/"
                                                   "gpu-prices.json, each with its source and date) for GPUs "
                                                   "gpu_cost does not price.")
    rank_by: Literal["gpus", "cost"] | None = Field(
        None, description="Rank by GPU count or by cost per hour. Default: cost when any price is known, else gpus.")
    top: int = Field(10, ge=1, le=100, description="Candidates returned.")

    @model_validator(mode="after")
    def _check(self) -> PlanRequest:
        given = [n for n in ("model", "config_path", "config_json") if getattr(self, n) is not None]
        a = argument
        if len(given) != 1:
            got = ", ".join(a(n) for n in given) if given else "none"
            raise ValueError(f"give exactly one of {a('model')}, {a('config_path')}, {a('config_json')} (got {got})")
        if self.tokens is None and (self.prompt_tokens is None or self.output_tokens is None):
            raise ValueError(f"give {a('tokens')} (resident per sequence) or both {a('prompt_tokens')} and "
                             f"{a('output_tokens')}")
        if (self.concurrency is None) == (self.request_rate is None):
            raise ValueError(f"give exactly one of {a('concurrency')}, {a('request_rate')}")
        if self.request_rate is not None and (self.output_tokens is None or self.min_decode_tokens_per_s is None):
            raise ValueError(f"{a('request_rate')} needs {a('output_tokens')} and {a('min_decode_tokens_per_s')} to "
                             "turn a rate into resident sequences (Little's law)")
        return self


class TargetCheck(BaseModel):
    """One target against the ceiling that bounds it."""

    target: str = Field(description="min_decode_tokens_per_s or max_ttft_s")
    value: float = Field(description="The target")
    ceiling: float = Field(description="The bound: decode tokens/s per sequence at the planned batch, or the "
                                       "prefill time in seconds")
    possible: bool = Field(description="False when the ceiling rules the target out; True means only 'not ruled "
                                       "out': measure before promising it")


class PlanCandidate(BaseModel):
    """One deployment that holds the workload: memory (estimate) and speed bounds (ceiling)."""

    gpu: str = Field(description="GPU catalog id")
    gpus: int = Field(description="Total GPUs = tp x pp x dp")
    tp: int = Field(description="Tensor-parallel size")
    pp: int = Field(description="Pipeline-parallel size")
    ep: int = Field(description="Expert-parallel size (1: experts split by TP)")
    dp: int = Field(description="Data-parallel replicas")
    weights: str = Field(description="Weight format")
    kv: str = Field(description="KV-cache format")
    fits: bool = Field(description="Always true for a candidate: every GPU's total is within its budget")
    margin_bytes: int = Field(description="Per GPU: budget - (weights + KV + overheads), worst GPU")
    total_bytes: int = Field(description="Per GPU: weights + KV + overheads, worst GPU")
    budget_bytes: int = Field(description="Per GPU: memory x memory_utilization")
    max_concurrency: int = Field(description="Sequences of the planned length that fit, all replicas")
    margin_low_bytes: int | None = Field(description="Per-GPU margin if the overheads sit at the high end of the "
                                                     "published profiles (see size_deployment's error band)")
    fit_verdict: str | None = Field(description="fits, or fits at the estimate only (not at the high end of the "
                                                "overheads): measure before committing to the latter")
    memory_evidence: Evidence = Field("estimate", description="margin, totals and capacity are estimates")
    decode_tokens_per_s_per_sequence: float | None = Field(description="Decode ceiling per sequence at the planned "
                                                                       "batch")
    decode_tokens_per_s_aggregate: float | None = Field(description="Decode ceiling, all sequences")
    prefill_s: float | None = Field(description="Prefill ceiling (lower bound on time) for one prompt")
    ceiling_evidence: Evidence = Field("ceiling", description="decode and prefill figures are ceilings (bounds)")
    targets: list[TargetCheck] = Field(description="Each target against its ceiling; empty without targets")
    cost_per_hour: float | None = Field(description="gpus x $/GPU-hour, when a price is known")
    price_basis: str | None = Field(description="Where the price comes from (given, or a listed offer and its date)")
    command: str | None = Field(description="The lif size command that reproduces this candidate's full report")


class PlanReport(BaseModel):
    """The smallest deployments that fit, ranked; what was searched; what the plan does and does not promise."""

    model: str = Field(description="Model name")
    tokens_per_sequence: int = Field(description="Resident tokens per sequence the plan sizes")
    concurrency: int = Field(description="Resident sequences the plan sizes")
    concurrency_basis: str = Field(description="Given, or derived from request_rate by Little's law (formula)")
    rank_by: Literal["gpus", "cost"] = Field(description="Ranking used")
    candidates: list[PlanCandidate] = Field(description="Best first (fewest GPUs, or lowest cost per hour)")
    searched: str = Field(description="GPUs, counts, layouts and formats searched, and how many deployments "
                                      "were evaluated")
    not_fitting: list[str] = Field(description="GPU types with no deployment up to max_gpus, with the closest "
                                               "one tried")
    notes: list[str] = Field(description="Assumptions and what the plan does not promise")

    def to_text(self) -> str:
        """The candidates as a table, then what was searched and the notes."""
        from .plan_table import plan_table  # the table imports this module

        return plan_table(self)


# ---------------------------------------------------------------------------------------------
# search


@dataclass(frozen=True)
class _Found:
    """The best layout of the smallest fitting count for one GPU and format pair."""

    request: SizingRequest
    fit: MemoryFit
    report: SizingReport | None  # built when targets are checked, else for the returned candidates only


def _workload(request: PlanRequest) -> tuple[int, int, int, str]:
    """(tokens per sequence, prompt tokens, concurrency, how the concurrency was obtained)."""
    tokens = request.tokens or (request.prompt_tokens or 0) + (request.output_tokens or 0)
    prompt = request.prompt_tokens or tokens
    if prompt > tokens:
        raise InputFormatError(f"{argument('prompt_tokens')}: {prompt:,} exceeds {argument('tokens')} ({tokens:,})")
    if request.concurrency is not None:
        return tokens, prompt, request.concurrency, "given"
    assert request.request_rate and request.output_tokens and request.min_decode_tokens_per_s
    seconds = request.output_tokens / request.min_decode_tokens_per_s + (request.max_ttft_s or 0.0)
    concurrency = math.ceil(request.request_rate * seconds)
    return tokens, prompt, concurrency, (
        f"Little's law (estimate): ceil({request.request_rate:g} req/s x ({request.output_tokens:,} output tokens / "
        f"{request.min_decode_tokens_per_s:g} tok/s + {request.max_ttft_s or 0:g} s TTFT)) = {concurrency:,} "
        "sequences, assuming every request is served at the targets")


def _formats(request: PlanRequest, arch: Architecture) -> tuple[list[str | None], list[str]]:
    """Weight formats (None = the checkpoint's own) that store no more bits than the checkpoint, and KV formats."""
    own, _ = checkpoint_weight_format(arch.config)
    if request.weights is not None:
        weights: list[str | None] = list(dict.fromkeys(request.weights))
    else:
        weights = [None] + [w for w in DEFAULT_WEIGHTS if weight_format(w).bits <= own.bits
                            and weight_format(w).name != own.name]
    for w in weights:
        if w is not None:
            weight_format(w)  # an unknown name fails here, naming the argument
    kv = list(dict.fromkeys(request.kv)) if request.kv is not None else list(DEFAULT_KV)
    return weights, kv


def _layouts(arch: Architecture, n: int, gpus_per_node: int) -> list[tuple[int, int, int, int]]:
    """(tp, pp, dp, ep) with tp x pp x dp = n, TP within a node and valid for the model, PP within the layers;
    MoE models also with EP = TP x DP (vLLM's --enable-expert-parallel)."""
    out = []
    for tp in valid_tp(arch):
        if tp > min(n, gpus_per_node) or n % tp:
            continue
        rest = n // tp
        for pp in range(1, min(rest, len(arch.layers)) + 1):
            if rest % pp:
                continue
            dp = rest // pp
            out.append((tp, pp, dp, 1))
            if arch.experts and tp * dp > 1:
                out.append((tp, pp, dp, tp * dp))
    return out


def _targets(request: PlanRequest, report: SizingReport) -> list[TargetCheck]:
    """Each given target against its ceiling."""
    checks = []
    decode, prefill = report.ceilings.decode, report.ceilings.prefill
    if request.min_decode_tokens_per_s is not None and decode is not None:
        checks.append(TargetCheck(target="min_decode_tokens_per_s", value=request.min_decode_tokens_per_s,
                                  ceiling=decode.tokens_per_s_per_sequence,
                                  possible=decode.tokens_per_s_per_sequence >= request.min_decode_tokens_per_s))
    if request.max_ttft_s is not None and prefill is not None:
        checks.append(TargetCheck(target="max_ttft_s", value=request.max_ttft_s, ceiling=prefill.time_s,
                                  possible=prefill.time_s <= request.max_ttft_s))
    return checks


def _has_targets(request: PlanRequest) -> bool:
    return request.min_decode_tokens_per_s is not None or request.max_ttft_s is not None


def _smallest(request: PlanRequest, base: dict[str, Any], gpu: GPUSpec, arch: Architecture, weights: str | None,
              kv: str, counts: list[int], floor_bytes: int, stats: dict[str, Any]) -> _Found | None:
    """The smallest GPU count with a layout that fits (and whose ceilings allow the targets), its layout with the
    largest margin; None when nothing up to max_gpus does. ``floor_bytes`` (weights + KV of the whole workload)
    skips counts that cannot fit even split evenly. The closest miss per GPU is kept in ``stats``."""
    budget_bytes = math.floor(gpu.memory.bytes * request.memory_utilization)
    for n in counts:
        if floor_bytes / n > budget_bytes:
            stats["pruned"] += 1
            least = stats["floor"].get(gpu.id)
            if least is None or floor_bytes < least[0]:
                stats["floor"][gpu.id] = (floor_bytes, weights, kv, budget_bytes)
            continue
        fitting: list[tuple[SizingRequest, MemoryFit]] = []
        for tp, pp, dp, ep in _layouts(arch, n, request.gpus_per_node):
            sizing = SizingRequest(**base, weights=weights, kv=kv, gpu=gpu.id, gpus=n, tp=tp, pp=pp, ep=ep)
            try:
                fit = memory_fit(sizing)
            except FundamentalsError:
                continue
            stats["evaluated"] += 1
            margin = fit.margin_bytes if fit.margin_bytes is not None else -(1 << 62)
            closest = stats["closest"].get(gpu.id)
            if closest is None or margin > closest[1]:
                stats["closest"][gpu.id] = (sizing, margin)
            if fit.fits:
                fitting.append((sizing, fit))
        fitting.sort(key=lambda item: (-(item[1].margin_bytes or 0), item[0].pp))
        for sizing, fit in fitting:
            if not _has_targets(request):
                return _Found(sizing, fit, None)
            report = size_deployment(sizing)
            if all(t.possible for t in _targets(request, report)):
                return _Found(sizing, fit, report)
            stats["ruled_out"] += 1
    return None


def _fits_across_band(found: _Found) -> bool:
    """Whether the margin survives overheads at the high end of the published profiles."""
    items = overhead_items(found.request)
    _, high = overhead_range(items)
    return (found.fit.margin_bytes or 0) - (high - sum(items.values())) >= 0


def _precision(found: _Found) -> tuple[float, float]:
    """Bits per weight and per KV element of a candidate (higher: less quality risk), for tie-breaking."""
    w = weight_format(found.request.weights).bits if found.request.weights else 16.0
    kv = {"fp8": 8.0, "int8": 8.0, "int4": 4.0, "nvfp4": 4.0, "fp8_ds_mla": 8.0}.get(found.request.kv, 16.0)
    return w, kv


def _command(request: PlanRequest, s: SizingRequest, tokens: int, concurrency: int) -> str | None:
    """The lif size command that reproduces a candidate (for catalog names and Hub repo ids only)."""
    if request.model is None:
        return None
    parts = [f"lif size {request.model} --tokens {tokens} --concurrency {concurrency} --gpu {s.gpu} --gpus {s.gpus}",
             f"--tp {s.tp} --pp {s.pp} --ep {s.ep}", f"--kv {s.kv}", f"--memory-utilization {s.memory_utilization:g}"]
    if s.weights:
        parts.append(f"--weights {s.weights}")
    if request.prompt_tokens:
        parts.append(f"--prompt-tokens {request.prompt_tokens}")
    return " ".join(parts)


def _candidate(request: PlanRequest, found: _Found, price: GPUPrice | None, tokens: int,
               concurrency: int) -> PlanCandidate:
    """A ranked candidate with the full report's ceilings (the report is the size_deployment one)."""
    s, fit = found.request, found.fit
    report = found.report or size_deployment(s)
    dec, pre = report.ceilings.decode, report.ceilings.prefill
    assert fit.margin_bytes is not None and fit.budget_bytes is not None and fit.max_concurrency is not None
    return PlanCandidate(
        gpu=s.gpu or "", gpus=s.gpus or 1, tp=s.tp, pp=s.pp, ep=s.ep, dp=report.parallelism.dp,
        weights=report.weights.format, kv=report.kv_cache.format, fits=True, margin_bytes=fit.margin_bytes,
        total_bytes=fit.total_bytes, budget_bytes=fit.budget_bytes, max_concurrency=fit.max_concurrency,
        margin_low_bytes=report.per_gpu.margin_low_bytes, fit_verdict=report.per_gpu.fit_verdict,
        decode_tokens_per_s_per_sequence=dec.tokens_per_s_per_sequence if dec else None,
        decode_tokens_per_s_aggregate=dec.tokens_per_s_aggregate if dec else None,
        prefill_s=pre.time_s if pre else None, targets=_targets(request, report),
        cost_per_hour=round(price.usd_per_gpu_hour * (s.gpus or 1), 4) if price else None,
        price_basis=price.basis if price else None, command=_command(request, s, tokens, concurrency))


def plan_deployment(request: PlanRequest) -> PlanReport:
    """The smallest deployments that fit the workload, best first.

    Example::

        plan_deployment(PlanRequest(model="Llama-3.1-70B", weights=["fp8"], tokens=32768, concurrency=24,
                                    gpu=["h100", "h200"], gpu_cost={"h100": 2.5, "h200": 3.8}))
    """
    tokens, prompt, concurrency, basis = _workload(request)
    base = {"model": request.model, "config_path": request.config_path, "config_json": request.config_json,
            "hub_revision": request.hub_revision, "offline": request.offline, "tokens": tokens,
            "prompt_tokens": prompt, "concurrency": concurrency, "memory_utilization": request.memory_utilization}
    arch = cached_architecture(load_model(SizingRequest(**base)).config)
    gpus = [lookup_gpu(name) for name in request.gpu] if request.gpu else list(gpu_catalog())
    gpus = list({g.id: g for g in gpus}.values())
    weights_list, kv_list = _formats(request, arch)
    counts = [1 << i for i in range(11) if 1 << i <= request.max_gpus]
    prices = gpu_prices(request.gpu_cost, listed=request.listed_prices)
    rank_by = request.rank_by or ("cost" if prices else "gpus")
    stats: dict[str, Any] = {"evaluated": 0, "pruned": 0, "ruled_out": 0, "closest": {}, "floor": {}}
    found: list[_Found] = []
    for weights in weights_list:
        for kv in kv_list:
            floor = size_deployment(SizingRequest(**base, weights=weights, kv=kv))
            floor_bytes = floor.weights.bytes + floor.kv_cache.bytes
            for gpu in gpus:
                hit = _smallest(request, base, gpu, arch, weights, kv, counts, floor_bytes, stats)
                if hit is not None:
                    found.append(hit)

    robust = {id(f): _fits_across_band(f) for f in found}

    def rank(f: _Found) -> tuple:
        price = prices.get(f.request.gpu or "")
        cost = price.usd_per_gpu_hour * (f.request.gpus or 1) if price else math.inf
        w_bits, kv_bits = _precision(f)
        by_size = (f.request.gpus, cost)
        # at equal size (or cost), a deployment that fits across the overhead band first, then precision, margin
        return ((cost, f.request.gpus) if rank_by == "cost" else by_size) + (not robust[id(f)], -w_bits, -kv_bits,
                                                                             -(f.fit.margin_bytes or 0))

    found.sort(key=rank)
    # each GPU type's best candidate first (so the list shows the options), then the rest in rank order
    firsts = list({f.request.gpu: f for f in reversed(found)}.values())
    firsts.sort(key=rank)
    chosen = {id(f) for f in firsts}
    ordered = firsts + [f for f in found if id(f) not in chosen]
    candidates = [_candidate(request, f, prices.get(f.request.gpu or ""), tokens, concurrency)
                  for f in ordered[:request.top]]
    fitting_gpus = {f.request.gpu for f in found}
    not_fitting = [_closest_text(gpu, stats["closest"].get(gpu.id), stats["floor"].get(gpu.id), request.max_gpus)
                   for gpu in gpus if gpu.id not in fitting_gpus]
    return PlanReport(
        model=request.model or load_model(SizingRequest(**base)).name, tokens_per_sequence=tokens,
        concurrency=concurrency, concurrency_basis=basis, rank_by=rank_by, candidates=candidates,
        searched=(f"{len(gpus)} GPU type(s) x counts {', '.join(map(str, counts))} x TP/PP/DP/EP layouts x weights "
                  f"{', '.join(w or 'checkpoint' for w in weights_list)} x KV {', '.join(kv_list)}: "
                  f"{stats['evaluated']:,} deployments evaluated, {stats['pruned']:,} counts skipped (weights + KV "
                  f"over the budget even split evenly), {stats['ruled_out']:,} fitting layouts ruled out by the "
                  "ceilings against the targets"),
        not_fitting=not_fitting, notes=_notes(request, prices, rank_by))


def _closest_text(gpu: GPUSpec, closest: tuple[SizingRequest, int] | None,
                  floor: tuple[int, str | None, str, int] | None, max_gpus: int) -> str:
    """Why a GPU type has no candidate: the closest deployment tried and its shortfall, or, when no count was
    worth trying, the smallest weights + KV against max_gpus budgets."""
    if closest is not None:
        s, margin = closest
        return (f"{gpu.id}: nothing fits up to {max_gpus} GPUs; closest {s.gpus} x {gpu.id} (TP {s.tp}, PP {s.pp}, "
                f"weights {s.weights or 'checkpoint'}, KV {s.kv}) is {-margin / 2**30:,.2f} GiB per GPU over budget")
    if floor is not None:
        need, weights, kv, budget_bytes = floor
        shown = weights or "checkpoint"
        return (f"{gpu.id}: nothing fits up to {max_gpus} GPUs; the smallest weights + KV tried ({shown} "
                f"weights, {kv} KV) is {need / 2**30:,.2f} GiB, over {max_gpus} x "
                f"{budget_bytes / 2**30:,.2f} GiB of budget even split evenly")
    return f"{gpu.id}: no valid layout up to {max_gpus} GPUs"


def _notes(request: PlanRequest, prices: dict[str, GPUPrice], rank_by: str) -> list[str]:
    notes = [
        "memory figures are estimates computed as size_deployment computes them (lif size with the candidate's "
        "command prints the full report); decode and prefill figures are ceilings: a plan can rule a deployment "
        "out, it never promises a measured latency",
        "per GPU type and format pair only the smallest fitting GPU count is kept, with its largest-margin layout; "
        "the list shows each GPU type's best candidate first, then the others in rank order; at equal size (or "
        "cost) a candidate that fits across the overhead error band ranks before one that fits at the estimate only",
        "weight formats never store more bits than the checkpoint (a model cannot be up-cast into precision it was "
        "not trained in); low-bit formats need kernels on the GPU (FP8 math on Hopper/Ada or newer, FP4 on "
        "Blackwell; older GPUs run them weight-only)",
    ]
    if rank_by == "cost":
        notes.append("cost = GPUs x $/GPU-hour; candidates without a price rank after those with one")
    if request.listed_prices:
        notes.append("listed prices are on-demand list prices with the provider, source and date shown per "
                     "candidate; they move, and providers differ several-fold for the same GPU")
    return notes
