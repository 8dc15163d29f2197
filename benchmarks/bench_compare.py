"""Speed of compare_runs on two 10,000-request files and of analyze_sweep on a 10-point sweep (a benchmark, not a test).

    python benchmarks/bench_compare.py [--runs 3] [--requests 10000] [--tokens 5000000] [--points 10]

Writes `vllm bench serve --save-detailed` JSON files to a temporary folder, then times, in the same run:

- compare: ``compare_runs`` on two 10,000-request files (1,000 bootstrap resamples, every latency statistic);
  baseline: plain ``json`` + numpy reading both files and computing the same point figures, no intervals;
- sweep: ``analyze_sweep`` on ten 1,000-request files with SLOs (frontier, knee, capacity goodput);
  baseline: the same plain reading of the ten files.

Figures: ours in seconds against the bars (compare < 3 s, sweep < 5 s) and ours / baseline.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from bench_metrics import baseline_vllm, make_trace  # noqa: E402


def timed(fn, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def write(trace: dict, path: Path, **extra) -> Path:
    path.write_text(json.dumps(dict(trace, **extra)))
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--tokens", type=int, default=5_000_000)
    parser.add_argument("--points", type=int, default=10)
    args = parser.parse_args(argv)

    from llm_inference_fundamentals.tools.metrics import (
        CompareRequest,
        RunInput,
        SweepRequest,
        analyze_sweep,
        compare_runs,
    )

    worst_ok = True
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        a = write(make_trace(args.requests, args.tokens, seed=1), folder / "a.json")
        b = write(make_trace(args.requests, args.tokens, seed=2), folder / "b.json")
        print(f"compare: 2 files x {args.requests:,} requests, {args.tokens:,} output tokens each "
              f"({a.stat().st_size / 2**20:.0f} MiB each); median of {args.runs} runs")
        request = CompareRequest(runs=[RunInput(path=str(a)), RunInput(path=str(b))], slo_ttft_ms=500, slo_tpot_ms=50,
                                 max_file_mb=1024)
        ours, report = timed(lambda: compare_runs(request), args.runs)
        base, _ = timed(lambda: (baseline_vllm(a), baseline_vllm(b)), args.runs)
        ok = ours < 3
        worst_ok &= ok
        print(f"  ours {ours:.3f} s   baseline {base:.3f} s   ratio {ours / base:.2f}   bar < 3 s: {'ok' if ok else 'OVER'}")
        assert len(report.metrics) >= 16 and report.metrics[0].ci[1] is not None

        per = 1000
        files = []
        for i in range(args.points):
            trace = make_trace(per, per * 200, seed=10 + i)
            trace["ttfts"] = (np.asarray(trace["ttfts"]) * (1 + i / 3)).round(6).tolist()  # latency rises with load
            files.append(write(trace, folder / f"point{i}.json", request_rate=float(i + 1), max_concurrency=None))
        print(f"sweep: {args.points} files x {per:,} requests x 200 output tokens; median of {args.runs} runs")
        sweep = SweepRequest(runs=[RunInput(path=str(f)) for f in files], slo_ttft_ms=500, slo_tpot_ms=50, gpus=1,
                             gpu_hour_usd=2.0)
        ours, report = timed(lambda: analyze_sweep(sweep), args.runs)
        base, _ = timed(lambda: [baseline_vllm(f) for f in files], args.runs)
        ok = ours < 5
        worst_ok &= ok
        print(f"  ours {ours:.3f} s   baseline {base:.3f} s   ratio {ours / base:.2f}   bar < 5 s: {'ok' if ok else 'OVER'}")
        assert len(report.points) == args.points and report.capacity_goodput is not None
    return 0 if worst_ok else 1


if __name__ == "__main__":
    sys.exit(main())
