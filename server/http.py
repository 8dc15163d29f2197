"""Streamable HTTP, safe by default: who may connect, which Host/Origin, how much, for how long.

``plan_http`` turns the settings into an ``HttpPlan`` or refuses (``StartupRefused``,
with the reason and the ways out): a bind to anything but loopback needs an
authentication mode. ``build_http_app`` assembles the ASGI app from the SDK's
parts (session manager, bearer-auth middleware, protected resource metadata,
Host/Origin checks, body-size cap) plus this project's per-client limits.
``startup_line`` is the one line printed on stderr when the server starts.
"""

from __future__ import annotations

import logging
import socket
from dataclasses import dataclass, field
from typing import Any

from mcp.server.auth.middleware.auth_context import AuthContextMiddleware
from mcp.server.auth.middleware.bearer_auth import BearerAuthBackend, RequireAuthMiddleware
from mcp.server.auth.provider import TokenVerifier
from mcp.server.auth.routes import build_resource_metadata_url, create_protected_resource_routes
from mcp.server.auth.settings import AuthSettings
from mcp.server.mcpserver import MCPServer
from mcp.server.streamable_http_manager import StreamableHTTPASGIApp
from mcp.server.transport_security import TransportSecuritySettings
from pydantic import AnyHttpUrl
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.authentication import AuthenticationMiddleware
from starlette.routing import Route

from . import auth
from .jsonrpc import MessageCheckMiddleware
from .sessions import ClientLimitsMiddleware, LimitedSessionManager
from .settings import ServeSettings, is_loopback

__all__ = ["HttpPlan", "StartupRefused", "build_http_app", "plan_http", "startup_line"]

logger = logging.getLogger(__name__)

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")


class StartupRefused(RuntimeError):
    """The server will not start with these settings; the message says why and what to do."""


@dataclass
class HttpPlan:
    """What ``plan_http`` decided: the auth mode, its verifier and the accepted Host/Origin values."""

    auth_mode: str
    auth_detail: str
    verifier: TokenVerifier | None
    allowed_hosts: list[str]
    allowed_origins: list[str]
    warnings: list[str] = field(default_factory=list)

    @property
    def security(self) -> TransportSecuritySettings:
        hosts = [p for name in self.allowed_hosts for p in (name, f"{name}:*")]
        return TransportSecuritySettings(enable_dns_rebinding_protection=True, allowed_hosts=hosts,
                                         allowed_origins=list(self.allowed_origins))


def _refuse_without_auth(settings: ServeSettings) -> StartupRefused:
    return StartupRefused(
        f"refusing to serve HTTP on {settings.host} without authentication: anyone who can reach port "
        f"{settings.port} could call the tools. Choose one: --auth bearer with the token in LIF_AUTH_TOKEN or "
        "--auth-token-file FILE; --auth oauth --oauth-issuer URL --resource-url URL (OAuth 2.1 resource server); "
        "or --auth trusted-proxy when an authenticating reverse proxy checks every request (see SECURITY.md). "
        "To serve only this machine, bind --host 127.0.0.1.")


def _token(settings: ServeSettings) -> str | None:
    if settings.auth_token is not None and settings.auth_token.get_secret_value().strip():
        return settings.auth_token.get_secret_value()
    if settings.auth_token_file:
        return auth.read_token_file(settings.auth_token_file)
    return None


def _oauth_verifier(settings: ServeSettings, transport: Any = None) -> tuple[TokenVerifier, str]:
    if not settings.oauth_issuer or not settings.resource_url:
        raise StartupRefused("--auth oauth needs --oauth-issuer (the authorization server) and --resource-url "
                             "(this server's public URL, the audience its tokens must name)")
    for name in ("oauth_issuer", "resource_url", "oauth_introspection_url", "oauth_jwks_url"):
        value = getattr(settings, name)
        if value is not None:
            try:
                AnyHttpUrl(value)
            except ValueError:
                raise StartupRefused(f"--{name.replace('_', '-')}: {value!r} is not an http(s) URL") from None
    introspection, jwks = settings.oauth_introspection_url, settings.oauth_jwks_url
    if not introspection and not jwks:
        metadata = auth.discover_issuer_metadata(settings.oauth_issuer, transport=transport)
        if settings.oauth_client_id and isinstance(metadata.get("introspection_endpoint"), str):
            introspection = metadata["introspection_endpoint"]
        elif isinstance(metadata.get("jwks_uri"), str):
            jwks = metadata["jwks_uri"]
        else:
            raise StartupRefused(f"--oauth-issuer: {settings.oauth_issuer} publishes neither a jwks_uri nor (with "
                                 "--oauth-client-id) an introspection_endpoint; give one of them")
    if jwks and not introspection:
        return auth.JwtVerifier(issuer=settings.oauth_issuer, jwks_url=jwks, resource_url=settings.resource_url), \
            f"OAuth 2.1, JWT checked against {jwks}"
    secret = settings.oauth_client_secret.get_secret_value() if settings.oauth_client_secret else None
    assert introspection is not None
    verifier = auth.IntrospectionVerifier(issuer=settings.oauth_issuer, introspection_url=introspection,
                                          resource_url=settings.resource_url, client_id=settings.oauth_client_id,
                                          client_secret=secret)
    return verifier, f"OAuth 2.1, tokens introspected at {introspection}"


