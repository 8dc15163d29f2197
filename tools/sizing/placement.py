"""The model placed on GPUs: TP/PP/EP/DP sizes, layers per pipeline stage, KV heads per GPU.

Refuses the splits vLLM refuses (TP that does not divide the heads, EP without experts) and lists
the valid values instead.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ..errors import ModelConfigError, argument
from .architecture import Architecture
from .formats import KVFormat
from .report import Parallelism
from .request import SizingRequest

__all__ = ["Deployment", "check_parallelism", "place", "valid_tp"]


def _data_parallel(request: SizingRequest) -> tuple[int, int]:
    """(total GPUs, data-parallel replicas); without ``gpus`` the deployment is one tp x pp replica."""
    gpus = request.gpus or request.tp * request.pp
    return gpus, gpus // (request.tp * request.pp)


@functools.lru_cache(maxsize=256)
def valid_tp(arch: Architecture) -> list[int]:
    """TP sizes vLLM accepts for the model: divisors of the query heads that divide the KV heads or are a multiple
    of them (MLA: any divisor of the heads)."""
    return [t for t in range(1, arch.heads + 1) if not arch.heads % t
            and (arch.mla is not None or not arch.kv_heads % t or not t % arch.kv_heads)]


def check_parallelism(arch: Architecture, request: SizingRequest) -> None:
    """Refuse splits vLLM refuses: TP must divide the query heads and divide (or be a multiple of) the KV heads;
    EP needs experts and at most the GPUs of one pipeline stage."""
    tp, ep = request.tp, request.ep
    valid = valid_tp(arch)
    if arch.heads % tp:
        raise ModelConfigError(f"{argument('tp')}: {tp} does not divide num_attention_heads ({arch.heads}); "
                               f"valid {argument('tp')} values for this model: {', '.join(map(str, valid))}")
    if arch.mla is None and arch.kv_heads % tp and tp % arch.kv_heads:
        raise ModelConfigError(f"{argument('tp')}: {tp} must divide num_key_value_heads ({arch.kv_heads}) or be a multiple of it; "
                               f"valid {argument('tp')} values for this model: {', '.join(map(str, valid))}")
    if ep > 1 and not arch.experts:
        raise ModelConfigError(f"{argument('ep')}: {ep} given but the model has no experts")
    _, dp = _data_parallel(request)
    if ep > tp * dp:
        raise ModelConfigError(f"{argument('ep')}: {ep} exceeds the GPUs of one pipeline stage ({argument('tp')} x dp = {tp * dp}); raise {argument('gpus')}")


def _stages(L: int, pp: int) -> tuple[tuple[int, ...], ...]:
    """Layer indices per pipeline stage, as vLLM's get_pp_indices (extra layers to the earlier stages)."""
    if pp > L:
        raise ModelConfigError(f"{argument('pp')}: {pp} pipeline stages exceed the model's {L} layers")
    return _split(L, pp)


@functools.lru_cache(maxsize=1024)
def _split(L: int, pp: int) -> tuple[tuple[int, ...], ...]:
    parts = [L // pp] * pp
    for i in range(2, L % pp + 2):
        parts[-i] += 1
    out, start = [], 0
    for n in parts:
        out.append(tuple(range(start, start + n)))
        start += n
    return tuple(out)


@dataclass(frozen=True)
class Deployment:
    """The model placed on GPUs: parallel sizes, layers per pipeline stage, KV heads per GPU and the sequences
    each data-parallel replica holds."""

    arch: Architecture
    kvf: KVFormat
    gpus: int
    tp: int
    pp: int
    ep: int
    dp: int
    stages: tuple[tuple[int, ...], ...]
    kv_heads_per_gpu: int
    sequences_per_replica: int


    def parallelism(self) -> Parallelism:
        """The report's parallelism section."""
        return Parallelism(gpus=self.gpus, tp=self.tp, pp=self.pp, ep=self.ep, dp=self.dp,
                           layers_per_stage=[len(s) for s in self.stages],
                           sequences_per_replica=self.sequences_per_replica)


def place(arch: Architecture, kvf: KVFormat, request: SizingRequest) -> Deployment:
    """Split layers into pipeline stages and sequences over replicas; each GPU keeps at least one KV head."""
    gpus, dp = _data_parallel(request)
    return Deployment(arch=arch, kvf=kvf, gpus=gpus, tp=request.tp, pp=request.pp, ep=request.ep, dp=dp,
                       stages=_stages(len(arch.layers), request.pp),
                       kv_heads_per_gpu=max(1, arch.kv_heads // request.tp),
                       sequences_per_replica=math.ceil(request.concurrency / dp))
