"""Deployment sizing: weights, KV cache, overheads, per-GPU fit and roofline ceilings.

Answers "how much GPU memory does model M need at weight format W, KV format K, T tokens per
sequence and C concurrent sequences on N GPUs of type G with TP/PP/EP, does it fit, how many
sequences or tokens would fit, and what decode / prefill speed can it not exceed?"

Formulas (see references/memory-sizing.md):

- weights = sum over tensors of their bytes in the format (scales included); per GPU, sharded
  tensors / TP, experts / max(TP, EP), replicated ones (norms, routers, MLA down-projections) whole;
- KV per token per layer = 2 x kv_heads x head_dim x b (MLA: (kv_lora_rank + qk_rope_head_dim) x b,
  no factor 2, not split by TP); per GPU kv_heads_per_gpu = max(1, kv_heads // TP);
- resident tokens per layer: full and MLA layers T, sliding layers min(window, T), chunked layers
  min(chunk, T), cross-layer-shared layers 0; Mamba / linear-attention layers hold a fixed state;
- budget = GPU memory x memory_utilization; KV room = budget - weights - overheads;
- decode step time >= bytes read per GPU / bandwidth (weights incl. E[distinct experts] =
  E (1 - (1 - k/E)^B) per MoE layer, plus every resident KV byte); prefill time >=
  FLOPs / (TP x dense peak), FLOPs = 2 x non-embedding active params x s + attention.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import ModelConfigError, argument
from .architecture import Architecture, cached_architecture
from .ceilings import roofline_ceilings, step_times
from .formats import KVFormat, WeightFormat
from .kv import kv_notes, kv_report, layer_token_bytes, pick_kv_format, sequence_bytes, tally_kv
from .memory import (
    GPUMemory,
    budget,
    fit_per_gpu,
    gpu_memory,
    max_concurrency,
    runtime_overheads,
    scheduler_limits,
)
from .placement import Deployment, check_parallelism, place
from .report import REFERENCE, ModelInfo, SizingReport
from .request import SizingRequest
from .source import LoadedModel, load_model
from .weights import layer_bytes_per_gpu, pick_weight_format, tally_weights, weight_notes, weights_report

__all__ = ["MemoryFit", "decode_step_times", "memory_fit", "mtp_footprint", "overhead_items", "size_deployment"]


def _pick_tokens(request: SizingRequest, arch: Architecture) -> tuple[int, str, list[str]]:
    """Tokens resident per sequence, their basis and notes: the declared workload, else the configured max
    context (which sizes capacity, not a workload)."""
    notes: list[str] = []
    if request.tokens is not None:
        tokens, basis = request.tokens, "declared workload (prompt + output per sequence)"
    elif arch.max_position:
        tokens = arch.max_position
        basis = "model max context (max_position_embeddings): capacity, not workload"
        notes.append(f"no tokens given: every sequence is sized at the configured max context {tokens:,}; "
                     "that is capacity, not a workload; pass tokens for the real prompt + output length")
    else:
        raise ModelConfigError(f"{argument('tokens')}: not given and the config has no max_position_embeddings")
    if arch.max_position and tokens > arch.max_position:
        notes.append(f"tokens {tokens:,} exceed the model's max_position_embeddings {arch.max_position:,}")
    return tokens, basis, notes


# ---------------------------------------------------------------------------------------------
# report sections


def _attention_summary(arch: Architecture) -> str:
    """MHA / GQA / MQA with head counts, or the MLA latent width per token per layer."""
    if arch.mla:
        return (f"MLA: {arch.heads} heads, latent kv_lora_rank {arch.mla[0]} + rope {arch.mla[1]} "
                f"= {arch.mla[0] + arch.mla[1]} values per token per layer")
    kind = "MHA" if arch.kv_heads == arch.heads else "MQA" if arch.kv_heads == 1 else "GQA"
    return f"{kind}: {arch.heads} query heads, {arch.kv_heads} KV heads, head_dim {arch.head_dim}"


def _model_info(model: LoadedModel, arch: Architecture) -> ModelInfo:
    """The model section: name, source, shape, attention kind and, for MoE, experts and top-k."""
    moe = None
    if arch.experts:
        n_moe = sum(1 for lay in arch.layers if lay.ffn == "moe")
        moe = (f"{arch.experts} routed experts, top-{arch.top_k}, in {n_moe} of {len(arch.layers)} layers; all experts "
               "resident for memory, top-k for compute")
    return ModelInfo(name=model.name, source=model.source, model_type=arch.model_type, layers=len(arch.layers),
                     hidden_size=arch.hidden, attention=_attention_summary(arch), moe=moe,
                     max_context_tokens=arch.max_position)


def _closing_notes(arch: Architecture, gpu: GPUMemory) -> list[str]:
    """What is not computed without a GPU, the units, and how tied embeddings are counted."""
    notes: list[str] = []
    if gpu.spec is None:
        notes.append("no gpu given: ceilings are not computed" + ("" if gpu.bytes else ", nor fit and capacity"))
    notes.append("GiB = 2^30 bytes; GB = 10^9 bytes. Per-GPU shares split sharded tensors pro rata (vLLM also "
                 "pads the vocabulary to a multiple of 64 per rank)")
    if arch.tied_embeddings:
        notes.append("tied embeddings: lm_head shares the embedding matrix (counted once)")
    return notes


# ---------------------------------------------------------------------------------------------
# main entry


@dataclass(frozen=True)
class _Inputs:
    """What a request resolves to before any bytes are counted: the model, its formats, tokens and placement."""

    model: LoadedModel
    arch: Architecture
    fmt: WeightFormat
    fmt_basis: str
    format_notes: list[str]
    kvf: KVFormat
    tokens: int
    tokens_basis: str
    token_notes: list[str]
    dep: Deployment


def _inputs(request: SizingRequest) -> _Inputs:
    """Load and parse the model, check the split, pick formats and tokens, place it on GPUs."""
    model = load_model(request)
    arch = cached_architecture(model.config, immutable=model.source.startswith("catalog: "))
    check_parallelism(arch, request)
    fmt, fmt_basis, format_notes = pick_weight_format(request, arch)
    kvf = pick_kv_format(request, arch)
    tokens, tokens_basis, token_notes = _pick_tokens(request, arch)
    return _Inputs(model, arch, fmt, fmt_basis, format_notes, kvf, tokens, tokens_basis, token_notes,
                   place(arch, kvf, request))


@dataclass(frozen=True)
class MemoryFit:
    """The fit verdict alone, as size_deployment computes it, for searches that try many deployments."""

    fits: bool | None
    margin_bytes: int | None  # budget - worst stage total (negative: does not fit)
    total_bytes: int  # worst stage: weights + KV + overheads inside the budget
    budget_bytes: int | None
    max_concurrency: int | None


def memory_fit(request: SizingRequest) -> MemoryFit:
    """Fit, margin and max concurrency of one deployment without building the report (same arithmetic as
    size_deployment's per_gpu section; a test checks they agree)."""
    i = _inputs(request)
    dep = i.dep
    weights = tally_weights(dep, i.fmt)
    seq = [sequence_bytes(dep, s, i.tokens) for s in range(dep.pp)]
    gpu = gpu_memory(request)
    mnbt, max_seqs, _ = scheduler_limits(request, gpu)
    overhead_in = sum(o.bytes for o in runtime_overheads(dep, request, gpu, mnbt, max_seqs) if o.inside_budget)
    totals = [weights.stage_bytes[s] + seq[s] * dep.sequences_per_replica + overhead_in for s in range(dep.pp)]
    worst = max(totals)
    if not gpu.bytes:
        return MemoryFit(None, None, worst, None, None)
    budget_bytes = budget(gpu.bytes, request.memory_utilization)
    room = [budget_bytes - weights.stage_bytes[s] - overhead_in for s in range(dep.pp)]
    return MemoryFit(worst <= budget_bytes, budget_bytes - worst, worst, budget_bytes, max_concurrency(dep, room, seq))


def decode_step_times(request: SizingRequest, tokens_per_sequence: int = 1) -> tuple[float, float | None]:
    """(memory time, compute time) of one decode step of the request's deployment in which every sequence processes
    ``tokens_per_sequence`` tokens; the same arithmetic as the decode ceiling (needs a GPU)."""
    i = _inputs(request)
    gpu = gpu_memory(request)
    if gpu.spec is None:
        raise ModelConfigError(f"{argument('gpu')}: name a GPU to bound step times")
    return step_times(i.dep, gpu.spec, i.fmt, tally_weights(i.dep, i.fmt), tally_kv(i.dep, i.tokens), i.tokens,
                      tokens_per_sequence)


def overhead_items(request: SizingRequest) -> dict[str, int]:
    """The estimated overheads inside the budget, by name, for a deployment (no report built)."""
    i = _inputs(request)
    gpu = gpu_memory(request)
    mnbt, max_seqs, _ = scheduler_limits(request, gpu)
    return {o.name: o.bytes for o in runtime_overheads(i.dep, request, gpu, mnbt, max_seqs) if o.inside_budget}


def mtp_footprint(request: SizingRequest, layers: int) -> tuple[int, int]:
    """(weight bytes per GPU, KV bytes per token per GPU) of ``layers`` multi-token-prediction modules shaped like the
    model's last decoder layer plus their eh_proj (2 x hidden -> hidden) and two norms; the embedding and lm_head
    are shared with the model (as vLLM loads DeepSeek MTP)."""
    i = _inputs(request)
    dep, arch = i.dep, i.arch
    last = len(arch.layers) - 1
    eh_proj = math.ceil(i.fmt.matrix_bytes(arch.hidden, 2 * arch.hidden) / dep.tp) if i.fmt.quantized else math.ceil(
        arch.hidden * 2 * arch.hidden * (4 if i.fmt.name == "fp32" else 2) / dep.tp)
    norms = 2 * arch.hidden * 2
    weights = layers * (layer_bytes_per_gpu(dep, i.fmt, last) + eh_proj + norms)
    kv = layers * math.ceil(layer_token_bytes(arch.layers[last], arch, i.kvf, dep.kv_heads_per_gpu))
    return weights, kv


def size_deployment(request: SizingRequest) -> SizingReport:
    """Size a deployment: itemized memory, fit, capacity and roofline ceilings.

    Example::

        size_deployment(SizingRequest(model="Llama-3.1-70B", weights="fp8", tokens=32768,
                                      concurrency=16, gpu="h100", tp=4))
    """
    i = _inputs(request)
    model, arch, fmt, tokens, dep = i.model, i.arch, i.fmt, i.tokens, i.dep

    weights = tally_weights(dep, fmt)
    kv = tally_kv(dep, tokens)
    gpu = gpu_memory(request)
    mnbt, max_seqs, scheduler_notes = scheduler_limits(request, gpu)
    overheads = runtime_overheads(dep, request, gpu, mnbt, max_seqs)
    overhead_in = sum(o.bytes for o in overheads if o.inside_budget)
    per_gpu = fit_per_gpu(dep, request, gpu, weights, kv, overhead_in, tokens)
    ceilings = roofline_ceilings(dep, fmt, gpu.spec, request, weights, kv, tokens, request.prompt_tokens or tokens)

    assumptions = [
        *arch.notes, *i.format_notes, *i.token_notes,
        *weight_notes(arch, model, weights.total_bytes, requested=bool(request.weights)),
        *kv_notes(dep, kv), *scheduler_notes, *_closing_notes(arch, gpu),
    ]
    report = SizingReport(
        model=_model_info(model, arch),
        weights=weights_report(arch, model, fmt, i.fmt_basis, weights, dep),
        kv_cache=kv_report(dep, kv, tokens=tokens, tokens_basis=i.tokens_basis, concurrency=request.concurrency,
                           bytes_per_gpu=per_gpu.kv_bytes),
        overheads=overheads, overhead_bytes=overhead_in, per_gpu=per_gpu,
        parallelism=dep.parallelism(),
        ceilings=ceilings, assumptions=assumptions,
        references=[f"{REFERENCE}#kv-cache-per-token", f"{REFERENCE}", "research: sizing-anchors.md"],
    )
    if request.overhead_bytes is None:
        from .error_band import apply_overhead_band  # the band sizes published profiles with this module

        apply_overhead_band(per_gpu, overheads)
    if per_gpu.fits is False:
        from .nearest import nearest_fits  # nearest tries changes through memory_fit, defined here

        report.nearest_fits = nearest_fits(request, report)
    return report
