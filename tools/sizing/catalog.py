"""Embedded catalogs: which open models and which GPUs sizing knows by name.

Answers "what is the config of <model>?" and "what are the memory, bandwidth and dense
TFLOPS of <gpu>?" from ``tools/sizing/data/models.json`` and ``tools/sizing/data/gpus.json``. Both files
are read once, validated with pydantic, and carry a source for every entry (models) or
every value (GPUs). Unknown names raise an error that suggests the closest entries.
"""

from __future__ import annotations

import difflib
import functools
import json
import re
from importlib.resources import files
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from ..errors import UnknownGPUError, UnknownModelError, argument
from .names import match_gpu, squash_model

__all__ = [
    "CatalogModel",
    "GPUSpec",
    "SourcedValue",
    "find_model",
    "gpu_catalog",
    "lookup_gpu",
    "lookup_model",
    "model_catalog",
    "suggest_models",
]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class ModelSource(_Strict):
    url: str = Field(description="Canonical location of the config.json")
    read_from: str = Field(description="Where the catalog's values were read (repo@commit:path or description)")
    note: str | None = None


class Anchor(_Strict):
    value: int | str
    source: str


class CatalogModel(_Strict):
    """One catalog entry: an HF config.json subset plus where it came from."""

    name: str
    hf_id: str
    aliases: list[str] = []
    source: ModelSource
    config: dict[str, Any]
    anchors: dict[str, Anchor] = {}


class SourcedValue(_Strict):
    value: float | str
    source: str


class GPUMemory(_Strict):
    bytes: int = Field(gt=0)
    basis: str
    source: str


class GPUSpec(_Strict):
    """One accelerator: memory, HBM bandwidth, dense peak per compute dtype, interconnect."""

    id: str
    name: str
    aliases: list[str] = []
    memory: GPUMemory
    bandwidth_tb_s: SourcedValue
    dense_tflops: dict[str, SourcedValue]
    interconnect: SourcedValue
    confidence: str
    pitfall: str | None = None

    @property
    def bandwidth_bytes_per_s(self) -> float:
        return float(self.bandwidth_tb_s.value) * 1e12


class _ModelFile(_Strict):
    about: str = Field(alias="_about")
    models: list[CatalogModel]


class _GPUFile(_Strict):
    about: str = Field(alias="_about")
    empirical_factors: dict[str, Any]
    gpus: list[GPUSpec]


def _norm(name: str) -> str:
    return re.sub(r"[\s_]+", "-", name.strip().lower())


@functools.cache
def model_catalog() -> tuple[CatalogModel, ...]:
    """All catalog models, validated (read once)."""
    text = files(__package__).joinpath("data/models.json").read_text(encoding="utf-8")
    return tuple(_ModelFile.model_validate(json.loads(text)).models)


@functools.cache
def gpu_catalog() -> tuple[GPUSpec, ...]:
    """All catalog GPUs, validated (read once)."""
    text = files(__package__).joinpath("data/gpus.json").read_text(encoding="utf-8")
    return tuple(_GPUFile.model_validate(json.loads(text)).gpus)


@functools.cache
def _model_index() -> dict[str, CatalogModel]:
    index: dict[str, CatalogModel] = {}
    for m in model_catalog():
        for key in (m.name, m.hf_id, m.hf_id.split("/", 1)[-1], *m.aliases):
            index.setdefault(_norm(key), m)
    return index


@functools.cache
def _gpu_index() -> dict[str, GPUSpec]:
    index: dict[str, GPUSpec] = {}
    for g in gpu_catalog():
        for key in (g.id, g.name, g.id.split("-", 1)[-1], *g.aliases):
            index.setdefault(_norm(key), g)
    return index


def find_model(name: str) -> CatalogModel | None:
    """The catalog entry for a name, HF repo id or alias (case-insensitive), else None.

    Also forgiving of the common spellings of the same checkpoint: the entry's own org in front
    (``meta-llama/Llama-3.1-70B-Instruct``), the old ``Meta-`` prefix (``Meta-Llama-3.1-8B``) and an
    ``-Instruct`` / ``-it`` / ``-chat`` suffix. Quantized repos (``-FP8``, ``-AWQ``) are not folded in:
    their stored format differs from the catalog entry's.
    """
    index = _model_index()
    key = _norm(name)
    if key in index:
        return index[key]
    org, _, rest = key.rpartition("/")
    bare = re.sub(r"-(instruct|it|chat)$", "", re.sub(r"^meta-(?=llama)", "", rest))
    squashed = _squashed_index()
    for candidate in dict.fromkeys((rest, bare)):
        found = index.get(candidate) or squashed.get(squash_model(candidate))
        if found is not None and (not org or _norm(found.hf_id).split("/", 1)[0] == org):
            return found
    return None


@functools.cache
def _squashed_index() -> dict[str, CatalogModel]:
    """Catalog names with every separator removed: 'Llama 3.1 70B' finds Llama-3.1-70B."""
    index: dict[str, CatalogModel] = {}
    for m in model_catalog():
        for key in (m.name, m.hf_id.split("/", 1)[-1], *m.aliases):
            index.setdefault(squash_model(key), m)
    return index


def suggest_models(name: str, n: int = 3) -> list[str]:
    """Closest catalog names to ``name`` (difflib), best first."""
    keys = _model_index()
    close = difflib.get_close_matches(_norm(name), list(keys), n=n * 3, cutoff=0.4)
    out: list[str] = []
    for k in close:
        if keys[k].name not in out:
            out.append(keys[k].name)
    return out[:n]


def lookup_model(name: str) -> CatalogModel:
    """The catalog entry for ``name``; raises UnknownModelError with close names."""
    found = find_model(name)
    if found is None:
        hint = suggest_models(name)
        also = f"; closest catalog entries: {', '.join(hint)}" if hint else ""
        raise UnknownModelError(
            f"{argument('model')}: '{name}' is not in the catalog{also}. Give a catalog name, a Hugging Face "
            f"repo id (org/name) or a config.json ({argument('config_path')} / {argument('config_json')})."
        )
    return found


def _memory_names(gpu: GPUSpec) -> tuple[str, str]:
    """The memory sizes a GPU is sold under, as typed: whole GiB and whole GB ('24GB' for an RTX 4090)."""
    return f"{round(gpu.memory.bytes / 2**30)}GB", f"{round(gpu.memory.bytes / 1e9)}GB"


def lookup_gpu(name: str) -> GPUSpec:
    """The GPU for a name as people type it ('H100', 'rtx4090', 'NVIDIA H100 80GB HBM3', '4090'; see names.py);
    raises UnknownGPUError with close names, or with the candidates when the name is ambiguous."""
    index = _gpu_index()
    found = index.get(_norm(name))
    if found is not None:
        return found
    by_id = {g.id: g for g in gpu_catalog()}
    matched = match_gpu(name, [(g.id, (g.id, g.name, *g.aliases, *_memory_names(g)), g.aliases) for g in gpu_catalog()])
    if len(matched) == 1:
        return by_id[matched[0]]
    valid = ", ".join(g.id for g in gpu_catalog())
    if matched:
        raise UnknownGPUError(f"{argument('gpu')}: '{name}' could be {', '.join(matched)}; name one of them")
    close = difflib.get_close_matches(_norm(name), list(index), n=6, cutoff=0.4)
    names: list[str] = []
    for k in close:
        if index[k].id not in names:
            names.append(index[k].id)
    hint = f"closest: {', '.join(names[:3])}; " if names else ""
    raise UnknownGPUError(f"{argument('gpu')}: '{name}' is not in the catalog; {hint}valid values: {valid}")
