"""KV cache and recurrent state: bytes per token per layer type, per sequence, per GPU of each stage."""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from ..errors import ModelConfigError, argument
from .architecture import Architecture, LayerSpec
from .formats import KVFormat, kv_format
from .placement import Deployment
from .report import KVCacheReport, LayerTypeKV
from .request import SizingRequest

__all__ = ["KVTally", "kv_notes", "kv_report", "layer_token_bytes", "pick_kv_format", "resident_tokens",
           "sequence_bytes", "tally_kv"]


def pick_kv_format(request: SizingRequest, arch: Architecture) -> KVFormat:
    """The KV-cache format ('auto' = the model dtype); fp8_ds_mla exists only for MLA latents."""
    kvf = kv_format(request.kv, arch.dtype)
    if kvf.name == "fp8_ds_mla" and arch.mla is None:
        raise ModelConfigError(f"{argument('kv')}: fp8_ds_mla applies to MLA models (kv_lora_rank) only")
    return kvf


def layer_token_bytes(layer: LayerSpec, arch: Architecture, kvf: KVFormat, kv_heads: int) -> float:
    """KV bytes per token for one layer with ``kv_heads`` KV heads (MLA: one latent vector)."""
    if not layer.holds_kv:
        return 0.0
    if layer.mixer == "mla":
        assert arch.mla is not None
        if kvf.name == "fp8_ds_mla":
            return 656.0 + arch.indexer_bytes_per_token
        return kvf.vector_bytes(arch.mla[0] + arch.mla[1]) + arch.indexer_bytes_per_token
    return 2 * kv_heads * kvf.vector_bytes(arch.head_dim)


def resident_tokens(layer: LayerSpec, tokens: int) -> int:
    """Tokens a layer keeps per sequence: all of them, at most its window or chunk, none without own KV."""
    if not layer.holds_kv:
        return 0
    if layer.window is not None:
        return min(layer.window, tokens)
    return tokens


def _state_bytes(layer: LayerSpec) -> int:
    """Fixed recurrent state per sequence (Mamba / linear attention); 0 for attention-only layers."""
    return layer.state.bytes if layer.state else 0


def sequence_bytes(dep: Deployment, stage: int, tokens: int) -> int:
    """KV and recurrent-state bytes one sequence of ``tokens`` tokens holds on one GPU of ``stage``."""
    growing, windowed, state = _stage_terms(dep.arch, dep.kvf, dep.kv_heads_per_gpu, dep.tp, dep.stages[stage])
    return math.ceil(growing * tokens + sum(per_token * min(window, tokens) for window, per_token in windowed) + state)


@functools.lru_cache(maxsize=4096)
def _stage_terms(arch: Architecture, kvf: KVFormat, kv_heads: int, tp: int,
                 layers: tuple[int, ...]) -> tuple[float, tuple[tuple[int, float], ...], int]:
    """One stage's layers summed on one GPU: KV bytes per token of the layers that keep every token, per window
    size the KV bytes per token of the layers capped at it, and the recurrent state. Per-token bytes are whole
    numbers in every KV format, so summing them first changes no result."""
    growing, state = 0.0, 0
    windowed: dict[int, float] = {}
    for i in layers:
        lay = arch.layers[i]
        per_token = layer_token_bytes(lay, arch, kvf, kv_heads)
        if lay.holds_kv and lay.window is not None:
            windowed[lay.window] = windowed.get(lay.window, 0.0) + per_token
        elif lay.holds_kv:
            growing += per_token
        if lay.state is not None:
            state += math.ceil(lay.state.bytes / tp)
    return growing, tuple(sorted(windowed.items())), state


@dataclass(frozen=True)
class KVTally:
    """KV and state per sequence: per layer type, for the whole model, and per GPU of each stage."""

    by_layer_type: list[LayerTypeKV]
    bytes_per_token: float  # layers whose KV grows with every token (no window, own KV)
    bytes_per_token_per_gpu: float
    state_bytes: int
    sequence_bytes: int
    stage_sequence_bytes: list[int]  # one sequence on one GPU of each stage
    stage_bytes: list[int]  # all of a replica's sequences on one GPU of each stage


def tally_kv(dep: Deployment, tokens: int) -> KVTally:
    """KV per sequence at ``tokens`` tokens: bytes per token per layer x resident tokens + fixed state."""
    arch, kvf = dep.arch, dep.kvf
    mixing = [lay for lay in arch.layers if lay.mixer != "none"]

    def per_token(lay: LayerSpec) -> float:
        return layer_token_bytes(lay, arch, kvf, arch.kv_heads)

    def per_sequence(lay: LayerSpec) -> float:
        return per_token(lay) * resident_tokens(lay, tokens) + _state_bytes(lay)

    groups: dict[str, list[LayerSpec]] = {}
    for lay in mixing:
        groups.setdefault(lay.kind, []).append(lay)
    by_layer_type = [
        LayerTypeKV(layer_type=kind, layers=len(group), window_tokens=group[0].window,
                    bytes_per_token_per_layer=math.ceil(per_token(group[0])),
                    resident_tokens_per_sequence=resident_tokens(group[0], tokens),
                    state_bytes_per_layer=_state_bytes(group[0]),
                    bytes_per_sequence=math.ceil(sum(per_sequence(lay) for lay in group)))
        for kind, group in groups.items()]
    growing = [lay for lay in mixing if lay.window is None and not lay.kv_shared]
    stage_sequence = [sequence_bytes(dep, s, tokens) for s in range(dep.pp)]
    return KVTally(
        by_layer_type=by_layer_type,
        bytes_per_token=sum(per_token(lay) for lay in growing),
        bytes_per_token_per_gpu=sum(layer_token_bytes(lay, arch, kvf, dep.kv_heads_per_gpu) for lay in growing),
        state_bytes=sum(_state_bytes(lay) for lay in mixing),
        sequence_bytes=math.ceil(sum(per_sequence(lay) for lay in mixing)),
        stage_sequence_bytes=stage_sequence,
        stage_bytes=[b * dep.sequences_per_replica for b in stage_sequence],
    )


