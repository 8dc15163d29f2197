"""The sizing report: itemized memory, fit, capacity and ceilings, each figure with its evidence class.

Evidence classes are SKILL.md's three: a **measurement** is observed on a real system (here: the
checkpoint's stored bytes, an engine's start-up log), an **estimate** is a formula applied to stated
inputs (weights and KV are estimates whose arithmetic is exact on the config; overheads and the
efficiency-scaled speeds are estimates in the ordinary sense), a **ceiling** is a physical bound
(bandwidth-bound decode, compute-bound prefill) that a benchmark cannot beat.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "EVIDENCE_NOTE",
    "GiB",
    "REFERENCE",
    "Ceilings",
    "ComponentBytes",
    "DecodeCeiling",
    "DecodeEstimate",
    "EngineLogComparison",
    "Evidence",
    "KVCacheReport",
    "LayerTypeKV",
    "ModelInfo",
    "NearestFit",
    "Overhead",
    "Parallelism",
    "PerGPUReport",
    "PrefillCeiling",
    "PrefillEstimate",
    "ReconciledItem",
    "ShareDeviation",
    "SizingReport",
    "WeightsReport",
]

Evidence = Literal["measurement", "estimate", "ceiling"]

GiB = 1024**3

REFERENCE = "references/memory-sizing.md"

EVIDENCE_NOTE = (
    "Evidence classes as SKILL.md defines them. Weights, KV cache and capacity are Estimates whose arithmetic is "
    "exact on the config (what the config implies at the stated formats, before an engine's padding, block "
    "rounding and allocator behaviour); runtime overheads are Estimates from published profiles, with a range; "
    "decode and prefill bounds are Ceilings; speeds at an assumed efficiency are Estimates; the checkpoint's "
    "stored bytes and an engine log's figures are Measurements."
)
"""Said once per report (SKILL.md says the same under Evidence classes)."""


class ModelInfo(BaseModel):
    """The model sized: where its config came from and its shape."""

    name: str = Field(description="Catalog name, Hub repo id, or the config's _name_or_path / folder name")
    source: str = Field(description="Where the config was read: catalog entry and its source, Hub URL, file or inline")
    model_type: str = Field(description="config.json model_type (of the text model for multimodal wrappers)")
    layers: int = Field(description="Decoder layers (num_hidden_layers)")
    hidden_size: int = Field(description="Residual stream width (hidden_size)")
    attention: str = Field(description="MHA/GQA/MQA/MLA summary with head counts and head_dim")
    moe: str | None = Field(None, description="Experts, active per token, dense layers; None for dense models")
    max_context_tokens: int | None = Field(description="max_position_embeddings (capacity, not workload); None if absent")


class ComponentBytes(BaseModel):
    """Parameters and bytes of one component (embedding, attention, experts, ...) in one stored format."""

    component: str = Field(description="embedding, lm_head, attention, mlp, experts, shared_experts, router, mixer, norm")
    params: int = Field(description="Parameters of this component stored in this format")
    bytes: int = Field(description="Bytes in this format, scales and zero points included")
    format: str = Field(description="Storage format of these tensors (quantized formats leave norms etc. in bf16)")


class ShareDeviation(BaseModel):
    """Why one GPU's weight share differs from weights / (TP x PP): one reason and its bytes."""

    reason: str = Field(description="What makes the share differ (replicated tensors, replicated KV heads, experts "
                                    "split over EP, uneven pipeline stages, rounding)")
    tensors: list[str] = Field(description="Tensor names (layer index dropped) this reason covers; empty for stages")
    bytes_per_gpu: int = Field(description="Signed bytes this reason adds to the per-GPU share over pro rata")


class WeightsReport(BaseModel):
    """Weight bytes in the chosen format: total, per GPU, by component, and against the stored checkpoint."""

    format: str = Field(description="Weight format used (see SizingRequest.weights)")
    format_basis: str = Field(description="Why this format: quantization_config, torch_dtype or the request")
    format_description: str = Field(description="Byte layout of the format (data bits, scales, groups)")
    params: int = Field(description="Total parameters (all experts)")
    active_params: int = Field(description="Params used per token (routed experts: top-k of E)")
    bytes: int = Field(description="Total weight bytes in the format, all tensors, scales included")
    bytes_per_gpu: int = Field(description="Largest per-GPU share (worst pipeline stage)")
    pro_rata_bytes_per_gpu: int = Field(description="bytes / (TP x PP), rounded up: the share if every tensor split evenly")
    not_pro_rata: list[ShareDeviation] = Field(
        description="Why bytes_per_gpu differs from pro_rata_bytes_per_gpu, reason by reason; the items sum to the "
                    "difference")
    by_component: list[ComponentBytes] = Field(description="Bytes by component and stored format, largest first")
    checkpoint_bytes: int | None = Field(
        None, description="Measurement: the checkpoint's stored bytes (safetensors index total_size) when known")
    checkpoint_bytes_source: str | None = Field(None, description="Where checkpoint_bytes was read")
    formula: str = Field(description="How bytes and bytes_per_gpu are computed")
    exact_arithmetic: bool = Field(
        description="True when the format's byte layout is exact for this config (GGUF mixes and bitsandbytes are "
                    "approximate)")
    evidence: Evidence = Field("estimate", description="Estimate: a formula over the config at the stated format")


