"""The sizing request: which model, formats, workload and deployment to size.

One pydantic model validates every input (limits named in each field's description), so the MCP
schema, the CLI help and the error messages come from the same place.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, model_validator

from ..errors import argument

__all__ = ["SizingRequest"]


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
            names = ", ".join(argument(n) for n in ("model", "config_path", "config_json"))
            got = ", ".join(argument(n) for n in given) if given else "none"
            raise ValueError(f"give exactly one of {names} (got {got})")
        if self.gpus is not None and self.gpus % (self.tp * self.pp):
            raise ValueError(f"{argument('gpus')} ({self.gpus}) must be a multiple of {argument('tp')} x {argument('pp')} "
                             f"({self.tp} x {self.pp})")
        if self.prompt_tokens is not None and self.tokens is not None and self.prompt_tokens > self.tokens:
            raise ValueError(f"{argument('prompt_tokens')} ({self.prompt_tokens}) cannot exceed {argument('tokens')} "
                             f"({self.tokens})")
        return self
