"""Who may call the HTTP server: token verifiers for the SDK's bearer-auth middleware.

Three verifiers, each an implementation of the SDK's ``TokenVerifier``
protocol (``async verify_token(token) -> AccessToken | None``):

- ``SharedTokenVerifier``: one shared secret (``--auth bearer``), compared in
  constant time;
- ``IntrospectionVerifier``: OAuth 2.1 resource server asking the issuer
  about each token (RFC 7662), answers cached briefly;
- ``JwtVerifier``: OAuth 2.1 resource server checking JWT access tokens
  against the issuer's published keys (JWKS), audience and issuer.

Network calls to the authorization server have short timeouts, so a slow
issuer costs a refused request, never a stuck server.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import os
import stat
import time
from collections import OrderedDict
from typing import Any

import anyio
import httpx
from mcp.server.auth.provider import AccessToken

__all__ = [
    "AuthConfigError",
    "IntrospectionVerifier",
    "JwtVerifier",
    "SharedTokenVerifier",
    "discover_issuer_metadata",
    "read_token_file",
]

logger = logging.getLogger(__name__)

MIN_TOKEN_CHARS = 16
"""A shared token shorter than this is refused at start-up (guessable)."""

NETWORK_TIMEOUT_S = 5.0
"""Total time allowed for one call to the authorization server."""

_MAX_ANSWER_BYTES = 256 * 1024


class AuthConfigError(ValueError):
    """The authentication options cannot work; the message says which option and how to fix it."""


def read_token_file(path: str) -> str:
    """The bearer token stored in ``path`` (surrounding whitespace removed); warn if others can read it."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise AuthConfigError(f"--auth-token-file: cannot open {path!r} ({exc.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        info = os.fstat(handle.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise AuthConfigError(f"--auth-token-file: {path!r} is not a regular file")
        if info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            logger.warning("--auth-token-file %s can be read by other users; chmod 600 it", path)
        data = handle.read(4097)
    if len(data) > 4096:
        raise AuthConfigError(f"--auth-token-file: {path!r} is over 4096 bytes; it should hold just the token")
    try:
        return data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise AuthConfigError(f"--auth-token-file: {path!r} is not UTF-8 text") from None


def _digest(token: str) -> bytes:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class SharedTokenVerifier:
    """Accepts exactly one token; compares SHA-256 digests with ``hmac.compare_digest`` (constant time)."""

    def __init__(self, token: str) -> None:
        token = token.strip()
        if len(token) < MIN_TOKEN_CHARS or any(c.isspace() for c in token):
            raise AuthConfigError(
                f"the bearer token must be at least {MIN_TOKEN_CHARS} characters without spaces; make one with "
                "python3 -c 'import secrets; print(secrets.token_urlsafe(32))'")
        self._expected = _digest(token)

    async def verify_token(self, token: str) -> AccessToken | None:
        if hmac.compare_digest(_digest(token), self._expected):
            return AccessToken(token="shared", client_id="shared-token", scopes=[])
        return None


class _Cache:
    """A small LRU of verified tokens keyed by their digest, each kept at most ``ttl_s``."""

    def __init__(self, size: int = 4096, ttl_s: float = 60.0) -> None:
        self._entries: OrderedDict[bytes, tuple[float, AccessToken | None]] = OrderedDict()
        self._size, self._ttl_s = size, ttl_s

    def get(self, key: bytes) -> tuple[bool, AccessToken | None]:
        entry = self._entries.get(key)
        if entry is None or entry[0] < time.monotonic():
            self._entries.pop(key, None)
            return False, None
        self._entries.move_to_end(key)
        return True, entry[1]

    def put(self, key: bytes, value: AccessToken | None, *, expires_at: int | None) -> None:
        until = time.monotonic() + self._ttl_s
        if expires_at is not None:
            until = min(until, time.monotonic() + max(0.0, expires_at - time.time()))
        self._entries[key] = (until, value)
        self._entries.move_to_end(key)
        while len(self._entries) > self._size:
            self._entries.popitem(last=False)


def _same_url(a: str, b: str) -> bool:
    return a.rstrip("/").lower() == b.rstrip("/").lower()


def _audience_ok(aud: Any, resource_url: str | None) -> bool:
    if resource_url is None:
        return True
    values = aud if isinstance(aud, list) else [aud]
    return any(isinstance(v, str) and _same_url(v, resource_url) for v in values)


def _scopes(value: Any) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


class IntrospectionVerifier:
    """RFC 7662: ask the issuer's introspection endpoint whether a token is active, for this resource."""

    def __init__(self, *, issuer: str, introspection_url: str, resource_url: str | None,
                 client_id: str | None = None, client_secret: str | None = None,
                 transport: httpx.AsyncBaseTransport | None = None, timeout_s: float = NETWORK_TIMEOUT_S) -> None:
        self._issuer, self._url, self._resource = issuer, introspection_url, resource_url
        self._auth = (client_id, client_secret or "") if client_id else None
        self._transport, self._timeout_s = transport, timeout_s
        self._cache = _Cache()

    async def verify_token(self, token: str) -> AccessToken | None:
        key = _digest(token)
        hit, cached = self._cache.get(key)
        if hit:
            return cached
        claims = await self._introspect(token)
        access = self._accept(token, claims) if claims is not None else None
        if claims is not None:  # a network failure is not cached: the next request asks again
            self._cache.put(key, access, expires_at=access.expires_at if access else None)
        return access

    async def _introspect(self, token: str) -> dict[str, Any] | None:
        try:
            with anyio.fail_after(self._timeout_s):
                async with httpx.AsyncClient(transport=self._transport, timeout=self._timeout_s) as client:
                    resp = await client.post(self._url, data={"token": token, "token_type_hint": "access_token"},
                                             auth=self._auth, headers={"Accept": "application/json"})
        except (httpx.HTTPError, TimeoutError) as exc:
            logger.warning("token introspection at %s failed: %s", self._url, type(exc).__name__)
            return None
        if resp.status_code != 200 or len(resp.content) > _MAX_ANSWER_BYTES:
            logger.warning("token introspection at %s answered HTTP %d", self._url, resp.status_code)
            return None
        try:
            body = resp.json()
        except ValueError:
            return None
        return body if isinstance(body, dict) else None

    def _accept(self, token: str, claims: dict[str, Any]) -> AccessToken | None:
        if claims.get("active") is not True:
            return None
        iss = claims.get("iss")
        if iss is not None and not (isinstance(iss, str) and _same_url(iss, self._issuer)):
            return None
        if "aud" in claims and not _audience_ok(claims["aud"], self._resource):
            return None
        if self._resource is not None and "aud" not in claims:
            return None  # a token not bound to this server could be one issued for another service
        exp = claims.get("exp")
        expires_at = int(exp) if isinstance(exp, (int, float)) and not isinstance(exp, bool) else None
        if expires_at is not None and expires_at < time.time():
            return None
        return AccessToken(token=token, client_id=str(claims.get("client_id") or "unknown"),
                           scopes=_scopes(claims.get("scope")), expires_at=expires_at, resource=self._resource,
                           subject=claims.get("sub") if isinstance(claims.get("sub"), str) else None,
                           claims={"iss": iss} if isinstance(iss, str) else None)


class JwtVerifier:
    """JWT access tokens (RFC 9068): signature from the issuer's JWKS, then ``iss``, ``aud`` and ``exp``."""

    ALGORITHMS = ("RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA")

    def __init__(self, *, issuer: str, jwks_url: str, resource_url: str,
                 transport: httpx.AsyncBaseTransport | None = None, timeout_s: float = NETWORK_TIMEOUT_S) -> None:
        self._issuer, self._jwks_url, self._resource = issuer, jwks_url, resource_url
        self._transport, self._timeout_s = transport, timeout_s
        self._keys: dict[str, Any] = {}
        self._fetched_at = -1e9
        self._lock = anyio.Lock()

    async def _signing_keys(self, kid: str | None) -> dict[str, Any]:
        async with self._lock:
            stale = time.monotonic() - self._fetched_at > 600
            unknown = kid is not None and kid not in self._keys and time.monotonic() - self._fetched_at > 30
            if stale or unknown:
                await self._fetch_keys()
            return self._keys

    async def _fetch_keys(self) -> None:
        import jwt

        try:
            with anyio.fail_after(self._timeout_s):
                async with httpx.AsyncClient(transport=self._transport, timeout=self._timeout_s) as client:
                    resp = await client.get(self._jwks_url, headers={"Accept": "application/json"})
            if resp.status_code != 200 or len(resp.content) > _MAX_ANSWER_BYTES:
                raise ValueError(f"HTTP {resp.status_code}")
            keyset = jwt.PyJWKSet.from_dict(resp.json())
        except (httpx.HTTPError, TimeoutError, ValueError, jwt.PyJWTError) as exc:
            logger.warning("fetching the issuer's keys from %s failed: %s", self._jwks_url, exc)
            self._fetched_at = time.monotonic() - 570  # try again in about 30 s, keep the old keys meanwhile
            return
        self._keys = {k.key_id or "": k for k in keyset.keys}
        self._fetched_at = time.monotonic()

    async def verify_token(self, token: str) -> AccessToken | None:
        import jwt

        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            return None
        kid = header.get("kid") if isinstance(header.get("kid"), str) else None
        keys = await self._signing_keys(kid)
        key = keys.get(kid or "") or (next(iter(keys.values())) if kid is None and len(keys) == 1 else None)
        if key is None:
            return None
        try:
            claims = jwt.decode(token, key.key, algorithms=list(self.ALGORITHMS), audience=self._resource,
                                issuer=self._issuer, leeway=30, options={"require": ["exp", "iss", "aud"]})
        except jwt.PyJWTError:
            return None
        return AccessToken(token=token, client_id=str(claims.get("client_id") or claims.get("azp") or "unknown"),
                           scopes=_scopes(claims.get("scope") or claims.get("scp")), expires_at=int(claims["exp"]),
                           resource=self._resource, subject=claims.get("sub") if isinstance(claims.get("sub"), str)
                           else None, claims={"iss": claims.get("iss")})


def discover_issuer_metadata(issuer: str, *, transport: httpx.BaseTransport | None = None,
                             timeout_s: float = NETWORK_TIMEOUT_S) -> dict[str, Any]:
    """The issuer's authorization-server metadata (RFC 8414, then OpenID Connect discovery)."""
    from urllib.parse import urlsplit

    parts = urlsplit(issuer)
    path = parts.path.rstrip("/")
    base = f"{parts.scheme}://{parts.netloc}"
    candidates = [f"{base}/.well-known/oauth-authorization-server{path}", f"{base}{path}/.well-known/openid-configuration"]
    errors = []
    with httpx.Client(transport=transport, timeout=timeout_s) as client:
        for url in candidates:
            try:
                resp = client.get(url, headers={"Accept": "application/json"})
                if resp.status_code == 200 and len(resp.content) <= _MAX_ANSWER_BYTES:
                    data = resp.json()
                    if isinstance(data, dict):
                        return data
                errors.append(f"{url}: HTTP {resp.status_code}")
            except (httpx.HTTPError, ValueError) as exc:
                errors.append(f"{url}: {type(exc).__name__}")
    raise AuthConfigError(
        f"--oauth-issuer: could not read the metadata of {issuer} ({'; '.join(errors)}); give "
        "--oauth-introspection-url or --oauth-jwks-url instead")
