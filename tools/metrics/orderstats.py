"""Exact order statistics of many bootstrap resamples at once, without materialising any resample.

A pooled sample is a set of values, each owned by one request (one value per request for TTFT,
TPOT and E2E; the request's chunk gaps for ITL). A resample draws requests; row r holds value g
``counts[r, owner[g]]`` times. Its k-th smallest value is found exactly, in three steps:

1. a window ``[lo, hi)`` of the sorted values is cut where the pooled CDF lies ``WINDOW_Z``
   standard deviations of a resample's CDF away from the quantile (the deviation's spread is
   measured on the data, from the per-request counts below candidate cuts);
2. one matrix product (``counts @ design``) gives each row's count below ``lo`` and in each
   block of the window: the block holding rank k follows from their cumulative sums;
3. inside that block, the row's counts of the block's owners, in value order, locate rank k.

A row whose rank falls outside its window (rare by construction) is answered from the fully
sorted sample instead, so every answer is the exact order statistic of its resample.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

__all__ = ["WINDOW_Z", "PooledSample", "numpy_lerp"]

WINDOW_Z = 6.0
"""Window half-width in standard deviations of a resample's CDF (rows outside it take the slow exact path)."""

_SUBSAMPLE = 65_536
"""Values drawn (seeded, with replacement) to guess where a quantile lies."""
_SUBSAMPLE_SEED = 20_240_601
"""Fixed so a run gives the same work every time; answers do not depend on it."""
_LADDER = tuple(1e-5 * 1.8**k for k in range(21))
"""Candidate cuts, in CDF units away from the quantile (1e-5 to about 1)."""
_GRID = 65_536
"""Cells (at most) of the grid that assigns values to candidate cuts while measuring the spread (a guide only)."""
_LOOKAHEAD = 16
"""Values read past a block's end, where rank k + 1 lies when rank k is the block's last (each is drawn with
probability 1 - 1/e, so 16 misses about once in 10^7)."""
_HIST_CELLS = 1_000_000
"""Per-request counts below the candidate cuts are tallied this many cells (requests x cuts) at a time."""


def numpy_lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """numpy's interpolation between neighbouring order statistics (``np.percentile``, method linear), bit for bit."""
    import numpy as np

    diff = b - a
    out = a + diff * t
    return np.where(t >= 0.5, b - diff * (1 - t), out)


def _subsample(values: np.ndarray) -> np.ndarray:
    """A sorted subsample of at most ``_SUBSAMPLE`` values (all of them when fewer)."""
    import numpy as np

    if values.size <= _SUBSAMPLE:
        return np.sort(values)
    rng = np.random.default_rng(_SUBSAMPLE_SEED)
    return np.sort(values[rng.integers(0, values.size, _SUBSAMPLE)])


@dataclass
class _Window:
    """Sorted values in ``[lo, hi)`` with their owners, split into blocks; ``col`` is its first design column."""

    values: np.ndarray
    owners: np.ndarray
    starts: np.ndarray
    col: int