def _hosts(settings: ServeSettings) -> list[str]:
    names = list(LOOPBACK_NAMES)
    bind = settings.host.strip("[]")
    if bind not in ("0.0.0.0", "::", ""):
        names.append(f"[{bind}]" if ":" in bind else bind)
    if not is_loopback(settings.host):
        names.append(socket.gethostname())
    if settings.resource_url:
        from urllib.parse import urlsplit

        host = urlsplit(settings.resource_url).hostname
        if host:
            names.append(host)
    names += settings.allowed_host
    return list(dict.fromkeys(n.lower() for n in names if n))


def _origins(settings: ServeSettings, hosts: list[str]) -> list[str]:
    origins = [p for h in hosts for p in (f"http://{h}", f"http://{h}:*", f"https://{h}", f"https://{h}:*")]
    return list(dict.fromkeys([*origins, *settings.allowed_origin]))


def plan_http(settings: ServeSettings, *, transport: Any = None) -> HttpPlan:
    """Decide authentication and Host/Origin checks, or raise StartupRefused saying why."""
    loopback = is_loopback(settings.host)
    try:
        token = _token(settings) if settings.auth in ("auto", "bearer") else None
        mode = settings.auth
        if mode == "auto":
            mode = "bearer" if token else "none"
        if mode == "none" and not loopback:
            raise _refuse_without_auth(settings)
        verifier: TokenVerifier | None = None
        warnings: list[str] = []
        if mode == "bearer":
            if not token:
                raise StartupRefused("--auth bearer needs the token: set LIF_AUTH_TOKEN or --auth-token-file FILE")
            verifier, detail = auth.SharedTokenVerifier(token), "bearer token (shared, Authorization: Bearer ...)"
        elif mode == "oauth":
            verifier, detail = _oauth_verifier(settings, transport)
        elif mode == "trusted-proxy":
            detail = "none here: --auth trusted-proxy, an authenticating reverse proxy must check every request"
            warnings.append(f"authentication is OFF on {settings.host}:{settings.port} (--auth trusted-proxy); only an "
                            "authenticating reverse proxy may be able to reach this port")
        else:
            detail = "none (loopback only)"
    except auth.AuthConfigError as exc:
        raise StartupRefused(str(exc)) from None
    hosts = _hosts(settings)
    return HttpPlan(auth_mode=mode, auth_detail=detail, verifier=verifier, allowed_hosts=hosts,
                    allowed_origins=_origins(settings, hosts), warnings=warnings)


def build_http_app(server: MCPServer, settings: ServeSettings, plan: HttpPlan) -> Starlette:
    """The ASGI app: the MCP endpoint behind auth, Host/Origin checks, size and per-client limits."""
    manager = LimitedSessionManager(
        # The SDK's own client reaches the low-level server the same way; MCPServer has no public accessor.
        server._lowlevel_server,  # noqa: SLF001
        stateless=settings.stateless,
        security_settings=plan.security,
        max_request_body_size=settings.max_body_bytes,
        session_idle_timeout=settings.session_idle_s,
        max_sessions=settings.max_sessions,
        max_sessions_per_client=settings.max_sessions_per_client,
    )
    endpoint: Any = StreamableHTTPASGIApp(manager)
    routes: list[Route] = []
    middleware: list[Middleware] = []
    if plan.verifier is not None:
        oauth = None
        if plan.auth_mode == "oauth" and settings.resource_url and settings.oauth_issuer:
            # the SDK's own settings model keeps a path-less issuer exact (no trailing slash), as RFC 8414 compares it
            oauth = AuthSettings(issuer_url=settings.oauth_issuer, resource_server_url=settings.resource_url,
                                 required_scopes=list(settings.required_scope) or None, validate_token_resource=True)
        resource = oauth.resource_server_url if oauth else None
        middleware = [
            Middleware(AuthenticationMiddleware, backend=BearerAuthBackend(plan.verifier, resource_server_url=resource)),
            Middleware(AuthContextMiddleware),
        ]
        metadata_url = build_resource_metadata_url(resource) if resource is not None else None
        endpoint = RequireAuthMiddleware(endpoint, list(settings.required_scope), metadata_url)
        if oauth is not None and resource is not None:
            routes += create_protected_resource_routes(resource_url=resource, authorization_servers=[oauth.issuer_url],
                                                       scopes_supported=oauth.required_scopes, resource_name=server.name)
    middleware.append(Middleware(ClientLimitsMiddleware, max_calls=settings.max_calls_per_client))
    middleware.append(Middleware(MessageCheckMiddleware, max_bytes=settings.max_body_bytes))
    routes.insert(0, Route(settings.path, endpoint=endpoint))
    return Starlette(routes=routes, middleware=middleware, lifespan=lambda app: manager.run())


def startup_line(settings: ServeSettings, plan: HttpPlan, readable: list[str]) -> str:
    """The line printed on stderr at start: address, auth, hosts, folders, limits."""
    host = f"[{settings.host}]" if ":" in settings.host else settings.host
    return (
        f"lif serve: streamable HTTP on http://{host}:{settings.port}{settings.path}"
        f"{' (stateless)' if settings.stateless else ''}; auth: {plan.auth_detail}; "
        f"allowed hosts: {', '.join(plan.allowed_hosts)}; readable folders: {', '.join(readable) or 'none'}; "
        f"limits: {settings.max_body_bytes // 1024} KiB per request, {settings.max_calls_per_client} requests in "
        f"flight and {settings.max_sessions_per_client} sessions per client, {settings.max_sessions} sessions, "
        f"idle sessions closed after {settings.session_idle_s:g} s, {settings.call_budget_s:g} s per tool call"
    )
