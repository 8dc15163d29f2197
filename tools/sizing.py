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

import fnmatch
import json
import math
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from .architecture import Architecture, LayerSpec, Tensor, parse_architecture
from .catalog import GPUSpec, find_model, lookup_gpu, lookup_model, suggest_models
from .errors import InputFormatError, ModelConfigError, UnknownModelError
from .formats import KVFormat, WeightFormat, checkpoint_weight_format, kv_format, weight_format

__all__ = [
    "Ceilings",
    "ComponentBytes",
    "DecodeCeiling",
    "KVCacheReport",
    "LayerTypeKV",
    "ModelInfo",
    "Overhead",
    "Parallelism",
    "PerGPUReport",
    "PrefillCeiling",
    "SizingReport",
    "SizingRequest",
    "WeightsReport",
    "size_deployment",
]

Evidence = Literal["exact", "estimate", "ceiling"]
GiB = 1024**3
_MAX_CONFIG_BYTES = 5 * 1024 * 1024
REFERENCE = "references/memory-sizing.md"

# Overhead constants (estimates), each with its source.
_CUDA_CONTEXT_BYTES = 512 * 1024**2
_CUDA_GRAPH_BYTES = 1 * GiB
_NCCL_BY_GROUP = {1: 0, 2: 358_612_992, 4: 411_041_792, 8: 411_041_792}
_SRC_NCCL = "ai-dynamo/aiconfigurator systems/*.yaml misc.nccl_mem (research: sizing-anchors.md 1.9)"
_SRC_GRAPH = ("vLLM PR #21489: Gemma-3-4B 0.65 GiB of CUDA-graph memory; Llama 4 Maverick under-estimated by ~1.3 GB "
              "(sizing-anchors.md 1.1)")
_SRC_CONTEXT = "CUDA context and non-torch allocations ~0.5 GiB outside torch (sizing-anchors.md 1.10 item 11)"
_SRC_ACT = ("vLLM sizes this by profiling a dummy forward of max_num_batched_tokens tokens "
            "(vllm/v1/worker/gpu_worker.py determine_available_memory); this closed form is our estimate")


class SizingRequest(BaseModel):
    """What to size: a model, formats, a workload and a deployment."""

    model_config = ConfigDict(extra="forbid")

    model: str | None = Field(
        None, min_length=1, max_length=200,
        description="Catalog name or alias (e.g. 'Llama-3.1-70B', 'DeepSeek-V3', 'gpt-oss-120b'), or a Hugging Face "
                    "repo id 'org/name' fetched from the Hub when not in the catalog. Give exactly one of model, "
                    "config_path, config_json.")
    config_path: str | None = Field(None, min_length=1, max_length=4096,
                                    description="Path to a Hugging Face config.json (multimodal text_config supported).")
    config_json: dict[str, Any] | str | None = Field(
        None, description="A Hugging Face config.json given inline, as an object or as JSON text.")
    hub_revision: str = Field("main", min_length=1, max_length=100, description="Hub branch, tag or commit for a repo id.")
    offline: bool = Field(False, description="Never use the network; Hub repos must be in the on-disk cache.")
    weights: str | None = Field(
        None, max_length=40,
        description="Weight format: fp32, bf16, fp16, fp8 (per-channel scales), fp8-tensor, fp8-block (128x128), int8, "
                    "int4-awq / int4-gptq (group 128; -g64 etc.), mxfp4, nvfp4, GGUF q8_0/q6_k/q5_k_m/q4_k_m/q4_0/"
                    "q3_k_m/q2_k/iq4_xs or gguf-<bits>. Default: the checkpoint's own format from "
                    "quantization_config (never torch_dtype alone).")
    kv: str = Field("auto", max_length=20,
                    description="KV-cache format: auto (model dtype), bf16, fp16, fp8, int8, int4, nvfp4, fp8_ds_mla (MLA).")
    tokens: int | None = Field(
        None, ge=1, le=100_000_000,
        description="Tokens resident per sequence (prompt + output). Default: the model's configured max context, "
                    "which is capacity, not workload.")
    prompt_tokens: int | None = Field(None, ge=1, le=100_000_000,
                                      description="Prompt length for the prefill ceiling. Default: tokens.")
    concurrency: int = Field(1, ge=1, le=10_000_000, description="Sequences resident at once (all replicas).")
    gpu: str | None = Field(None, max_length=60,
                            description="GPU catalog name, e.g. h100, h200, b200, a100-80gb, l40s, mi300x. Needed for "
                                        "fit and ceilings.")
    gpus: int | None = Field(None, ge=1, le=100_000,
                             description="Total GPUs; a multiple of tp x pp (the rest are data-parallel replicas). "
                                         "Default tp x pp.")
    tp: int = Field(1, ge=1, le=1024, description="Tensor-parallel size.")
    pp: int = Field(1, ge=1, le=1024, description="Pipeline-parallel size (layers split into pp stages).")
    ep: int = Field(1, ge=1, le=100_000, description="Expert-parallel size: routed experts split over max(tp, ep) GPUs.")
    gpu_memory_bytes: int | None = Field(
        None, ge=1_000_000_000, le=10**13,
        description="Override the GPU's memory in bytes (e.g. what nvidia-smi reports on your nodes).")
    overhead_bytes: int | None = Field(
        None, ge=0, le=10**12,
        description="Override the per-GPU runtime overhead estimate (activations, CUDA graphs, NCCL, context) with "
                    "a measured or planned figure in bytes.")
    memory_utilization: float = Field(0.92, gt=0, le=1,
                                      description="Share of GPU memory the engine may use (vLLM "
                                                  "gpu_memory_utilization; 0.92 in vLLM 0.33, 0.9 before).")
    max_num_batched_tokens: int | None = Field(
        None, ge=1, le=10_000_000,
        description="Scheduler token budget that sets the activation workspace. Default: vLLM's per-GPU default.")
    cuda_graphs: bool = Field(True, description="Reserve CUDA-graph memory (false = eager mode).")
    bandwidth_efficiency: float = Field(0.8, gt=0, le=1,
                                        description="Achievable share of peak HBM bandwidth for the estimate next to "
                                                    "the decode ceiling (aiconfigurator uses 0.8).")
    compute_efficiency: float = Field(0.45, gt=0, le=1,
                                      description="Achievable share of dense peak (MFU) for the estimate next to the "
                                                  "prefill ceiling (llm-optimizer default 0.45).")

    @model_validator(mode="after")
    def _check(self) -> SizingRequest:
        given = [n for n in ("model", "config_path", "config_json") if getattr(self, n) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of model, config_path, config_json "
                             f"(got {', '.join(given) if given else 'none'})")
        if self.gpus is not None and self.gpus % (self.tp * self.pp):
            raise ValueError(f"gpus ({self.gpus}) must be a multiple of tp x pp ({self.tp} x {self.pp})")
        if self.prompt_tokens is not None and self.tokens is not None and self.prompt_tokens > self.tokens:
            raise ValueError(f"prompt_tokens ({self.prompt_tokens}) cannot exceed tokens ({self.tokens})")
        return self


