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
from dataclasses import dataclass
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
_NCCL_BY_GROUP = {1: 0, 2: 358_612_992, 4: 411_041_792, 8: 411_041_792}  # larger groups: the 8-GPU figure
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
    compute_efficiency: float = Field(description="Share of dense peak assumed for the compute side of the estimate")
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


@dataclass(frozen=True)
class _LoadedModel:
    """A config.json, the name and source the report shows, and the checkpoint's stored bytes when known."""

    config: dict[str, Any]
    name: str
    source: str
    checkpoint_bytes: int | None = None
    checkpoint_bytes_source: str | None = None


def _load_model(request: SizingRequest) -> _LoadedModel:
    """The config the request names: inline JSON, a file, or a catalog name / Hub repo id."""
    if request.config_json is not None:
        return _model_from_json(request.config_json)
    if request.config_path is not None:
        return _model_from_file(request.config_path)
    return _model_from_name(request.model or "", revision=request.hub_revision, offline=request.offline)


def _model_from_json(given: dict[str, Any] | str) -> _LoadedModel:
    """An inline config, as an object or as JSON text; text is size-capped before it is parsed."""
    cfg: Any = given
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
    return _LoadedModel(cfg, str(label)[:200], "inline config_json")


def _model_from_file(config_path: str) -> _LoadedModel:
    """A config.json on disk, named after its folder; refused unread when larger than a config can be."""
    path = Path(config_path).expanduser()
    if not path.is_file():
        raise InputFormatError(f"config_path: '{config_path}' is not a readable file")
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
    return _LoadedModel(cfg, path.parent.name or path.name, f"config file {path}")


def _model_from_name(name: str, *, revision: str, offline: bool) -> _LoadedModel:
    """A catalog entry (with its anchored checkpoint size), else the Hub's config for an 'org/name' repo id."""
    entry = find_model(name)
    if entry is not None:
        anchor = entry.anchors.get("safetensors_total_size") or entry.anchors.get("weights_bytes_as_stored")
        return _LoadedModel(entry.config, entry.name,
                            f"catalog: {entry.source.url} (read from {entry.source.read_from})",
                            int(anchor.value) if anchor else None, anchor.source if anchor else None)
    if "/" not in name:
        lookup_model(name)  # raises UnknownModelError with suggestions
    from .hub import fetch_hub_model

    try:
        hub = fetch_hub_model(name, revision=revision, offline=offline)
    except UnknownModelError as exc:
        hint = suggest_models(name.split("/")[-1])
        raise UnknownModelError(f"{exc}" + (f"; closest catalog entries: {', '.join(hint)}" if hint else "")) from exc
    src = f"Hugging Face Hub {hub.source_url}" + (" (cached)" if hub.from_cache else "")
    return _LoadedModel(hub.config, name, src, hub.safetensors_total_size,
                        "model.safetensors.index.json metadata.total_size" if hub.safetensors_total_size else None)


# ---------------------------------------------------------------------------------------------
# request checks and choices


def _data_parallel(request: SizingRequest) -> tuple[int, int]:
    """(total GPUs, data-parallel replicas); without ``gpus`` the deployment is one tp x pp replica."""
    gpus = request.gpus or request.tp * request.pp
    return gpus, gpus // (request.tp * request.pp)


def _check_parallelism(arch: Architecture, request: SizingRequest) -> None:
    """Refuse splits vLLM refuses: TP must divide the query heads and divide (or be a multiple of) the KV heads;
    EP needs experts and at most the GPUs of one pipeline stage."""
    tp, ep = request.tp, request.ep
    valid = [t for t in range(1, arch.heads + 1) if not arch.heads % t
             and (arch.mla is not None or not arch.kv_heads % t or not t % arch.kv_heads)]
    if arch.heads % tp:
        raise ModelConfigError(f"tp: {tp} does not divide num_attention_heads ({arch.heads}); "
                               f"valid tp values for this model: {', '.join(map(str, valid))}")
    if arch.mla is None and arch.kv_heads % tp and tp % arch.kv_heads:
        raise ModelConfigError(f"tp: {tp} must divide num_key_value_heads ({arch.kv_heads}) or be a multiple of it; "
                               f"valid tp values for this model: {', '.join(map(str, valid))}")
    if ep > 1 and not arch.experts:
        raise ModelConfigError(f"ep: {ep} given but the model has no experts")
    _, dp = _data_parallel(request)
    if ep > tp * dp:
        raise ModelConfigError(f"ep: {ep} exceeds the GPUs of one pipeline stage (tp x dp = {tp * dp}); raise gpus")


