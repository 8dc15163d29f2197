"""Speed of the server and the corpus, against same-run baselines (a benchmark, not a test).

    python benchmarks/bench_server.py [--runs 7]

1. Cold start: process spawn to the first ``tools/list`` answer over stdio, for
   our server and for a bare one-tool server on the same SDK; the ratio is the
   figure (bar: at most 1.5x).
2. Index build: reading, parsing and indexing the bundled corpus (bar: under 200 ms);
   the server defers it to the first search or read.
3. Search latency p50/p99 over the retrieval question set (bar: p99 under 5 ms).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BARE_SERVER = '''
from mcp.server.mcpserver import MCPServer
server = MCPServer("bare")

@server.tool()
def echo(text: str) -> str:
    """Echo the text."""
    return text

server.run("stdio")
'''

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}


def cold_start_s(command: list[str]) -> float:
    """Seconds from spawn to the tools/list answer."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    assert proc.stdin and proc.stdout
    proc.stdin.write("".join(json.dumps(m) + "\n" for m in (INITIALIZE, INITIALIZED, LIST_TOOLS)))
    proc.stdin.flush()
    while True:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"{command} exited before answering tools/list")
        if json.loads(line).get("id") == 2:
            elapsed = time.perf_counter() - start
            break
    proc.stdin.close()
    proc.wait(timeout=10)
    return elapsed


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo, hi = int(pos), min(int(pos) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7, help="cold starts per server (alternating)")
    args = parser.parse_args()

    from llm_inference_fundamentals.tools.corpus import PACKAGE_ROOT, Corpus, SearchRequest

    with tempfile.TemporaryDirectory() as tmp:
        bare = Path(tmp) / "bare_server.py"
        bare.write_text(BARE_SERVER)
        ours_cmd = [sys.executable, "-m", "llm_inference_fundamentals", "serve"]
        bare_cmd = [sys.executable, str(bare)]
        cold_start_s(ours_cmd), cold_start_s(bare_cmd)  # warm the OS file cache for both
        ours, base = [], []
        for _ in range(args.runs):
            ours.append(cold_start_s(ours_cmd))
            base.append(cold_start_s(bare_cmd))
    ours_med, base_med = statistics.median(ours), statistics.median(base)
    print(f"cold start (spawn -> tools/list), median of {args.runs}:")
    print(f"  bare one-tool MCPServer  {base_med * 1000:7.1f} ms")
    print(f"  llm-inference-fundamentals {ours_med * 1000:5.1f} ms")
    print(f"  ratio                    {ours_med / base_med:7.2f}x   (bar: <= 1.5x)")

    builds = []
    for _ in range(5):
        start = time.perf_counter()
        corpus = Corpus.from_directory(PACKAGE_ROOT / "references")
        corpus.sections  # parsing and BM25 happen on first use; force them here
        builds.append(time.perf_counter() - start)
    print(f"index build: median {statistics.median(builds) * 1000:.1f} ms over 5 builds, "
          f"{len(corpus.sections)} sections in {len(corpus.page_ids)} pages   (bar: < 200 ms)")

    questions = [q for p in sorted((PACKAGE_ROOT / "tests" / "data" / "retrieval").glob("*.json"))
                 for q in json.loads(p.read_text())]
    if not questions:
        questions = ["time to first token", "kv cache per token", "tensor parallelism all-reduce"]
    for q in questions:  # warm-up
        corpus.search(SearchRequest(query=q))
    latencies = []
    for _ in range(5):
        for q in questions:
            start = time.perf_counter()
            corpus.search(SearchRequest(query=q))
            latencies.append(time.perf_counter() - start)
    print(f"search over {len(questions)} questions x 5: p50 {percentile(latencies, 50) * 1000:.2f} ms, "
          f"p99 {percentile(latencies, 99) * 1000:.2f} ms   (bar: p99 < 5 ms)")


if __name__ == "__main__":
    main()
