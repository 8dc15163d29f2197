"""Latency arithmetic: per-request TPOT, flattened ITL, and one distribution summary for every metric.

Definitions follow ``vllm bench serve`` (vllm/benchmarks/serve.py, ``calculate_metrics``):
numpy ``linear`` percentiles, population standard deviation (ddof 0), failed requests
left out before anything is computed. An empty sample gives ``None``, never 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    import numpy as np

__all__ = ["DEFAULT_PERCENTILES", "Distribution", "distribution", "percentile_key", "tpot_s"]

DEFAULT_PERCENTILES: tuple[float, ...] = (90.0, 95.0, 99.0)
"""Always reported (``p90``, ``p95``, ``p99``); requested percentiles are added under ``percentiles``."""


class Distribution(BaseModel):
    """Summary of one metric over its sample (units as the field name that holds it)."""

    model_config = ConfigDict(extra="forbid")

    count: int = Field(description="Sample size (requests, or chunk gaps for ITL).")
    mean: float = Field(description="Arithmetic mean of the sample.")
    median: float = Field(description="numpy median (= p50, linear).")
    std: float = Field(description="Population standard deviation (ddof 0), as numpy and vLLM.")
    min: float = Field(description="Smallest value in the sample.")
    max: float = Field(description="Largest value in the sample.")
    p90: float = Field(description="90th percentile, numpy linear interpolation (as vLLM's np.percentile).")
    p95: float = Field(description="95th percentile, numpy linear interpolation.")
    p99: float = Field(description="99th percentile, numpy linear interpolation.")
    percentiles: dict[str, float] = Field(
        default_factory=dict, description="Requested extra percentiles, keyed like vLLM ('p50', 'p99.9')."
    )


def percentile_key(p: float) -> str:
    """``99 -> 'p99'``, ``99.9 -> 'p99.9'``: vLLM's rule ``str(int(p)) if int(p) == p else str(p)``.

    ``str`` keeps every digit (``33.3333333 -> 'p33.3333333'``), where a ``%g`` format would cut to six.
    """
    p = float(p)
    return f"p{int(p)}" if p.is_integer() else f"p{p!r}"


def distribution(values: np.ndarray, extra_percentiles: tuple[float, ...] = (), *, scale: float = 1.0) -> Distribution | None:
    """Mean, median, population std, min, max and numpy-linear percentiles of ``values * scale``.

    Returns ``None`` for an empty sample (vLLM reports 0 there; a 0 ms TTFT would be a wrong number).
    """
    import numpy as np

    if values.size == 0:
        return None
    x = values * scale if scale != 1.0 else values
    extras = tuple(p for p in extra_percentiles if p not in DEFAULT_PERCENTILES)
    # mean and std first: a scaled copy is ours to partition in place (a run's 5 million chunk gaps are not copied
    # again), which reorders it, and a sum's rounding depends on the order
    mean, std, low, high = float(np.mean(x)), float(np.std(x)), float(np.min(x)), float(np.max(x))
    # method="linear", numpy's default and vLLM's
    qs = np.percentile(x, [50.0, *DEFAULT_PERCENTILES, *extras], overwrite_input=x is not values)
    return Distribution(
        count=int(x.size),
        mean=mean,
        median=float(qs[0]),
        std=std,
        min=low,
        max=high,
        p90=float(qs[1]),
        p95=float(qs[2]),
        p99=float(qs[3]),
        percentiles={percentile_key(p): float(q) for p, q in zip(extras, qs[4:])},
    )


def tpot_s(e2el_s: np.ndarray, ttft_s: np.ndarray, output_tokens: np.ndarray) -> np.ndarray:
    """TPOT = (e2e - ttft) / (n - 1) per request, in s; NaN where n < 2 (left out, as in vLLM's serve.py).

    Observation point: the client; E2E ends at the last token chunk. The first token is
    excluded from the numerator (it is TTFT) and from the denominator (n - 1 gaps).
    """
    import numpy as np

    out = np.full(e2el_s.shape, np.nan)
    multi = output_tokens > 1  # NaN compares False: unknown counts are left out too
    out[multi] = (e2el_s[multi] - ttft_s[multi]) / (output_tokens[multi] - 1)
    return out
