"""What does a million tokens cost at a measured throughput? An Estimate from $ per GPU-hour and the GPU count.

    $ per 1M tokens = (gpu_hour_usd x gpus / 3,600 s) / (tokens/s) x 1,000,000

Each of input, output and total divides the whole GPU cost by one token stream, so the three
are not additive; it assumes the GPUs are paid for the whole time and fully used by this load.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["COST_FORMULA", "CostEstimate", "cost_estimate", "usd_per_million"]

COST_FORMULA = "$ per 1M tokens = gpu_hour_usd x gpus / 3600 / (tokens/s) x 1e6"


class CostEstimate(BaseModel):
    """Cost per million tokens at one throughput: an Estimate, with its inputs."""

    model_config = ConfigDict(extra="forbid")

    evidence: Literal["estimate"] = Field(default="estimate", description="Evidence class: an estimate from a price and a measured rate.")
    gpu_hour_usd: float = Field(description="Price of one GPU for one hour (USD), as given.")
    gpus: int = Field(description="GPUs serving this load, as given.")
    usd_per_million_input: float | None = Field(description="Whole GPU cost over input tokens/s (USD per 1M input tokens).")
    usd_per_million_output: float | None = Field(description="Whole GPU cost over output tokens/s (USD per 1M output tokens).")
    usd_per_million_total: float | None = Field(description="Whole GPU cost over input + output tokens/s (USD per 1M tokens).")
    basis: str = Field(description="The throughputs used and what they assume (all GPUs paid for, this load the only work).")


def usd_per_million(tokens_per_s: float | None, gpu_hour_usd: float, gpus: int) -> float | None:
    """``gpu_hour_usd x gpus / 3600 / tokens_per_s x 1e6``; None without a positive rate."""
    if tokens_per_s is None or tokens_per_s <= 0:
        return None
    return gpu_hour_usd * gpus / 3600 / tokens_per_s * 1e6


def cost_estimate(
    *, input_tps: float | None, output_tps: float | None, gpu_hour_usd: float, gpus: int, where: str
) -> CostEstimate:
    """The estimate at the given input and output token rates (tokens/s, aggregate over the GPUs)."""
    total = None if input_tps is None or output_tps is None else input_tps + output_tps
    rates = ", ".join(
        f"{name} {value:,.1f} tokens/s" for name, value in (("input", input_tps), ("output", output_tps)) if value is not None
    )
    return CostEstimate(
        gpu_hour_usd=gpu_hour_usd,
        gpus=gpus,
        usd_per_million_input=usd_per_million(input_tps, gpu_hour_usd, gpus),
        usd_per_million_output=usd_per_million(output_tps, gpu_hour_usd, gpus),
        usd_per_million_total=usd_per_million(total, gpu_hour_usd, gpus),
        basis=f"{COST_FORMULA}; at {where} ({rates or 'no token rates'}); {gpus} GPU(s) at ${gpu_hour_usd:g}/h, paid for the "
        "whole time and used only by this load; each stream bears the whole cost, so input, output and total are not additive",
    )
