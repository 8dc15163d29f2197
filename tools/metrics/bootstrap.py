"""Bootstrap replicates of latency statistics, resampling whole requests, and percentile intervals on ratios.

A run's successful requests are drawn with replacement (n draws from n, seeded); each draw
keeps its request's TTFT, TPOT, E2E and chunk gaps together, so ITL is resampled by request
(its gaps are not independent). A replicate of a statistic is computed from the draw counts
without materialising the resample: means as weighted sums, numpy-``linear`` percentiles
from cumulative counts over the sorted values. ITL percentiles are read from per-request
histograms of the gaps (log-spaced bins, linear inside a bin), which is approximate to
within a bin; ITL means are exact. The interval on a relative difference is the percentile
interval of ``stat(B*) / stat(A*) - 1`` over replicate pairs drawn independently per run.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["ITL_BINS", "STATISTICS", "RunSample", "relative_interval", "replicates"]

STATISTICS: dict[str, float | None] = {"mean": None, "median": 50.0, "p90": 90.0, "p99": 99.0}
"""The statistics compared, with their percentile (None for the mean)."""

ITL_BINS = 128
"""Log-spaced histogram bins for resampled ITL percentiles (between the smallest and largest positive gap)."""

_CELLS = 2_560_000
"""Replicates computed at once hold at most this many draw counts (rows x requests, 8 bytes each): 256 rows for
10,000 requests (fewer, larger matrix products run faster), a few rows for a million (memory stays ~20 MB)."""


@dataclass
class RunSample:
    """Per-request values of one run (successful requests, seconds; NaN where not recorded) and its chunk gaps."""

    per_request: dict[str, np.ndarray]
    itl_s: np.ndarray
    n_itl: np.ndarray

    @property
    def n(self) -> int:
        return int(next(iter(self.per_request.values())).size) if self.per_request else 0


def _weighted_quantiles(sorted_x: np.ndarray, counts: np.ndarray, qs: list[float]) -> list[np.ndarray]:
    """numpy-linear quantiles of each row's multiset (``counts[r, j]`` copies of ``sorted_x[j]``).

    The sorted resample's k-th value is ``sorted_x[j]`` for the first j whose cumulative count exceeds k; one
    ``searchsorted`` finds it for every row at once, the rows laid end to end and each shifted above the last.
    """
    import numpy as np

    rows, n = counts.shape
    cum = np.cumsum(counts, axis=1, dtype=np.float64)
    m = cum[:, -1]
    shift = (float(m.max()) + 2) * np.arange(rows)
    flat = (cum + shift[:, None]).ravel()
    base = np.arange(rows) * n
    out = []
    for q in qs:
        h = q / 100 * (m - 1)
        k = np.floor(h)
        frac = h - k
        lo = np.minimum(np.searchsorted(flat, k + shift, side="right") - base, n - 1)
        hi = np.minimum(np.searchsorted(flat, k + 1 + shift, side="right") - base, n - 1)
        out.append(sorted_x[lo] + frac * (sorted_x[hi] - sorted_x[lo]))
    return out


def _draw_counts(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """``rows`` bootstrap draws of n from n as counts per request (rows x n)."""
    import numpy as np

    idx = rng.integers(0, n, size=(rows, n))
    flat = (np.arange(rows)[:, None] * n + idx).ravel()
    return np.bincount(flat, minlength=rows * n).reshape(rows, n).astype(np.float64)


def replicates(sample: RunSample, *, resamples: int, seed: int) -> dict[str, dict[str, np.ndarray]]:
    """``{metric: {statistic: replicates}}`` for every per-request metric and ``itl``; empty metrics are left out."""
    import numpy as np

    n = sample.n
    if n == 0:
        return {}
    rng = np.random.default_rng(seed)
    prepared = {}
    for name, values in sample.per_request.items():
        finite = np.isfinite(values)
        if finite.any():
            order = np.flatnonzero(finite)[np.argsort(values[finite], kind="stable")]
            prepared[name] = (order, values[order])
    out: dict[str, dict[str, list[np.ndarray]]] = {name: {s: [] for s in STATISTICS} for name in prepared}

    gaps = sample.itl_s
    itl_ready = gaps.size > 0 and bool((sample.n_itl >= 0).all()) and int(sample.n_itl.sum()) == gaps.size
    if itl_ready:
        owner = np.repeat(np.arange(n), sample.n_itl)
        gap_sum = np.bincount(owner, weights=gaps, minlength=n)
        gap_count = sample.n_itl.astype(np.float64)
        edges, hist = _gap_histograms(gaps, owner, n)
        out["itl"] = {s: [] for s in STATISTICS}

    done = 0
    while done < resamples:
        rows = min(max(1, min(256, _CELLS // n)), resamples - done)
        counts = _draw_counts(rng, rows, n)
        for name, (order, sorted_x) in prepared.items():
            c = counts[:, order]
            m = c.sum(axis=1)
            with np.errstate(invalid="ignore", divide="ignore"):
                out[name]["mean"].append((c @ sorted_x) / m)
            qs = _weighted_quantiles(sorted_x, c, [STATISTICS[s] for s in STATISTICS if STATISTICS[s] is not None])
            for s, q in zip([s for s in STATISTICS if STATISTICS[s] is not None], qs):
                q[m == 0] = np.nan
                out[name][s].append(q)
        if itl_ready:
            with np.errstate(invalid="ignore", divide="ignore"):
                out["itl"]["mean"].append((counts @ gap_sum) / (counts @ gap_count))
            binned = (counts.astype(np.float32) @ hist).astype(np.float64)  # one BLAS type: counts are exact in float32
            for s, q in STATISTICS.items():
                if q is not None:
                    out["itl"][s].append(_binned_quantile(edges, binned, q))
        done += rows
    return {name: {s: np.concatenate(v) for s, v in stats.items()} for name, stats in out.items()}


def _gap_histograms(gaps: np.ndarray, owner: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Bin edges (ITL_BINS log-spaced bins, plus one bin for zero gaps) and the per-request counts (n x bins)."""
    import numpy as np

    positive = gaps[gaps > 0]
    lo = float(positive.min()) if positive.size else 1e-9
    hi = float(positive.max()) if positive.size else 1e-9
    hi = max(hi, lo * (1 + 1e-9))
    edges = np.concatenate(([0.0], np.geomspace(lo, hi, ITL_BINS + 1)))
    step = np.log(hi / lo) / ITL_BINS
    # zero gaps (below lo) land below bin 1 and are clipped into bin 0, the [0, lo) bin
    bins = np.clip(np.floor((np.log(np.maximum(gaps, lo / 2)) - np.log(lo)) / step).astype(np.int64) + 1, 0, ITL_BINS)
    hist = np.bincount(owner * (edges.size - 1) + bins, minlength=n * (edges.size - 1)).reshape(n, edges.size - 1)
    return edges, hist.astype(np.float32)  # counts below 2^24 per cell are exact in float32


def _binned_quantile(edges: np.ndarray, binned: np.ndarray, q: float) -> np.ndarray:
    """numpy-linear quantile position read from binned counts, linear inside the bin that holds it."""
    import numpy as np

    cum = np.cumsum(binned, axis=1)
    m = cum[:, -1]
    target = q / 100 * (m - 1) + 0.5  # the (h + 1)-th smallest gap, as a continuous rank (midpoint convention)
    j = np.minimum((cum < target[:, None]).sum(axis=1), binned.shape[1] - 1)
    before = np.where(j > 0, cum[np.arange(cum.shape[0]), np.maximum(j - 1, 0)], 0.0)
    inside = binned[np.arange(binned.shape[0]), j]
    with np.errstate(invalid="ignore", divide="ignore"):
        frac = np.clip(np.where(inside > 0, (target - before) / inside, 0.5), 0, 1)
    return edges[j] + frac * (edges[j + 1] - edges[j])


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
