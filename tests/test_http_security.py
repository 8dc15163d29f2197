"""Streamable HTTP served safely: start-up refusal, Host/Origin checks, bearer and OAuth auth, no file reads.

The app is driven in-process through ASGI (nothing listens on a port, nothing
reaches the internet); one test starts the real command on 127.0.0.1.
"""

import json
import time

import httpx
import pytest
from http_app import ACCEPT, INITIALIZE, TOKEN, App, settings, sse_json

from llm_inference_fundamentals.server import auth as server_auth
from llm_inference_fundamentals.server.http import StartupRefused, plan_http, startup_line

pytestmark = pytest.mark.anyio


# --- start-up -------------------------------------------------------------------------


def test_all_interfaces_without_authentication_refuses_to_start_and_says_why():
    with pytest.raises(StartupRefused) as refused:
        plan_http(settings(host="0.0.0.0"))
    message = str(refused.value)
    assert "refusing to serve HTTP on 0.0.0.0 without authentication" in message
    assert "--auth bearer" in message and "--auth oauth" in message and "--auth trusted-proxy" in message
    with pytest.raises(StartupRefused):
        plan_http(settings(host="::", auth="none"))  # 'none' is for loopback only


def test_trusted_proxy_opt_out_is_explicit_and_logged():
    plan = plan_http(settings(host="0.0.0.0", auth="trusted-proxy"))
    assert plan.verifier is None
    assert any("authentication is OFF" in w for w in plan.warnings)


def test_bearer_needs_a_long_token():
    with pytest.raises(StartupRefused, match="LIF_AUTH_TOKEN"):
        plan_http(settings(host="0.0.0.0", auth="bearer"))
    with pytest.raises(StartupRefused, match="at least 16 characters"):
        plan_http(settings(host="0.0.0.0", env={"LIF_AUTH_TOKEN": "short"}))


def test_token_file_is_read_and_a_token_in_the_environment_selects_bearer(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN + "\n")
    token_file.chmod(0o600)
    assert plan_http(settings(host="0.0.0.0", auth="bearer", auth_token_file=str(token_file))).auth_mode == "bearer"
    assert plan_http(settings(host="0.0.0.0", env={"LIF_AUTH_TOKEN": TOKEN})).auth_mode == "bearer"


def test_startup_line_states_bind_address_auth_and_allowed_hosts():
    s = settings(host="0.0.0.0", allowed_host=["mcp.example.com"], env={"LIF_AUTH_TOKEN": TOKEN})
    line = startup_line(s, plan_http(s), [])
    assert line.startswith("lif serve: streamable HTTP on http://0.0.0.0:8000/mcp")
    assert "auth: bearer token" in line and "mcp.example.com" in line and "readable folders: none" in line


def test_command_refuses_all_interfaces_without_auth_before_binding():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "llm_inference_fundamentals", "serve", "--http", "--host", "0.0.0.0",
                           "--port", "1"], capture_output=True, text=True, timeout=60,
                          env={"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"})
    assert done.returncode == 2
    assert "refusing to serve HTTP on 0.0.0.0 without authentication" in done.stderr
    assert done.stdout == ""


# --- Host and Origin --------------------------------------------------------------------


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
async def test_foreign_host_and_origin_are_refused_on_loopback_and_all_interfaces(host):
    s = settings(host=host, env={"LIF_AUTH_TOKEN": TOKEN})
    async with App(s) as app, app.http(Authorization=f"Bearer {TOKEN}", **ACCEPT) as http:
        evil_host = await http.post("/mcp", json=INITIALIZE, headers={"Host": "evil.example"})
        evil_origin = await http.post("/mcp", json=INITIALIZE, headers={"Origin": "http://evil.example"})
        good = await http.post("/mcp", json=INITIALIZE)
    assert evil_host.status_code == 421
    assert evil_origin.status_code == 403
    assert good.status_code == 200 and sse_json(good)["result"]["serverInfo"]["name"] == "llm-inference-fundamentals"


async def test_allowed_host_option_admits_the_deployment_name():
    s = settings(host="0.0.0.0", allowed_host=["mcp.example.com"], allowed_origin=["https://chat.example.com"],
                 env={"LIF_AUTH_TOKEN": TOKEN})
    async with App(s) as app, app.http(Authorization=f"Bearer {TOKEN}", **ACCEPT) as http:
        named = await http.post("/mcp", json=INITIALIZE, headers={"Host": "mcp.example.com"})
        with_port = await http.post("/mcp", json=INITIALIZE, headers={"Host": "mcp.example.com:8443"})
        browser = await http.post("/mcp", json=INITIALIZE, headers={"Host": "mcp.example.com",
                                                                   "Origin": "https://chat.example.com"})
    assert (named.status_code, with_port.status_code, browser.status_code) == (200, 200, 200)


