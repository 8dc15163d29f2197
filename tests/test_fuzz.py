"""Property-based fuzzing of every tool, through the real server over stdio.

The server runs as users run it (``lif serve``: stdio, worker processes, a call
budget) with one granted folder, started inside a folder full of canary files.
The tools and their input schemas come from ``tools/list``, so a new tool is
fuzzed without touching this file. For every generated call:

- an answer arrives, within the call budget plus slack (no hang);
- it is a result or a tool error that says something, never the SDK's bare
  "Error executing tool X" of an unhandled exception, nor a JSON-RPC internal error;
- no canary text from outside the granted folder appears in it;
and at the end the server's memory is back within 20% of its baseline.

CI runs a small seeded share (``LIF_FUZZ_CALLS``, default 300 calls, derandomized);
a release check runs ``LIF_FUZZ_CALLS=10000`` (and may set ``LIF_FUZZ_SEED``).
``LIF_FUZZ_REPORT=file.json`` writes the counts.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

hypothesis = pytest.importorskip("hypothesis")
from fuzz_strategies import arguments_for  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

pytestmark = pytest.mark.slow

CALLS = int(os.environ.get("LIF_FUZZ_CALLS", "300"))
SEED = os.environ.get("LIF_FUZZ_SEED")
BUDGET_S = 10
SLACK_S = 20
CANARY = "CANARY-7f3a9c"


def _tree(root: Path) -> dict[str, Path]:
    """A granted folder of real inputs and traps, and an outside folder (also the working directory) of canaries."""
    granted, outside = root / "granted", root / "outside"
    granted.mkdir()
    outside.mkdir()
    canary_md = f"# {CANARY} write-up\n\nvLLM 0.8.5 on 1x H100, 100 requests, TTFT p99 {CANARY} 120 ms.\n"
    (outside / "writeup.md").write_text(canary_md)
    (outside / "runs.jsonl").write_text(json.dumps({"ttft_ms": 4242.4242, "e2el_ms": 9000, "output_tokens": 3,
                                                    "model": CANARY}) + "\n")
    (outside / "config.json").write_text(json.dumps({"model_type": CANARY, "num_hidden_layers": 4242}))
    (outside / ".env").write_text(f"SECRET={CANARY}\n")
    (granted / "writeup.md").write_text("# Llama-3.1-8B on 1x H100\n\nvLLM 0.8.5, 1,000 requests, TTFT p99 120 ms.\n")
    (granted / "runs.jsonl").write_text('{"ttft_ms": 100, "itl_ms": [10, 10], "output_tokens": 3}\n' * 20)
    (granted / "runs.csv").write_text("ttft_ms,e2el_ms,output_tokens\n100,300,3\n120,320,3\n")
    from llm_inference_fundamentals.tools.sizing import find_model

    (granted / "config.json").write_text(json.dumps(find_model("Llama-3.1-8B").config))
    (granted / "empty.md").write_text("")
    (granted / "binary.md").write_bytes(b"\x00\x01\x02" * 100)
    (granted / "sub").mkdir()
    os.mkfifo(granted / "fifo.jsonl")
    (granted / "loop1.json").symlink_to(granted / "loop2.json")
    (granted / "loop2.json").symlink_to(granted / "loop1.json")
    for name in ("writeup.md", "runs.jsonl", "config.json", ".env"):
        (granted / f"out-{name}").symlink_to(outside / name)
    paths = [str(p) for p in sorted(granted.iterdir())] + [
        str(outside / name) for name in ("writeup.md", "runs.jsonl", "config.json", ".env")
    ] + ["writeup.md", "runs.jsonl", ".env", "config.json", "../outside/.env", "/etc/passwd", "/dev/zero",
         "/proc/self/environ", str(granted / ".." / "outside" / "writeup.md"), str(granted / "sub"),
         str(granted / "missing.json"), "a\x00b", "x" * 300, "/" + "a/" * 2100, "", "~", "~/.env",
         str(granted / "loop1.json") + "/x", "file:///etc/passwd", "\\\\server\\share\\x.md"]
    return {"granted": granted, "outside": outside, "paths": paths}


class StdioServer:
    """``lif serve`` as a subprocess; one JSON-RPC request at a time, answers read by a thread."""

    def __init__(self, cwd: Path, granted: Path, home: Path) -> None:
        env = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
               "LLM_INFERENCE_FUNDAMENTALS_CACHE": str(home / "hub-cache"),
               # Hub look-ups go to a closed loopback port: nothing leaves the machine
               "HTTPS_PROXY": "http://127.0.0.1:9", "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "llm_inference_fundamentals", "serve", "--allow-dir", str(granted),
             "--call-budget-s", str(BUDGET_S), "--workers", "2"],
            cwd=cwd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.answers: queue.Queue[dict] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.next_id = 0

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            try:
                self.answers.put(json.loads(line))
            except ValueError:
                self.answers.put({"unparseable": line[:200].decode(errors="replace")})

    def send(self, message: dict) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def request(self, method: str, params: dict, timeout: float) -> dict | None:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                answer = self.answers.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                break
            if answer.get("id") == self.next_id or "unparseable" in answer:
                return answer
        return None

    def rss_bytes(self) -> tuple[int, int]:
        """Resident memory of the server process, and of its worker processes together."""
        def rss(pid: int) -> int:
            try:
                fields = Path(f"/proc/{pid}/status").read_text().split("VmRSS:")[1].split()
                return int(fields[0]) * 1024
            except (OSError, IndexError, ValueError):
                return 0

        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                parts = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(parts[1]) == self.proc.pid:
                children.append(int(stat.parent.name))
        return rss(self.proc.pid), sum(rss(pid) for pid in children)

    def close(self) -> None:
        try:
            self.proc.stdin.close()  # type: ignore[union-attr]
            self.proc.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


@pytest.fixture(scope="module")
def fuzz(tmp_path_factory):
    root = tmp_path_factory.mktemp("fuzz")
    tree = _tree(root)
    home = root / "home"
    home.mkdir()
    server = StdioServer(tree["outside"], tree["granted"], home)
    init = server.request("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                                         "clientInfo": {"name": "fuzz", "version": "0"}}, timeout=60)
    assert init and "result" in init, init
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    tools = server.request("tools/list", {}, timeout=60)["result"]["tools"]
    seeds = _seeds(tree["granted"])
    for _ in range(2):  # every tool once with a valid call (indexes, caches, both workers) before the baseline
        for tool in tools:
            for args in seeds.get(tool["name"], [{}])[:3]:
                server.request("tools/call", {"name": tool["name"], "arguments": args}, timeout=BUDGET_S + SLACK_S)
    state = {"server": server, "tools": tools, "paths": tree["paths"], "seeds": seeds,
             "counts": Counter(), "slowest_s": 0.0,
             "baseline": server.rss_bytes(), "failures": []}
    yield state
    main_after, workers_after = server.rss_bytes()
    state["after"] = (main_after, workers_after)
    report = {"calls": sum(state["counts"].values()), "counts": dict(state["counts"]),
              "slowest_s": round(state["slowest_s"], 2), "rss_baseline_bytes": state["baseline"],
              "rss_after_bytes": state["after"], "tools": [t["name"] for t in tools], "failures": state["failures"][:20]}
    print("\nfuzz:", json.dumps(report))
    if os.environ.get("LIF_FUZZ_REPORT"):
        Path(os.environ["LIF_FUZZ_REPORT"]).write_text(json.dumps(report, indent=2))
    server.close()


def _seeds(granted: Path) -> dict[str, list[dict]]:
    """Valid calls to start from: the assistant question set's calls, plus one or two per tool it lacks."""
    seeds: dict[str, list[dict]] = {
        "search_references": [{"query": "time to first token", "k": 3}, {"query": "kv cache fp8", "page": "memory-sizing"}],
        "compute_metrics": [{"path": str(granted / "runs.jsonl"), "percentiles": [50, 99.9]},
                            {"records": [{"ttft_ms": 100, "itl_ms": [10, 12], "output_tokens": 3}] * 5},
                            {"text": "ttft_ms,e2el_ms,output_tokens\n100,300,3\n", "slo_ttft_ms": 200}],
        "audit_benchmark": [{"path": str(granted / "writeup.md")},
                            {"text": "# Llama-3.1-70B on 8x H100\n\nvLLM 0.8.5, 1,000 requests, 32 concurrent.\n"}],
        "compare_runs": [{"runs": [{"path": str(granted / "runs.jsonl")}, {"path": str(granted / "runs.csv")}]}],
        "analyze_sweep": [{"runs": [{"path": str(granted / "runs.jsonl")}, {"path": str(granted / "runs.csv")}]}],
        "speculative_decoding": [{"acceptance": 0.7, "draft_tokens": 4}],
    }
    questions = Path(__file__).parent / "data" / "assistant" / "questions.json"
    if questions.is_file():
        for question in json.loads(questions.read_text())["questions"]:
            for call in question.get("calls", []):
                args = {k: v for k, v in call.get("args", {}).items() if not k.endswith("path")}
                seeds.setdefault(call["tool"], []).append(args)
    return seeds


