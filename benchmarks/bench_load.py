"""Load on the shared HTTP server over loopback (a benchmark, not a test).

    python benchmarks/bench_load.py [--sessions 200] [--calls 10] [--baseline] [--json out.json]

Starts ``lif serve --http`` on 127.0.0.1 with a bearer token and default limits,
then opens ``--sessions`` MCP sessions at once. Each session comes from its own
loopback address (127.0.0.2, 127.0.0.3, ...), as separate team members would, so
the per-client limits apply as they do in a deployment. Each session sends
``initialize``, then ``--calls`` mixed tool calls (search, read, size, plan,
metrics on inline records, audit of an inline write-up) one after another, then
closes. Reported: errors (HTTP status, JSON-RPC error or a tool error on a
valid call), latency p50/p99 of the tool calls and of ``initialize``, wall
time, and the resident memory of the server process (and its workers) before,
right after, and 5 s after the load. ``--flood N`` then sends N initialize
calls from one address that never close their sessions and checks that a
newcomer still gets a session and answers. ``--baseline`` repeats the load
against ``--workers 0`` (calls on threads) for a same-run comparison.

Nothing leaves the machine (loopback only; no Hub look-ups: catalog models).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

TOKEN = secrets.token_urlsafe(32)
ACCEPT = "application/json, text/event-stream"
CALLS = [
    ("search_references", {"query": "time to first token", "k": 3}),
    ("read_reference", {"page": "metrics", "section": "tpot"}),
    ("size_deployment", {"model": "Llama-3.1-8B", "tokens": 8192, "concurrency": 16, "gpu": "h100"}),
    ("compute_metrics", {"records": [{"ttft_ms": 100 + i, "itl_ms": [10, 11, 12], "output_tokens": 4}
                                     for i in range(50)]}),
    ("audit_benchmark", {"text": "# Llama-3.1-70B on 8x H100\n\nvLLM 0.8.5, 1,000 requests at concurrency 32; "
                                 "TTFT p99 450 ms, 2,100 output tokens/s.\n"}),
    ("search_references", {"query": "prefix caching hit rate"}),
    ("plan_deployment", {"model": "Llama-3.1-70B", "tokens": 8192, "concurrency": 8, "gpu": ["h100"]}),
    ("read_reference", {"page": "memory-sizing", "section": "kv-cache-per-token"}),
    ("size_deployment", {"model": "Qwen2.5-32B", "tokens": 4096, "concurrency": 4}),
    ("search_references", {"query": "speculative decoding acceptance rate"}),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _rss(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/status").read_text().split("VmRSS:")[1].split()[0]) * 1024
    except (OSError, IndexError, ValueError):
        return 0


def _tree_rss(pid: int) -> tuple[int, int]:
    """(server process, its child processes together) resident bytes."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                children.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            continue
    return _rss(pid), sum(_rss(c) for c in children)


def _last_json(response: httpx.Response) -> dict:
    data = [line[5:] for line in response.text.splitlines() if line.startswith("data:")]
    return json.loads(data[-1]) if data else response.json()


async def session(url: str, number: int, calls: int, results: dict) -> None:
    address = f"127.0.{1 + number // 250}.{2 + number % 250}"
    transport = httpx.AsyncHTTPTransport(local_address=address)
    headers = {"Accept": ACCEPT, "Authorization": f"Bearer {TOKEN}"}
    async with httpx.AsyncClient(transport=transport, headers=headers, timeout=120) as http:
        started = time.perf_counter()
        init = await http.post(url, json={"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "0"}}})
        results["initialize_s"].append(time.perf_counter() - started)
        if init.status_code != 200:
            results["errors"].append(f"initialize HTTP {init.status_code}: {init.text[:100]}")
            return
        session_headers = {"mcp-session-id": init.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
        await http.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=session_headers)
        for i in range(calls):
            name, arguments = CALLS[(number + i) % len(CALLS)]
            started = time.perf_counter()
            answer = await http.post(url, headers=session_headers, json={
                "jsonrpc": "2.0", "id": i + 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
            results["call_s"].append(time.perf_counter() - started)
            if answer.status_code != 200:
                results["errors"].append(f"{name} HTTP {answer.status_code}: {answer.text[:100]}")
                continue
            message = _last_json(answer)
            if "error" in message or message["result"].get("isError"):
                results["errors"].append(f"{name}: {json.dumps(message)[:200]}")
        await http.delete(url, headers=session_headers)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))] if ordered else float("nan")


async def flood(url: str, count: int) -> dict:
    """``count`` initialize calls from one address that never close their sessions, then a newcomer from another."""
    statuses: dict[int, int] = {}
    transport = httpx.AsyncHTTPTransport(local_address="127.0.9.9", limits=httpx.Limits(max_connections=8))
    headers = {"Accept": ACCEPT, "Authorization": f"Bearer {TOKEN}"}
    body = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "flood", "version": "0"}}}
    async with httpx.AsyncClient(transport=transport, headers=headers, timeout=60) as http:
        async def one() -> None:
            answer = await http.post(url, json=body)
            statuses[answer.status_code] = statuses.get(answer.status_code, 0) + 1

        for start in range(0, count, 8):  # at most the per-client limit of requests in flight
            await asyncio.gather(*(one() for _ in range(min(8, count - start))))
    newcomer: dict = {"initialize_s": [], "call_s": [], "errors": []}
    await session(url, 7, 3, newcomer)
    return {"flood_initialize": count, "flood_statuses": statuses, "newcomer_errors": newcomer["errors"][:3],
            "newcomer_ok": not newcomer["errors"] and len(newcomer["call_s"]) == 3}