def _pick_weight_format(request: SizingRequest, arch: Architecture) -> tuple[WeightFormat, str, list[str]]:
    """The weight format (requested, else the checkpoint's own), why it was chosen, and notes on what stays
    unquantized and on estimated layouts."""
    notes: list[str] = []
    if request.weights:
        fmt, basis = weight_format(request.weights), "requested"
        if fmt.quantized:
            notes.append(f"weights {fmt.name}: applied to every linear layer; embeddings, lm_head, norms and "
                         "routers stay bf16 (GGUF: norms f32, embeddings quantized)")
    else:
        fmt, basis = checkpoint_weight_format(arch.config)
        if fmt.skip_patterns:
            notes.append(f"checkpoint keeps unquantized: {', '.join(fmt.skip_patterns)}; lm_head, norms and "
                         "routers are never quantized here")
    if not fmt.exact:
        notes.append(f"{fmt.name}: {fmt.description}")
    return fmt, basis, notes


def _pick_kv_format(request: SizingRequest, arch: Architecture) -> KVFormat:
    """The KV-cache format ('auto' = the model dtype); fp8_ds_mla exists only for MLA latents."""
    kvf = kv_format(request.kv, arch.dtype)
    if kvf.name == "fp8_ds_mla" and arch.mla is None:
        raise ModelConfigError("kv: fp8_ds_mla applies to MLA models (kv_lora_rank) only")
    return kvf


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
        raise ModelConfigError("tokens: not given and the config has no max_position_embeddings")
    if arch.max_position and tokens > arch.max_position:
        notes.append(f"tokens {tokens:,} exceed the model's max_position_embeddings {arch.max_position:,}")
    return tokens, basis, notes


# ---------------------------------------------------------------------------------------------
# placement on GPUs


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


@dataclass(frozen=True)
class _Deployment:
    """The model placed on GPUs: parallel sizes, layers per pipeline stage, KV heads per GPU and the sequences
    each data-parallel replica holds."""

    arch: Architecture
    kvf: KVFormat
    gpus: int
    tp: int
    pp: int
    ep: int
    dp: int
    stages: list[list[int]]
    kv_heads_per_gpu: int
    sequences_per_replica: int

    def sequence_bytes(self, stage: int, tokens: int) -> int:
        """KV and recurrent-state bytes one sequence of ``tokens`` tokens holds on one GPU of ``stage``."""
        acc = 0.0
        for i in self.stages[stage]:
            lay = self.arch.layers[i]
            acc += _layer_token_bytes(lay, self.arch, self.kvf, self.kv_heads_per_gpu) * _resident(lay, tokens)
            if lay.state is not None:
                acc += math.ceil(lay.state.bytes / self.tp)
        return math.ceil(acc)

    def parallelism(self) -> Parallelism:
        """The report's parallelism section."""
        return Parallelism(gpus=self.gpus, tp=self.tp, pp=self.pp, ep=self.ep, dp=self.dp,
                           layers_per_stage=[len(s) for s in self.stages],
                           sequences_per_replica=self.sequences_per_replica)