class PooledSample:
    """One metric's values with their owning requests (``owner`` non-decreasing), ready for exact resampled percentiles.

    ``design`` (requests x columns) holds, per window, each request's count of values below the window
    and in each of its blocks; ``sums`` (requests x 2) each request's sum and count of values.
    """

    def __init__(self, values: np.ndarray, owner: np.ndarray, n: int, percentiles: tuple[float, ...]) -> None:
        import numpy as np

        self.values = values = np.ascontiguousarray(values, dtype=np.float64)
        self.owner = owner
        self.n = n
        per_count = np.bincount(owner, minlength=n).astype(np.float64)
        self._starts = np.searchsorted(owner, np.arange(n))  # request i's values are values[starts[i]:starts[i+1]]
        self.sums = np.column_stack([self._per_request_sum(values), per_count])
        self._sorted: tuple[np.ndarray, np.ndarray] | None = None
        self.windows: dict[float, _Window] = {}
        columns: list[np.ndarray] = []
        col = 0
        for p, (lo, hi) in self._cuts(percentiles, per_count).items():
            inside = np.flatnonzero((values >= lo) & (values < hi))
            order = np.argsort(values[inside], kind="stable")
            w_values, w_owners = values[inside][order], owner[inside][order]
            blocks = max(1, min(256, round(math.sqrt(w_values.size / 32))))
            starts = np.linspace(0, w_values.size, blocks + 1).round().astype(np.int64)
            block_of = np.repeat(np.arange(blocks), np.diff(starts))
            below = self._per_request_sum(values < lo, dtype=np.int64) if lo > -math.inf else np.zeros(n)
            hist = np.bincount(w_owners * blocks + block_of, minlength=n * blocks).reshape(n, blocks)
            self.windows[p] = _Window(values=w_values, owners=w_owners, starts=starts, col=col)
            columns.append(np.column_stack([below, hist]))
            col += blocks + 1
        self.design = np.hstack(columns).astype(np.float64) if columns else np.zeros((n, 0))

    def _per_request_sum(self, x: np.ndarray, dtype: type | None = None) -> np.ndarray:
        """Sum of ``x`` (one entry per value) over each request's values; 0 for a request without values."""
        import numpy as np

        out = np.zeros(self.n, dtype=dtype or x.dtype)
        some = np.flatnonzero(self._starts < np.append(self._starts[1:], x.size))
        if some.size:  # reduceat over the non-empty requests only: each runs to the next one's start
            out[some] = np.add.reduceat(x, self._starts[some], dtype=dtype)
        return out

    def _cuts(self, percentiles: tuple[float, ...], per_count: np.ndarray) -> dict[float, tuple[float, float]]:
        """``{p: (lo, hi)}``: the tightest candidate cuts whose CDF stays ``WINDOW_Z`` deviations clear of p / 100.

        For a cut c with pooled CDF F(c) and per-request counts below it b_i, a resample's share below c
        deviates from F(c) by sum_i w_i (b_i - F(c) n_i) / N (w_i the draw counts), whose standard deviation
        under multinomial draws is sqrt(sum_i (b_i - F(c) n_i)^2) / N (N values, n_i of request i). The counts
        b_i come from a grid close enough to place a window; the window's edges are then exact values.
        """
        import numpy as np

        values, owner, n = self.values, self.owner, self.n
        total = values.size
        sub = _subsample(values)
        ladder = np.array([0.0, *_LADDER, *(-a for a in _LADDER)])
        levels = np.clip(np.array([p / 100 for p in percentiles])[:, None] + ladder[None, :], 0, 1)
        cuts = np.unique(sub[np.round(levels * (sub.size - 1)).astype(np.int64)])
        # a float's bits, read as an integer, grow with the value (for values >= 0): shifted right they form a
        # log-like grid of at most _GRID cells over the subsample's range; values below it (0, negatives) go to cell 0
        positive = sub[sub > 0]
        first_bits = int(positive[:1].view(np.int64)[0]) if positive.size else 0
        span = int(sub[-1:].view(np.int64)[0]) - first_bits if positive.size else 0
        shift = max(0, (span // _GRID).bit_length())
        base = first_bits >> shift

        def cell(a: np.ndarray) -> np.ndarray:
            c = a.view(np.int64) >> shift
            c -= base
            return np.clip(c, 0, _GRID - 1, out=c)

        k = cuts.size
        table = np.searchsorted(cell(cuts), np.arange(_GRID), side="right")  # cuts at or below each cell
        # per-request counts b_i below each cut, over slices of requests (owner is non-decreasing);
        # sum_i (b_i - F n_i)^2 = sum b^2 - 2 F sum b n + F^2 sum n^2, with F = sum b / N
        sum_b, sum_bb, sum_bn = np.zeros(k), np.zeros(k), np.zeros(k)
        step = max(1, _HIST_CELLS // (k + 1))
        bounds = np.searchsorted(owner, np.arange(0, n + step, step))
        for first, s, e in zip(range(0, n, step), bounds[:-1], bounds[1:]):
            rows = min(step, n - first)
            bins = table[cell(values[s:e])]
            hist = np.bincount((owner[s:e] - first) * (k + 1) + bins, minlength=rows * (k + 1)).reshape(rows, k + 1)
            below = np.cumsum(hist, axis=1)[:, :k].astype(np.float64)
            sum_b += below.sum(axis=0)
            sum_bb += (below * below).sum(axis=0)
            sum_bn += (below * per_count[first:first + rows, None]).sum(axis=0)
        f = sum_b / total
        sd = np.sqrt(np.maximum(sum_bb - 2 * f * sum_bn + f * f * float(per_count @ per_count), 0.0)) / total
        margin = 2.0 / total
        out = {}
        for p in percentiles:
            q = p / 100
            lo_ok = np.flatnonzero(f + WINDOW_Z * sd + margin <= q)
            hi_ok = np.flatnonzero(f - WINDOW_Z * sd - margin >= q)
            out[p] = (float(cuts[lo_ok[-1]]) if lo_ok.size else -math.inf, float(cuts[hi_ok[0]]) if hi_ok.size else math.inf)
        return out

    def order_statistics(
        self, p: float, counts: np.ndarray, products: np.ndarray, k: np.ndarray, k1: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray]:
        """Each row's ``k``-th and ``k1``-th smallest values (0-based, k <= k1) in its resample, via the window of p.

        ``counts`` are the rows' draw counts per request (rows x requests), ``products`` is ``counts @ self.design``.
        """
        import numpy as np

        w = self.windows[p]
        below = products[:, w.col]
        cum = np.cumsum(products[:, w.col + 1:w.col + w.starts.size], axis=1) + below[:, None]
        inside = (k >= below) & (k1 < cum[:, -1])
        a, b = np.empty(k.size), np.empty(k.size)
        rows = np.flatnonzero(inside)
        if rows.size:
            a[rows], b[rows], missed = self._in_window(w, counts, rows, below[rows], cum[rows], k[rows], k1[rows])
            if missed.size:  # k1 lies in a later block than k: look it up on its own
                again = rows[missed]
                b[again] = self._in_window(w, counts, again, below[again], cum[again], k1[again], k1[again])[0]
        for r in np.flatnonzero(~inside).tolist():
            a[r], b[r] = self._full(counts[r], np.array([k[r], k1[r]]))
        return a, b

    @staticmethod
    def _in_window(
        w: _Window, counts: np.ndarray, rows: np.ndarray, below: np.ndarray, cum: np.ndarray, k: np.ndarray, k1: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Values of ranks k and k1 of ``rows``, read from the block holding rank k and a few values past it (rank
        k1 = k + 1 may be the next block's first); also which rows have k1 past what was read."""
        import numpy as np

        block = (cum <= k[:, None]).sum(axis=1)
        before = np.where(block > 0, cum[np.arange(block.size), np.maximum(block - 1, 0)], below)
        start = w.starts[block]
        size = np.minimum(w.starts[block + 1] - start + _LOOKAHEAD, w.values.size - start)
        offsets = np.arange(int(size.max()))
        flat = w.owners[np.minimum(start[:, None] + offsets[None, :], w.values.size - 1)]
        flat += (rows * counts.shape[1])[:, None]  # a flat take is several times faster than counts[rows, owners]
        weights = counts.ravel().take(flat)
        weights[offsets[None, :] >= size[:, None]] = 0
        running = np.cumsum(weights, axis=1) + before[:, None]
        a = w.values[start + (running <= k[:, None]).sum(axis=1)]
        b = w.values[np.minimum(start + (running <= k1[:, None]).sum(axis=1), w.values.size - 1)]
        return a, b, np.flatnonzero(k1 >= running[:, -1])

    def _full(self, counts: np.ndarray, targets: np.ndarray) -> np.ndarray:
        """The slow exact path for one row (its draw counts per request): weights over the whole sorted sample."""
        import numpy as np

        if self._sorted is None:
            order = np.argsort(self.values, kind="stable")
            self._sorted = (self.values[order], self.owner[order])
        values, owners = self._sorted
        return values[np.searchsorted(np.cumsum(counts[owners]), targets, side="right")]
