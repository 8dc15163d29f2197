"""The HTTP app in-process for tests: settings from flags, the ASGI app with its lifespan, clients by address."""

import json

import httpx
import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.server.http import build_http_app, plan_http
from llm_inference_fundamentals.server.settings import settings_from

TOKEN = "tok-" + "x" * 40
ACCEPT = {"Accept": "application/json, text/event-stream"}
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}}


def settings(**flags):
    env = flags.pop("env", {})
    return settings_from({"http": True, **flags}, environ=env)


class App:
    """The ASGI app with its lifespan running, and a way to talk to it as a given client address."""

    def __init__(self, s, *, allow_dirs=(), transport=None):
        self.settings = s
        self.plan = plan_http(s, transport=transport)
        self.app = build_http_app(build_server(allow_dirs=allow_dirs, client_roots=False), s, self.plan)

    async def __aenter__(self):
        self._lifespan = self.app.router.lifespan_context(self.app)
        await self._lifespan.__aenter__()
        return self

    async def __aexit__(self, *exc):
        await self._lifespan.__aexit__(*exc)

    def http(self, client=("127.0.0.1", 50000), **headers):
        return httpx.AsyncClient(transport=httpx.ASGITransport(self.app, client=client),
                                 base_url="http://127.0.0.1:8000", headers=headers)

    def mcp(self, **headers):
        http = httpx2.AsyncClient(transport=httpx2.ASGITransport(self.app), headers=headers)
        return Client(streamable_http_client("http://127.0.0.1:8000/mcp", http_client=http), mode="legacy")


def sse_json(response):
    data = [line[5:] for line in response.text.splitlines() if line.startswith("data:")]
    return json.loads(data[-1]) if data else response.json()
