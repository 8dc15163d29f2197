"""Calls run in worker processes: over budget they are stopped, others keep being served, memory is bounded."""

import socket
import threading

import anyio
import pytest
from mcp import Client

from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.server.workers import BudgetExceeded, Job, ProcessRunner, _rss_bytes
from llm_inference_fundamentals.tools.metrics import MetricsRequest, compute_metrics

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

SMALL = {"records": [{"ttft_ms": 100, "itl_ms": [10, 10], "output_tokens": 3}]}


@pytest.fixture
def runner():
    pool = ProcessRunner(workers=2, budget_s=3, memory_mb=2048)
    yield pool
    pool.close()


async def test_a_long_call_does_not_hold_up_other_sessions():
    # Before: every call ran on the server's threads; 1,000,000 empty records took 20-50 s of CPU there.
    # The budget here is generous, so the race is between the long call (about 10 s on a 2-core CI
    # machine) and the other session's two small calls, which slow down alike under load. Stopping a
    # call over budget is pinned by test_the_stopped_worker_is_killed_and_replaced.
    runner = ProcessRunner(workers=2, budget_s=120, memory_mb=2048)
    server = build_server(runner=runner)
    try:
        runner.warm_up(2)
        async with Client(server) as warm:  # index built and both workers started before the race
            await warm.call_tool("search_references", {"query": "goodput", "k": 1})
            await warm.call_tool("compute_metrics", SMALL)
        finished, results = [], {}

        async def run_heavy():
            async with Client(server) as client:
                results["heavy"] = await client.call_tool("compute_metrics", {"records": [{}] * 1_000_000})
            finished.append("heavy")

        async with anyio.create_task_group() as tg:
            tg.start_soon(run_heavy)
            await anyio.sleep(0.5)
            async with Client(server) as other:
                results["search"] = await other.call_tool("search_references", {"query": "goodput", "k": 1})
                results["small"] = await other.call_tool("compute_metrics", SMALL)
            finished.append("other")
    finally:
        runner.close()
    assert finished == ["other", "heavy"]
    assert not results["search"].is_error and not results["small"].is_error
    # TPOT = (120 - 100) ms / (3 - 1) = 10 ms
    assert results["small"].structured_content["tpot_ms"]["mean"] == pytest.approx(10.0)


async def test_the_stopped_worker_is_killed_and_replaced(runner):
    # 1,000,000 empty records take about 10 s of CPU here, well past the fixture's 3 s budget
    job = Job("compute_metrics", compute_metrics, MetricsRequest, {"records": [{}] * 1_000_000})
    with pytest.raises(BudgetExceeded, match=r"time budget of 3 s and was stopped"):
        await runner.run(job)
    assert runner._idle == []  # the worker that ran over was killed, not returned to the pool
    kind, report = await runner.run(Job("compute_metrics", compute_metrics, MetricsRequest, SMALL))
    assert kind == "ok" and report.completed == 1


async def test_memory_over_the_worker_limit_is_a_clear_error_not_a_crash():
    pool = ProcessRunner(workers=1, budget_s=20, memory_mb=400)
    try:
        # 300,000 records with ITL lists need more than the 400 MiB address space given here
        records = [{"ttft_ms": 100, "itl_ms": [10, 10], "output_tokens": 3}] * 300_000
        try:
            kind, message = await pool.run(Job("compute_metrics", compute_metrics, MetricsRequest, {"records": records}))
        except BudgetExceeded as exc:  # a native allocator that fails inside a library may leave the worker stuck:
            kind, message = "error", str(exc)  # the budget ends it just the same
        after = await pool.run(Job("compute_metrics", compute_metrics, MetricsRequest, SMALL))
    finally:
        pool.close()
    assert kind == "error" and ("more memory than this server allows" in message or "time budget" in message)
    assert after[0] == "ok"  # the next call gets a healthy worker


async def test_worker_memory_returns_to_baseline_after_a_large_input(runner):
    await runner.run(Job("compute_metrics", compute_metrics, MetricsRequest, SMALL))
    baseline = _rss_bytes(runner._idle[0].process.pid)
    big = {"records": [{"ttft_ms": 100, "itl_ms": [10.0] * 50, "output_tokens": 51}] * 20_000}
    kind, _ = await runner.run(Job("compute_metrics", compute_metrics, MetricsRequest, big))
    assert kind == "ok"
    rss = [_rss_bytes(w.process.pid) for w in runner._idle]
    assert rss and max(rss) < baseline * 1.2 + 16 * 2**20


async def test_a_hub_look_up_that_never_answers_cannot_starve_other_calls(monkeypatch):
    # A proxy on loopback that accepts connections and never answers (nothing leaves the machine).
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(64)
    held = []
    stop = threading.Event()

    def accept():
        silent.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(silent.accept()[0])
            except OSError:
                continue

    threading.Thread(target=accept, daemon=True).start()
    proxy = f"http://127.0.0.1:{silent.getsockname()[1]}"
    monkeypatch.setenv("HTTPS_PROXY", proxy)
    monkeypatch.setenv("https_proxy", proxy)
    pool = ProcessRunner(workers=2, budget_s=20, memory_mb=2048)
    server = build_server(runner=pool)
    results = {}
    try:
        async with anyio.create_task_group() as tg:
            async def look_up(i):
                async with Client(server) as client:
                    results[f"hub{i}"] = await client.call_tool("size_deployment", {"model": f"someorg/model-{i}"})

            for i in range(2):
                tg.start_soon(look_up, i)
            await anyio.sleep(0.5)
            async with Client(server) as other:
                results["metrics"] = await other.call_tool("compute_metrics", SMALL)
                results["metrics_done_before_hub"] = len([k for k in results if k.startswith("hub")]) == 0
    finally:
        stop.set()
        pool.close()
        for conn in held:
            conn.close()
        silent.close()
    assert not results["metrics"].is_error
    assert results["metrics_done_before_hub"]  # at most half the workers wait on the network
    for i in range(2):  # each look-up gave up after its short timeout, well inside the call budget
        text = results[f"hub{i}"].content[0].text
        assert results[f"hub{i}"].is_error and "timed out" in text and "config_path" in text
