"""The server as a real client sees it: a stdio subprocess and streamable HTTP on loopback."""

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
import time

import pytest
from mcp import Client, StdioServerParameters

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

SERVE = [sys.executable, "-m", "llm_inference_fundamentals", "serve"]


def _jsonrpc(method, params=None, id=None):
    message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    if id is not None:
        message["id"] = id
    return json.dumps(message) + "\n"


async def test_stdio_client_lists_tools_searches_and_reads_a_resource():
    params = StdioServerParameters(command=SERVE[0], args=SERVE[1:], env=dict(os.environ))
    async with Client(params) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        result = await client.call_tool("search_references", {"query": "time to first token", "k": 3})
        index = await client.read_resource("llm-inference://references")
    assert {"search_references", "read_reference"} <= names
    assert not result.is_error and result.structured_content["hits"]
    assert "metrics" in index.contents[0].text


def test_stdio_stdout_carries_only_json_rpc():
    requests = (
        _jsonrpc(
            "initialize",
            {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}},
            id=1,
        )
        + _jsonrpc("notifications/initialized")
        + _jsonrpc("tools/list", {}, id=2)
        + _jsonrpc("tools/call", {"name": "read_reference", "arguments": {"page": "../../etc/passwd"}}, id=3)
        + _jsonrpc("tools/call", {"name": "search_references", "arguments": {"query": "kv cache"}}, id=4)
    )
    proc = subprocess.Popen(SERVE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    watchdog = threading.Timer(60, proc.kill)
    watchdog.start()
    try:
        proc.stdin.write(requests)
        proc.stdin.flush()
        lines = [proc.stdout.readline() for _ in range(4)]  # one answer per request with an id
        proc.stdin.close()
        lines += proc.stdout.read().splitlines()  # anything else written before exit
        proc.wait(timeout=30)
    finally:
        watchdog.cancel()
        proc.kill()
    lines = [line for line in lines if line.strip()]
    assert len(lines) == 4
    messages = [json.loads(line) for line in lines]
    assert all(m["jsonrpc"] == "2.0" for m in messages)
    by_id = {m["id"]: m for m in messages}
    assert by_id[3]["result"]["isError"] is True
    assert "root:" not in json.dumps(by_id[3])
    assert by_id[4]["result"]["structuredContent"]["hits"]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def http_server():
    port = _free_port()
    proc = subprocess.Popen([*SERVE, "--http", "--port", str(port)], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            if proc.poll() is not None:
                pytest.fail(proc.stderr.read().decode())
            time.sleep(0.1)
    yield f"http://127.0.0.1:{port}/mcp"
    proc.terminate()
    proc.wait(timeout=10)


async def test_streamable_http_client_calls_tools(http_server):
    async with Client(http_server) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        result = await client.call_tool("read_reference", {"page": "metrics", "section": "ttft"})
    assert "read_reference" in names
    assert not result.is_error
    assert result.structured_content["anchor"] == "ttft"


def test_http_binds_loopback_by_default():
    from llm_inference_fundamentals.server.settings import settings_from

    assert settings_from({"http": True}, environ={}).host == "127.0.0.1"


@pytest.mark.skipif(not os.environ.get("MCP_INSPECTOR") and not shutil.which("mcp-inspector"), reason="MCP Inspector not installed")
def test_mcp_inspector_lists_and_calls_every_tool_strictly(tmp_path):
    inspector = os.environ.get("MCP_INSPECTOR") or shutil.which("mcp-inspector")
    env = dict(os.environ, HOME=str(tmp_path))
    base = [inspector, "--cli", *SERVE]
    listed = subprocess.run([*base, "--method", "tools/list", "--strict", "--format", "json", "-q"],
                            capture_output=True, text=True, timeout=120, env=env)
    assert listed.returncode == 0, listed.stderr
    # --strict prints one "Warning: tool ..." block per schema a client cannot read precisely; we want none.
    assert "Warning" not in listed.stderr and "Error" not in listed.stderr, listed.stderr
    tools = json.loads(listed.stdout)["result"]["tools"]
    calls = {
        "search_references": {"query": "goodput"},
        "read_reference": {"page": "metrics", "section": "goodput"},
        "size_deployment": {"model": "llama-3.1-8b", "tokens": 4096, "concurrency": 4},
        "compute_metrics": {"records": '[{"start_s": 0, "first_token_s": 0.1, "end_s": 1.0, "output_tokens": 10, "prompt_tokens": 5}]'},
        "audit_benchmark": {"text": "We measured 100 tokens/s on one H100."},
        "plan_deployment": {"model": "llama-3.1-8b", "tokens": 4096, "concurrency": 4},
    }
    for tool in tools:
        args = calls.get(tool["name"], {})  # a tool added later is still called (and may answer is_error)
        called = subprocess.run([*base, "--method", "tools/call", "--tool-name", tool["name"],
                                 "--tool-args-json", json.dumps(args), "--format", "json", "-q"],
                                capture_output=True, text=True, timeout=120, env=env)
        # 5: the tool answered with is_error, acceptable only for a tool this test has no arguments for
        assert called.returncode in ((0,) if tool["name"] in calls else (0, 5)), (tool["name"], called.stderr)


async def test_http_with_a_token_states_its_setup_and_refuses_unauthenticated_calls():
    import httpx
    import httpx2
    from mcp.client.streamable_http import streamable_http_client

    token = "t" * 40
    port = _free_port()
    proc = subprocess.Popen([*SERVE, "--http", "--port", str(port)], env={**os.environ, "LIF_AUTH_TOKEN": token},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
        url = f"http://127.0.0.1:{port}/mcp"
        refused = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                             headers={"Accept": "application/json, text/event-stream"})
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"})
        async with Client(streamable_http_client(url, http_client=http)) as client:
            result = await client.call_tool("read_reference", {"page": "metrics", "section": "ttft"})
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    assert line.startswith(f"lif serve: streamable HTTP on http://127.0.0.1:{port}/mcp; auth: bearer token")
    assert "allowed hosts: 127.0.0.1, localhost, [::1]" in line and "readable folders: none" in line
    assert token not in line
    assert refused.status_code == 401
    assert not result.is_error and result.structured_content["anchor"] == "ttft"
