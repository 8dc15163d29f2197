"""Roofline ceilings: decode bounded by HBM bandwidth, prefill bounded by dense compute."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .architecture import Architecture, LayerSpec
from .catalog import GPUSpec
from .formats import WeightFormat
from .kv import KVTally, resident_tokens
from .placement import Deployment
from .report import Ceilings, DecodeCeiling, DecodeEstimate, PrefillCeiling, PrefillEstimate
from .request import SizingRequest
from .weights import WeightTally

__all__ = ["roofline_ceilings", "step_times"]


def _peak(gpu: GPUSpec, compute: str) -> tuple[tuple[str, float] | None, str | None]:
    """The dense peak (dtype, TFLOPS) for the format's compute dtype, falling back to bf16, and a note when the
    catalog lacks the dtype asked for."""
    order = {"fp8": ["fp8", "bf16"], "int8": ["int8", "bf16"], "fp4": ["fp4", "bf16"], "bf16": ["bf16"],
             "fp32": ["bf16"]}[compute]
    for dt in order:
        v = gpu.dense_tflops.get(dt)
        if v is not None:
            note = f"{gpu.id} has no {compute} dense peak in the catalog; using {dt}" if dt != compute else None
            return (dt, float(v.value)), note
    return None, f"{gpu.id} has no dense {compute} peak in the catalog; compute ceilings not given"


def _attn_keys(layer: LayerSpec, s: int) -> int:
    """Sum over query positions 1..s of the keys each attends to (causal, window-limited)."""
    w = layer.window
    if w is None or s <= w:
        return s * (s + 1) // 2
    return w * (w + 1) // 2 + (s - w) * w


@dataclass(frozen=True)
class _FlopTerms:
    """What the FLOP counts are built from: matmul params per token (embedding lookup excluded) and the
    attention layers whose score and value products grow with context."""

    body_params: int  # active params minus embedding and lm_head
    head_params: int  # lm_head (the embedding when tied)
    attention_layers: list[LayerSpec]
    attention_width: int  # heads x (qk_dim + v_dim)


def _flop_terms(arch: Architecture) -> _FlopTerms:
    """Split the active params into the lm_head and the rest; list the layers with their own attention KV."""
    emb = sum(t.numel for t in arch.tensors if t.component == "embedding")
    head = sum(t.numel for t in arch.tensors if t.component == "lm_head") or (emb if arch.tied_embeddings else 0)
    return _FlopTerms(body_params=arch.active_params - emb - (0 if arch.tied_embeddings else head), head_params=head,
                      attention_layers=[lay for lay in arch.layers if lay.holds_kv],
                      attention_width=arch.heads * (arch.qk_head_dim + arch.v_head_dim))


def _expected_distinct_experts(arch: Architecture, batch: int) -> float | None:
    """E[distinct routed experts per MoE layer] for a batch of independent tokens: E (1 - (1 - k/E)^B)."""
    if not arch.experts:
        return None
    return arch.experts * (1 - (1 - arch.top_k / arch.experts) ** batch)


def step_times(dep: Deployment, gpu: GPUSpec, fmt: WeightFormat, weights: WeightTally, kv: KVTally, tokens: int,
               tokens_per_sequence: int = 1) -> tuple[float, float | None]:
    """(memory time, compute time) in seconds of one step of one replica in which each of its sequences processes
    ``tokens_per_sequence`` tokens (1: plain decode; k + 1: verifying k drafts): every resident weight and KV byte
    read once (routed experts: the expected distinct ones for all the step's tokens), and the matmul and attention
    FLOPs of all the step's tokens at the dense peak (None without a peak)."""
    seqs = dep.sequences_per_replica
    moe_tokens = seqs * tokens_per_sequence * math.ceil(max(dep.tp, dep.ep) / dep.tp)
    distinct = _expected_distinct_experts(dep.arch, moe_tokens)
    frac = distinct / dep.arch.experts if distinct is not None else 1.0
    w_read = [weights.dense_read_bytes[s] + math.ceil(weights.routed_expert_bytes[s] * frac) for s in range(dep.pp)]
    mem_time = sum(w_read[s] + kv.stage_bytes[s] for s in range(dep.pp)) / gpu.bandwidth_bytes_per_s
    peak, _ = _peak(gpu, fmt.compute)
    if not peak:
        return mem_time, None
    flops = _flop_terms(dep.arch)
    attn = sum(2 * flops.attention_width * resident_tokens(lay, tokens) for lay in flops.attention_layers)
    per_token = 2 * (flops.body_params + flops.head_params) + attn
    return mem_time, seqs * tokens_per_sequence * per_token / (dep.tp * peak[1] * 1e12)


def _decode_ceiling(dep: Deployment, request: SizingRequest, gpu: GPUSpec, weights: WeightTally,
                    kv: KVTally, distinct: float | None, peak: tuple[str, float] | None, flops: _FlopTerms,
                    tokens: int) -> tuple[DecodeCeiling, DecodeEstimate]:
    """A decode step reads each stage's weights (routed experts in part) and resident KV once: step time >=
    bytes / bandwidth, checked against the matmul FLOPs at the dense peak. The estimate scales both times by the
    assumed efficiencies."""
    seqs = dep.sequences_per_replica
    frac = distinct / dep.arch.experts if distinct is not None else 1.0
    w_read = [weights.dense_read_bytes[s] + math.ceil(weights.routed_expert_bytes[s] * frac) for s in range(dep.pp)]
    mem_time = sum(w_read[s] + kv.stage_bytes[s] for s in range(dep.pp)) / gpu.bandwidth_bytes_per_s
    comp_time = dtype = None
    if peak:
        dtype, tflops = peak
        attn = sum(2 * flops.attention_width * resident_tokens(lay, tokens) for lay in flops.attention_layers)
        comp_time = seqs * (2 * (flops.body_params + flops.head_params) + attn) / (dep.tp * tflops * 1e12)
    step = max(mem_time, comp_time or 0.0)
    step_eff = max(mem_time / request.bandwidth_efficiency, (comp_time or 0.0) / request.compute_efficiency)
    ceiling = DecodeCeiling(
        batch_per_replica=seqs, weights_bytes_per_step_per_gpu=max(w_read),
        kv_bytes_per_step_per_gpu=max(kv.stage_bytes), expected_distinct_experts_per_layer=distinct,
        memory_time_ms=mem_time * 1e3, compute_time_ms=comp_time * 1e3 if comp_time is not None else None,
        compute_dtype=dtype, bound="compute" if (comp_time or 0) > mem_time else "memory",
        tokens_per_s_per_sequence=1 / step, tokens_per_s_aggregate=seqs * dep.dp / step,
        formula=("step >= sum over pipeline stages of (weights read + resident KV and state read) per GPU / "
                 f"{gpu.bandwidth_tb_s.value} TB/s; weights read = non-expert weights (embedding excluded) + routed "
                 "experts x E[distinct]/E; compute check (2 x active params + attention) x B / (TP x dense peak)"),
    )
    estimate = DecodeEstimate(
        tokens_per_s_per_sequence=1 / step_eff, tokens_per_s_aggregate=seqs * dep.dp / step_eff,
        bandwidth_efficiency=request.bandwidth_efficiency, compute_efficiency=request.compute_efficiency,
        formula=(f"step = max(memory time / {request.bandwidth_efficiency:g}, compute time / "
                 f"{request.compute_efficiency:g}) (achievable shares of peak assumed, not measured)"),
    )
    return ceiling, estimate


def _prefill_ceiling(dep: Deployment, request: SizingRequest, peak: tuple[str, float], flops: _FlopTerms,
                     prompt: int) -> tuple[PrefillCeiling, PrefillEstimate]:
    """One prompt on one replica's TP group: time >= FLOPs / (TP x dense peak), with causal attention FLOPs; the
    estimate divides by the assumed MFU."""
    dtype, tflops = peak
    total = (2 * flops.body_params * prompt + 2 * flops.head_params
             + sum(2 * flops.attention_width * _attn_keys(lay, prompt) for lay in flops.attention_layers))
    t = total / (dep.tp * tflops * 1e12)
    ceiling = PrefillCeiling(
        prompt_tokens=prompt, flops=float(total), compute_dtype=dtype, peak_tflops_per_gpu=tflops, gpus_used=dep.tp,
        time_s=t,
        formula=("FLOPs = 2 x (active params - embedding - lm_head) x s + 2 x lm_head (last token) + sum over "
                 "attention layers of 2 x heads x (qk_dim + v_dim) x sum_i min(i, window); time >= FLOPs / "
                 f"(TP x {tflops:g} dense {dtype} TFLOPS)"))
    estimate = PrefillEstimate(
        time_s=t / request.compute_efficiency, efficiency=request.compute_efficiency,
        formula=f"time = ceiling / {request.compute_efficiency:g} (achievable share of dense peak assumed, not measured)")
    return ceiling, estimate


def roofline_ceilings(dep: Deployment, fmt: WeightFormat, gpu: GPUSpec | None, request: SizingRequest,
                      weights: WeightTally, kv: KVTally, tokens: int, prompt: int) -> Ceilings:
    """Decode and prefill speed limits on the named GPU, with notes on what they leave out."""
    if gpu is None:
        return Ceilings(decode=None, decode_estimate=None, prefill=None, prefill_estimate=None, notes=[])  # the closing notes say "no gpu given"
    notes: list[str] = []
    seqs = dep.sequences_per_replica
    # routed experts are split over max(TP, EP) GPUs, so one expert shard serves the tokens of max(TP, EP) / TP replicas
    moe_tokens = seqs * math.ceil(max(dep.tp, dep.ep) / dep.tp)
    distinct = _expected_distinct_experts(dep.arch, moe_tokens)
    if distinct is not None:
        notes.append(f"MoE: expected distinct experts per layer at batch {moe_tokens} = E(1-(1-k/E)^B) = {distinct:.2f} "
                     f"of {dep.arch.experts}" + (f" (B = {seqs} sequences x {moe_tokens // seqs} replicas sharing one "
                                                 "expert-parallel group)" if moe_tokens != seqs else ""))
    peak, peak_note = _peak(gpu, fmt.compute)
    if peak_note:
        notes.append(peak_note)
    flops = _flop_terms(dep.arch)
    decode, decode_estimate = _decode_ceiling(dep, request, gpu, weights, kv, distinct, peak, flops, tokens)
    notes.append("decode ceiling ignores TP all-reduce latency, kernel launch gaps and scheduling; pipeline stages run "
                 "one after another for a step")
    prefill = prefill_estimate = None
    if peak:
        prefill, prefill_estimate = _prefill_ceiling(dep, request, peak, flops, prompt)
        notes.append("prefill ceiling: one prompt on one replica's TP group; pipeline stages add no speed-up for a "
                     "single prompt; Mamba / linear-attention scan FLOPs are not counted")
        if fmt.compute == "bf16" and fmt.quantized:
            notes.append(f"{fmt.name} weights are dequantized to bf16 for the matmuls (W4A16-style): bf16 peak used")
    return Ceilings(decode=decode, decode_estimate=decode_estimate, prefill=prefill, prefill_estimate=prefill_estimate,
                    notes=notes)