class LayerTypeKV(BaseModel):
    """KV (or recurrent state) of one layer type for one sequence."""

    layer_type: str = Field(description="full_attention, sliding_attention(W), chunked_attention(C), mla, mamba2, "
                                        "gdn, lightning, kv_shared, ...")
    layers: int = Field(description="Layers of this type")
    window_tokens: int | None = Field(description="Sliding window or chunk size in tokens; None for full attention")
    bytes_per_token_per_layer: int = Field(description="KV bytes one token adds to one layer of this type (all KV heads)")
    resident_tokens_per_sequence: int = Field(description="Tokens each layer of this type holds: min(window, tokens)")
    state_bytes_per_layer: int = Field(description="Fixed recurrent state per sequence per layer (0 for attention)")
    bytes_per_sequence: int = Field(description="layers x (bytes/token/layer x resident tokens + state)")


class KVCacheReport(BaseModel):
    """KV cache and recurrent state for the declared workload (tokens per sequence x concurrency)."""

    format: str = Field(description="KV-cache format (auto = the model dtype)")
    format_description: str = Field(description="Bytes per element of the KV format, scales included")
    bytes_per_token: int = Field(description="Bytes added per extra token once every window is full, all layers")
    bytes_per_token_per_gpu: int = Field(description="The same on one GPU (KV heads / TP, at least one head; MLA whole)")
    state_bytes_per_sequence: int = Field(description="Fixed recurrent (Mamba / linear attention) state; 0 when none")
    tokens_per_sequence: int = Field(description="Tokens resident per sequence (prompt + output)")
    tokens_basis: str = Field(description="Where tokens_per_sequence came from (declared workload or max context)")
    concurrency: int = Field(description="Sequences resident at once, all replicas")
    bytes_per_sequence: int = Field(description="KV and state of one sequence, whole model")
    bytes: int = Field(description="bytes_per_sequence x concurrency")
    bytes_per_gpu: int = Field(description="KV and state on the worst GPU for its replica's sequences")
    kv_heads_per_gpu: int | None = Field(description="max(1, kv_heads // TP); None for MLA (one latent per token)")
    kv_replication: float = Field(description="KV bytes per GPU x TP / total KV per replica (1 = no replication)")
    by_layer_type: list[LayerTypeKV] = Field(description="One row per layer type")
    formula: str = Field(description="The per-token and per-sequence formula with this model's numbers")
    exact_arithmetic: bool = Field(True, description="Always true: KV bytes follow from the config and the KV format")
    evidence: Evidence = Field("estimate", description="Estimate: a formula over the config at the stated KV format")


class Overhead(BaseModel):
    """One per-GPU memory item besides weights and KV."""

    model_config = ConfigDict(frozen=True)  # shared between reports of the same layout

    name: str = Field(description="activation_workspace, cuda_graphs, communication_buffers, cuda_context, "
                                  "runtime_overhead (given) or allocator_headroom")
    bytes: int = Field(description="Bytes per GPU")
    basis: str = Field(description="How the figure is obtained, with its inputs")
    source: str = Field(description="Where the constant or method comes from")
    inside_budget: bool = Field(description="True when it is part of the engine's budget (and of total_bytes); "
                                            "allocator_headroom is outside it")
    evidence: Evidence = Field("estimate", description="Estimate (given overheads: the caller's figure)")


class Parallelism(BaseModel):
    """How the deployment splits the model and the sequences."""

    gpus: int = Field(description="Total GPUs")
    tp: int = Field(description="Tensor-parallel size")
    pp: int = Field(description="Pipeline-parallel size")
    ep: int = Field(description="Expert-parallel size")
    dp: int = Field(description="Data-parallel replicas = gpus / (tp x pp)")
    layers_per_stage: list[int] = Field(description="Decoder layers on each pipeline stage")
    sequences_per_replica: int = Field(description="ceil(concurrency / dp)")