def _place(arch: Architecture, kvf: KVFormat, request: SizingRequest) -> _Deployment:
    """Split layers into pipeline stages and sequences over replicas; each GPU keeps at least one KV head."""
    gpus, dp = _data_parallel(request)
    return _Deployment(arch=arch, kvf=kvf, gpus=gpus, tp=request.tp, pp=request.pp, ep=request.ep, dp=dp,
                       stages=_stages(len(arch.layers), request.pp),
                       kv_heads_per_gpu=max(1, arch.kv_heads // request.tp),
                       sequences_per_replica=math.ceil(request.concurrency / dp))


# ---------------------------------------------------------------------------------------------
# weights


def _skipped(fmt: WeightFormat, name: str) -> bool:
    """Whether the checkpoint leaves tensor ``name`` unquantized (glob, substring or 're:' pattern)."""
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


def _shard_fraction(t: Tensor, dep: _Deployment) -> float:
    """Share of a tensor one GPU holds: sharded tensors 1/TP, KV projections its KV heads, experts
    1/max(TP, EP), replicated tensors all of it."""
    if t.split in ("column", "row", "vocab"):
        return 1 / dep.tp
    if t.split == "kv":
        return dep.kv_heads_per_gpu / dep.arch.kv_heads
    if t.split == "expert":
        return 1 / max(dep.tp, dep.ep)
    return 1.0


def _tensor_stages(t: Tensor, dep: _Deployment, stage_of: dict[int, int]) -> list[int]:
    """Pipeline stages holding a tensor: its layer's stage; the embedding on the first stage, lm_head and the
    final norm on the last; with tied embeddings the last stage also keeps the embedding as lm_head."""
    if t.layer is not None:
        return [stage_of[t.layer]]
    if t.component != "embedding":
        return [dep.pp - 1]
    return [0, dep.pp - 1] if dep.arch.tied_embeddings and dep.pp > 1 else [0]


@dataclass(frozen=True)
class _WeightTally:
    """Weight bytes in total, per component, and per GPU of each pipeline stage, split into what a decode step
    reads in full and the routed experts it reads in part."""

    total_bytes: int
    by_component: list[ComponentBytes]
    stage_bytes: list[int]
    routed_expert_bytes: list[int]
    dense_read_bytes: list[int]  # everything but routed experts and the embedding lookup


def _tally_weights(dep: _Deployment, fmt: WeightFormat) -> _WeightTally:
    """Each tensor's bytes in the format, summed by (component, stored format) and per GPU of each stage."""
    arch, pp = dep.arch, dep.pp
    stage_of = {i: s for s, idx in enumerate(dep.stages) for i in idx}
    total = 0
    by_kind: dict[tuple[str, str], list[int]] = {}  # (component, format) -> [params, bytes]
    stage_bytes, routed, dense_read = [0] * pp, [0] * pp, [0] * pp
    for t in arch.tensors:
        b, label = _tensor_bytes(t, fmt)
        total += b
        row = by_kind.setdefault((t.component, label), [0, 0])
        row[0] += t.numel
        row[1] += b
        share = math.ceil(b * _shard_fraction(t, dep))
        for s in _tensor_stages(t, dep, stage_of):
            stage_bytes[s] += share
            if t.component == "experts":
                routed[s] += share
            elif t.component != "embedding" or arch.tied_embeddings and s == pp - 1:
                dense_read[s] += share  # a tied embedding is read in full as lm_head on the last stage
    by_component = [ComponentBytes(component=c, params=v[0], bytes=v[1], format=lab)
                    for (c, lab), v in sorted(by_kind.items(), key=lambda item: -item[1][1])]
    return _WeightTally(total_bytes=total, by_component=by_component, stage_bytes=stage_bytes,
                        routed_expert_bytes=routed, dense_read_bytes=dense_read)


def _weight_notes(arch: Architecture, model: _LoadedModel, total_bytes: int, *, requested: bool) -> list[str]:
    """What the weight total leaves out (MTP layers) and, for the checkpoint's own format, how it compares
    with the checkpoint's stored bytes."""
    notes: list[str] = []
    mtp = arch.config.get("num_nextn_predict_layers")
    if isinstance(mtp, int) and mtp > 0:
        notes.append(f"the checkpoint also stores {mtp} multi-token-prediction layer(s), loaded only for MTP "
                     "speculative decoding: not counted")
    stored = model.checkpoint_bytes
    if stored and not requested:
        if stored == total_bytes:
            notes.append(f"computed weight bytes equal the checkpoint's stored bytes ({stored:,})")
        else:
            notes.append(f"computed weight bytes {total_bytes:,} differ from the checkpoint's stored "
                         f"{stored:,} by {total_bytes - stored:+,} (extra tensors such as MTP layers or "
                         "vision towers, or a different scale layout)")
    return notes


# ---------------------------------------------------------------------------------------------
# KV cache


def _layer_token_bytes(layer: LayerSpec, arch: Architecture, kvf: KVFormat, kv_heads: int) -> float:
    """KV bytes per token for one layer with ``kv_heads`` KV heads (MLA: one latent vector)."""
    if not layer.holds_kv:
        return 0.0
    if layer.mixer == "mla":
        assert arch.mla is not None
        if kvf.name == "fp8_ds_mla":
            return 656.0 + arch.indexer_bytes_per_token
        return kvf.vector_bytes(arch.mla[0] + arch.mla[1]) + arch.indexer_bytes_per_token
    return 2 * kv_heads * kvf.vector_bytes(arch.head_dim)


def _resident(layer: LayerSpec, tokens: int) -> int:
    """Tokens a layer keeps per sequence: all of them, at most its window or chunk, none without own KV."""
    if not layer.holds_kv:
        return 0
    if layer.window is not None:
        return min(layer.window, tokens)
    return tokens


def _state_bytes(layer: LayerSpec) -> int:
    """Fixed recurrent state per sequence (Mamba / linear attention); 0 for attention-only layers."""
    return layer.state.bytes if layer.state else 0


@dataclass(frozen=True)
class _KVTally:
    """KV and state per sequence: per layer type, for the whole model, and per GPU of each stage."""

    by_layer_type: list[LayerTypeKV]
    bytes_per_token: float  # layers whose KV grows with every token (no window, own KV)
    bytes_per_token_per_gpu: float
    state_bytes: int
    sequence_bytes: int
    stage_sequence_bytes: list[int]  # one sequence on one GPU of each stage
    stage_bytes: list[int]  # all of a replica's sequences on one GPU of each stage


def _tally_kv(dep: _Deployment, tokens: int) -> _KVTally:
    """KV per sequence at ``tokens`` tokens: bytes per token per layer x resident tokens + fixed state."""
    arch, kvf = dep.arch, dep.kvf
    mixing = [lay for lay in arch.layers if lay.mixer != "none"]

    def per_token(lay: LayerSpec) -> float:
        return _layer_token_bytes(lay, arch, kvf, arch.kv_heads)

    def per_sequence(lay: LayerSpec) -> float:
        return per_token(lay) * _resident(lay, tokens) + _state_bytes(lay)

    groups: dict[str, list[LayerSpec]] = {}
    for lay in mixing:
        groups.setdefault(lay.kind, []).append(lay)
    by_layer_type = [
        LayerTypeKV(layer_type=kind, layers=len(group), window_tokens=group[0].window,
                    bytes_per_token_per_layer=math.ceil(per_token(group[0])),
                    resident_tokens_per_sequence=_resident(group[0], tokens),
                    state_bytes_per_layer=_state_bytes(group[0]),
                    bytes_per_sequence=math.ceil(sum(per_sequence(lay) for lay in group)))
        for kind, group in groups.items()]
    growing = [lay for lay in mixing if lay.window is None and not lay.kv_shared]
    stage_sequence = [dep.sequence_bytes(s, tokens) for s in range(dep.pp)]
    return _KVTally(
        by_layer_type=by_layer_type,
        bytes_per_token=sum(per_token(lay) for lay in growing),
        bytes_per_token_per_gpu=sum(_layer_token_bytes(lay, arch, kvf, dep.kv_heads_per_gpu) for lay in growing),
        state_bytes=sum(_state_bytes(lay) for lay in mixing),
        sequence_bytes=math.ceil(sum(per_sequence(lay) for lay in mixing)),
        stage_sequence_bytes=stage_sequence,
        stage_bytes=[b * dep.sequences_per_replica for b in stage_sequence],
    )


def _kv_notes(dep: _Deployment, kv: _KVTally) -> list[str]:
    """Where KV is replicated across TP, and what the per-token figures leave out (windows, state copies)."""
    arch, tp = dep.arch, dep.tp
    notes: list[str] = []
    if arch.mla is None and tp > arch.kv_heads:
        notes.append(f"tp {tp} > {arch.kv_heads} KV heads: each GPU keeps 1 KV head, so KV is replicated "
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


def _kv_report(dep: _Deployment, kv: _KVTally, *, tokens: int, tokens_basis: str, concurrency: int,
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
        by_layer_type=kv.by_layer_type, evidence="exact")


# ---------------------------------------------------------------------------------------------
# GPU memory and overheads


@dataclass(frozen=True)
class _GPUMemory:
    """The GPU (when named) and the memory sizing uses: the override when given, else the catalog's."""

    spec: GPUSpec | None
    bytes: int | None
    basis: str | None


def _gpu_memory(request: SizingRequest) -> _GPUMemory:
    """Look up the GPU and settle its memory and where that figure comes from."""
    gpu = lookup_gpu(request.gpu) if request.gpu else None
    if request.gpu_memory_bytes:
        return _GPUMemory(gpu, request.gpu_memory_bytes, f"{request.gpu_memory_bytes:,} B as given")
    if gpu is not None:
        return _GPUMemory(gpu, gpu.memory.bytes, gpu.memory.basis)
    return _GPUMemory(None, None, None)


def _budget(mem: int, memory_utilization: float) -> int:
    """The engine's memory budget: GPU memory x memory_utilization, rounded down as vLLM does."""
    return math.floor(mem * memory_utilization)


def _scheduler_limits(request: SizingRequest, gpu: _GPUMemory) -> tuple[int, int, list[str]]:
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


def _activation_workspace(dep: _Deployment, mnbt: int, max_seqs: int) -> Overhead:
    """Peak activations of one scheduler step: the batched tokens through the residual stream and the widest
    per-GPU projection, plus fp32 logits for every sampled row."""
    arch, tp = dep.arch, dep.tp
    act_bytes = 4 if arch.dtype == "fp32" else 2
    q_width = arch.heads * (arch.qk_head_dim if arch.mla else arch.head_dim)
    kv_width = arch.mla[0] + arch.mla[1] if arch.mla else 2 * dep.kv_heads_per_gpu * arch.head_dim
    ffn_width = 0
    for t in arch.tensors:
        if t.linear and t.split == "column" and t.component in ("mlp", "shared_experts", "mixer"):
            ffn_width = max(ffn_width, t.rows // tp)
        if t.component == "experts" and t.linear and t.rows != arch.hidden:
            ffn_width = max(ffn_width, t.rows * arch.top_k // tp)
    widest = max(q_width // tp + kv_width, ffn_width)
    return Overhead(
        name="activation_workspace",
        bytes=mnbt * act_bytes * (4 * arch.hidden + widest) + max_seqs * math.ceil(arch.vocab / tp) * 4,
        basis=f"{mnbt} batched tokens x {act_bytes} B x (4 x hidden + widest per-GPU projection) + "
              f"{max_seqs} sampled rows x vocab/TP x 4 B fp32 logits",
        source=_SRC_ACT, inside_budget=True)


def _overheads(dep: _Deployment, request: SizingRequest, gpu: _GPUMemory, mnbt: int, max_seqs: int) -> list[Overhead]:
    """Per-GPU memory besides weights and KV: the runtime's own (or the given figure) inside the budget, and the
    headroom memory_utilization leaves outside it."""
    if request.overhead_bytes is not None:
        overheads = [Overhead(name="runtime_overhead", bytes=request.overhead_bytes,
                              basis="given: activations, CUDA graphs, communication buffers and CUDA context together",
                              source="request.overhead_bytes", inside_budget=True)]
    else:
        group = max(dep.tp, dep.ep)
        overheads = [
            _activation_workspace(dep, mnbt, max_seqs),
            Overhead(name="cuda_graphs", bytes=_CUDA_GRAPH_BYTES if request.cuda_graphs else 0,
                     basis="1 GiB when CUDA graphs are captured, 0 in eager mode", source=_SRC_GRAPH,
                     inside_budget=True),
            Overhead(name="communication_buffers", bytes=_NCCL_BY_GROUP.get(group, _NCCL_BY_GROUP[8]),
                     basis=f"NCCL workspace for a {group}-GPU group", source=_SRC_NCCL, inside_budget=True),
            Overhead(name="cuda_context", bytes=_CUDA_CONTEXT_BYTES, basis="0.5 GiB per process",
                     source=_SRC_CONTEXT, inside_budget=True),
        ]
    if gpu.bytes:
        overheads.append(Overhead(
            name="allocator_headroom", bytes=gpu.bytes - _budget(gpu.bytes, request.memory_utilization),
            basis=f"(1 - memory_utilization {request.memory_utilization}) x GPU memory, left outside the engine's "
                  "budget for fragmentation and other processes",
            source="vllm/config/cache.py gpu_memory_utilization (sizing-anchors.md 1.1)", inside_budget=False))
    return overheads


# ---------------------------------------------------------------------------------------------
# per-GPU fit and capacity


def _max_concurrency(dep: _Deployment, room: list[int], sequence_bytes: list[int]) -> int:
    """Sequences (all replicas) that fit in the KV room of every stage; 0 when a stage has no room."""
    if min(room) < 0:
        return 0
    counts = [(room[s] // sequence_bytes[s]) if sequence_bytes[s] else 10**12 for s in range(dep.pp)]
    return max(0, min(counts)) * dep.dp


def _max_tokens(dep: _Deployment, room: list[int]) -> tuple[int, str]:
    """Longest sequence at the given concurrency whose KV fits every stage (binary search up to the model's
    max context, or 1e9 without one) and what limits it."""
    cap = dep.arch.max_position or 10**9

    def fits(tokens: int) -> bool:
        return all(dep.sequences_per_replica * dep.sequence_bytes(s, tokens) <= room[s] for s in range(dep.pp))

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


def _per_gpu(dep: _Deployment, request: SizingRequest, gpu: _GPUMemory, weights: _WeightTally, kv: _KVTally,
             overhead_bytes: int, tokens: int) -> PerGPUReport:
    """The worst pipeline stage's memory against the budget, whether every stage fits, and how many sequences
    (at ``tokens``) or tokens (at the given concurrency) would."""
    stage_total = [weights.stage_bytes[s] + kv.stage_bytes[s] + overhead_bytes for s in range(dep.pp)]
    worst = max(range(dep.pp), key=lambda s: stage_total[s])
    budget: int | None = None
    fits: bool | None = None
    max_conc: int | None = None
    max_tok: int | None = None
    limited_by: str | None = None
    if gpu.bytes:
        budget = _budget(gpu.bytes, request.memory_utilization)
        room = [budget - weights.stage_bytes[s] - overhead_bytes for s in range(dep.pp)]
        fits = all(total <= budget for total in stage_total)
        max_conc = _max_concurrency(dep, room, kv.stage_sequence_bytes)
        max_tok, limited_by = _max_tokens(dep, room)
    return PerGPUReport(
        gpu=gpu.spec.id if gpu.spec else None, memory_bytes=gpu.bytes, memory_basis=gpu.basis,
        memory_utilization=request.memory_utilization, budget_bytes=budget, weights_bytes=weights.stage_bytes[worst],
        kv_bytes=kv.stage_bytes[worst], overhead_bytes=overhead_bytes, total_bytes=stage_total[worst],
        free_bytes=(budget - stage_total[worst]) if budget is not None else None, fits=fits,
        max_concurrency=max_conc, max_tokens_per_sequence=max_tok, max_tokens_limited_by=limited_by,
        worst_stage=worst)


# ---------------------------------------------------------------------------------------------
# roofline ceilings


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


def _decode_ceiling(dep: _Deployment, request: SizingRequest, gpu: GPUSpec, weights: _WeightTally,
                    kv: _KVTally, distinct: float | None, peak: tuple[str, float] | None, flops: _FlopTerms,
                    tokens: int) -> DecodeCeiling:
    """A decode step reads each stage's weights (routed experts in part) and resident KV once: step time >=
    bytes / bandwidth, checked against the matmul FLOPs at the dense peak."""
    seqs = dep.sequences_per_replica
    frac = distinct / dep.arch.experts if distinct is not None else 1.0
    w_read = [weights.dense_read_bytes[s] + math.ceil(weights.routed_expert_bytes[s] * frac) for s in range(dep.pp)]
    mem_time = sum(w_read[s] + kv.stage_bytes[s] for s in range(dep.pp)) / gpu.bandwidth_bytes_per_s
    comp_time = dtype = None
    if peak:
        dtype, tflops = peak
        attn = sum(2 * flops.attention_width * _resident(lay, tokens) for lay in flops.attention_layers)
        comp_time = seqs * (2 * (flops.body_params + flops.head_params) + attn) / (dep.tp * tflops * 1e12)
    step = max(mem_time, comp_time or 0.0)
    step_eff = max(mem_time / request.bandwidth_efficiency, (comp_time or 0.0) / request.compute_efficiency)
    return DecodeCeiling(
        batch_per_replica=seqs, weights_bytes_per_step_per_gpu=max(w_read),
        kv_bytes_per_step_per_gpu=max(kv.stage_bytes), expected_distinct_experts_per_layer=distinct,
        memory_time_ms=mem_time * 1e3, compute_time_ms=comp_time * 1e3 if comp_time is not None else None,
        compute_dtype=dtype, bound="compute" if (comp_time or 0) > mem_time else "memory",
        tokens_per_s_per_sequence=1 / step, tokens_per_s_aggregate=seqs * dep.dp / step,
        tokens_per_s_per_sequence_at_efficiency=1 / step_eff,
        tokens_per_s_aggregate_at_efficiency=seqs * dep.dp / step_eff,
        bandwidth_efficiency=request.bandwidth_efficiency, compute_efficiency=request.compute_efficiency,
        formula=("step >= sum over pipeline stages of (weights read + resident KV and state read) per GPU / "
                 f"{gpu.bandwidth_tb_s.value} TB/s; weights read = non-expert weights (embedding excluded) + routed "
                 "experts x E[distinct]/E; compute check (2 x active params + attention) x B / (TP x dense peak)"),
    )


def _prefill_ceiling(dep: _Deployment, request: SizingRequest, peak: tuple[str, float], flops: _FlopTerms,
                     prompt: int) -> PrefillCeiling:
    """One prompt on one replica's TP group: time >= FLOPs / (TP x dense peak), with causal attention FLOPs."""
    dtype, tflops = peak
    total = (2 * flops.body_params * prompt + 2 * flops.head_params
             + sum(2 * flops.attention_width * _attn_keys(lay, prompt) for lay in flops.attention_layers))
    t = total / (dep.tp * tflops * 1e12)
    return PrefillCeiling(
        prompt_tokens=prompt, flops=float(total), compute_dtype=dtype, peak_tflops_per_gpu=tflops, gpus_used=dep.tp,
        time_s=t, time_s_at_efficiency=t / request.compute_efficiency, efficiency=request.compute_efficiency,
        formula=("FLOPs = 2 x (active params - embedding - lm_head) x s + 2 x lm_head (last token) + sum over "
                 "attention layers of 2 x heads x (qk_dim + v_dim) x sum_i min(i, window); time >= FLOPs / "
                 f"(TP x {tflops:g} dense {dtype} TFLOPS)"))


def _ceilings(dep: _Deployment, fmt: WeightFormat, gpu: GPUSpec | None, request: SizingRequest,
              weights: _WeightTally, kv: _KVTally, tokens: int, prompt: int) -> Ceilings:
    """Decode and prefill speed limits on the named GPU, with notes on what they leave out."""
    if gpu is None:
        return Ceilings(decode=None, prefill=None, notes=[])  # the closing notes say "no gpu given"
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
    decode = _decode_ceiling(dep, request, gpu, weights, kv, distinct, peak, flops, tokens)
    notes.append("decode ceiling ignores TP all-reduce latency, kernel launch gaps and scheduling; pipeline stages run "
                 "one after another for a step")
    prefill = None
    if peak:
        prefill = _prefill_ceiling(dep, request, peak, flops, prompt)
        notes.append("prefill ceiling: one prompt on one replica's TP group; pipeline stages add no speed-up for a "
                     "single prompt; Mamba / linear-attention scan FLOPs are not counted")
        if fmt.compute == "bf16" and fmt.quantized:
            notes.append(f"{fmt.name} weights are dequantized to bf16 for the matmuls (W4A16-style): bf16 peak used")
    return Ceilings(decode=decode, prefill=prefill, notes=notes)


# ---------------------------------------------------------------------------------------------
# report sections


def _attention_summary(arch: Architecture) -> str:
    """MHA / GQA / MQA with head counts, or the MLA latent width per token per layer."""
    if arch.mla:
        return (f"MLA: {arch.heads} heads, latent kv_lora_rank {arch.mla[0]} + rope {arch.mla[1]} "
                f"= {arch.mla[0] + arch.mla[1]} values per token per layer")
    kind = "MHA" if arch.kv_heads == arch.heads else "MQA" if arch.kv_heads == 1 else "GQA"
    return f"{kind}: {arch.heads} query heads, {arch.kv_heads} KV heads, head_dim {arch.head_dim}"


def _model_info(model: _LoadedModel, arch: Architecture) -> ModelInfo:
    """The model section: name, source, shape, attention kind and, for MoE, experts and top-k."""
    moe = None
    if arch.experts:
        n_moe = sum(1 for lay in arch.layers if lay.ffn == "moe")
        moe = (f"{arch.experts} routed experts, top-{arch.top_k}, in {n_moe} of {len(arch.layers)} layers; all experts "
               "resident for memory, top-k for compute")
    return ModelInfo(name=model.name, source=model.source, model_type=arch.model_type, layers=len(arch.layers),
                     hidden_size=arch.hidden, attention=_attention_summary(arch), moe=moe,
                     max_context_tokens=arch.max_position)


def _weights_report(arch: Architecture, model: _LoadedModel, fmt: WeightFormat, basis: str,
                    weights: _WeightTally) -> WeightsReport:
    """The weights section; bytes per GPU is the largest stage's share."""
    return WeightsReport(
        format=fmt.name, format_basis=basis, format_description=fmt.description, params=arch.params,
        active_params=arch.active_params, bytes=weights.total_bytes, bytes_per_gpu=max(weights.stage_bytes),
        by_component=weights.by_component, checkpoint_bytes=model.checkpoint_bytes,
        checkpoint_bytes_source=model.checkpoint_bytes_source, evidence="exact" if fmt.exact else "estimate")


def _closing_notes(arch: Architecture, gpu: _GPUMemory) -> list[str]:
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


def size_deployment(request: SizingRequest) -> SizingReport:
    """Size a deployment: itemized memory, fit, capacity and roofline ceilings.

    Example::

        size_deployment(SizingRequest(model="Llama-3.1-70B", weights="fp8", tokens=32768,
                                      concurrency=16, gpu="h100", tp=4))
    """
    model = _load_model(request)
    arch = parse_architecture(model.config)
    _check_parallelism(arch, request)
    fmt, fmt_basis, format_notes = _pick_weight_format(request, arch)
    kvf = _pick_kv_format(request, arch)
    tokens, tokens_basis, token_notes = _pick_tokens(request, arch)
    dep = _place(arch, kvf, request)

    weights = _tally_weights(dep, fmt)
    kv = _tally_kv(dep, tokens)
    gpu = _gpu_memory(request)
    mnbt, max_seqs, scheduler_notes = _scheduler_limits(request, gpu)
    overheads = _overheads(dep, request, gpu, mnbt, max_seqs)
    overhead_in = sum(o.bytes for o in overheads if o.inside_budget)
    per_gpu = _per_gpu(dep, request, gpu, weights, kv, overhead_in, tokens)
    ceilings = _ceilings(dep, fmt, gpu.spec, request, weights, kv, tokens, request.prompt_tokens or tokens)

    assumptions = [
        *arch.notes, *format_notes, *token_notes,
        *_weight_notes(arch, model, weights.total_bytes, requested=bool(request.weights)),
        *_kv_notes(dep, kv), *scheduler_notes, *_closing_notes(arch, gpu),
    ]
    return SizingReport(
        model=_model_info(model, arch),
        weights=_weights_report(arch, model, fmt, fmt_basis, weights),
        kv_cache=_kv_report(dep, kv, tokens=tokens, tokens_basis=tokens_basis, concurrency=request.concurrency,
                            bytes_per_gpu=per_gpu.kv_bytes),
        overheads=overheads, overhead_bytes=overhead_in, per_gpu=per_gpu,
        parallelism=dep.parallelism(),
        ceilings=ceilings, assumptions=assumptions,
        references=[f"{REFERENCE}#kv-cache-per-token", f"{REFERENCE}", "research: sizing-anchors.md"],
    )


# ---------------------------------------------------------------------------------------------
# text rendering

_ROW = "{:<24}{:>18}{:>16}  {}"  # item, total, per GPU, notes


def _gib(n: float | int | None) -> str:
    return "-" if n is None else f"{n / GiB:,.2f} GiB"


def _render_model(r: SizingReport) -> list[str]:
    """Model, its source and shape, and the deployment's parallel layout."""
    m, p = r.model, r.parallelism
    lines = [f"{m.name}  [{m.model_type}, {m.layers} layers]  {m.attention}", f"  source: {m.source}"]
    if m.moe:
        lines.append(f"  MoE: {m.moe}")
    lines.append(f"  deployment: {p.gpus} GPU(s) = TP {p.tp} x PP {p.pp} x DP {p.dp}, EP {p.ep}")
    return lines


def _render_memory(r: SizingReport) -> list[str]:
    """The memory table: weights, KV by layer type, overheads, the per-GPU total and, with a GPU, the budget."""
    w, kv, g = r.weights, r.kv_cache, r.per_gpu
    lines = [_ROW.format("item", "total", "per GPU", "notes"),
             _ROW.format("weights", _gib(w.bytes), _gib(w.bytes_per_gpu),
                         f"{w.format} ({w.format_basis}); {w.params:,} params, {w.active_params:,} active "
                         f"[{w.evidence}]")]
    if w.checkpoint_bytes:
        lines.append(_ROW.format("", "", "", f"checkpoint as stored: {w.checkpoint_bytes:,} B"))
    lines.append(_ROW.format("KV cache", _gib(kv.bytes), _gib(kv.bytes_per_gpu),
                             f"{kv.format}: {kv.bytes_per_token:,} B/token, state {kv.state_bytes_per_sequence:,} "
                             f"B/seq; {kv.tokens_per_sequence:,} tokens x {kv.concurrency} seq [{kv.evidence}]"))
    for lt in kv.by_layer_type:
        lines.append(f"{'  ' + lt.layer_type:<24}{lt.layers:>18} layers  {lt.bytes_per_token_per_layer:,} B/token/layer "
                     f"x {lt.resident_tokens_per_sequence:,} tokens + state {lt.state_bytes_per_layer:,} B = "
                     f"{lt.bytes_per_sequence:,} B/seq")
    for o in r.overheads:
        where = "" if o.inside_budget else " (outside budget)"
        lines.append(_ROW.format(o.name, "", _gib(o.bytes), f"{o.basis}{where} [{o.evidence}]"))
    lines.append(_ROW.format("total per GPU", "", _gib(g.total_bytes), f"worst pipeline stage {g.worst_stage}"))
    if g.budget_bytes is not None:
        verdict = "FITS" if g.fits else "DOES NOT FIT"
        lines.append(_ROW.format("budget per GPU", "", _gib(g.budget_bytes),
                                 f"{g.gpu or 'GPU'}: {g.memory_basis} x {g.memory_utilization} -> {verdict} "
                                 f"(free {_gib(g.free_bytes)})"))
        lines.append(f"  capacity: max concurrency {g.max_concurrency:,} at {kv.tokens_per_sequence:,} tokens; "
                     f"max tokens/sequence {g.max_tokens_per_sequence:,} at {kv.concurrency} seq "
                     f"(limited by {g.max_tokens_limited_by}) [estimate]")
    return lines


def _render_ceilings(c: Ceilings) -> list[str]:
    """One line per computed ceiling: the 100% bound and the estimate at the given efficiency."""
    lines = []
    if c.decode:
        d = c.decode
        step_ms = max(d.memory_time_ms, d.compute_time_ms or 0.0)
        at = f"{d.bandwidth_efficiency:.0%} bandwidth" + (
            f" / {d.compute_efficiency:.0%} of dense peak" if d.compute_time_ms is not None else "")
        lines.append(f"ceiling decode: <= {d.tokens_per_s_per_sequence:,.1f} tok/s per sequence, <= "
                     f"{d.tokens_per_s_aggregate:,.0f} tok/s aggregate ({d.bound}-bound, step >= {step_ms:.2f} "
                     f"ms); at {at} ~{d.tokens_per_s_per_sequence_at_efficiency:,.1f} / "
                     f"{d.tokens_per_s_aggregate_at_efficiency:,.0f} [ceiling]")
    if c.prefill:
        pf = c.prefill
        lines.append(f"ceiling prefill: {pf.prompt_tokens:,}-token prompt >= {pf.time_s:.3f} s at 100% of "
                     f"{pf.gpus_used} x {pf.peak_tflops_per_gpu:g} {pf.compute_dtype} TFLOPS; ~{pf.time_s_at_efficiency:.3f} s "
                     f"at {pf.efficiency:.0%} [ceiling]")
    return lines


def _render(r: SizingReport) -> str:
    """The human table: model, memory, fit and capacity, ceilings, then every assumption and note."""
    lines = [*_render_model(r), "", *_render_memory(r), *_render_ceilings(r.ceilings), "", "assumptions:"]
    lines += [f"  - {a}" for a in r.assumptions + r.ceilings.notes]
    return "\n".join(lines)