def _tool_and_arguments(fuzz):
    def for_tool(tool):
        strategy = arguments_for(tool["inputSchema"], fuzz["paths"], seeds=fuzz["seeds"].get(tool["name"], []))
        return strategy.map(lambda args: (tool["name"], args))

    return st.one_of(*(for_tool(t) for t in fuzz["tools"]))


def _check(fuzz, name: str, arguments: dict) -> None:
    server: StdioServer = fuzz["server"]
    started = time.monotonic()
    answer = server.request("tools/call", {"name": name, "arguments": arguments}, timeout=BUDGET_S + SLACK_S)
    elapsed = time.monotonic() - started
    fuzz["slowest_s"] = max(fuzz["slowest_s"], elapsed)
    shown = json.dumps(arguments)[:300]
    if answer is None:
        fuzz["counts"]["hang"] += 1
        fuzz["failures"].append(f"hang: {name} {shown}")
        pytest.fail(f"no answer within {BUDGET_S + SLACK_S} s: {name} {shown}")
    text = json.dumps(answer)
    if CANARY in text or "4242.4242" in text:
        fuzz["counts"]["leak"] += 1
        fuzz["failures"].append(f"leak: {name} {shown}")
        pytest.fail(f"content from outside the granted folder: {name} {shown}")
    if "error" in answer:
        code = answer["error"].get("code")
        fuzz["counts"][f"rpc_error {code}"] += 1
        if code == -32603:
            fuzz["failures"].append(f"internal error: {name} {shown}: {answer['error']}")
            pytest.fail(f"JSON-RPC internal error: {name} {shown}: {answer['error']}")
        return
    if "unparseable" in answer:
        pytest.fail(f"stdout carried something that is not JSON: {answer['unparseable']!r}")
    result = answer["result"]
    message = (result.get("content") or [{}])[0].get("text", "")
    if result.get("isError") and message.strip() == f"Error executing tool {name}":
        fuzz["counts"]["crash"] += 1
        fuzz["failures"].append(f"crash: {name} {shown}")
        pytest.fail(f"unhandled exception in {name}: {shown}")
    fuzz["counts"]["tool_error" if result.get("isError") else "ok"] += 1
    assert elapsed < BUDGET_S + SLACK_S


def test_fuzzed_calls_answer_clearly_in_time_and_never_leak(fuzz):
    strategy = _tool_and_arguments(fuzz)
    seed_settings = settings(
        max_examples=CALLS, deadline=None, database=None, derandomize=SEED is None,
        suppress_health_check=list(HealthCheck), print_blob=True,
    )

    @seed_settings
    @given(call=strategy)
    def one_call(call):
        _check(fuzz, *call)

    if SEED is not None:
        one_call = hypothesis.seed(int(SEED))(one_call)
    one_call()
    calls = sum(fuzz["counts"].values())
    assert calls >= min(CALLS, 50), fuzz["counts"]
    assert fuzz["counts"]["crash"] == fuzz["counts"]["hang"] == fuzz["counts"]["leak"] == 0


def test_memory_returns_to_baseline_after_the_fuzzing(fuzz):
    server: StdioServer = fuzz["server"]
    for _ in range(3):  # a few ordinary calls let the workers that grew be replaced
        server.request("tools/call", {"name": "search_references", "arguments": {"query": "goodput"}}, timeout=60)
    main_before, _ = fuzz["baseline"]
    main_now, _ = server.rss_bytes()
    assert main_now <= main_before * 1.2, (main_before, main_now)
