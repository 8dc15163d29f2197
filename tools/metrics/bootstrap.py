"""Bootstrap replicates of latency statistics, resampling whole requests, and percentile intervals on ratios.

A run's successful requests are drawn with replacement (n draws from n, seeded); each draw
keeps its request's TTFT, TPOT, E2E and chunk gaps together, so ITL is resampled by request
(its gaps are not independent). A replicate of a statistic is computed from the draw counts
without materialising the resample: means as weighted sums, percentiles (numpy ``linear``, as
the point values) from the exact order statistics of the weighted values (``orderstats``), ITL
included. The interval on a relative difference is the percentile interval of
``stat(B*) / stat(A*) - 1`` over replicate pairs drawn independently per run.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .orderstats import PooledSample, numpy_lerp

if TYPE_CHECKING:
    import numpy as np

__all__ = ["STATISTICS", "RunSample", "relative_interval", "replicates", "resample_chunks"]

STATISTICS: dict[str, float | None] = {"mean": None, "median": 50.0, "p90": 90.0, "p99": 99.0}
"""The statistics compared, with their percentile (None for the mean)."""

_CELLS = 2_560_000
"""Replicates drawn at once hold at most this many draw counts (rows x requests): 256 rows for 10,000
requests, one row at a time from 2.56 million (20 MB of counts, ~80 MB at the peak, whatever the count)."""
_FLOAT32_EXACT = 2**24
"""Integer sums below this are exact in float32, so counts products stay exact in the faster float32 BLAS."""


@dataclass
class RunSample:
    """Per-request values of one run (successful requests, seconds; NaN where not recorded) and its chunk gaps."""

    per_request: dict[str, np.ndarray]
    itl_s: np.ndarray
    n_itl: np.ndarray

    @property
    def n(self) -> int:
        return int(next(iter(self.per_request.values())).size) if self.per_request else 0


def resample_chunks(n: int, resamples: int, seed: int) -> Iterator[np.ndarray]:
    """The bootstrap draws, a chunk of rows at a time: (rows, n) request indices, n draws with replacement per row."""
    import numpy as np

    rng = np.random.default_rng(seed)
    per_chunk = max(1, min(256, _CELLS // max(n, 1)))
    done = 0
    while done < resamples:
        rows = min(per_chunk, resamples - done)
        yield rng.integers(0, n, size=(rows, n))
        done += rows


def _counts(idx: np.ndarray, n: int) -> np.ndarray:
    """Draw counts per request (rows x n, int64) of a chunk of draws."""
    import numpy as np

    rows = idx.shape[0]
    flat = (idx + (np.arange(rows) * n)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n)


def _pooled(sample: RunSample) -> dict[str, PooledSample]:
    """Each metric with data as a pooled sample: per-request values (finite ones) and, when complete, the chunk gaps."""
    import numpy as np

    n = sample.n
    percentiles = tuple(q for q in STATISTICS.values() if q is not None)
    out: dict[str, PooledSample] = {}
    for name, values in sample.per_request.items():
        owner = np.flatnonzero(np.isfinite(values))
        if owner.size:
            out[name] = PooledSample(values[owner], owner, n, percentiles)
    gaps, n_itl = sample.itl_s, sample.n_itl
    if gaps.size > 0 and bool((n_itl >= 0).all()) and int(n_itl.sum()) == gaps.size:
        out["itl"] = PooledSample(gaps, np.repeat(np.arange(n), n_itl), n, percentiles)
    return out


def replicates(sample: RunSample, *, resamples: int, seed: int) -> dict[str, dict[str, np.ndarray]]:
    """``{metric: {statistic: replicates}}`` for every per-request metric and ``itl``; empty metrics are left out."""
    import numpy as np

    n = sample.n
    pooled = _pooled(sample) if n else {}
    if not pooled:
        return {}
    design = np.hstack([p.design for p in pooled.values()])
    sums = np.hstack([p.sums for p in pooled.values()])
    edges = np.cumsum([0, *(p.design.shape[1] for p in pooled.values())])
    exact32 = design.size == 0 or n * float(design.max()) < _FLOAT32_EXACT
    design_blas = design.astype(np.float32) if exact32 else design
    out: dict[str, dict[str, list[np.ndarray]]] = {name: {s: [] for s in STATISTICS} for name in pooled}
    for idx in resample_chunks(n, resamples, seed):
        counts = _counts(idx, n)
        totals = counts.astype(np.float64) @ sums
        products = counts.astype(design_blas.dtype) @ design_blas
        for j, (name, ps) in enumerate(pooled.items()):
            m = totals[:, 2 * j + 1]
            with np.errstate(invalid="ignore", divide="ignore"):
                out[name]["mean"].append(totals[:, 2 * j] / m)
            has = m > 0  # rows that drew no value of this metric get NaN
            rows = slice(None) if has.all() else np.flatnonzero(has)
            c, part = counts[rows], products[rows, edges[j]:edges[j + 1]]
            size = np.rint(m[rows]).astype(np.int64)
            for stat, q in STATISTICS.items():
                if q is None:
                    continue
                value = np.full(m.size, np.nan)
                if size.size:
                    # numpy's linear percentile: virtual index h = (size - 1) * q / 100, between order statistics
                    h = (size - 1) * (q / 100)
                    lower = np.floor(h)
                    k = np.minimum(lower.astype(np.int64), size - 1)
                    a, b = ps.order_statistics(q, c, part, k, np.minimum(k + 1, size - 1))
                    value[rows] = numpy_lerp(a, b, h - lower)
                out[name][stat].append(value)
    return {name: {s: np.concatenate(v) for s, v in stats.items()} for name, stats in out.items()}


def relative_interval(base: np.ndarray, other: np.ndarray, confidence: float) -> tuple[float, float] | None:
    """Percentile interval of ``other / base - 1`` over paired replicates (None when too few are finite)."""
    import numpy as np

    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = other / base - 1
    ratio = ratio[np.isfinite(ratio)]
    if ratio.size < 0.9 * base.size or ratio.size < 20:
        return None
    tail = (1 - confidence) / 2 * 100
    lo, hi = np.percentile(ratio, [tail, 100 - tail])
    return float(lo), float(hi)
