"""Per-GPU memory: the GPU's budget, runtime overheads, the fit verdict and capacity at the budget."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from .architecture import Architecture
from .catalog import GPUSpec, lookup_gpu
from .kv import KVTally, sequence_bytes
from .placement import Deployment
from .report import GiB, Overhead, PerGPUReport
from .request import SizingRequest
from .weights import WeightTally

__all__ = ["GPUMemory", "budget", "fit_per_gpu", "gpu_memory", "max_concurrency", "runtime_overheads",
           "scheduler_limits"]

# Overhead constants (estimates), each with its source.
_CUDA_CONTEXT_BYTES = 512 * 1024**2

_CUDA_GRAPH_BYTES = 1 * GiB

_NCCL_BY_GROUP = {1: 0, 2: 358_612_992, 4: 411_041_792, 8: 411_041_792}  # larger groups: the 8-GPU figure

_SRC_NCCL = "ai-dynamo/aiconfigurator systems/*.yaml misc.nccl_mem (research: sizing-anchors.md 1.9)"

_SRC_GRAPH = ("vLLM PR #21489: Gemma-3-4B 0.65 GiB of CUDA-graph memory; Llama 4 Maverick under-estimated by ~1.3 GB "
              "(sizing-anchors.md 1.1)")

_SRC_CONTEXT = "CUDA context and non-torch allocations ~0.5 GiB outside torch (sizing-anchors.md 1.10 item 11)"

_SRC_ACT = ("vLLM sizes this by profiling a dummy forward of max_num_batched_tokens tokens "
            "(vllm/v1/worker/gpu_worker.py determine_available_memory); this closed form is our estimate")


@dataclass(frozen=True)
class GPUMemory:
    """The GPU (when named) and the memory sizing uses: the override when given, else the catalog's."""

    spec: GPUSpec | None
    bytes: int | None
    basis: str | None


def gpu_memory(request: SizingRequest) -> GPUMemory:
    """Look up the GPU and settle its memory and where that figure comes from."""
    gpu = lookup_gpu(request.gpu) if request.gpu else None
    if request.gpu_memory_bytes:
        return GPUMemory(gpu, request.gpu_memory_bytes, f"{request.gpu_memory_bytes:,} B as given")
    if gpu is not None:
        return GPUMemory(gpu, gpu.memory.bytes, gpu.memory.basis)
    return GPUMemory(None, None, None)


def budget(mem: int, memory_utilization: float) -> int:
    """The engine's memory budget: GPU memory x memory_utilization, rounded down as vLLM does."""
    return math.floor(mem * memory_utilization)


def scheduler_limits(request: SizingRequest, gpu: GPUMemory) -> tuple[int, int, list[str]]:
    """max_num_batched_tokens and max_num_seqs, which size the activation workspace: the given token budget,
    else vLLM's API-server defaults for the GPU's memory class (with a note saying so)."""
    mem = gpu.bytes
    if request.max_num_batched_tokens:
        return request.max_num_batched_tokens, 1024 if mem and mem >= 70 * GiB else 256, []
    if mem and mem >= 160 * GiB:
        mnbt, max_seqs = 16384, 1024
    elif mem and mem >= 70 * GiB and not (gpu.spec and "a100" in gpu.spec.id):
        mnbt, max_seqs = 8192, 1024
    elif mem:
        mnbt, max_seqs = 2048, 256
    else:
        mnbt, max_seqs = 8192, 1024
    return mnbt, max_seqs, [f"max_num_batched_tokens {mnbt}, max_num_seqs {max_seqs}: vLLM's API-server defaults "
                            "for this GPU class (vllm/engine/arg_utils.py)"]