# --- authentication ------------------------------------------------------------------------


async def test_bearer_token_is_required_on_every_request():
    s = settings(host="0.0.0.0", env={"LIF_AUTH_TOKEN": TOKEN})
    async with App(s) as app, app.http(**ACCEPT) as http:
        missing = await http.post("/mcp", json=INITIALIZE)
        wrong = await http.post("/mcp", json=INITIALIZE, headers={"Authorization": "Bearer " + "y" * 44})
        prefix = await http.post("/mcp", json=INITIALIZE, headers={"Authorization": f"Bearer {TOKEN[:-1]}"})
        right = await http.post("/mcp", json=INITIALIZE, headers={"Authorization": f"Bearer {TOKEN}"})
    assert (missing.status_code, wrong.status_code, prefix.status_code, right.status_code) == (401, 401, 401, 200)
    assert missing.headers["www-authenticate"].startswith("Bearer ")


async def test_shared_token_is_compared_in_constant_time(monkeypatch):
    seen = []
    real = server_auth.hmac.compare_digest

    def spy(a, b):
        seen.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(server_auth.hmac, "compare_digest", spy)
    verifier = server_auth.SharedTokenVerifier(TOKEN)
    assert await verifier.verify_token(TOKEN) is not None
    assert await verifier.verify_token("short") is None
    assert seen == [(32, 32), (32, 32)]  # SHA-256 digests: equal length whatever the token's length


async def test_an_authenticated_mcp_client_works_end_to_end():
    s = settings(host="0.0.0.0", env={"LIF_AUTH_TOKEN": TOKEN})
    async with App(s) as app, app.mcp(Authorization=f"Bearer {TOKEN}") as client:
        result = await client.call_tool("search_references", {"query": "time to first token", "k": 1})
    assert not result.is_error and result.structured_content["hits"]


# --- OAuth 2.1 resource server -----------------------------------------------------------------

ISSUER = "https://auth.example.com"
RESOURCE = "https://mcp.example.com/mcp"


def introspection_server(tokens):
    def handle(request):
        assert request.url == httpx.URL(f"{ISSUER}/introspect")
        token = dict(httpx.QueryParams(request.content.decode()))["token"]
        return httpx.Response(200, json=tokens.get(token, {"active": False}))

    return httpx.MockTransport(handle)


async def test_oauth_introspection_accepts_only_active_tokens_for_this_resource(monkeypatch):
    tokens = {
        "good": {"active": True, "iss": ISSUER, "aud": RESOURCE, "client_id": "c1", "sub": "alice",
                 "scope": "mcp", "exp": int(time.time()) + 600},
        "other-audience": {"active": True, "iss": ISSUER, "aud": "https://other.example.com", "client_id": "c1",
                           "scope": "mcp"},
        "expired": {"active": True, "iss": ISSUER, "aud": RESOURCE, "client_id": "c1", "scope": "mcp",
                    "exp": int(time.time()) - 10},
        "no-scope": {"active": True, "iss": ISSUER, "aud": RESOURCE, "client_id": "c1", "scope": "other"},
    }
    transport = introspection_server(tokens)
    real_init = server_auth.IntrospectionVerifier.__init__

    def with_mock(self, **kwargs):
        real_init(self, **kwargs, transport=transport)

    monkeypatch.setattr(server_auth.IntrospectionVerifier, "__init__", with_mock)
    s = settings(host="0.0.0.0", auth="oauth", oauth_issuer=ISSUER, resource_url=RESOURCE,
                 oauth_introspection_url=f"{ISSUER}/introspect", required_scope=["mcp"])
    async with App(s) as app, app.http(**ACCEPT, Host="mcp.example.com") as http:
        status = {}
        for token in ("good", "other-audience", "expired", "no-scope", "unknown"):
            answer = await http.post("/mcp", json=INITIALIZE, headers={"Authorization": f"Bearer {token}"})
            status[token] = answer.status_code
        refused = await http.post("/mcp", json=INITIALIZE)
        metadata = await http.get("/.well-known/oauth-protected-resource/mcp")
    assert status == {"good": 200, "other-audience": 401, "expired": 401, "no-scope": 403, "unknown": 401}
    assert 'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"' in \
        refused.headers["www-authenticate"]
    assert metadata.status_code == 200
    assert metadata.json()["resource"] == RESOURCE and metadata.json()["authorization_servers"] == [ISSUER]


