"""How ``lif serve`` is configured: transport, authentication, readable folders and limits.

One pydantic model holds every option. Each field is a command-line flag
(``--max-sessions``) and an environment variable (``LIF_MAX_SESSIONS``); the
flag wins over the variable, the variable over the default. Lists in the
environment are separated by commas (folders by the OS path separator).

The defaults suit one engineer on one machine; SECURITY.md explains each
limit for a shared server.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr, ValidationError

__all__ = [
    "ENV_PREFIX",
    "ServeSettings",
    "describe_settings_error",
    "env_name",
    "flag_name",
    "granted_folders",
    "is_loopback",
    "settings_from",
]

logger = logging.getLogger(__name__)

ENV_PREFIX = "LIF_"

AuthMode = Literal["auto", "none", "bearer", "oauth", "trusted-proxy"]


def _cores() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


class ServeSettings(BaseModel):
    """Every option of the MCP server; see SECURITY.md for the threat model behind the defaults."""

    model_config = ConfigDict(extra="forbid")

    http: bool = Field(False, description="Serve streamable HTTP instead of stdio.")
    host: str = Field("127.0.0.1", min_length=1, max_length=255,
                      description="HTTP bind address. Anything but loopback needs an --auth choice.")
    port: int = Field(8000, ge=1, le=65535, description="HTTP port.")
    path: str = Field("/mcp", pattern=r"^/[\w\-./]{0,200}$", description="HTTP endpoint path.")
    allow_dir: list[str] = Field(
        default_factory=list,
        description="A folder whose files the tools may read (repeatable; LIF_ALLOWED_DIRS also works). Over stdio "
        "the client's MCP roots are added; over HTTP only these folders are readable, none by default.")
    auth: AuthMode = Field(
        "auto",
        description="HTTP authentication: 'bearer' (a shared token from LIF_AUTH_TOKEN or --auth-token-file), "
        "'oauth' (OAuth 2.1 resource server: tokens checked with the issuer), 'trusted-proxy' (no check here: an "
        "authenticating reverse proxy in front checks every request; logged), 'none' (loopback only), or 'auto' "
        "(bearer when a token is configured, else none on loopback and refuse to start elsewhere).")
    auth_token: SecretStr | None = Field(None, description="The bearer token (set it in the environment, not on "
                                         "the command line, where other users can read it).")
    auth_token_file: str | None = Field(None, max_length=4096, description="A file holding the bearer token.")
    oauth_issuer: str | None = Field(None, max_length=2000,
                                     description="OAuth authorization server (issuer URL) that issues the tokens.")
    oauth_introspection_url: str | None = Field(
        None, max_length=2000, description="RFC 7662 introspection endpoint; default from the issuer's metadata.")
    oauth_jwks_url: str | None = Field(
        None, max_length=2000,
        description="JWKS URL to verify JWT access tokens locally instead of introspecting them.")
    oauth_client_id: str | None = Field(None, max_length=500, description="Client id for the introspection call.")
    oauth_client_secret: SecretStr | None = Field(None, description="Client secret for the introspection call.")
    resource_url: str | None = Field(
        None, max_length=2000,
        description="This server's public URL (e.g. https://mcp.example.com/mcp): the audience tokens must carry "
        "and the resource named in the protected resource metadata.")
    required_scope: list[str] = Field(default_factory=list, description="OAuth scopes every token must hold.")
    allowed_host: list[str] = Field(
        default_factory=list,
        description="Host header values to accept (repeatable), e.g. mcp.example.com; loopback names, the bind "
        "address and this machine's names are always accepted.")
    allowed_origin: list[str] = Field(
        default_factory=list,
        description="Origin header values to accept (repeatable), e.g. https://chat.example.com; by default only "
        "the allowed hosts' own origins.")
    stateless: bool = Field(False, description="Stateless HTTP: no sessions, any replica answers any request.")
    forwarded_allow_ips: str | None = Field(
        None, max_length=2000,
        description="Proxies whose X-Forwarded-For names the client (comma-separated IPs, as uvicorn takes them); "
        "per-client limits then count the real client.")
    max_body_bytes: int = Field(4 * 2**20, ge=1024, le=256 * 2**20, description="Largest HTTP request body (bytes).")
    max_sessions: int = Field(1000, ge=1, le=1_000_000, description="Open HTTP sessions, all clients together.")
    max_sessions_per_client: int = Field(
        32, ge=1, le=1_000_000,
        description="Open HTTP sessions per client (IP address, and token principal under OAuth); a client at its "
        "limit that opens another loses its longest-idle session.")
    session_idle_s: float = Field(600.0, gt=0, le=7 * 86400,
                                  description="Seconds without a request before an HTTP session is closed.")
    max_calls_per_client: int = Field(8, ge=1, le=10_000,
                                      description="HTTP requests in flight per client; more are answered 429.")
    call_budget_s: float = Field(30.0, gt=0, le=3600, description="Wall-clock seconds one tool call may take.")
    workers: int = Field(default_factory=lambda: min(4, _cores()), ge=0, le=256,
                         description="Worker processes that run the calculators (a call over budget is stopped). 0 runs "
                         "them on threads in the server process: a call over budget is answered with an error but "
                         "keeps its core until it ends.")
    worker_memory_mb: int = Field(2048, ge=128, le=1 << 20,
                                  description="Address-space limit of each worker process (MiB).")

    @property
    def transport(self) -> Literal["stdio", "streamable-http"]:
        return "streamable-http" if self.http else "stdio"


_LIST_FIELDS = {name for name, f in ServeSettings.model_fields.items() if f.annotation == list[str]}
_ENV_ALIASES = {"allow_dir": "LIF_ALLOWED_DIRS", "allowed_host": "LIF_ALLOWED_HOSTS",
                "allowed_origin": "LIF_ALLOWED_ORIGINS", "required_scope": "LIF_REQUIRED_SCOPES"}


def env_name(field: str) -> str:
    """The environment variable of a settings field: ``max_sessions`` -> ``LIF_MAX_SESSIONS``."""
    return _ENV_ALIASES.get(field, ENV_PREFIX + field.upper())


def settings_from(flags: Mapping[str, Any], environ: Mapping[str, str] | None = None) -> ServeSettings:
    """Settings from command-line ``flags`` (None = not given) over ``environ`` (default ``os.environ``).

    Raises pydantic's ValidationError naming the flag or variable at fault.
    """
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    for name in ServeSettings.model_fields:
        given = flags.get(name)
        raw = (environ.get(env_name(name)) or "").strip()
        if name in _LIST_FIELDS:
            sep = os.pathsep if name == "allow_dir" else ","
            from_env = [part.strip() for part in raw.split(sep) if part.strip()]
            # folders add up (flag and variable both grant); other lists: the flag replaces the variable
            values[name] = [*(given or []), *from_env] if name == "allow_dir" else (given or from_env)
        elif given is not None and given is not False:  # 0 is a value (--workers 0), not "not given"
            values[name] = given
        elif raw:
            values[name] = raw
    return ServeSettings.model_validate(values)


def is_loopback(host: str) -> bool:
    """True for a loopback bind address (127.0.0.0/8, ::1, 'localhost')."""
    if host.lower() in ("localhost", "localhost."):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def flag_name(field: str) -> str:
    """The command-line flag of a settings field: ``max_sessions`` -> ``--max-sessions``."""
    return "--" + field.replace("_", "-")


def describe_settings_error(exc: ValidationError) -> list[str]:
    """One line per bad option, naming both its flag and its environment variable."""
    lines = []
    for error in exc.errors():
        field = str(error["loc"][0]) if error["loc"] else ""
        msg = str(error["msg"]).removeprefix("Value error, ")
        lines.append(f"{flag_name(field)} / {env_name(field)}: {msg}" if field else msg)
    return lines


def granted_folders(dirs: Sequence[str]) -> list[str]:
    """The ``--allow-dir`` folders as absolute real paths (a warning for each one that is not a folder)."""
    folders = []
    for name in dirs:
        folder = Path(name).expanduser().resolve()
        if not folder.is_dir():
            logger.warning("--allow-dir %s is not a folder; nothing there can be read", folder)
        folders.append(str(folder))
    return list(dict.fromkeys(folders))
