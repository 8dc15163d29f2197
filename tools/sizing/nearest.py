"""When a deployment does not fit: the nearest single changes that make it fit.

Tried in order of how little they change: the KV format, the weight format, the memory utilization,
more GPUs of the same type (TP doubled), a GPU with more memory, then the workload itself (fewer
sequences, shorter sequences). Each change is checked with the same arithmetic as ``size_deployment``.
"""

from __future__ import annotations

from typing import Any

from ..errors import FundamentalsError, argument, on_command_line
from .catalog import gpu_catalog
from .deployment import memory_fit
from .formats import KV_FORMATS, weight_format
from .report import NearestFit, PerGPUReport, SizingReport
from .request import SizingRequest

__all__ = ["NearestFit", "nearest_fits"]

_MAX_SHOWN = 5


def _tries(request: SizingRequest, report: SizingReport) -> list[dict[str, Any]]:
    """Single changes worth trying, nearest first."""
    tries: list[dict[str, Any]] = []
    kv_name = report.kv_cache.format
    if KV_FORMATS[kv_name].element_bits > 8:
        tries.append({"kv": "fp8"})
    bits = weight_format(request.weights).bits if request.weights else (
        16.0 if report.weights.format in ("bf16", "fp16") else 32.0 if report.weights.format == "fp32" else 0.0)
    if bits > 8:
        tries.append({"weights": "fp8"})
    if bits > 4.25:
        tries.append({"weights": "int4-awq"})
    if request.memory_utilization < 0.95:
        tries.append({"memory_utilization": 0.95})
    replicas = (request.gpus or request.tp * request.pp) // (request.tp * request.pp)
    for factor in (2, 4, 8):
        tp = request.tp * factor
        tries.append({"tp": tp, "gpus": tp * request.pp * replicas})
    if request.gpu:
        own = report.per_gpu.memory_bytes or 0
        for gpu in sorted(gpu_catalog(), key=lambda g: g.memory.bytes):
            if gpu.memory.bytes > own:
                tries.append({"gpu": gpu.id})
    g = report.per_gpu
    if g.max_concurrency and g.max_concurrency < request.concurrency:
        tries.append({"concurrency": g.max_concurrency})
    if g.max_tokens_per_sequence and g.max_tokens_per_sequence < report.kv_cache.tokens_per_sequence:
        tries.append({"tokens": g.max_tokens_per_sequence})
    return tries


def nearest_fits(request: SizingRequest, report: SizingReport) -> list[NearestFit]:
    """Up to five single changes that make a non-fitting deployment fit (one per kind: the smallest GPU that
    fits, the smallest TP step that fits), nearest first; empty when it fits or no GPU is named."""
    per_gpu: PerGPUReport = report.per_gpu
    if per_gpu.fits is not False:
        return []
    found: list[NearestFit] = []
    kinds: set[str] = set()
    base = request.model_dump()
    for change in _tries(request, report):
        kind = "tp" if "tp" in change else next(iter(change))
        if kind in kinds and kind in ("tp", "gpu", "weights"):
            continue  # the nearest of each kind is enough
        try:
            fit = memory_fit(SizingRequest(**{**base, **change}))
        except (FundamentalsError, ValueError):
            continue  # e.g. a TP the model does not divide
        if fit.fits and fit.margin_bytes is not None:
            kinds.add(kind)
            found.append(NearestFit(change=_spelled(change), arguments=change,
                                    margin_bytes=fit.margin_bytes))
        if len(found) == _MAX_SHOWN:
            break
    return found


def _spelled(change: dict) -> str:
    """The change as the caller types it: ``--tp 4, --gpus 4`` on the command line, ``tp=4, gpus=4`` over MCP."""
    if on_command_line():
        return ", ".join(f"{argument(k)} {v}" for k, v in change.items())
    return ", ".join(f"{k}={v}" for k, v in change.items())
