"""Draw benchmarks: one trace (TTFT and ITL histograms, output tokens/s over time), several runs' latency CDFs side
by side, or a sweep's curve and Pareto frontier (one PNG each).

Needs matplotlib, the optional ``plot`` extra (installed beside the package: ``pip install matplotlib``);
it is imported here only, and its absence is an ``InputFormatError`` that says how to install it.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InputFormatError
from .records import Trace

__all__ = ["PLOT_EXTRA_HINT", "plot_available", "plot_comparison", "plot_sweep", "plot_trace", "token_arrival_times"]

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


def _pyplot():
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputFormatError(f"plot: {PLOT_EXTRA_HINT}") from None
    return plt


def _save(fig, path: Path, plt) -> Path:
    path = Path(path).expanduser()
    if path.suffix.lower() != ".png":
        plt.close(fig)
        raise InputFormatError(f"plot: {str(path)!r} must end in .png")
    if not path.parent.is_dir():
        plt.close(fig)
        raise InputFormatError(f"plot: folder {str(path.parent)!r} does not exist")
    fig.tight_layout()
    try:
        fig.savefig(path, dpi=100)
    except OSError as exc:
        raise InputFormatError(f"plot: cannot write {str(path)!r} ({exc.strerror})") from None
    finally:
        plt.close(fig)
    return path


def plot_comparison(traces: list[Trace], labels: list[str], path: Path) -> Path:
    """Latency CDFs of every run side by side (TTFT, TPOT, E2E, ITL), one line per run; a PNG at ``path``."""
    import numpy as np

    from .latency import tpot_s

    plt = _pyplot()
    fig, axes = plt.subplots(1, 4, figsize=(18, 4))
    for k, (trace, label) in enumerate(zip(traces, labels)):
        ok = trace.ok
        series = {
            "TTFT (ms)": trace.ttft_s[ok],
            "TPOT (ms)": tpot_s(trace.e2el_s[ok], trace.ttft_s[ok], trace.output_tokens[ok]),
            "E2E latency (ms)": trace.e2el_s[ok],
            "ITL: chunk gaps (ms)": trace.itl_s if (trace.n_itl[ok] >= 0).all() else np.zeros(0),
        }
        for ax, (title, values) in zip(axes, series.items()):
            x = np.sort(values[np.isfinite(values)]) * 1000
            if x.size:
                ax.step(x, np.arange(1, x.size + 1) / x.size, where="post", color=f"C{k % 10}", label=f"{label} (n={x.size})")
            ax.set_title(title)
            ax.set_ylabel("share of requests at or below" if title.startswith(("TTFT", "TPOT", "E2E")) else "share of gaps")
            ax.set_ylim(0, 1.01)
            ax.grid(alpha=0.3)
    for ax in axes:
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    fig.suptitle("latency CDFs, recomputed under one definition (vllm bench serve)")
    return _save(fig, path, plt)


def plot_sweep(report, path: Path) -> Path:  # report: SweepReport
    """The sweep curve (throughput and latency against offered load) and the Pareto frontier; a PNG at ``path``."""
    plt = _pyplot()
    points = report.points
    load = [p.offered_load for p in points]
    fig, (left, right) = plt.subplots(1, 2, figsize=(14, 5))
    left.plot(load, [p.output_throughput or 0 for p in points], "o-", label="output tokens/s")
    left.set_xlabel(points[0].offered_load_basis if points else "load")
    left.set_ylabel("output tokens/s (aggregate)")
    twin = left.twinx()
    for attr, style in (("ttft_ms", "s--"), ("tpot_ms", "^--")):
        for stat in ("median", "p99"):
            values = [getattr(getattr(p, attr), stat) if getattr(p, attr) else None for p in points]
            if any(v is not None for v in values):
                twin.plot(load, [v if v is not None else float("nan") for v in values], style, alpha=0.7,
                          label=f"{attr.split('_')[0].upper()} {stat} (ms)")
    twin.set_ylabel("latency (ms)")
    if report.knee is not None:
        left.axvline(load[report.knee], color="grey", linestyle=":", label="knee")
    cap = report.capacity_goodput
    if cap is not None and cap.request_rate is not None and points and points[0].offered_load_basis.startswith("requested rate"):
        left.axvline(cap.request_rate, color="green", linestyle="-.", label="capacity goodput" + (" (interpolated)" if cap.interpolated else ""))
    lines = left.get_legend_handles_labels()
    more = twin.get_legend_handles_labels()
    left.legend(lines[0] + more[0], lines[1] + more[1], fontsize=7, loc="upper left")
    left.set_title("throughput and latency against load")
    x = [(p.total_token_throughput_per_gpu if p.total_token_throughput_per_gpu is not None else p.total_token_throughput) for p in points]
    y = [p.output_tps_per_user for p in points]
    right.scatter([a for a, b in zip(x, y) if a is not None and b is not None], [b for a, b in zip(x, y) if a is not None and b is not None],
                  color="grey", label="points")
    front = sorted((x[i], y[i]) for i in report.pareto)
    if front:
        right.plot([a for a, _ in front], [b for _, b in front], "o-", color="C3", label="Pareto frontier")
    for i, p in enumerate(points):
        if x[i] is not None and y[i] is not None:
            right.annotate(p.label[-12:], (x[i], y[i]), fontsize=6)
    right.set_xlabel("total tokens/s" + (" per GPU" if points and points[0].total_token_throughput_per_gpu is not None else ""))
    right.set_ylabel("output tokens/s per user (1000 / median TPOT)")
    right.set_title("Pareto frontier")
    right.legend(fontsize=7)
    return _save(fig, path, plt)
