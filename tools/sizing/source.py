"""Where a model's config comes from: inline JSON, a config.json file, the catalog or the Hugging Face Hub."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import InputFormatError, UnknownModelError, argument
from ..files import read_user_file
from .catalog import find_model, lookup_model, suggest_models
from .request import SizingRequest

__all__ = ["LoadedModel", "load_model"]

_MAX_CONFIG_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class LoadedModel:
    """A config.json, the name and source the report shows, and the checkpoint's stored bytes when known."""

    config: dict[str, Any]
    name: str
    source: str
    checkpoint_bytes: int | None = None
    checkpoint_bytes_source: str | None = None


def load_model(request: SizingRequest) -> LoadedModel:
    """The config the request names: inline JSON, a file, or a catalog name / Hub repo id."""
    if request.config_json is not None:
        return _model_from_json(request.config_json)
    if request.config_path is not None:
        return _model_from_file(request.config_path)
    return _model_from_name(request.model or "", revision=request.hub_revision, offline=request.offline)


def _model_from_json(given: dict[str, Any] | str) -> LoadedModel:
    """An inline config, as an object or as JSON text; text is size-capped before it is parsed."""
    cfg: Any = given
    if isinstance(cfg, str):
        if len(cfg) > _MAX_CONFIG_BYTES:
            raise InputFormatError(f"{argument('config_json')}: {len(cfg):,} characters, over the {_MAX_CONFIG_BYTES:,} limit")
        try:
            cfg = json.loads(cfg)
        except ValueError as exc:
            raise InputFormatError(f"{argument('config_json')}: not valid JSON ({exc})") from exc
        except RecursionError:
            raise InputFormatError(f"{argument('config_json')}: JSON nested too deeply for a config.json") from None
    if not isinstance(cfg, dict):
        raise InputFormatError(f"{argument('config_json')}: expected a JSON object (a Hugging Face config.json)")
    arches = cfg.get("architectures")
    label = cfg.get("_name_or_path") or (arches[0] if isinstance(arches, list) and arches else "inline config")
    return LoadedModel(cfg, str(label)[:200], "inline config_json")


def _model_from_file(config_path: str) -> LoadedModel:
    """A config.json on disk, named after its folder; refused unread when larger than a config can be."""
    path = Path(config_path).expanduser()
    data = read_user_file(config_path, field="config_path", max_bytes=_MAX_CONFIG_BYTES)
    try:
        cfg = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError) as exc:
        raise InputFormatError(f"{argument('config_path')}: '{path}' is not valid JSON ({exc})") from exc
    except RecursionError:
        raise InputFormatError(f"{argument('config_path')}: '{path}' is JSON nested too deeply for a config.json") from None
    if not isinstance(cfg, dict):
        raise InputFormatError(f"{argument('config_path')}: '{path}' does not hold a JSON object")
    return LoadedModel(cfg, path.parent.name or path.name, f"config file {path}")


def _model_from_name(name: str, *, revision: str, offline: bool) -> LoadedModel:
    """A catalog entry (with its anchored checkpoint size), else the Hub's config for an 'org/name' repo id."""
    entry = find_model(name)
    if entry is not None:
        anchor = entry.anchors.get("safetensors_total_size") or entry.anchors.get("weights_bytes_as_stored")
        return LoadedModel(entry.config, entry.name,
                            f"catalog: {entry.source.url} (read from {entry.source.read_from})",
                            int(anchor.value) if anchor else None, anchor.source if anchor else None)
    if "/" not in name:
        lookup_model(name)  # raises UnknownModelError with suggestions
    from .hub import fetch_hub_model

    try:
        hub = fetch_hub_model(name, revision=revision, offline=offline)
    except UnknownModelError as exc:
        hint = suggest_models(name.split("/")[-1])
        raise UnknownModelError(f"{exc}" + (f"; closest catalog entries: {', '.join(hint)}" if hint else "")) from exc
    src = f"Hugging Face Hub {hub.source_url}" + (" (cached)" if hub.from_cache else "")
    return LoadedModel(hub.config, name, src, hub.safetensors_total_size,
                        "model.safetensors.index.json metadata.total_size" if hub.safetensors_total_size else None)
