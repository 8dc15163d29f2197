"""The sizing report: itemized memory, fit, capacity and ceilings, each figure with its evidence class."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

__all__ = [
    "GiB",
    "REFERENCE",
    "Ceilings",
    "ComponentBytes",
    "DecodeCeiling",
    "Evidence",
    "KVCacheReport",
    "LayerTypeKV",
    "ModelInfo",
    "Overhead",
    "Parallelism",
    "PerGPUReport",
    "PrefillCeiling",
    "SizingReport",
    "WeightsReport",
]

Evidence = Literal["exact", "estimate", "ceiling"]

GiB = 1024**3

REFERENCE = "references/memory-sizing.md"


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
        """The report as a human-readable table (what the CLI prints without --json)."""
        from .render import render_report  # render imports this module

        return render_report(self)
