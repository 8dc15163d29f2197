"""Limits of a shared HTTP server: sessions per client, idle expiry, requests in flight, stateless mode."""

import anyio
import httpx
import pytest
from http_app import ACCEPT, INITIALIZE, App, settings, sse_json

from llm_inference_fundamentals.server.sessions import ClientLimitsMiddleware

pytestmark = pytest.mark.anyio

NOTIFIED = {"jsonrpc": "2.0", "method": "notifications/initialized"}
LIST_TOOLS = {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}


async def open_session(http):
    answer = await http.post("/mcp", json=INITIALIZE)
    assert answer.status_code == 200, answer.text
    session = answer.headers["mcp-session-id"]
    headers = {"mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
    await http.post("/mcp", json=NOTIFIED, headers=headers)
    return headers


async def test_an_initialize_flood_does_not_lock_out_other_clients():
    # Before: 10,000 initialize calls filled the table and every new client got 503 from then on.
    s = settings(max_sessions=20, max_sessions_per_client=5)
    async with App(s) as app:
        manager = app.app.router.routes[0].endpoint.session_manager
        async with app.http(client=("10.0.0.66", 40000), **ACCEPT) as flooder:
            statuses = [(await flooder.post("/mcp", json=INITIALIZE)).status_code for _ in range(200)]
            assert statuses.count(200) == 200  # each new one recycles the flooder's own longest-idle session
            assert len(manager.sessions_of("10.0.0.66")) == 5
            assert len(manager._server_instances) <= 20
        async with app.http(client=("10.0.0.7", 40001), **ACCEPT) as legit:
            headers = await open_session(legit)
            tools = await legit.post("/mcp", json=LIST_TOOLS, headers=headers)
    assert tools.status_code == 200 and sse_json(tools)["result"]["tools"]


async def test_a_full_table_closes_the_longest_idle_session_rather_than_refusing():
    s = settings(max_sessions=3, max_sessions_per_client=3)
    async with App(s) as app:
        sessions = []
        for i in range(3):
            async with app.http(client=(f"10.0.1.{i}", 1000), **ACCEPT) as http:
                sessions.append(await open_session(http))
        async with app.http(client=("10.0.2.1", 1000), **ACCEPT) as late:
            newcomer = await late.post("/mcp", json=INITIALIZE)
        async with app.http(client=("10.0.1.0", 1000), **ACCEPT) as first:
            oldest = await first.post("/mcp", json=LIST_TOOLS, headers=sessions[0])
        async with app.http(client=("10.0.1.2", 1000), **ACCEPT) as last:
            newest = await last.post("/mcp", json=LIST_TOOLS, headers=sessions[2])
    assert newcomer.status_code == 200
    assert oldest.status_code == 404  # the longest-idle session made room; its client re-initializes
    assert newest.status_code == 200


async def test_idle_sessions_expire():
    s = settings(session_idle_s=0.3)
    async with App(s) as app, app.http(**ACCEPT) as http:
        headers = await open_session(http)
        fresh = await http.post("/mcp", json=LIST_TOOLS, headers=headers)
        await anyio.sleep(1.0)
        stale = await http.post("/mcp", json=LIST_TOOLS, headers=headers)
    assert fresh.status_code == 200
    assert stale.status_code == 404


async def test_requests_in_flight_per_client_are_capped_with_429():
    release = anyio.Event()
    entered = 0

    async def slow_app(scope, receive, send):
        nonlocal entered
        entered += 1
        await release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})

    limited = ClientLimitsMiddleware(slow_app, max_calls=2)

    def client(ip):
        return httpx.AsyncClient(transport=httpx.ASGITransport(limited, client=(ip, 1)), base_url="http://t")

    results = {}
    async with anyio.create_task_group() as tg, client("10.0.0.1") as a, client("10.0.0.2") as b:
        async def post(name, http):
            results[name] = (await http.post("/mcp", content=b"{}")).status_code

        tg.start_soon(post, "a1", a)
        tg.start_soon(post, "a2", a)
        while entered < 2:
            await anyio.sleep(0.01)
        await post("a3", a)  # a third request from the same client while two are in flight
        tg.start_soon(post, "b1", b)  # another client is not affected
        while entered < 3:
            await anyio.sleep(0.01)
        release.set()
    assert results == {"a1": 200, "a2": 200, "a3": 429, "b1": 200}


async def test_stateless_mode_answers_without_sessions():
    s = settings(stateless=True)
    async with App(s) as app, app.http(**ACCEPT) as http:
        answer = await http.post("/mcp", json={**LIST_TOOLS}, headers={"mcp-protocol-version": "2025-11-25"})
    assert answer.status_code == 200
    assert "mcp-session-id" not in answer.headers
    assert {t["name"] for t in sse_json(answer)["result"]["tools"]} >= {"search_references", "audit_benchmark"}


async def test_a_request_whose_id_is_not_an_integer_gets_an_error_not_silence():
    # The SDK reads {"id": 1e999, ...} as a notification and answers 202 with no body: the client waits forever.
    async with App(settings()) as app, app.http(**ACCEPT) as http:
        headers = await open_session(http)
        body = '{"jsonrpc":"2.0","id":1e999,"method":"tools/list"}'
        answer = await http.post("/mcp", content=body, headers={**headers, "content-type": "application/json"})
        deep = '{"jsonrpc":"2.0","id":5,"method":"tools/list","params":' + "[" * 5000 + "]" * 5000 + "}"
        too_deep = await http.post("/mcp", content=deep, headers={**headers, "content-type": "application/json"})
    assert answer.status_code == 400 and answer.json()["error"]["code"] == -32600
    assert too_deep.status_code == 400 and too_deep.json()["error"]["code"] == -32700  # the SDK answers this one


def test_zero_is_a_value_not_a_missing_flag():
    # --workers 0 (threads) must not fall back to the default pool size
    assert settings(workers=0).workers == 0
    assert settings(env={"LIF_WORKERS": "0"}).workers == 0