class ModelInfo(BaseModel):
    name: str
    source: str
    model_type: str
    layers: int
    hidden_size: int
    attention: str = Field(description="MHA/GQA/MQA/MLA summary with head counts and head_dim")
    moe: str | None = Field(None, description="Experts, active per token, dense layers")
    max_context_tokens: int | None


class ComponentBytes(BaseModel):
    component: str
    params: int
    bytes: int
    format: str


class WeightsReport(BaseModel):
    format: str
    format_basis: str = Field(description="Why this format: quantization_config, torch_dtype or the request")
    format_description: str
    params: int
    active_params: int = Field(description="Params used per token (routed experts: top-k of E)")
    bytes: int
    bytes_per_gpu: int = Field(description="Largest per-GPU share (worst pipeline stage)")
    by_component: list[ComponentBytes]
    checkpoint_bytes: int | None = Field(None, description="Stored safetensors bytes (index total_size) when known")
    checkpoint_bytes_source: str | None = None
    evidence: Evidence


class LayerTypeKV(BaseModel):
    layer_type: str
    layers: int
    window_tokens: int | None
    bytes_per_token_per_layer: int
    resident_tokens_per_sequence: int
    state_bytes_per_layer: int
    bytes_per_sequence: int


class KVCacheReport(BaseModel):
    format: str
    format_description: str
    bytes_per_token: int = Field(description="Bytes added per extra token once every window is full, all layers")
    bytes_per_token_per_gpu: int
    state_bytes_per_sequence: int = Field(description="Fixed recurrent (Mamba / linear attention) state; 0 when none")
    tokens_per_sequence: int
    tokens_basis: str
    concurrency: int
    bytes_per_sequence: int
    bytes: int
    bytes_per_gpu: int
    kv_heads_per_gpu: int | None
    kv_replication: float = Field(description="KV bytes per GPU x TP / total KV per replica (1 = no replication)")
    by_layer_type: list[LayerTypeKV]
    evidence: Evidence


class Overhead(BaseModel):
    name: str
    bytes: int
    basis: str
    source: str
    inside_budget: bool
    evidence: Evidence = "estimate"


class Parallelism(BaseModel):
    gpus: int
    tp: int
    pp: int
    ep: int
    dp: int
    layers_per_stage: list[int]
    sequences_per_replica: int


class PerGPUReport(BaseModel):
    gpu: str | None
    memory_bytes: int | None
    memory_basis: str | None
    memory_utilization: float
    budget_bytes: int | None
    weights_bytes: int
    kv_bytes: int
    overhead_bytes: int
    total_bytes: int
    free_bytes: int | None = Field(description="budget - total (negative: does not fit)")
    fits: bool | None
    max_concurrency: int | None = Field(description="Sequences of tokens_per_sequence that fit (all replicas)")
    max_tokens_per_sequence: int | None = Field(description="Tokens per sequence that fit at the given concurrency")
    max_tokens_limited_by: str | None
    worst_stage: int
    evidence: Evidence = "estimate"


class DecodeCeiling(BaseModel):
    batch_per_replica: int
    weights_bytes_per_step_per_gpu: int
    kv_bytes_per_step_per_gpu: int
    expected_distinct_experts_per_layer: float | None
    memory_time_ms: float
    compute_time_ms: float | None
    compute_dtype: str | None
    bound: Literal["memory", "compute"]
    tokens_per_s_per_sequence: float
    tokens_per_s_aggregate: float
    tokens_per_s_per_sequence_at_efficiency: float
    tokens_per_s_aggregate_at_efficiency: float
    bandwidth_efficiency: float
    formula: str
    evidence: Evidence = "ceiling"


class PrefillCeiling(BaseModel):
    prompt_tokens: int
    flops: float
    compute_dtype: str
    peak_tflops_per_gpu: float
    gpus_used: int
    time_s: float
    time_s_at_efficiency: float
    efficiency: float
    formula: str
    evidence: Evidence = "ceiling"


class Ceilings(BaseModel):
    decode: DecodeCeiling | None
    prefill: PrefillCeiling | None
    notes: list[str]


class SizingReport(BaseModel):
    """Itemized sizing answer; every figure carries its evidence class."""

    model: ModelInfo
    weights: WeightsReport
    kv_cache: KVCacheReport
    overheads: list[Overhead]
    overhead_bytes: int
    per_gpu: PerGPUReport
    parallelism: Parallelism
    ceilings: Ceilings
    assumptions: list[str]
    references: list[str]

    def to_text(self) -> str:
        return _render(self)


