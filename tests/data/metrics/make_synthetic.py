"""Write the synthetic fixtures of this folder (run: python tests/data/metrics/make_synthetic.py).

Real tool runs produced guidellm_benchmarks.json and the aiperf_* files (see README.md). The
files below follow the tools' documented shapes (vllm/benchmarks/serve.py @009e6d4,
sglang python/sglang/benchmark/serving.py @00f9ec4, genai-perf profile_export.json), with
their summary fields computed the way those tools compute them (written out plainly here,
independently of tools/metrics), so a test can check that recomputing from the per-request
arrays reproduces the summary the file carries.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np

HERE = Path(__file__).parent
rng = random.Random(7)


def simulate(n: int, *, fail: set[int], one_token: set[int], multi_chunk: set[int] = frozenset()):
    """Requests as vLLM's RequestFuncOutput would hold them (seconds)."""
    out = []
    t = 5321.0
    for i in range(n):
        t += rng.uniform(0.01, 0.05)
        prompt = rng.randint(100, 400)
        queue = round(rng.uniform(0.0, 0.02), 6)
        if i in fail:
            out.append(dict(success=False, prompt_len=prompt, output_tokens=0, ttft=0.0, itl=[], latency=0.0,
                            start_time=t, queue=queue, error="HTTP 500: Internal Server Error"))
            continue
        n_out = 1 if i in one_token else rng.randint(20, 60)
        per_chunk = 2 if i in multi_chunk else 1
        chunks = 1 if n_out == 1 else 1 + (n_out - 1 + per_chunk - 1) // per_chunk
        ttft = round(rng.uniform(0.05, 0.4), 6)
        itl = [round(rng.uniform(0.008, 0.014) * per_chunk, 6) for _ in range(chunks - 1)]
        latency = ttft + sum(itl)
        out.append(dict(success=True, prompt_len=prompt, output_tokens=n_out, ttft=ttft, itl=itl, latency=latency,
                        start_time=t, queue=queue, error=""))
    return out


def vllm_summary(outputs, dur_s, percentiles, goodput=None):
    """vLLM calculate_metrics, written out."""
    ttfts, tpots, all_tpots, itls, e2els, lens = [], [], [], [], [], []
    total_input = 0
    completed = 0
    for o in outputs:
        if not o["success"]:
            lens.append(0)
            continue
        n = o["output_tokens"]
        lens.append(n)
        total_input += o["prompt_len"]
        tpot = 0.0
        if n > 1:
            tpot = (o["latency"] - o["ttft"]) / (n - 1)
            tpots.append(tpot)
        all_tpots.append(tpot)
        itls += o["itl"]
        ttfts.append(o["ttft"])
        e2els.append(o["latency"])
        completed += 1
    good = 0
    if goodput:
        for ttft, tpot, e2el in zip(ttfts, all_tpots, e2els):
            if all(goodput[k] / 1000 >= v for k, v in (("ttft", ttft), ("tpot", tpot), ("e2el", e2el)) if k in goodput):
                good += 1
    result = {
        "duration": dur_s,
        "completed": completed,
        "failed": len(outputs) - completed,
        "total_input_tokens": total_input,
        "total_output_tokens": sum(lens),
        "request_throughput": completed / dur_s,
        "request_goodput": good / dur_s if goodput else None,
        "output_throughput": sum(lens) / dur_s,
        "total_token_throughput": (total_input + sum(lens)) / dur_s,
    }
    for name, xs in (("ttft", ttfts), ("tpot", tpots), ("itl", itls), ("e2el", e2els)):
        result[f"mean_{name}_ms"] = float(np.mean(xs or 0) * 1000)
        result[f"median_{name}_ms"] = float(np.median(xs or 0) * 1000)
        result[f"std_{name}_ms"] = float(np.std(xs or 0) * 1000)
        for p in percentiles:
            word = str(int(p)) if int(p) == p else str(p)
            result[f"p{word}_{name}_ms"] = float(np.percentile(xs or 0, p) * 1000)
    return result, lens