async def run(sessions: int, calls: int, extra: list[str], flood_count: int = 0) -> dict:
    port = _free_port()
    env = {**os.environ, "LIF_AUTH_TOKEN": TOKEN}
    server = subprocess.Popen([sys.executable, "-m", "llm_inference_fundamentals", "serve", "--http", "--port", str(port),
                               *extra], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        startup_line = server.stderr.readline().strip()
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        warm = {"initialize_s": [], "call_s": [], "errors": []}
        await session(url, 0, len(CALLS), warm)  # indexes built, workers started
        await asyncio.sleep(1)
        before = _tree_rss(server.pid)
        results: dict = {"initialize_s": [], "call_s": [], "errors": []}
        started = time.perf_counter()
        await asyncio.gather(*(session(url, n, calls, results) for n in range(sessions)))
        wall = time.perf_counter() - started
        right_after = _tree_rss(server.pid)
        await asyncio.sleep(5)
        settled = _tree_rss(server.pid)
        flooded = await flood(url, flood_count) if flood_count else {}
        if flooded:
            flooded["rss_mb_after_flood"] = [round(b / 2**20) for b in _tree_rss(server.pid)]
    finally:
        server.terminate()
        server.wait(timeout=20)
    return {
        "sessions": sessions, "calls_per_session": calls, "tool_calls": len(results["call_s"]),
        "errors": len(results["errors"]) + len(warm["errors"]), "error_samples": (warm["errors"] + results["errors"])[:5],
        "call_p50_s": round(statistics.median(results["call_s"]), 3),
        "call_p99_s": round(_percentile(results["call_s"], 99), 3),
        "initialize_p50_s": round(statistics.median(results["initialize_s"]), 3),
        "initialize_p99_s": round(_percentile(results["initialize_s"], 99), 3),
        "wall_s": round(wall, 1),
        "rss_mb_before": [round(b / 2**20) for b in before],
        "rss_mb_right_after": [round(b / 2**20) for b in right_after],
        "rss_mb_5s_after": [round(b / 2**20) for b in settled],
        "cores": os.cpu_count(), "server": startup_line, **flooded,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=200)
    parser.add_argument("--calls", type=int, default=10)
    parser.add_argument("--json", default=None, help="also write the figures to this file")
    parser.add_argument("--flood", type=int, default=0, metavar="N",
                        help="after the load, N initialize calls from one address that never close (issue 11: 10,000 "
                             "filled the session table), then check that a newcomer still gets in")
    parser.add_argument("--baseline", action="store_true",
                        help="also run the same load against --workers 0 (calls on threads, no process isolation) "
                             "and print both, as a same-run baseline")
    args = parser.parse_args()
    figures = {"workers": asyncio.run(run(args.sessions, args.calls, [], args.flood))}
    if args.baseline:
        figures["threads"] = asyncio.run(run(args.sessions, args.calls, ["--workers", "0"]))
        figures["p99_ratio_workers_to_threads"] = round(
            figures["workers"]["call_p99_s"] / figures["threads"]["call_p99_s"], 2)
    figures["loadavg_after"] = Path("/proc/loadavg").read_text().split()[:3] if Path("/proc/loadavg").exists() else None
    for name, value in figures.items():
        if isinstance(value, dict):
            print(f"-- {name}")
            for key, item in value.items():
                print(f"   {key:20} {item}")
        else:
            print(f"{name:23} {value}")
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