# ---------------------------------------------------------------------------------------------
# model resolution


def _load_config(request: SizingRequest) -> tuple[dict[str, Any], str, str, int | None, str | None]:
    """(config, display name, source, checkpoint bytes, checkpoint bytes source)."""
    if request.config_json is not None:
        cfg = request.config_json
        if isinstance(cfg, str):
            if len(cfg) > _MAX_CONFIG_BYTES:
                raise InputFormatError(f"config_json: {len(cfg):,} characters, over the {_MAX_CONFIG_BYTES:,} limit")
            try:
                cfg = json.loads(cfg)
            except ValueError as exc:
                raise InputFormatError(f"config_json: not valid JSON ({exc})") from exc
        if not isinstance(cfg, dict):
            raise InputFormatError("config_json: expected a JSON object (a Hugging Face config.json)")
        arches = cfg.get("architectures")
        label = cfg.get("_name_or_path") or (arches[0] if isinstance(arches, list) and arches else "inline config")
        return cfg, str(label)[:200], "inline config_json", None, None
    if request.config_path is not None:
        path = Path(request.config_path).expanduser()
        if not path.is_file():
            raise InputFormatError(f"config_path: '{request.config_path}' is not a readable file")
        size = path.stat().st_size
        if size > _MAX_CONFIG_BYTES:
            raise InputFormatError(f"config_path: file is {size:,} bytes, over the {_MAX_CONFIG_BYTES:,}-byte limit "
                                   "(a config.json is a few KB)")
        try:
            cfg = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError) as exc:
            raise InputFormatError(f"config_path: '{path}' is not valid JSON ({exc})") from exc
        if not isinstance(cfg, dict):
            raise InputFormatError(f"config_path: '{path}' does not hold a JSON object")
        return cfg, path.parent.name or path.name, f"config file {path}", None, None
    name = request.model or ""
    entry = find_model(name)
    if entry is not None:
        anchor = entry.anchors.get("safetensors_total_size") or entry.anchors.get("weights_bytes_as_stored")
        return (entry.config, entry.name, f"catalog: {entry.source.url} (read from {entry.source.read_from})",
                int(anchor.value) if anchor else None, anchor.source if anchor else None)
    if "/" not in name:
        lookup_model(name)  # raises UnknownModelError with suggestions
    from .hub import fetch_hub_model

    try:
        hub = fetch_hub_model(name, revision=request.hub_revision, offline=request.offline)
    except UnknownModelError as exc:
        hint = suggest_models(name.split("/")[-1])
        raise UnknownModelError(f"{exc}" + (f"; closest catalog entries: {', '.join(hint)}" if hint else "")) from exc
    src = f"Hugging Face Hub {hub.source_url}" + (" (cached)" if hub.from_cache else "")
    return (hub.config, name, src, hub.safetensors_total_size,
            "model.safetensors.index.json metadata.total_size" if hub.safetensors_total_size else None)


# ---------------------------------------------------------------------------------------------
# weights


def _skipped(fmt: WeightFormat, name: str) -> bool:
    for pat in fmt.skip_patterns:
        if pat.startswith("re:"):
            if re.match(pat[3:], name):
                return True
        elif fnmatch.fnmatch(name, pat) or fnmatch.fnmatch(name, pat + ".*") or ("*" not in pat and pat in name):
            return True
    return False


def _tensor_bytes(t: Tensor, fmt: WeightFormat) -> tuple[int, str]:
    """Bytes of a tensor (all copies) and the format label it was stored in."""
    if fmt.applies_to == "all":
        return t.numel * int(fmt.bits) // 8, fmt.name
    if fmt.scale == "gguf":
        if t.linear or t.component in ("embedding", "lm_head"):
            return fmt.matrix_bytes(t.rows, t.cols) * t.count, fmt.name
        return t.numel * 4, "f32"
    if t.linear and t.component != "lm_head" and not _skipped(fmt, t.name):
        return fmt.matrix_bytes(t.rows, t.cols) * t.count, fmt.name
    return t.numel * fmt.other_bytes, "bf16" if fmt.other_bytes == 2 else "fp32"