async def test_oauth_jwt_tokens_are_checked_against_the_issuer_keys():
    jwt = pytest.importorskip("jwt")
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    jwk = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    jwks = {"keys": [{**jwk, "kid": "k1", "use": "sig", "alg": "RS256"}]}
    transport = httpx.MockTransport(lambda request: httpx.Response(200, json=jwks))
    verifier = server_auth.JwtVerifier(issuer=ISSUER, jwks_url=f"{ISSUER}/jwks", resource_url=RESOURCE,
                                       transport=transport)
    now = int(time.time())
    claims = {"iss": ISSUER, "aud": RESOURCE, "sub": "alice", "client_id": "c1", "scope": "mcp", "exp": now + 600}

    def sign(payload, signer=key, kid="k1"):
        return jwt.encode(payload, signer, algorithm="RS256", headers={"kid": kid})

    good = await verifier.verify_token(sign(claims))
    assert good is not None and good.subject == "alice" and good.scopes == ["mcp"] and good.resource == RESOURCE
    assert await verifier.verify_token(sign({**claims, "aud": "https://other.example.com"})) is None
    assert await verifier.verify_token(sign({**claims, "iss": "https://evil.example.com"})) is None
    assert await verifier.verify_token(sign({**claims, "exp": now - 120})) is None
    assert await verifier.verify_token(sign(claims, signer=other)) is None
    assert await verifier.verify_token("not-a-jwt") is None


def test_oauth_discovers_the_issuer_keys_from_its_metadata():
    def handle(request):
        if request.url.path == "/.well-known/oauth-authorization-server":
            return httpx.Response(200, json={"issuer": ISSUER, "jwks_uri": f"{ISSUER}/jwks"})
        return httpx.Response(404)

    s = settings(host="0.0.0.0", auth="oauth", oauth_issuer=ISSUER, resource_url=RESOURCE)
    plan = plan_http(s, transport=httpx.MockTransport(handle))
    assert plan.auth_mode == "oauth" and f"{ISSUER}/jwks" in plan.auth_detail
    with pytest.raises(StartupRefused, match="could not read the metadata"):
        plan_http(s, transport=httpx.MockTransport(lambda request: httpx.Response(500)))
    with pytest.raises(StartupRefused, match="--resource-url"):
        plan_http(settings(host="0.0.0.0", auth="oauth", oauth_issuer=ISSUER))


# --- what a remote caller can read -------------------------------------------------------------


async def test_remote_caller_cannot_read_files_in_the_server_working_directory(tmp_path, monkeypatch):
    (tmp_path / "notes.md").write_text("# SECRET TITLE 4242\nDATABASE_URL=postgres://u:p@db/x\n")
    monkeypatch.chdir(tmp_path)
    s = settings(host="0.0.0.0", env={"LIF_AUTH_TOKEN": TOKEN})
    async with App(s) as app, app.mcp(Authorization=f"Bearer {TOKEN}") as client:
        audit = await client.call_tool("audit_benchmark", {"path": "notes.md"})
        absolute = await client.call_tool("audit_benchmark", {"path": str(tmp_path / "notes.md")})
    for result in (audit, absolute):
        text = result.content[0].text
        assert result.is_error and "no folder has been granted" in text and "operator" in text
        assert "4242" not in text and "postgres" not in text


async def test_operator_enabled_folder_is_readable_over_http(tmp_path):
    data = tmp_path / "shared"
    data.mkdir()
    (data / "run.jsonl").write_text('{"start_s": 0, "first_token_s": 0.5, "end_s": 2.5, "output_tokens": 5}\n')
    s = settings(host="0.0.0.0", env={"LIF_AUTH_TOKEN": TOKEN})
    async with App(s, allow_dirs=[data]) as app, app.mcp(Authorization=f"Bearer {TOKEN}") as client:
        result = await client.call_tool("compute_metrics", {"path": str(data / "run.jsonl")})
    assert not result.is_error
    # TTFT = 0.5 s - 0 = 500 ms; TPOT = (2500 - 500) ms / (5 - 1) = 500 ms
    assert result.structured_content["ttft_ms"]["mean"] == pytest.approx(500.0)
    assert result.structured_content["tpot_ms"]["mean"] == pytest.approx(500.0)


async def test_request_body_over_the_cap_is_refused_with_413():
    s = settings(host="127.0.0.1", max_body_bytes=64 * 1024)
    big = {**INITIALIZE, "params": {**INITIALIZE["params"], "pad": "x" * (100 * 1024)}}
    async with App(s) as app, app.http(**ACCEPT) as http:
        answer = await http.post("/mcp", json=big)
    assert answer.status_code == 413
