"""What a structured benchmark manifest holds: the ``BenchmarkManifest`` schema.

A manifest is the machine-readable form of the benchmark contract (SKILL.md, "Benchmark
contract" items 1-6, and the metric rules): one section per contract group, plus the reported
results with their observation point, definition, token basis and evidence class. It is checked
exactly (unknown keys are errors) and published as JSON Schema (``manifest_json_schema()``,
``tools/data/benchmark-manifest.schema.json``, ``audit --manifest-schema``).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "AggregationSpec",
    "BenchmarkManifest",
    "ComparisonSpec",
    "DistributionSpec",
    "HardwareSpec",
    "MetricResult",
    "SpeculativeSpec",
    "StackSpec",
    "StateSpec",
    "WorkloadSpec",
    "manifest_json_schema",
]


MANIFEST_VERSION = "1"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class HardwareSpec(_Strict):
    accelerator: str = Field(description="Accelerator SKU, e.g. 'NVIDIA H100 SXM 80GB'.", min_length=1, max_length=200)
    count: int = Field(description="Accelerators used by the deployment under test.", ge=1, le=100_000)
    nodes: int | None = Field(default=None, description="Number of hosts.", ge=1, le=10_000)
    interconnect: str | None = Field(default=None, description="GPU interconnect, e.g. 'NVLink 4'.", max_length=200)


class StackSpec(_Strict):
    model_artifact: str | None = Field(default=None, description="Exact weights: Hub id 'org/name' (+ '@revision') or file name.", max_length=500)
    tokenizer: str | None = Field(default=None, description="Tokenizer used to count tokens (Hub id, or 'model' for the model's own).", max_length=500)
    weight_format: str | None = Field(default=None, description="Weight dtype/quantization, e.g. 'bf16', 'fp8', 'awq-int4', 'gguf-q4_k_m'.", max_length=100)
    kv_format: str | None = Field(default=None, description="KV-cache dtype, e.g. 'bf16', 'fp8_e4m3'.", max_length=100)
    engine: str | None = Field(default=None, description="Inference engine name, e.g. 'vllm'.", max_length=100)
    engine_revision: str | None = Field(default=None, description="Engine version, commit or image tag, e.g. '0.8.5'.", max_length=200)
    launch_command: str | None = Field(default=None, description="The exact server (or offline engine) launch command.", max_length=20_000)
    kernels: str | None = Field(default=None, description="Attention backend and GEMM kernels, e.g. 'FlashAttention 3, CUTLASS FP8'.", max_length=500)
    hardware: HardwareSpec | None = Field(default=None, description="Accelerator SKU and count.")


class WorkloadSpec(_Strict):
    prompt_length_tokens: int | str | None = Field(default=None, description="Prompt length in tokens: a number or a distribution ('mean 1850, p90 6100').")
    output_length_requested_tokens: int | str | None = Field(default=None, description="Requested output length (max_tokens) in tokens.")
    output_length_completed_tokens: int | str | None = Field(default=None, description="Output tokens actually completed: a number or a distribution.")
    request_count: int | None = Field(default=None, description="Requests measured per run.", ge=1)
    concurrency: int | None = Field(default=None, description="Maximum in-flight requests (closed loop).", ge=1)
    request_rate_per_s: float | Literal["inf"] | None = Field(default=None, description="Arrival rate in requests/s (open loop), or 'inf'.")
    dataset: str | None = Field(default=None, description="Prompt source, e.g. 'random', 'sharegpt'.", max_length=300)
    sampling: str | dict[str, float | int | str | bool] | None = Field(default=None, description="Sampling parameters, e.g. {'temperature': 0}.")
    stopping: str | None = Field(default=None, description="Stopping behaviour, e.g. 'ignore_eos', 'stop at EOS'.", max_length=300)


class StateSpec(_Strict):
    prefix_cache: Literal["disabled", "cold", "warm", "reset_between_runs", "mixed"] | None = Field(default=None, description="Prefix-cache state during measurement.")
    prefix_cache_hit_rate: float | None = Field(default=None, description="Measured prefix-cache hit rate (0-1).", ge=0, le=1)
    warmup: str | None = Field(default=None, description="Warm-up procedure, e.g. '64 requests discarded'.", max_length=500)
    graph_capture: Literal["captured", "eager", "compiled", "unknown"] | None = Field(default=None, description="CUDA-graph / compile state.")
    distinct_prefixes: bool | str | None = Field(default=None, description="Whether prompts share prefixes (True = all distinct) or how much they share.")


class DistributionSpec(_Strict):
    percentiles: list[float] = Field(default_factory=list, description="Reported latency percentiles, e.g. [50, 90, 99].")
    per_request_records: str | None = Field(default=None, description="Where the per-request records are kept (path or URL).", max_length=1000)


class SpeculativeSpec(_Strict):
    enabled: bool = Field(description="Whether speculative decoding was used.")
    method: str | None = Field(default=None, description="e.g. 'eagle3', 'ngram', 'draft model'.", max_length=200)
    draft_model: str | None = Field(default=None, description="Draft model or head artifact.", max_length=500)
    num_draft_tokens: int | None = Field(default=None, description="Tokens proposed per step.", ge=1, le=64)
    proposed_tokens: int | None = Field(default=None, description="Total draft tokens proposed.", ge=0)
    accepted_tokens: int | None = Field(default=None, description="Total draft tokens accepted.", ge=0)
    acceptance_rate: float | None = Field(default=None, description="Accepted / proposed draft tokens (0-1).", ge=0, le=1)
    acceptance_length: float | None = Field(default=None, description="Mean tokens emitted per verification step.", ge=0)
    verification_steps: int | None = Field(default=None, description="Target-model verification passes.", ge=0)
    rejected_tokens: int | None = Field(default=None, description="Draft tokens rejected (wasted work).", ge=0)


class AggregationSpec(_Strict):
    rule: str | None = Field(default=None, description="How samples and runs were aggregated, e.g. 'median of 3 runs'.", max_length=500)
    exclusions: str | None = Field(default=None, description="Excluded samples and why ('none' when nothing was dropped).", max_length=1000)


MetricName = Literal[
    "ttft", "tpot", "itl", "e2e_latency", "request_throughput", "input_throughput", "output_throughput",
    "total_throughput", "goodput", "prefill_throughput", "decode_rate", "kv_capacity_tokens", "max_concurrency",
]


class MetricResult(_Strict):
    name: MetricName = Field(description="Which metric this figure is.")
    value: float = Field(description="The reported value.")
    unit: str = Field(description="Unit, e.g. 'ms', 'tok/s', 'req/s'.", min_length=1, max_length=40)
    statistic: Literal["mean", "median", "p90", "p95", "p99", "max", "peak", "single"] | None = Field(default=None, description="Which statistic of the distribution.")
    observation_point: Literal["client", "server", "engine", "kernel"] | None = Field(default=None, description="Where the clock was read.")
    first_token_excluded: bool | None = Field(default=None, description="For TPOT/decode rates: whether the first token is left out (denominator N-1).")
    token_basis: Literal["input", "output", "total", "requests"] | None = Field(default=None, description="For throughputs: which tokens (or requests) are counted.")
    scope: Literal["aggregate", "per_session", "per_gpu"] | None = Field(default=None, description="For throughputs: aggregate, per session or per GPU.")
    slo: dict[str, float] | None = Field(default=None, description="For goodput: SLO thresholds in ms, e.g. {'ttft': 500, 'tpot': 50}.")
    evidence_class: Literal["measurement", "estimate", "ceiling", "simulated"] | None = Field(default=None, description="Measured, estimated, a physical ceiling, or from simulated acceptance.")
    cache_state: Literal["cold", "warm", "mixed", "disabled"] | None = Field(default=None, description="Prefix-cache state behind this figure.")
    headline: bool = Field(default=False, description="Whether the figure is the headline claim.")


class ComparisonSpec(_Strict):
    baseline: str = Field(description="What the result is compared against.", min_length=1, max_length=500)
    changed: list[Literal["engine", "engine_revision", "hardware", "weight_format", "kv_format", "kernels", "draft_model", "speculation", "prefix_cache", "parallelism", "other"]] = Field(description="Every dimension that differs between the two sides.", min_length=1)


class BenchmarkManifest(_Strict):
    """A benchmark run described field by field; every contract item has a home here."""

    manifest_version: Literal["1"] = Field(default="1", description="Schema version of this manifest.")
    title: str | None = Field(default=None, description="Headline of the result.", max_length=500)
    stack: StackSpec = Field(default_factory=StackSpec, description="Contract item 1: the deployed stack.")
    workload: WorkloadSpec = Field(default_factory=WorkloadSpec, description="Contract item 2: the workload.")
    state: StateSpec = Field(default_factory=StateSpec, description="Contract item 3: cache and warm-up state.")
    distributions: DistributionSpec = Field(default_factory=DistributionSpec, description="Contract item 4: latency distributions.")
    speculative: SpeculativeSpec | None = Field(default=None, description="Contract item 5 (only with speculative decoding).")
    aggregation: AggregationSpec = Field(default_factory=AggregationSpec, description="Contract item 6: aggregation and exclusions.")
    results: list[MetricResult] = Field(default_factory=list, description="Reported figures.")
    comparison: ComparisonSpec | None = Field(default=None, description="What the result is compared against, if anything.")


def manifest_json_schema() -> dict:
    """The JSON Schema of ``BenchmarkManifest`` (what ``audit --manifest-schema`` prints)."""
    schema = BenchmarkManifest.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://llm-inference-fundamentals/benchmark-manifest.schema.json"
    return schema
