"""Speed of the what-if sizing calls (a benchmark, not a test).

    python benchmarks/bench_sizing.py [--runs 5]

Each measurement runs in a fresh Python process (imports done, caches cold), as a first MCP call would:

- plan: ``plan_deployment`` over the whole GPU catalog with every default weight and KV format
  (Llama-3.1-70B and DeepSeek-V3, 24 sequences x 32,768 tokens); bar: under 1 s;
- sweep: a 50-combination ``size_query`` (Llama-3.1-70B on H100: 2 KV formats x 5 lengths x 5 TP sizes,
  nearest-fit suggestions included for the combinations that do not fit); bar: under 1 s;
- baselines, in the same fresh process before the work: one cold ``size_deployment`` call (Llama-3.1-8B on
  H100, parsing included: the unit the others are made of) and a fixed pure-Python loop (10^6 additions)
  that calibrates the machine.

Printed: median seconds, and each figure as a ratio to the same-run baselines.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys

CASES = {
    "plan Llama-3.1-70B, whole catalog": (
        "from llm_inference_fundamentals.tools.sizing import PlanRequest, plan_deployment\n"
        "work = lambda: plan_deployment(PlanRequest(model='Llama-3.1-70B', tokens=32768, concurrency=24))\n"),
    "plan DeepSeek-V3, whole catalog": (
        "from llm_inference_fundamentals.tools.sizing import PlanRequest, plan_deployment\n"
        "work = lambda: plan_deployment(PlanRequest(model='DeepSeek-V3', tokens=32768, concurrency=24))\n"),
    "sweep, 50 combinations": (
        "from llm_inference_fundamentals.tools.sizing import SizingQuery, size_query\n"
        "q = SizingQuery(model='Llama-3.1-70B', gpu='h100', concurrency=16, kv=['bf16', 'fp8'],\n"
        "                tokens=[1024, 4096, 8192, 16384, 32768], tp=[1, 2, 4, 8, 16])\n"
        "work = lambda: size_query(q)\n"),
}

TIMER = """
import time
from llm_inference_fundamentals.tools.sizing import SizingRequest, size_deployment
t = time.perf_counter(); s = 0
for i in range(1_000_000):
    s += i
loop = time.perf_counter() - t
t = time.perf_counter(); size_deployment(SizingRequest(model='Llama-3.1-8B', tokens=4096, gpu='h100'))
one = time.perf_counter() - t
{setup}
t = time.perf_counter(); result = work(); elapsed = time.perf_counter() - t
n = len(getattr(result, 'reports', None) or getattr(result, 'candidates', None) or [])
print(json.dumps({{"elapsed": elapsed, "loop": loop, "one": one, "items": n}}))
"""


def measure(setup: str) -> dict:
    code = "import json\n" + TIMER.format(setup=setup)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"{'case':<36}{'median s':>10}{'/ 1 sizing':>12}{'/ 1e6 loop':>12}  items  bar")
    ok = True
    for name, setup in CASES.items():
        runs = [measure(setup) for _ in range(args.runs)]
        elapsed = statistics.median(r["elapsed"] for r in runs)
        one = statistics.median(r["one"] for r in runs)
        loop = statistics.median(r["loop"] for r in runs)
        passed = elapsed < 1.0
        ok &= passed
        print(f"{name:<36}{elapsed:>10.3f}{elapsed / one:>12.1f}{elapsed / loop:>12.1f}  {runs[0]['items']:>5}  "
              f"{'< 1 s' if passed else 'OVER 1 s'}")
    print("baselines: one cold size_deployment (Llama-3.1-8B, H100) and a 10^6-addition Python loop, same process")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
