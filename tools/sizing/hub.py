"""Hugging Face Hub look-up: a repo's config.json and its stored weight bytes.

Answers "what is the config of org/name, and how many bytes do its safetensors hold?" by
fetching ``config.json`` (which carries ``quantization_config``) and
``model.safetensors.index.json`` (its ``metadata.total_size`` is the exact stored byte
count) with httpx. Answers are cached on disk under the user's cache directory, so a repo
seen once works offline. Offline, 401/403 (gated or private) and 404 give clear messages.
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from ..errors import InputFormatError, NetworkUnavailableError, UnknownModelError, argument

__all__ = ["HubModel", "cache_dir", "fetch_hub_model"]

_REPO_RE = re.compile(r"^[A-Za-z0-9][\w.\-]{0,95}/[\w.\-]{1,96}$")
_REV_RE = re.compile(r"^[\w.\-/]{1,100}$")
_MAX_BYTES = 5 * 1024 * 1024  # a config.json or an index is far smaller; refuse anything bigger
ENDPOINT = "https://huggingface.co"


class HubModel(BaseModel):
    """What the Hub says about a repo: its config and, when indexed, the stored weight bytes."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    repo_id: str
    revision: str
    config: dict[str, Any]
    safetensors_total_size: int | None
    source_url: str
    from_cache: bool


def cache_dir() -> Path:
    """Cache folder: $LLM_INFERENCE_FUNDAMENTALS_CACHE, else the platform's user cache dir."""
    override = os.environ.get("LLM_INFERENCE_FUNDAMENTALS_CACHE")
    if override:
        return Path(override)
    if sys.platform == "win32":
        base = Path(os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Caches"
    else:
        base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "llm-inference-fundamentals"


def _cache_file(repo_id: str, revision: str) -> Path:
    safe = f"{repo_id.replace('/', '--')}@{revision.replace('/', '--')}.json"
    return cache_dir() / "hub" / safe


def _get_json(client: Any, url: str, repo_id: str, *, optional: bool) -> dict[str, Any] | None:
    import httpx

    try:
        resp = client.get(url)
    except httpx.TimeoutException as exc:
        raise NetworkUnavailableError(
            f"{argument('model')}: timed out fetching {url} ({exc.__class__.__name__}); pass {argument('config_path')} with a local "
            "config.json or use a catalog name") from exc
    except httpx.HTTPError as exc:
        raise NetworkUnavailableError(
            f"{argument('model')}: could not reach the Hugging Face Hub for '{repo_id}' ({exc.__class__.__name__}); offline? "
            f"Pass {argument('config_path')} with a downloaded config.json or use a catalog name") from exc
    if resp.status_code in (401, 403):
        raise NetworkUnavailableError(
            f"{argument('model')}: the Hub refused '{repo_id}' (HTTP {resp.status_code}): the repo is gated or private. Accept its "
            f"licence on huggingface.co and set HF_TOKEN, or pass {argument('config_path')} with its config.json")
    if resp.status_code == 404:
        if optional:
            return None
        raise UnknownModelError(f"{argument('model')}: '{repo_id}' has no config.json on the Hub (HTTP 404 for {url})")
    if resp.status_code >= 400:
        raise NetworkUnavailableError(f"{argument('model')}: the Hub answered HTTP {resp.status_code} for {url}")
    if len(resp.content) > _MAX_BYTES:
        raise InputFormatError(f"{argument('model')}: {url} is {len(resp.content):,} bytes, over the {_MAX_BYTES:,}-byte limit")
    try:
        data = json.loads(resp.content)
    except ValueError as exc:
        raise InputFormatError(f"{argument('model')}: {url} is not valid JSON ({exc})") from exc
    if not isinstance(data, dict):
        raise InputFormatError(f"{argument('model')}: {url} is not a JSON object")
    return data


def fetch_hub_model(repo_id: str, *, revision: str = "main", offline: bool = False,
                    transport: Any = None, timeout_s: float = 5.0) -> HubModel:
    """Fetch (or read from cache) a repo's config.json and safetensors index total_size.

    ``transport`` is an httpx transport (tests pass ``httpx.MockTransport``). With
    ``offline=True`` only the cache is used.
    """
    if not _REPO_RE.match(repo_id):
        raise UnknownModelError(f"{argument('model')}: '{repo_id}' is not a Hugging Face repo id (expected 'org/name')")
    if not _REV_RE.match(revision) or ".." in revision:
        raise InputFormatError(f"{argument('hub_revision')}: '{revision}' is not a valid revision name")
    path = _cache_file(repo_id, revision)
    base_url = f"{ENDPOINT}/{repo_id}/resolve/{revision}"
    if path.is_file():
        try:
            cached = json.loads(path.read_text(encoding="utf-8"))
            return HubModel(**{**cached, "from_cache": True})
        except (ValueError, TypeError):
            path.unlink(missing_ok=True)  # a corrupt cache entry is refetched
    if offline:
        raise NetworkUnavailableError(
            f"{argument('model')}: '{repo_id}' is not in the catalog or the Hub cache ({path.parent}) and {argument('offline')} is on; "
            f"pass {argument('config_path')} with its config.json")
    import httpx

    headers = {"User-Agent": "llm-inference-fundamentals"}
    token = os.environ.get("HF_TOKEN")
    if token:
        headers["Authorization"] = f"Bearer {token}"
    # Short timeouts: a Hub or proxy that does not answer costs this call a few seconds, not a server worker.
    timeout = httpx.Timeout(timeout_s, connect=min(3.0, timeout_s))
    with httpx.Client(transport=transport, headers=headers, timeout=timeout, follow_redirects=True) as client:
        config = _get_json(client, f"{base_url}/config.json", repo_id, optional=False)
        index = _get_json(client, f"{base_url}/model.safetensors.index.json", repo_id, optional=True)
    total = None
    if index is not None:
        meta = index.get("metadata") or {}
        value = meta.get("total_size") if isinstance(meta, dict) else None
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            total = value
    model = HubModel(repo_id=repo_id, revision=revision, config=config or {}, safetensors_total_size=total,
                     source_url=f"{base_url}/config.json", from_cache=False)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(model.model_dump(exclude={"from_cache"})), encoding="utf-8")
    except OSError:
        pass  # a read-only cache only costs a refetch next time
    return model