class PerGPUReport(BaseModel):
    """The worst GPU's memory against the engine's budget: fit, margin and capacity."""

    gpu: str | None = Field(description="GPU catalog id; None when no GPU was named")
    memory_bytes: int | None = Field(description="GPU memory used for sizing (catalog or override)")
    memory_basis: str | None = Field(description="Where memory_bytes comes from")
    memory_utilization: float = Field(description="Share of GPU memory the engine may use")
    budget_bytes: int | None = Field(description="floor(memory_bytes x memory_utilization)")
    weights_bytes: int = Field(description="Weights on the worst GPU")
    kv_bytes: int = Field(description="KV and state on the worst GPU for the declared workload")
    overhead_bytes: int = Field(description="Overheads inside the budget (sum of Overhead items with inside_budget)")
    total_bytes: int = Field(description="weights_bytes + kv_bytes + overhead_bytes (headroom not included)")
    headroom_bytes: int | None = Field(
        description="memory_bytes - budget_bytes: left outside the engine's budget (fragmentation, other "
                    "processes), so not part of total_bytes")
    free_bytes: int | None = Field(description="budget - total (negative: does not fit); the fit margin")
    fits: bool | None = Field(description="True when every pipeline stage's total is within the budget")
    max_concurrency: int | None = Field(description="Sequences of tokens_per_sequence that fit (all replicas)")
    max_tokens_per_sequence: int | None = Field(description="Tokens per sequence that fit at the given concurrency")
    max_tokens_limited_by: str | None = Field(description="What bounds max_tokens_per_sequence")
    worst_stage: int = Field(description="Pipeline stage with the largest total")
    overhead_low_bytes: int | None = Field(None, description="Low end of the plausible overheads: each item scaled by "
                                                             "the smallest logged/estimated ratio of published "
                                                             "profiles (None when the overhead was given)")
    overhead_high_bytes: int | None = Field(None, description="High end of the plausible overheads (largest ratio)")
    margin_low_bytes: int | None = Field(None, description="Margin if the overheads are at the high end")
    margin_high_bytes: int | None = Field(None, description="Margin if the overheads are at the low end")
    fit_verdict: str | None = Field(None, description="fits | fits at the estimate, not at the high end of the "
                                                      "overheads | does not fit at the estimate, fits at the low end | "
                                                      "does not fit")
    overhead_band_basis: str | None = Field(None, description="Where the plausible range comes from")
    formula: str = Field(description="total, budget, margin and capacity formulas with this deployment's numbers")
    evidence: Evidence = Field("estimate", description="Estimate: weights and KV exact on the config, overheads "
                                                       "estimated")


class DecodeCeiling(BaseModel):
    """Upper bound on decode speed: a step reads every resident byte once at peak HBM bandwidth."""

    batch_per_replica: int = Field(description="Sequences decoded together per replica")
    weights_bytes_per_step_per_gpu: int = Field(description="Weight bytes one step reads on the worst GPU "
                                                            "(routed experts: the expected distinct ones)")
    kv_bytes_per_step_per_gpu: int = Field(description="Resident KV and state bytes one step reads on the worst GPU")
    expected_distinct_experts_per_layer: float | None = Field(description="E(1-(1-k/E)^B); None for dense models")
    memory_time_ms: float = Field(description="Bytes read per step / peak bandwidth, summed over pipeline stages")
    compute_time_ms: float | None = Field(description="Matmul FLOPs per step / (TP x dense peak); None without a peak")
    compute_dtype: str | None = Field(description="Dtype of the dense peak used")
    bound: Literal["memory", "compute"] = Field(description="Which of the two times is larger")
    tokens_per_s_per_sequence: float = Field(description="1 / max(memory time, compute time)")
    tokens_per_s_aggregate: float = Field(description="batch x replicas / step time")
    formula: str = Field(description="The bound's formula with this GPU's bandwidth")
    evidence: Evidence = Field("ceiling", description="Ceiling: no real step can be faster")


class DecodeEstimate(BaseModel):
    """Decode speed at an assumed share of peak bandwidth and compute: an estimate, not a bound."""

    tokens_per_s_per_sequence: float = Field(description="1 / max(memory time / bandwidth_efficiency, compute time "
                                                         "/ compute_efficiency)")
    tokens_per_s_aggregate: float = Field(description="batch x replicas x tokens_per_s_per_sequence")
    bandwidth_efficiency: float = Field(description="Assumed achievable share of peak bandwidth")
    compute_efficiency: float = Field(description="Assumed achievable share of dense peak compute")
    formula: str = Field(description="How the ceiling is scaled")
    evidence: Evidence = Field("estimate", description="Estimate: the ceiling scaled by assumed efficiencies")


class PrefillCeiling(BaseModel):
    """Lower bound on one prompt's prefill time: its FLOPs at the TP group's dense peak."""

    prompt_tokens: int = Field(description="Prompt length")
    flops: float = Field(description="Matmul + causal attention FLOPs of the prompt")
    compute_dtype: str = Field(description="Dtype of the dense peak used")
    peak_tflops_per_gpu: float = Field(description="Dense (not sparse) peak TFLOPS per GPU")
    gpus_used: int = Field(description="GPUs of one replica's TP group")
    time_s: float = Field(description="flops / (gpus_used x peak)")
    formula: str = Field(description="The FLOP count and the bound")
    evidence: Evidence = Field("ceiling", description="Ceiling: no real prefill can be faster")