def write_vllm():
    outputs = simulate(8, fail={5}, one_token={6})
    dur = max(o["start_time"] + o["latency"] for o in outputs) - outputs[0]["start_time"] + 0.05
    summary, lens = vllm_summary(outputs, dur, [90, 99, 99.9], goodput={"ttft": 300, "tpot": 12})
    head = {
        "date": "20260101-120000", "endpoint_type": "openai-chat", "backend": "openai-chat", "label": None,
        "model_id": "org/model", "tokenizer_id": "org/model", "num_prompts": 8, "request_rate": "inf",
        "burstiness": 1.0, "max_concurrency": 4,
    }
    arrays = {
        "input_lens": [o["prompt_len"] for o in outputs],
        "output_lens": lens,
        "ttfts": [o["ttft"] for o in outputs],
        "itls": [o["itl"] for o in outputs],
        "latencies": [o["latency"] for o in outputs],
        "start_times": [o["start_time"] for o in outputs],
        "queue_times": [o["queue"] for o in outputs],
        "generated_texts": ["" if not o["success"] else "x" * o["output_tokens"] for o in outputs],
        "errors": [o["error"] for o in outputs],
    }
    extra = {"max_output_tokens_per_s": 95.0, "max_concurrent_requests": 4, "rtfx": 0.0}
    ordered = {**head, **{k: summary[k] for k in list(summary)[:9]}, **arrays, **extra,
               **{k: v for k, v in summary.items() if k not in list(summary)[:9]}}
    (HERE / "vllm_detailed.json").write_text(json.dumps(ordered))
    # Without --save-detailed: the arrays are dropped except latencies and queue_times.
    plain = {k: v for k, v in ordered.items() if k not in ("input_lens", "output_lens", "start_times", "ttfts", "itls", "generated_texts", "errors")}
    (HERE / "vllm_summary.json").write_text(json.dumps(plain))
    # Legacy benchmark_serving.py (chat endpoint): "request_goodput:" key, no "failed", detailed arrays
    # saved anyway (vllm#15794), no latencies/start_times/queue_times; E2E ended at the last chunk.
    legacy = {k: v for k, v in ordered.items() if k not in ("failed", "latencies", "start_times", "queue_times", "endpoint_type", "label", "max_concurrent_requests", "rtfx", "max_output_tokens_per_s")}
    legacy = {("request_goodput:" if k == "request_goodput" else k): v for k, v in legacy.items()}
    (HERE / "vllm_legacy_detailed.json").write_text(json.dumps(legacy))


def write_sglang():
    outputs = simulate(6, fail=set(), one_token=set(), multi_chunk={2})
    # SGLang's latency runs to the last line received ([DONE]), 1.5 ms after the last content chunk.
    for o in outputs:
        o["latency_done"] = o["latency"] + 0.0015
    dur = 2.5
    ttfts = [o["ttft"] for o in outputs]
    itls = [g for o in outputs for g in o["itl"]]
    e2e = [o["latency_done"] for o in outputs]
    tpots = [(o["latency_done"] - o["ttft"]) / (o["output_tokens"] - 1) for o in outputs if o["output_tokens"] > 1]
    total_in = sum(o["prompt_len"] for o in outputs)
    total_out = sum(o["output_tokens"] for o in outputs)
    run = {
        "tag": None, "backend": "sglang-oai", "dataset_name": "random", "request_rate": "inf", "max_concurrency": 4,
        "sharegpt_output_len": None, "random_input_len": 256, "random_output_len": 48, "random_range_ratio": 0.5,
        "duration": dur, "completed": len(outputs), "total_input_tokens": total_in, "total_input_text_tokens": total_in,
        "total_input_vision_tokens": 0, "total_output_tokens": total_out, "total_output_tokens_retokenized": total_out - 1,
        "request_throughput": len(outputs) / dur, "input_throughput": total_in / dur, "output_throughput": total_out / dur,
        "total_throughput": (total_in + total_out) / dur,
    }
    for name, xs in (("e2e_latency", e2e), ("ttft", ttfts), ("tpot", tpots), ("itl", itls)):
        run[f"mean_{name}_ms"] = float(np.mean(xs) * 1000)
        run[f"median_{name}_ms"] = float(np.median(xs) * 1000)
        run[f"std_{name}_ms"] = float(np.std(xs) * 1000)
        for p in (90, 95, 99):
            run[f"p{p}_{name}_ms"] = float(np.percentile(xs, p) * 1000)
    run["concurrency"] = sum(e2e) / dur
    run["accept_length"] = None
    run.update({
        "input_lens": [o["prompt_len"] for o in outputs],
        "output_lens": [o["output_tokens"] for o in outputs],
        "ttfts": ttfts,
        "itls": [o["itl"] for o in outputs],
        "generated_texts": ["..." for _ in outputs],
        "errors": ["" for _ in outputs],
    })
    second = {k: v for k, v in run.items() if k not in ("input_lens", "output_lens", "ttfts", "itls", "generated_texts", "errors")}
    second["max_concurrency"] = 8
    (HERE / "sglang_bench_serving.jsonl").write_text(json.dumps(run) + "\n" + json.dumps(second) + "\n")