def _stages(L: int, pp: int) -> list[list[int]]:
    """Layer indices per pipeline stage, as vLLM's get_pp_indices (extra layers to the earlier stages)."""
    if pp > L:
        raise ModelConfigError(f"pp: {pp} pipeline stages exceed the model's {L} layers")
    parts = [L // pp] * pp
    for i in range(2, L % pp + 2):
        parts[-i] += 1
    out, start = [], 0
    for n in parts:
        out.append(list(range(start, start + n)))
        start += n
    return out


def _fraction(t: Tensor, arch: Architecture, tp: int, ep: int, kv_per_gpu: int) -> float:
    if t.split in ("column", "row", "vocab"):
        return 1 / tp
    if t.split == "kv":
        return kv_per_gpu / arch.kv_heads
    if t.split == "expert":
        return 1 / max(tp, ep)
    return 1.0


# ---------------------------------------------------------------------------------------------
# KV cache


def _layer_token_bytes(layer: LayerSpec, arch: Architecture, kvf: KVFormat, kv_heads: int) -> float:
    """KV bytes per token for one layer with ``kv_heads`` KV heads (MLA: one latent vector)."""
    if layer.kv_shared or layer.mixer not in ("attention", "mla"):
        return 0.0
    if layer.mixer == "mla":
        assert arch.mla is not None
        if kvf.name == "fp8_ds_mla":
            return 656.0 + arch.indexer_bytes_per_token
        return kvf.vector_bytes(arch.mla[0] + arch.mla[1]) + arch.indexer_bytes_per_token
    return 2 * kv_heads * kvf.vector_bytes(arch.head_dim)


def _resident(layer: LayerSpec, tokens: int) -> int:
    if layer.kv_shared or layer.mixer not in ("attention", "mla"):
        return 0
    if layer.window is not None:
        return min(layer.window, tokens)
    return tokens


# ---------------------------------------------------------------------------------------------
# main entry


def size_deployment(request: SizingRequest) -> SizingReport:
    """Size a deployment: itemized memory, fit, capacity and roofline ceilings.

    Example::

        size_deployment(SizingRequest(model="Llama-3.1-70B", weights="fp8", tokens=32768,
                                      concurrency=16, gpu="h100", tp=4))
    """
    assumptions: list[str] = []
    config, name, source, ckpt_bytes, ckpt_src = _load_config(request)
    arch = parse_architecture(config)
    assumptions += list(arch.notes)
    tp, pp, ep = request.tp, request.pp, request.ep
    gpus = request.gpus or tp * pp
    dp = gpus // (tp * pp)
    if arch.heads % tp:
        raise ModelConfigError(f"tp: {tp} does not divide num_attention_heads ({arch.heads})")
    if arch.mla is None and arch.kv_heads % tp and tp % arch.kv_heads:
        raise ModelConfigError(f"tp: {tp} must divide num_key_value_heads ({arch.kv_heads}) or be a multiple of it")
    if ep > 1 and not arch.experts:
        raise ModelConfigError(f"ep: {ep} given but the model has no experts")
    if ep > tp * dp:
        raise ModelConfigError(f"ep: {ep} exceeds the GPUs of one pipeline stage (tp x dp = {tp * dp}); raise gpus")
    kv_per_gpu = max(1, arch.kv_heads // tp)

    # formats
    if request.weights:
        fmt = weight_format(request.weights)
        basis = "requested"
        if fmt.quantized:
            assumptions.append(f"weights {fmt.name}: applied to every linear layer; embeddings, lm_head, norms and "
                               "routers stay bf16 (GGUF: norms f32, embeddings quantized)")
    else:
        fmt, basis = checkpoint_weight_format(arch.config)
        if fmt.skip_patterns:
            assumptions.append(f"checkpoint keeps unquantized: {', '.join(fmt.skip_patterns)}; lm_head, norms and "
                               "routers are never quantized here")
    if not fmt.exact:
        assumptions.append(f"{fmt.name}: {fmt.description}")
    kvf = kv_format(request.kv, arch.dtype)
    if kvf.name == "fp8_ds_mla" and arch.mla is None:
        raise ModelConfigError("kv: fp8_ds_mla applies to MLA models (kv_lora_rank) only")

    # tokens
    if request.tokens is not None:
        tokens, tokens_basis = request.tokens, "declared workload (prompt + output per sequence)"
    elif arch.max_position:
        tokens = arch.max_position
        tokens_basis = "model max context (max_position_embeddings): capacity, not workload"
        assumptions.append(f"no tokens given: every sequence is sized at the configured max context {tokens:,}; "
                           "that is capacity, not a workload; pass tokens for the real prompt + output length")
    else:
        raise ModelConfigError("tokens: not given and the config has no max_position_embeddings")
    if arch.max_position and tokens > arch.max_position:
        assumptions.append(f"tokens {tokens:,} exceed the model's max_position_embeddings {arch.max_position:,}")
    prompt = request.prompt_tokens or tokens
    seqs = math.ceil(request.concurrency / dp)

    # weights: totals and per stage
    stages = _stages(len(arch.layers), pp)
    stage_of = {i: s for s, idx in enumerate(stages) for i in idx}
    total_w = 0
    stage_w = [0] * pp
    comp: dict[tuple[str, str], list[int]] = {}
    routed_stage_bytes = [0] * pp  # per GPU, routed experts only
    nonexpert_read = [0] * pp  # per GPU bytes read per decode step, excluding embedding and routed experts
    for t in arch.tensors:
        b, label = _tensor_bytes(t, fmt)
        total_w += b
        row = comp.setdefault((t.component, label), [0, 0])
        row[0] += t.numel
        row[1] += b
        per_gpu = math.ceil(b * _fraction(t, arch, tp, ep, kv_per_gpu))
        if t.layer is None:
            targets = [0] if t.component == "embedding" else [pp - 1]
            if t.component == "embedding" and arch.tied_embeddings and pp > 1:
                targets.append(pp - 1)  # the last stage keeps a copy as lm_head
        else:
            targets = [stage_of[t.layer]]
        for s in targets:
            stage_w[s] += per_gpu
            if t.component == "experts":
                routed_stage_bytes[s] += per_gpu
            elif t.component != "embedding" or arch.tied_embeddings and s == pp - 1:
                nonexpert_read[s] += per_gpu
    by_component = [ComponentBytes(component=c, params=v[0], bytes=v[1], format=lab)
                    for (c, lab), v in sorted(comp.items(), key=lambda kv_: -kv_[1][1])]
    weights_exact = fmt.exact
    mtp = arch.config.get("num_nextn_predict_layers")
    if isinstance(mtp, int) and mtp > 0:
        assumptions.append(f"the checkpoint also stores {mtp} multi-token-prediction layer(s), loaded only for MTP "
                           "speculative decoding: not counted")
    if ckpt_bytes and not request.weights:
        if ckpt_bytes == total_w:
            assumptions.append(f"computed weight bytes equal the checkpoint's stored bytes ({ckpt_bytes:,})")
        else:
            assumptions.append(f"computed weight bytes {total_w:,} differ from the checkpoint's stored "
                               f"{ckpt_bytes:,} by {total_w - ckpt_bytes:+,} (extra tensors such as MTP layers or "
                               "vision towers, or a different scale layout)")

    # KV
    rows: dict[str, dict[str, Any]] = {}
    per_tok_total = 0.0
    per_tok_gpu = 0.0
    state_total = 0
    seq_total = 0.0

    def stage_seq_bytes(s: int, t_: int) -> int:
        """KV + state bytes per sequence on one GPU of stage s at t_ tokens."""
        acc = 0.0
        for i in stages[s]:
            lay = arch.layers[i]
            acc += _layer_token_bytes(lay, arch, kvf, kv_per_gpu) * _resident(lay, t_)
            if lay.state is not None:
                acc += math.ceil(lay.state.bytes / tp)
        return math.ceil(acc)

    for lay in arch.layers:
        if lay.mixer == "none":
            continue
        per_layer = _layer_token_bytes(lay, arch, kvf, arch.kv_heads)
        res = _resident(lay, tokens)
        st = lay.state.bytes if lay.state else 0
        r = rows.setdefault(lay.kind, {"layers": 0, "window": lay.window, "per": per_layer, "res": res, "state": st, "seq": 0.0})
        r["layers"] += 1
        r["seq"] += per_layer * res + st
        if (lay.window is None) and not lay.kv_shared:
            per_tok_total += per_layer
            per_tok_gpu += _layer_token_bytes(lay, arch, kvf, kv_per_gpu)
        state_total += st
        seq_total += per_layer * res + st
    by_layer = [LayerTypeKV(layer_type=k, layers=v["layers"], window_tokens=v["window"],
                            bytes_per_token_per_layer=math.ceil(v["per"]), resident_tokens_per_sequence=v["res"],
                            state_bytes_per_layer=v["state"], bytes_per_sequence=math.ceil(v["seq"]))
                for k, v in rows.items()]
    seq_bytes = math.ceil(seq_total)
    stage_kv = [stage_seq_bytes(s, tokens) * seqs for s in range(pp)]
    replica_gpu_kv = sum(stage_seq_bytes(s, tokens) for s in range(pp)) * tp
    replication = replica_gpu_kv / seq_bytes if seq_bytes else 1.0
    if arch.mla is None and tp > arch.kv_heads:
        assumptions.append(f"tp {tp} > {arch.kv_heads} KV heads: each GPU keeps 1 KV head, so KV is replicated "
                           f"{tp // arch.kv_heads}x across the TP group (vLLM)")
    if arch.mla is not None and tp > 1:
        assumptions.append(f"MLA: every TP rank keeps the full {arch.mla[0] + arch.mla[1]}-wide latent per layer; "
                           f"KV is not split by TP (vLLM), so it is replicated {tp}x")
    if arch.indexer_bytes_per_token:
        assumptions.append(f"DSA lightning indexer: {arch.indexer_bytes_per_token} B per token per MLA layer (fp8 key + "
                           "fp32 scale per 128, vLLM DeepseekV32IndexerCache) added to the latent KV in every KV format")
    if any(lay.window is not None for lay in arch.layers):
        assumptions.append("windowed layers hold min(window, tokens) tokens; vLLM's paged cache holds up to "
                           "window - 1 + max_num_batched_tokens during prefill and rounds to 16-token blocks")
    if state_total:
        assumptions.append("recurrent state counted once per sequence (vLLM keeps 2 copies with prefix caching "
                           "in 'align' mode); conv state in the model dtype, SSM state in mamba_ssm_dtype if set")

    # GPU and overheads
    gpu: GPUSpec | None = lookup_gpu(request.gpu) if request.gpu else None
    mem = request.gpu_memory_bytes or (gpu.memory.bytes if gpu else None)
    mem_basis = (f"{request.gpu_memory_bytes:,} B as given" if request.gpu_memory_bytes
                 else gpu.memory.basis if gpu else None)
    if request.max_num_batched_tokens:
        mnbt = request.max_num_batched_tokens
        max_seqs = 1024 if mem and mem >= 70 * GiB else 256
    else:
        if mem and mem >= 160 * GiB:
            mnbt, max_seqs = 16384, 1024
        elif mem and mem >= 70 * GiB and not (gpu and "a100" in gpu.id):
            mnbt, max_seqs = 8192, 1024
        elif mem:
            mnbt, max_seqs = 2048, 256
        else:
            mnbt, max_seqs = 8192, 1024
        assumptions.append(f"max_num_batched_tokens {mnbt}, max_num_seqs {max_seqs}: vLLM's API-server defaults "
                           "for this GPU class (vllm/engine/arg_utils.py)")
    act_bytes = 4 if arch.dtype == "fp32" else 2
    widths = [4 * arch.hidden]
    q = arch.heads * (arch.qk_head_dim if arch.mla else arch.head_dim)
    widths.append(q // tp + (arch.mla[0] + arch.mla[1] if arch.mla else 2 * kv_per_gpu * arch.head_dim))
    ffn_w = 0
    for t in arch.tensors:
        if t.linear and t.split == "column" and t.component in ("mlp", "shared_experts", "mixer"):
            ffn_w = max(ffn_w, t.rows // tp)
        if t.component == "experts" and t.linear and t.rows != arch.hidden:
            ffn_w = max(ffn_w, t.rows * arch.top_k // tp)
    act = mnbt * act_bytes * (4 * arch.hidden + max(widths[1], ffn_w)) + max_seqs * math.ceil(arch.vocab / tp) * 4
    group = max(tp, ep if ep > 1 else 1)
    nccl = _NCCL_BY_GROUP.get(group, 411_041_792 if group > 1 else 0)
    overheads = [
        Overhead(name="activation_workspace", bytes=act,
                 basis=f"{mnbt} batched tokens x {act_bytes} B x (4 x hidden + widest per-GPU projection) + "
                       f"{max_seqs} sampled rows x vocab/TP x 4 B fp32 logits",
                 source=_SRC_ACT, inside_budget=True),
        Overhead(name="cuda_graphs", bytes=_CUDA_GRAPH_BYTES if request.cuda_graphs else 0,
                 basis="1 GiB when CUDA graphs are captured, 0 in eager mode", source=_SRC_GRAPH, inside_budget=True),
        Overhead(name="communication_buffers", bytes=nccl,
                 basis=f"NCCL workspace for a {group}-GPU group", source=_SRC_NCCL, inside_budget=True),
        Overhead(name="cuda_context", bytes=_CUDA_CONTEXT_BYTES, basis="0.5 GiB per process",
                 source=_SRC_CONTEXT, inside_budget=True),
    ]
    if request.overhead_bytes is not None:
        overheads = [Overhead(name="runtime_overhead", bytes=request.overhead_bytes,
                              basis="given: activations, CUDA graphs, communication buffers and CUDA context together",
                              source="request.overhead_bytes", inside_budget=True)]
    if mem:
        overheads.append(Overhead(
            name="allocator_headroom", bytes=mem - math.floor(mem * request.memory_utilization),
            basis=f"(1 - memory_utilization {request.memory_utilization}) x GPU memory, left outside the engine's "
                  "budget for fragmentation and other processes",
            source="vllm/config/cache.py gpu_memory_utilization (sizing-anchors.md 1.1)", inside_budget=False))
    over_in = sum(o.bytes for o in overheads if o.inside_budget)

    # per-GPU totals and capacity
    stage_total = [stage_w[s] + stage_kv[s] + over_in for s in range(pp)]
    worst = max(range(pp), key=lambda s: stage_total[s])
    budget = math.floor(mem * request.memory_utilization) if mem else None
    fits = max_conc = max_tok = None
    limited_by = None
    if budget is not None:
        avail = [budget - stage_w[s] - over_in for s in range(pp)]
        fits = all(stage_total[s] <= budget for s in range(pp))
        per_seq = [stage_seq_bytes(s, tokens) for s in range(pp)]
        counts = [(avail[s] // per_seq[s]) if per_seq[s] else 10**12 for s in range(pp)]
        max_conc = max(0, min(counts)) * dp if min(avail) >= 0 else 0
        cap = arch.max_position or 10**9

        def ok(t_: int) -> bool:
            return all(seqs * stage_seq_bytes(s, t_) <= avail[s] for s in range(pp))

        if min(avail) < 0 or not ok(1):
            max_tok, limited_by = 0, "weights and overheads leave no room for one token per sequence"
        elif ok(cap):
            max_tok = cap
            limited_by = ("model max context (max_position_embeddings)" if arch.max_position else "search limit 1e9")
        else:
            lo, hi = 1, cap
            while lo < hi:
                mid = (lo + hi + 1) // 2
                if ok(mid):
                    lo = mid
                else:
                    hi = mid - 1
            max_tok, limited_by = lo, "GPU memory"
    per_gpu = PerGPUReport(
        gpu=gpu.id if gpu else None, memory_bytes=mem, memory_basis=mem_basis,
        memory_utilization=request.memory_utilization, budget_bytes=budget, weights_bytes=stage_w[worst],
        kv_bytes=stage_kv[worst], overhead_bytes=over_in, total_bytes=stage_total[worst],
        free_bytes=(budget - stage_total[worst]) if budget is not None else None, fits=fits,
        max_concurrency=max_conc, max_tokens_per_sequence=max_tok, max_tokens_limited_by=limited_by,
        worst_stage=worst)
    if gpu is None:
        assumptions.append("no gpu given: ceilings are not computed" + ("" if mem else ", nor fit and capacity"))

    ceilings = _ceilings(arch, fmt, gpu, request, stages, stage_seq_bytes, nonexpert_read, routed_stage_bytes,
                         tokens, prompt, seqs, dp, tp, ep, assumptions)

    attention = _attention_summary(arch)
    moe = None
    if arch.experts:
        n_moe = sum(1 for lay in arch.layers if lay.ffn == "moe")
        moe = (f"{arch.experts} routed experts, top-{arch.top_k}, in {n_moe} of {len(arch.layers)} layers; all experts "
               "resident for memory, top-k for compute")
    info = ModelInfo(name=name, source=source, model_type=arch.model_type, layers=len(arch.layers),
                     hidden_size=arch.hidden, attention=attention, moe=moe, max_context_tokens=arch.max_position)
    weights = WeightsReport(
        format=fmt.name, format_basis=basis, format_description=fmt.description, params=arch.params,
        active_params=arch.active_params, bytes=total_w, bytes_per_gpu=max(stage_w), by_component=by_component,
        checkpoint_bytes=ckpt_bytes, checkpoint_bytes_source=ckpt_src,
        evidence="exact" if weights_exact else "estimate")
    kv_report = KVCacheReport(
        format=kvf.name, format_description=kvf.description, bytes_per_token=math.ceil(per_tok_total),
        bytes_per_token_per_gpu=math.ceil(per_tok_gpu), state_bytes_per_sequence=state_total,
        tokens_per_sequence=tokens, tokens_basis=tokens_basis, concurrency=request.concurrency,
        bytes_per_sequence=seq_bytes, bytes=seq_bytes * request.concurrency, bytes_per_gpu=stage_kv[worst],
        kv_heads_per_gpu=None if arch.mla else kv_per_gpu, kv_replication=round(replication, 4), by_layer_type=by_layer,
        evidence="exact")
    assumptions.append("GiB = 2^30 bytes; GB = 10^9 bytes. Per-GPU shares split sharded tensors pro rata (vLLM also "
                       "pads the vocabulary to a multiple of 64 per rank)")
    if arch.tied_embeddings:
        assumptions.append("tied embeddings: lm_head shares the embedding matrix (counted once)")
    return SizingReport(
        model=info, weights=weights, kv_cache=kv_report, overheads=overheads, overhead_bytes=over_in,
        per_gpu=per_gpu,
        parallelism=Parallelism(gpus=gpus, tp=tp, pp=pp, ep=ep, dp=dp, layers_per_stage=[len(s) for s in stages],
                                sequences_per_replica=seqs),
        ceilings=ceilings, assumptions=assumptions,
        references=[f"{REFERENCE}#kv-cache-per-token", f"{REFERENCE}", "research: sizing-anchors.md"],
    )


def _attention_summary(arch: Architecture) -> str:
    if arch.mla:
        return (f"MLA: {arch.heads} heads, latent kv_lora_rank {arch.mla[0]} + rope {arch.mla[1]} "
                f"= {arch.mla[0] + arch.mla[1]} values per token per layer")
    kind = "MHA" if arch.kv_heads == arch.heads else "MQA" if arch.kv_heads == 1 else "GQA"
    return f"{kind}: {arch.heads} query heads, {arch.kv_heads} KV heads, head_dim {arch.head_dim}"


def _peak(gpu: GPUSpec, compute: str, notes: list[str]) -> tuple[str, float] | None:
    order = {"fp8": ["fp8", "bf16"], "int8": ["int8", "bf16"], "fp4": ["fp4", "bf16"], "bf16": ["bf16"],
             "fp32": ["bf16"]}[compute]
    for dt in order:
        v = gpu.dense_tflops.get(dt)
        if v is not None:
            if dt != compute:
                notes.append(f"{gpu.id} has no {compute} dense peak in the catalog; using {dt}")
            return dt, float(v.value)
    notes.append(f"{gpu.id} has no dense {compute} peak in the catalog; compute ceilings not given")
    return None


def _attn_keys(layer: LayerSpec, s: int) -> int:
    """Sum over query positions 1..s of the keys each attends to (causal, window-limited)."""
    w = layer.window
    if w is None or s <= w:
        return s * (s + 1) // 2
    return w * (w + 1) // 2 + (s - w) * w


def _ceilings(arch: Architecture, fmt: WeightFormat, gpu: GPUSpec | None, req: SizingRequest, stages: list[list[int]],
              stage_seq_bytes: Any, nonexpert_read: list[int], routed: list[int], tokens: int, prompt: int,
              seqs: int, dp: int, tp: int, ep: int, assumptions: list[str]) -> Ceilings:
    notes: list[str] = []
    if gpu is None:
        return Ceilings(decode=None, prefill=None, notes=["no gpu given"])
    bw = gpu.bandwidth_bytes_per_s
    distinct = None
    frac = 1.0
    if arch.experts:
        E, k = arch.experts, arch.top_k
        distinct = E * (1 - (1 - k / E) ** seqs)
        frac = distinct / E
        notes.append(f"MoE: expected distinct experts per layer at batch {seqs} = E(1-(1-k/E)^B) = {distinct:.2f} of {E}")
    w_read = [nonexpert_read[s] + math.ceil(routed[s] * frac) for s in range(len(stages))]
    kv_read = [seqs * stage_seq_bytes(s, tokens) for s in range(len(stages))]
    mem_time = sum(w_read[s] + kv_read[s] for s in range(len(stages))) / bw
    emb = sum(t.numel for t in arch.tensors if t.component == "embedding")
    head = sum(t.numel for t in arch.tensors if t.component == "lm_head") or (emb if arch.tied_embeddings else 0)
    body = arch.active_params - emb - (0 if arch.tied_embeddings else head)
    attn_layers = [lay for lay in arch.layers if lay.mixer in ("attention", "mla") and not lay.kv_shared]
    attn_width = arch.heads * (arch.qk_head_dim + arch.v_head_dim)
    peak = _peak(gpu, fmt.compute, notes)
    comp_time = None
    dtype = None
    if peak:
        dtype, tflops = peak
        dec_flops = seqs * (2 * (body + head) + sum(2 * attn_width * _resident(lay, tokens) for lay in attn_layers))
        comp_time = dec_flops / (tp * tflops * 1e12)
    step = max(mem_time, comp_time or 0.0)
    step_eff = max(mem_time / req.bandwidth_efficiency, (comp_time or 0.0) / req.compute_efficiency)
    decode = DecodeCeiling(
        batch_per_replica=seqs, weights_bytes_per_step_per_gpu=max(w_read),
        kv_bytes_per_step_per_gpu=max(kv_read), expected_distinct_experts_per_layer=distinct,
        memory_time_ms=mem_time * 1e3, compute_time_ms=comp_time * 1e3 if comp_time is not None else None,
        compute_dtype=dtype, bound="compute" if (comp_time or 0) > mem_time else "memory",
        tokens_per_s_per_sequence=1 / step, tokens_per_s_aggregate=seqs * dp / step,
        tokens_per_s_per_sequence_at_efficiency=1 / step_eff, tokens_per_s_aggregate_at_efficiency=seqs * dp / step_eff,
        bandwidth_efficiency=req.bandwidth_efficiency,
        formula=("step >= sum over pipeline stages of (weights read + resident KV and state read) per GPU / "
                 f"{gpu.bandwidth_tb_s.value} TB/s; weights read = non-expert weights (embedding excluded) + routed "
                 "experts x E[distinct]/E; compute check 2 x active params x B / (TP x dense peak)"),
    )
    notes.append("decode ceiling ignores TP all-reduce latency, kernel launch gaps and scheduling; pipeline stages run "
                 "one after another for a step")
    prefill = None
    if peak:
        dtype, tflops = peak
        flops = 2 * body * prompt + 2 * head + sum(2 * attn_width * _attn_keys(lay, prompt) for lay in attn_layers)
        t = flops / (tp * tflops * 1e12)
        prefill = PrefillCeiling(
            prompt_tokens=prompt, flops=float(flops), compute_dtype=dtype, peak_tflops_per_gpu=tflops, gpus_used=tp,
            time_s=t, time_s_at_efficiency=t / req.compute_efficiency, efficiency=req.compute_efficiency,
            formula=("FLOPs = 2 x (active params - embedding - lm_head) x s + 2 x lm_head (last token) + sum over "
                     "attention layers of 2 x heads x (qk_dim + v_dim) x sum_i min(i, window); time >= FLOPs / "
                     f"(TP x {tflops:g} dense {dtype} TFLOPS)"))
        notes.append("prefill ceiling: one prompt on one replica's TP group; pipeline stages add no speed-up for a "
                     "single prompt; Mamba / linear-attention scan FLOPs are not counted")
        if fmt.compute == "bf16" and fmt.quantized:
            notes.append(f"{fmt.name} weights are dequantized to bf16 for the matmuls (W4A16-style): bf16 peak used")
    return Ceilings(decode=decode, prefill=prefill, notes=notes)


# ---------------------------------------------------------------------------------------------
# text rendering


def _gib(n: float | int | None) -> str:
    return "-" if n is None else f"{n / GiB:,.2f} GiB"


def _render(r: SizingReport) -> str:
    w, kv, g = r.weights, r.kv_cache, r.per_gpu
    lines = [
        f"{r.model.name}  [{r.model.model_type}, {r.model.layers} layers]  {r.model.attention}",
        f"  source: {r.model.source}",
    ]
    if r.model.moe:
        lines.append(f"  MoE: {r.model.moe}")
    p = r.parallelism
    lines.append(f"  deployment: {p.gpus} GPU(s) = TP {p.tp} x PP {p.pp} x DP {p.dp}, EP {p.ep}")
    lines.append("")
    lines.append(f"{'item':<24}{'total':>18}{'per GPU':>16}  notes")
    lines.append(f"{'weights':<24}{_gib(w.bytes):>18}{_gib(w.bytes_per_gpu):>16}  {w.format} ({w.format_basis}); "
                 f"{w.params:,} params, {w.active_params:,} active [{w.evidence}]")
    if w.checkpoint_bytes:
        lines.append(f"{'':<24}{'':>18}{'':>16}  checkpoint as stored: {w.checkpoint_bytes:,} B")
    lines.append(f"{'KV cache':<24}{_gib(kv.bytes):>18}{_gib(kv.bytes_per_gpu):>16}  {kv.format}: "
                 f"{kv.bytes_per_token:,} B/token, state {kv.state_bytes_per_sequence:,} B/seq; "
                 f"{kv.tokens_per_sequence:,} tokens x {kv.concurrency} seq [{kv.evidence}]")
    for lt in kv.by_layer_type:
        lines.append(f"{'  ' + lt.layer_type:<24}{lt.layers:>18} layers  {lt.bytes_per_token_per_layer:,} B/token/layer "
                     f"x {lt.resident_tokens_per_sequence:,} tokens + state {lt.state_bytes_per_layer:,} B = "
                     f"{lt.bytes_per_sequence:,} B/seq")
    for o in r.overheads:
        where = "" if o.inside_budget else " (outside budget)"
        lines.append(f"{o.name:<24}{'':>18}{_gib(o.bytes):>16}  {o.basis}{where} [{o.evidence}]")
    lines.append(f"{'total per GPU':<24}{'':>18}{_gib(g.total_bytes):>16}  worst pipeline stage {g.worst_stage}")
    if g.budget_bytes is not None:
        verdict = "FITS" if g.fits else "DOES NOT FIT"
        lines.append(f"{'budget per GPU':<24}{'':>18}{_gib(g.budget_bytes):>16}  {g.gpu or 'GPU'}: {g.memory_basis} x "
                     f"{g.memory_utilization} -> {verdict} (free {_gib(g.free_bytes)})")
        lines.append(f"  capacity: max concurrency {g.max_concurrency:,} at {kv.tokens_per_sequence:,} tokens; "
                     f"max tokens/sequence {g.max_tokens_per_sequence:,} at {kv.concurrency} seq "
                     f"(limited by {g.max_tokens_limited_by}) [estimate]")
    c = r.ceilings
    if c.decode:
        d = c.decode
        lines.append(f"ceiling decode: <= {d.tokens_per_s_per_sequence:,.1f} tok/s per sequence, <= "
                     f"{d.tokens_per_s_aggregate:,.0f} tok/s aggregate ({d.bound}-bound, step >= {d.memory_time_ms:.2f} "
                     f"ms); at {d.bandwidth_efficiency:.0%} bandwidth ~{d.tokens_per_s_per_sequence_at_efficiency:,.1f} / "
                     f"{d.tokens_per_s_aggregate_at_efficiency:,.0f} [ceiling]")
    if c.prefill:
        pf = c.prefill
        lines.append(f"ceiling prefill: {pf.prompt_tokens:,}-token prompt >= {pf.time_s:.3f} s at 100% of "
                     f"{pf.gpus_used} x {pf.peak_tflops_per_gpu:g} {pf.compute_dtype} TFLOPS; ~{pf.time_s_at_efficiency:.3f} s "
                     f"at {pf.efficiency:.0%} [ceiling]")
    lines.append("")
    lines.append("assumptions:")
    lines += [f"  - {a}" for a in r.assumptions + c.notes]
    return "\n".join(lines)