class PrefillEstimate(BaseModel):
    """Prefill time at an assumed share of dense peak (MFU): an estimate, not a bound."""

    time_s: float = Field(description="PrefillCeiling.time_s / efficiency")
    efficiency: float = Field(description="Assumed achievable share of dense peak")
    formula: str = Field(description="How the ceiling is scaled")
    evidence: Evidence = Field("estimate", description="Estimate: the ceiling scaled by an assumed efficiency")


class Ceilings(BaseModel):
    """Roofline bounds on the named GPU and, on separate lines, the estimates at assumed efficiencies."""

    decode: DecodeCeiling | None = Field(description="Decode bound; None without a GPU")
    decode_estimate: DecodeEstimate | None = Field(description="Decode at the assumed efficiencies; None without a GPU")
    prefill: PrefillCeiling | None = Field(description="Prefill bound; None without a GPU or a dense peak")
    prefill_estimate: PrefillEstimate | None = Field(description="Prefill at the assumed efficiency")
    notes: list[str] = Field(description="What the bounds leave out")


class NearestFit(BaseModel):
    """One change to the request that makes a non-fitting deployment fit."""

    change: str = Field(description="The change, as arguments: 'kv=fp8', 'tp=8, gpus=8', 'gpu=nvidia-h200-sxm'")
    arguments: dict[str, int | float | str] = Field(description="The changed arguments and their new values")
    margin_bytes: int = Field(description="Per-GPU margin (budget - total) after the change")
    evidence: Evidence = Field("estimate", description="Estimate, as every fit verdict")


class ReconciledItem(BaseModel):
    """One figure predicted from the config against the same figure in the engine's start-up log."""

    item: str = Field(description="weights_per_gpu, non_torch, activation_peak, cuda_graphs, runtime_overheads, "
                                  "kv_cache_memory, kv_bytes_per_token_per_gpu, kv_pool_tokens, "
                                  "max_concurrency_at_max_model_len")
    unit: Literal["bytes", "tokens", "sequences"] = Field(description="Unit of predicted and logged")
    predicted: float = Field(description="This tool's estimate for the logged deployment")
    logged: float = Field(description="The engine's figure (measurement)")
    difference: float = Field(description="logged - predicted")
    relative: float | None = Field(description="difference / logged (None when logged is 0)")
    note: str = Field(description="What the two figures cover and why they may differ")


class EngineLogComparison(BaseModel):
    """Prediction against the engine's own start-up log, item by item: the error band on the user's hardware."""

    engine: str = Field(description="vllm, sglang or unknown")
    items: list[ReconciledItem] = Field(description="One row per figure both sides have")
    inputs_from_log: list[str] = Field(description="Inputs the prediction took from the log (GPU memory, "
                                                   "utilization) so both sides describe the same deployment")
    notes: list[str] = Field(description="What the comparison leaves out")
    evidence: str = Field("predicted: estimate; logged: measurement",
                          description="predicted figures are estimates, logged figures measurements")


class SizingReport(BaseModel):
    """Itemized sizing answer; every figure carries its evidence class."""

    model: ModelInfo = Field(description="The model sized")
    weights: WeightsReport = Field(description="Weight bytes")
    kv_cache: KVCacheReport = Field(description="KV cache and recurrent state for the declared workload")
    overheads: list[Overhead] = Field(description="Per-GPU overheads; inside_budget false = outside the total")
    overhead_bytes: int = Field(description="Sum of the overheads inside the budget, per GPU")
    per_gpu: PerGPUReport = Field(description="Worst GPU against the budget: fit, margin, capacity")
    parallelism: Parallelism = Field(description="TP/PP/EP/DP layout")
    ceilings: Ceilings = Field(description="Roofline ceilings and the estimates next to them")
    nearest_fits: list[NearestFit] = Field(
        default_factory=list, description="When it does not fit: the nearest single changes that make it fit (KV or "
                                          "weight format, memory utilization, more GPUs, a larger GPU, fewer or "
                                          "shorter sequences), each with its margin; empty when it fits")
    engine_log: EngineLogComparison | None = Field(
        None, description="With engine_log: this prediction against the engine's start-up log, item by item")
    evidence: str = Field(EVIDENCE_NOTE, description="What each evidence class means in this report")
    assumptions: list[str] = Field(description="Every assumption and default the figures rest on")
    references: list[str] = Field(description="Reference pages and sections with the formulas")

    def to_text(self) -> str:
        """The report as a human-readable table (what the CLI prints without --json)."""
        from .render import render_report  # render imports this module

        return render_report(self)