def write_genai_perf():
    """perf_analyzer profile_export.json: ns timestamps, SSE responses incl. a role-only delta, usage and [DONE]."""
    requests = []
    t0 = 1_700_000_000_000_000_000
    for i, (ttft_ms, gaps_ms, n) in enumerate([(120, [10, 12, 11], 4), (150, [9, 9, 30, 9], 5), (90, [], 1)]):
        ts = t0 + i * 20_000_000
        stamps, outs = [], []
        role_ts = ts + (ttft_ms - 5) * 1_000_000
        stamps.append(role_ts)
        outs.append({"response": 'data: {"choices":[{"index":0,"delta":{"role":"assistant"}}]}\n\n'})
        t = ts + ttft_ms * 1_000_000
        for j in range(n):
            if j:
                t += gaps_ms[j - 1] * 1_000_000
            stamps.append(t)
            outs.append({"response": 'data: {"choices":[{"index":0,"delta":{"content":"tok%d "}}]}\n\n' % j})
        stamps.append(t + 1_000_000)
        outs.append({"response": 'data: {"choices":[],"usage":{"prompt_tokens":%d,"completion_tokens":%d}}\n\n' % (50 + i, n)})
        stamps.append(t + 1_200_000)
        outs.append({"response": "data: [DONE]\n\n"})
        requests.append({
            "timestamp": ts,
            "request_inputs": {"payload": json.dumps({"messages": [{"role": "user", "content": "hi"}], "model": "m", "stream": True})},
            "response_timestamps": stamps,
            "response_outputs": outs,
        })
    doc = {"service_kind": "openai", "endpoint": "v1/chat/completions",
           "experiments": [{"experiment": {"mode": "concurrency", "value": 2}, "requests": requests}],
           "version": "0.0.13"}
    (HERE / "genai_perf_profile_export.json").write_text(json.dumps(doc, indent=2))


def write_generic():
    rows = [
        {"id": "r1", "start_s": 10.0, "ttft_ms": 120.0, "itl_ms": [10, 10, 10, 10], "prompt_tokens": 100, "output_tokens": 5},
        {"id": "r2", "start_s": 10.05, "ttft_ms": 200.0, "itl_ms": [20, 20], "prompt_tokens": 300, "output_tokens": 3},
        {"id": "r3", "start_s": 10.1, "ok": False, "error": "timeout"},
        {"id": "r4", "start_s": 10.2, "ttft_ms": 80.0, "itl_ms": [], "prompt_tokens": 50, "output_tokens": 1},
    ]
    (HERE / "records.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    lines = ["id,start_s,ttft_ms,itl_ms,prompt_tokens,output_tokens,ok,error"]
    for r in rows:
        lines.append(",".join([
            r["id"], str(r["start_s"]), str(r.get("ttft_ms", "")),
            " ".join(str(v) for v in r.get("itl_ms", [])) if "itl_ms" in r else "",
            str(r.get("prompt_tokens", "")), str(r.get("output_tokens", "")),
            "false" if r.get("ok") is False else "true", r.get("error", ""),
        ]))
    (HERE / "records.csv").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    write_vllm()
    write_sglang()
    write_genai_perf()
    write_generic()