def kv_notes(dep: Deployment, kv: KVTally) -> list[str]:
    """Where KV is replicated across TP, and what the per-token figures leave out (windows, state copies)."""
    arch, tp = dep.arch, dep.tp
    notes: list[str] = []
    if arch.mla is None and tp > arch.kv_heads:
        notes.append(f"{argument('tp')} {tp} > {arch.kv_heads} KV heads: each GPU keeps 1 KV head, so KV is replicated "
                     f"{tp // arch.kv_heads}x across the TP group (vLLM)")
    if arch.mla is not None and tp > 1:
        notes.append(f"MLA: every TP rank keeps the full {arch.mla[0] + arch.mla[1]}-wide latent per layer; "
                     f"KV is not split by TP (vLLM), so it is replicated {tp}x")
    if arch.indexer_bytes_per_token:
        notes.append(f"DSA lightning indexer: {arch.indexer_bytes_per_token} B per token per MLA layer (fp8 key + "
                     "fp32 scale per 128, vLLM DeepseekV32IndexerCache) added to the latent KV in every KV format")
    if any(lay.window is not None for lay in arch.layers):
        notes.append("windowed layers hold min(window, tokens) tokens; vLLM's paged cache holds up to "
                     "window - 1 + max_num_batched_tokens during prefill and rounds to 16-token blocks")
    if kv.state_bytes:
        notes.append("recurrent state counted once per sequence (vLLM keeps 2 copies with prefix caching "
                     "in 'align' mode); conv state in the model dtype, SSM state in mamba_ssm_dtype if set")
    return notes


def kv_report(dep: Deployment, kv: KVTally, *, tokens: int, tokens_basis: str, concurrency: int,
               bytes_per_gpu: int) -> KVCacheReport:
    """The KV section; replication = KV held across one replica's GPUs / the KV one copy of it needs."""
    replica_gpu_bytes = sum(kv.stage_sequence_bytes) * dep.tp
    replication = replica_gpu_bytes / kv.sequence_bytes if kv.sequence_bytes else 1.0
    return KVCacheReport(
        format=dep.kvf.name, format_description=dep.kvf.description, bytes_per_token=math.ceil(kv.bytes_per_token),
        bytes_per_token_per_gpu=math.ceil(kv.bytes_per_token_per_gpu), state_bytes_per_sequence=kv.state_bytes,
        tokens_per_sequence=tokens, tokens_basis=tokens_basis, concurrency=concurrency,
        bytes_per_sequence=kv.sequence_bytes, bytes=kv.sequence_bytes * concurrency, bytes_per_gpu=bytes_per_gpu,
        kv_heads_per_gpu=None if dep.arch.mla else dep.kv_heads_per_gpu, kv_replication=round(replication, 4),
        by_layer_type=kv.by_layer_type, formula=_kv_formula(dep, kv, tokens=tokens, concurrency=concurrency))


def _per_layer_formula(dep: Deployment) -> str:
    """How one token's KV in one attention layer is counted, with this model's numbers."""
    arch, kvf = dep.arch, dep.kvf
    if arch.mla is not None:
        if kvf.name == "fp8_ds_mla":
            per = "656 B (fp8_ds_mla)"
        else:
            per = f"(kv_lora_rank {arch.mla[0]} + qk_rope_head_dim {arch.mla[1]}) x {kvf.vector_bytes(1):g} B"
        extra = f" + indexer {arch.indexer_bytes_per_token} B" if arch.indexer_bytes_per_token else ""
        return f"MLA B/token/layer = {per}{extra} (no factor 2, not split by TP)"
    vb = kvf.vector_bytes(arch.head_dim)
    return (f"attention B/token/layer = 2 (K,V) x {arch.kv_heads} KV heads x {vb:g} B per {arch.head_dim}-dim head "
            f"vector ({kvf.name})")


def _kv_formula(dep: Deployment, kv: KVTally, *, tokens: int, concurrency: int) -> str:
    """The per-token, per-sequence and workload formula with this model's numbers."""
    terms = []
    for lt in kv.by_layer_type:
        if lt.bytes_per_token_per_layer:
            terms.append(f"{lt.layers} x {lt.bytes_per_token_per_layer:,} x {lt.resident_tokens_per_sequence:,}")
        if lt.state_bytes_per_layer:
            terms.append(f"{lt.layers} x {lt.state_bytes_per_layer:,} state")
    per_gpu = ("each GPU keeps the whole latent" if dep.arch.mla is not None else
               f"each GPU keeps max(1, {dep.arch.kv_heads} // TP {dep.tp}) = {dep.kv_heads_per_gpu} KV head(s)")
    return (f"{_per_layer_formula(dep)}; per sequence = sum over layer types of layers x B/token/layer x "
            f"min(window, {tokens:,} tokens) + recurrent state = {' + '.join(terms) or '0'} = "
            f"{kv.sequence_bytes:,} B; workload = {kv.sequence_bytes:,} x {concurrency:,} sequences = "
            f"{kv.sequence_bytes * concurrency:,} B; per GPU: {per_gpu} for the layers of its pipeline stage")
