"""Speed of compute_metrics on a 10,000-request, 5,000,000-output-token trace (a benchmark, not a test).

    python benchmarks/bench_metrics.py [--runs 3] [--requests 10000] [--tokens 5000000]

Writes the trace to a temporary folder twice, as a ``vllm bench serve --save-detailed`` JSON
and as generic JSONL records, then times, in the same run:

- ours: ``compute_metrics(MetricsRequest(path=...))``, file to report (parse, checks, every figure);
- baseline: plain ``json`` + numpy on the same file computing the same core figures
  (TTFT/TPOT/ITL/E2EL mean, median, std, p90/p95/p99, throughputs, goodput), no validation.

The figure is ours / baseline (and ours in seconds against the 2 s bar).
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


def make_trace(requests: int, tokens: int, seed: int = 0) -> dict:
    rng = np.random.default_rng(seed)
    per = tokens // requests
    ttfts = rng.uniform(0.05, 0.5, requests).round(6)
    itls = rng.uniform(0.008, 0.014, (requests, per - 1)).round(6)
    latencies = ttfts + itls.sum(axis=1)
    starts = 1000.0 + np.sort(rng.uniform(0, 60, requests))
    return {
        "duration": float((starts + latencies).max() - starts.min()),
        "completed": requests,
        "failed": 0,
        "input_lens": rng.integers(100, 2000, requests).tolist(),
        "output_lens": [per] * requests,
        "ttfts": ttfts.tolist(),
        "itls": itls.tolist(),
        "latencies": latencies.tolist(),
        "start_times": starts.tolist(),
        "errors": [""] * requests,
        "request_goodput": None,
        "total_token_throughput": 0.0,
    }


def write_files(trace: dict, folder: Path) -> tuple[Path, Path]:
    vllm = folder / "vllm-detailed.json"
    vllm.write_text(json.dumps(trace))
    jsonl = folder / "records.jsonl"
    with jsonl.open("w") as fh:
        for i in range(len(trace["ttfts"])):
            fh.write(
                json.dumps(
                    {
                        "start_s": trace["start_times"][i],
                        "ttft_ms": trace["ttfts"][i] * 1000,
                        "itl_ms": [round(g * 1000, 3) for g in trace["itls"][i]],
                        "prompt_tokens": trace["input_lens"][i],
                        "output_tokens": trace["output_lens"][i],
                    }
                )
                + "\n"
            )
    return vllm, jsonl


def stats(x: np.ndarray) -> tuple:
    return (np.mean(x), np.median(x), np.std(x), *np.percentile(x, [90, 95, 99]))


def baseline_vllm(path: Path) -> dict:
    """Plain numpy over the parsed vLLM file: vLLM's formulas, no checks."""
    obj = json.loads(path.read_text())
    ok = np.array([not e for e in obj["errors"]])
    ttft = np.asarray(obj["ttfts"])[ok]
    e2el = np.asarray(obj["latencies"])[ok]
    n = np.asarray(obj["output_lens"], dtype=float)[ok]
    itl = np.concatenate([np.asarray(g) for g, k in zip(obj["itls"], ok) if k])
    tpot = (e2el - ttft)[n > 1] / (n[n > 1] - 1)
    dur = obj["duration"]
    good = ((ttft <= 0.5) & (np.where(n > 1, (e2el - ttft) / np.maximum(n - 1, 1), 0) <= 0.05)).sum()
    return {
        "ttft": stats(ttft * 1000), "tpot": stats(tpot * 1000), "itl": stats(itl * 1000), "e2el": stats(e2el * 1000),
        "req/s": ok.sum() / dur, "out tok/s": n.sum() / dur, "goodput": good / dur,
    }


def baseline_jsonl(path: Path) -> dict:
    """Plain json.loads per line + numpy."""
    ttft, n, prompt, start, e2el, itl = [], [], [], [], [], []
    with path.open() as fh:
        for line in fh:
            r = json.loads(line)
            ttft.append(r["ttft_ms"])
            n.append(r["output_tokens"])
            prompt.append(r["prompt_tokens"])
            start.append(r["start_s"])
            e2el.append(r["ttft_ms"] + sum(r["itl_ms"]))
            itl.extend(r["itl_ms"])
    ttft_a, n_a, e2el_a, itl_a = np.array(ttft), np.array(n, float), np.array(e2el), np.array(itl)
    tpot = (e2el_a - ttft_a) / (n_a - 1)
    dur = float((np.array(start) + e2el_a / 1000).max() - min(start))
    return {"ttft": stats(ttft_a), "tpot": stats(tpot), "itl": stats(itl_a), "e2el": stats(e2el_a), "req/s": len(n) / dur}


def timed(fn, runs: int) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--requests", type=int, default=10_000)
    parser.add_argument("--tokens", type=int, default=5_000_000)
    args = parser.parse_args(argv)

    from llm_inference_fundamentals.tools.metrics import MetricsRequest, compute_metrics

    trace = make_trace(args.requests, args.tokens)
    with tempfile.TemporaryDirectory() as tmp:
        vllm, jsonl = write_files(trace, Path(tmp))
        print(f"trace: {args.requests:,} requests, {args.requests * (args.tokens // args.requests):,} output tokens")
        print(f"files: vllm detailed JSON {vllm.stat().st_size / 2**20:.1f} MiB, records JSONL {jsonl.stat().st_size / 2**20:.1f} MiB")
        print(f"median of {args.runs} runs\n")
        print(f"{'input':<22}{'ours (s)':>10}{'baseline (s)':>14}{'ratio':>8}  bar: ours < 2 s")
        worst = 0.0
        for label, path, base in (("vllm --save-detailed", vllm, baseline_vllm), ("generic JSONL", jsonl, baseline_jsonl)):
            request = MetricsRequest(path=str(path), slo_ttft_ms=500, slo_tpot_ms=50, max_file_mb=1024)
            ours_s, report = timed(lambda: compute_metrics(request), args.runs)
            base_s, ref = timed(lambda: base(path), args.runs)
            worst = max(worst, ours_s)
            print(f"{label:<22}{ours_s:>10.3f}{base_s:>14.3f}{ours_s / base_s:>8.2f}  {'ok' if ours_s < 2 else 'OVER'}")
            # same numbers as the baseline (a sanity check, not the point of the benchmark)
            assert abs(report.itl_ms.p99 - ref["itl"][5]) < 1e-6, (report.itl_ms.p99, ref["itl"][5])
            assert abs(report.tpot_ms.mean - ref["tpot"][0]) < 1e-6, (report.tpot_ms.mean, ref["tpot"][0])
    return 0 if worst < 2 else 1


if __name__ == "__main__":
    sys.exit(main())
