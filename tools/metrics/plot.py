"""Draw a benchmark trace: TTFT and ITL histograms and output tokens/s over time (one PNG).

Needs matplotlib, the optional ``plot`` extra (installed beside the package: ``pip install matplotlib``);
it is imported here only, and its absence is an ``InputFormatError`` that says how to install it.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputFormatError
from .records import Trace

__all__ = ["PLOT_EXTRA_HINT", "plot_available", "plot_trace", "token_arrival_times"]

PLOT_EXTRA_HINT = ("matplotlib is not installed; add it where llm-inference-fundamentals runs (the [plot] extra): "
                   "pip install matplotlib in its environment, or uv tool install --with matplotlib ...")


def plot_available() -> bool:
    """Whether matplotlib can be imported (plots are an optional extra)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def token_arrival_times(trace: Trace):  # -> tuple[np.ndarray, np.ndarray]
    """Chunk arrival times (s) of successful requests and the tokens each chunk is credited with.

    Arrivals are rebuilt as start + TTFT + cumulative chunk gaps (vLLM's rule); a request's
    output tokens are spread evenly over its chunks.
    """
    import numpy as np

    ok = trace.ok & np.isfinite(trace.start_s) & np.isfinite(trace.ttft_s) & (trace.n_itl >= 0)
    counts = np.where(trace.n_itl >= 0, trace.n_itl, 0)
    ends = np.cumsum(counts)
    begins = ends - counts
    times, weights = [], []
    for i in np.flatnonzero(ok):
        gaps = trace.itl_s[begins[i] : ends[i]]
        t = trace.start_s[i] + trace.ttft_s[i] + np.concatenate(([0.0], np.cumsum(gaps)))
        n = trace.output_tokens[i]
        times.append(t)
        weights.append(np.full(t.size, (n / t.size) if np.isfinite(n) else 1.0))
    if not times:
        return np.zeros(0), np.zeros(0)
    return np.concatenate(times), np.concatenate(weights)


def plot_trace(trace: Trace, path: Path) -> Path:
    """Write a three-panel PNG to ``path`` and return it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputFormatError(f"plot: {PLOT_EXTRA_HINT}") from None
    import numpy as np

    path = Path(path).expanduser()
    if path.suffix.lower() != ".png":
        raise InputFormatError(f"plot: {str(path)!r} must end in .png")
    if not path.parent.is_dir():
        raise InputFormatError(f"plot: folder {str(path.parent)!r} does not exist")
    ttft_ms = trace.ttft_s[trace.ok & np.isfinite(trace.ttft_s)] * 1000
    itl_ms = trace.itl_s * 1000
    times, weights = token_arrival_times(trace)

    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    for ax, values, title in ((axes[0], ttft_ms, "TTFT (ms)"), (axes[1], itl_ms, "ITL: chunk gaps (ms)")):
        if values.size:
            ax.hist(values, bins=min(60, max(5, int(np.sqrt(values.size)))))
            for q, style in ((50, "-"), (99, "--")):
                ax.axvline(np.percentile(values, q), color="k", linestyle=style, linewidth=1, label=f"p{q}")
            ax.legend()
        else:
            ax.text(0.5, 0.5, "not recorded", ha="center", va="center", transform=ax.transAxes)
        ax.set_title(title)
        ax.set_ylabel("count")
    ax = axes[2]
    width = 1.0
    if times.size:
        t0 = times.min()
        span = float(times.max() - t0)
        width = 1.0 if span >= 20 else max(span / 20, 1e-3)  # short runs: 20 buckets instead of 1 s ones
        buckets = np.floor((times - t0) / width).astype(np.int64)
        per_s = np.bincount(buckets, weights=weights) / width
        edges = np.arange(per_s.size + 1) * width
        ax.stairs(per_s, edges)
        ax.set_xlabel("time since first token (s)")
    else:
        ax.text(0.5, 0.5, "no timestamps", ha="center", va="center", transform=ax.transAxes)
    ax.set_title(f"output tokens/s ({width:.3g} s buckets)")
    fig.suptitle(f"{trace.source} ({trace.source_format})")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except OSError as exc:
        raise InputFormatError(f"plot: cannot write {str(path)!r} ({exc.strerror})") from None
    finally:
        plt.close(fig)
    return path