def _activation_workspace(arch: Architecture, tp: int, kv_heads_per_gpu: int, mnbt: int, max_seqs: int) -> Overhead:
    """Peak activations of one scheduler step: the batched tokens through the residual stream and the widest
    per-GPU projection, plus fp32 logits for every sampled row."""
    act_bytes = 4 if arch.dtype == "fp32" else 2
    q_width = arch.heads * (arch.qk_head_dim if arch.mla else arch.head_dim)
    kv_width = arch.mla[0] + arch.mla[1] if arch.mla else 2 * kv_heads_per_gpu * arch.head_dim
    widest = max(q_width // tp + kv_width, _ffn_width(arch, tp))
    return Overhead(
        name="activation_workspace",
        bytes=mnbt * act_bytes * (4 * arch.hidden + widest) + max_seqs * math.ceil(arch.vocab / tp) * 4,
        basis=f"{mnbt} batched tokens x {act_bytes} B x (4 x hidden + widest per-GPU projection) + "
              f"{max_seqs} sampled rows x vocab/TP x 4 B fp32 logits",
        source=_SRC_ACT, inside_budget=True)


@functools.lru_cache(maxsize=1024)
def _ffn_width(arch: Architecture, tp: int) -> int:
    """Widest per-GPU MLP / expert / mixer projection output (routed experts: top-k of them at once)."""
    width = 0
    for t in arch.tensors:
        if t.linear and t.split == "column" and t.component in ("mlp", "shared_experts", "mixer"):
            width = max(width, t.rows // tp)
        if t.component == "experts" and t.linear and t.rows != arch.hidden:
            width = max(width, t.rows * arch.top_k // tp)
    return width


def runtime_overheads(dep: Deployment, request: SizingRequest, gpu: GPUMemory, mnbt: int,
                      max_seqs: int) -> list[Overhead]:
    """Per-GPU memory besides weights and KV: the runtime's own (or the given figure) inside the budget, and the
    headroom memory_utilization leaves outside it."""
    return list(_overheads(dep.arch, dep.tp, dep.ep, dep.kv_heads_per_gpu, request.overhead_bytes, request.cuda_graphs,
                           request.memory_utilization, gpu.bytes, mnbt, max_seqs))


@functools.lru_cache(maxsize=4096)
def _overheads(arch: Architecture, tp: int, ep: int, kv_heads_per_gpu: int, given: int | None, cuda_graphs: bool,
               memory_utilization: float, gpu_bytes: int | None, mnbt: int, max_seqs: int) -> tuple[Overhead, ...]:
    """runtime_overheads for one layout (remembered: plans and sweeps revisit layouts)."""
    if given is not None:
        overheads = [Overhead(name="runtime_overhead", bytes=given,
                              basis="given: activations, CUDA graphs, communication buffers and CUDA context together",
                              source="request.overhead_bytes", inside_budget=True)]
    else:
        group = max(tp, ep)
        overheads = [
            _activation_workspace(arch, tp, kv_heads_per_gpu, mnbt, max_seqs),
            Overhead(name="cuda_graphs", bytes=_CUDA_GRAPH_BYTES if cuda_graphs else 0,
                     basis="1 GiB when CUDA graphs are captured, 0 in eager mode", source=_SRC_GRAPH,
                     inside_budget=True),
            Overhead(name="communication_buffers", bytes=_NCCL_BY_GROUP.get(group, _NCCL_BY_GROUP[8]),
                     basis=f"NCCL workspace for a {group}-GPU group", source=_SRC_NCCL, inside_budget=True),
            Overhead(name="cuda_context", bytes=_CUDA_CONTEXT_BYTES, basis="0.5 GiB per process",
                     source=_SRC_CONTEXT, inside_budget=True),
        ]
    if gpu_bytes:
        overheads.append(Overhead(
            name="allocator_headroom", bytes=gpu_bytes - budget(gpu_bytes, memory_utilization),
            basis=f"(1 - memory_utilization {memory_utilization}) x GPU memory, left outside the engine's "
                  "budget for fragmentation and other processes",
            source="vllm/config/cache.py gpu_memory_utilization (sizing-anchors.md 1.1)", inside_budget=False))
    return tuple(overheads)


# ---------------------------------------------------------------------------------------------
# per-GPU fit and capacity


def max_concurrency(dep: Deployment, room: list[int], sequence_bytes: list[int]) -> int:
    """Sequences (all replicas) that fit in the KV room of every stage; 0 when a stage has no room."""
    if min(room) < 0:
        return 0
    counts = [(room[s] // sequence_bytes[s]) if sequence_bytes[s] else 10**12 for s in range(dep.pp)]
    return max(0, min(counts)) * dep.dp


def _max_tokens(dep: Deployment, room: list[int]) -> tuple[int, str]:
    """Longest sequence at the given concurrency whose KV fits every stage (binary search up to the model's
    max context, or 1e9 without one) and what limits it."""
    cap = dep.arch.max_position or 10**9

    def fits(tokens: int) -> bool:
        return all(dep.sequences_per_replica * sequence_bytes(dep, s, tokens) <= room[s] for s in range(dep.pp))

    if min(room) < 0 or not fits(1):
        return 0, "weights and overheads leave no room for one token per sequence"
    if fits(cap):
        return cap, "model max context (max_position_embeddings)" if dep.arch.max_position else "search limit 1e9"
    lo, hi = 1, cap
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if fits(mid):
            lo = mid
        else:
            hi = mid - 1
    return lo, "GPU memory"


def fit_per_gpu(dep: Deployment, request: SizingRequest, gpu: GPUMemory, weights: WeightTally, kv: KVTally,
             overhead_bytes: int, tokens: int) -> PerGPUReport:
    """The worst pipeline stage's memory against the budget, whether every stage fits, and how many sequences
    (at ``tokens``) or tokens (at the given concurrency) would."""
    stage_total = [weights.stage_bytes[s] + kv.stage_bytes[s] + overhead_bytes for s in range(dep.pp)]
    worst = max(range(dep.pp), key=lambda s: stage_total[s])
    budget_bytes: int | None = None
    fits: bool | None = None
    max_conc: int | None = None
    max_tok: int | None = None
    limited_by: str | None = None
    if gpu.bytes:
        budget_bytes = budget(gpu.bytes, request.memory_utilization)
        room = [budget_bytes - weights.stage_bytes[s] - overhead_bytes for s in range(dep.pp)]
        fits = all(total <= budget_bytes for total in stage_total)
        max_conc = max_concurrency(dep, room, kv.stage_sequence_bytes)
        max_tok, limited_by = _max_tokens(dep, room)
    headroom = gpu.bytes - budget_bytes if gpu.bytes and budget_bytes is not None else None
    return PerGPUReport(
        gpu=gpu.spec.id if gpu.spec else None, memory_bytes=gpu.bytes, memory_basis=gpu.basis,
        memory_utilization=request.memory_utilization, budget_bytes=budget_bytes, weights_bytes=weights.stage_bytes[worst],
        kv_bytes=kv.stage_bytes[worst], overhead_bytes=overhead_bytes, total_bytes=stage_total[worst],
        headroom_bytes=headroom, free_bytes=(budget_bytes - stage_total[worst]) if budget_bytes is not None else None, fits=fits,
        max_concurrency=max_conc, max_tokens_per_sequence=max_tok, max_tokens_limited_by=limited_by,
        worst_stage=worst,
        formula=_fit_formula(dep, request, gpu, weights.stage_bytes[worst], kv, overhead_bytes, worst, budget_bytes,
                             max_conc))


def _gib(n: int) -> str:
    return f"{n / GiB:,.2f} GiB"


def _fit_formula(dep: Deployment, request: SizingRequest, gpu: GPUMemory, weights_bytes: int, kv: KVTally,
                 overhead_bytes: int, worst: int, budget: int | None, max_conc: int | None) -> str:
    """total, budget, margin and capacity with this deployment's numbers (GiB, 2 decimals)."""
    kv_bytes = kv.stage_bytes[worst]
    total = weights_bytes + kv_bytes + overhead_bytes
    text = (f"total per GPU = weights {_gib(weights_bytes)} + KV {_gib(kv_bytes)} + overheads "
            f"{_gib(overhead_bytes)} = {_gib(total)}")
    if budget is None or gpu.bytes is None:
        return text
    text += (f"; budget = {_gib(gpu.bytes)} x {request.memory_utilization:g} = {_gib(budget)}; margin = budget - "
             f"total = {_gib(budget - total)}; headroom {_gib(gpu.bytes - budget)} stays outside the budget")
    seq = kv.stage_sequence_bytes[worst]
    if seq and max_conc is not None:
        text += (f"; max concurrency = min over pipeline stages of floor((budget - weights - overheads) / KV per "
                 f"sequence per GPU ({seq:,} B on stage {worst})) x DP {dep.dp} = {max_conc:,}")
    return text
