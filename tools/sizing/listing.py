"""What the catalogs hold: every model and GPU the calculators know by name, with where each value was read."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from .architecture import cached_architecture
from .catalog import gpu_catalog, model_catalog
from .formats import checkpoint_weight_format

__all__ = ["CatalogListing", "CatalogRequest", "GPUEntry", "ModelEntry", "list_catalog"]


class CatalogRequest(BaseModel):
    """Which catalog to list."""

    model_config = ConfigDict(extra="forbid")

    kind: Literal["models", "gpus"] = Field(description="models or gpus")


class ModelEntry(BaseModel):
    """One catalog model: its names, shape and the source of its config."""

    name: str = Field(description="Catalog name (give it as model)")
    hf_id: str = Field(description="Hugging Face repo id")
    aliases: list[str] = Field(description="Other names accepted")
    model_type: str = Field(description="config.json model_type")
    params: int = Field(description="Total parameters computed from the config")
    active_params: int = Field(description="Parameters per token (routed experts: top-k)")
    layers: int = Field(description="Decoder layers")
    stored_format: str = Field(description="Weight format of the checkpoint (quantization_config, else torch_dtype)")
    max_context_tokens: int | None = Field(description="max_position_embeddings")
    source: str = Field(description="Where the config lives, and where the catalog's values were read")


class GPUEntry(BaseModel):
    """One catalog GPU: memory, bandwidth and dense peaks, each with its source."""

    id: str = Field(description="Catalog id (give it, or any usual spelling, as gpu)")
    name: str = Field(description="Product name")
    aliases: list[str] = Field(description="Other names accepted (any spelling of these works, see names.py)")
    memory_bytes: int = Field(description="Memory used for sizing")
    memory_basis: str = Field(description="What the memory figure is (nvidia-smi, datasheet)")
    memory_source: str = Field(description="Where it was read")
    bandwidth_tb_s: float = Field(description="Peak HBM bandwidth, TB/s (10^12 B/s)")
    bandwidth_source: str = Field(description="Where it was read")
    dense_tflops: dict[str, float] = Field(description="Dense (not sparse) peak TFLOPS by compute dtype")
    tflops_sources: dict[str, str] = Field(description="Source of each peak")
    confidence: str = Field(description="How well the figures are sourced")


class CatalogListing(BaseModel):
    """The models or the GPUs the calculators know, each with its sources."""

    kind: Literal["models", "gpus"] = Field(description="Which catalog")
    models: list[ModelEntry] = Field(description="Catalog models (empty when kind is gpus)")
    gpus: list[GPUEntry] = Field(description="Catalog GPUs (empty when kind is models)")

    def to_text(self) -> str:
        """A table, one row per entry, then the sources."""
        if self.kind == "models":
            lines = [f"{'name':<22}{'params':>18}{'active':>18}{'layers':>7}  {'stored':<22}{'context':>9}  hf id"]
            for m in self.models:
                context = "-" if m.max_context_tokens is None else f"{m.max_context_tokens:,}"
                lines.append(f"{m.name:<22}{m.params:>18,}{m.active_params:>18,}{m.layers:>7}  {m.stored_format:<22}"
                             f"{context:>9}  {m.hf_id}")
            lines += ["", "sources:"] + [f"  {m.name}: {m.source}" for m in self.models]
            return "\n".join(lines)
        lines = [f"{'id':<24}{'memory GiB':>11}{'TB/s':>7}  dense TFLOPS"]
        for g in self.gpus:
            peaks = ", ".join(f"{k} {v:g}" for k, v in g.dense_tflops.items()) or "- (none sourced)"
            lines.append(f"{g.id:<24}{g.memory_bytes / 2**30:>11.2f}{g.bandwidth_tb_s:>7.2f}  {peaks}")
        lines += ["", "sources:"]
        for g in self.gpus:
            lines.append(f"  {g.id}: memory {g.memory_source}; bandwidth {g.bandwidth_source}; "
                         + "; ".join(f"{k} {s}" for k, s in g.tflops_sources.items()) + f" ({g.confidence})")
        return "\n".join(lines)


def list_catalog(request: CatalogRequest) -> CatalogListing:
    """Every catalog model (with its computed parameter counts) or every catalog GPU, with sources."""
    if request.kind == "gpus":
        gpus = [GPUEntry(id=g.id, name=g.name, aliases=list(g.aliases), memory_bytes=g.memory.bytes,
                         memory_basis=g.memory.basis, memory_source=g.memory.source,
                         bandwidth_tb_s=float(g.bandwidth_tb_s.value), bandwidth_source=g.bandwidth_tb_s.source,
                         dense_tflops={k: float(v.value) for k, v in g.dense_tflops.items()},
                         tflops_sources={k: v.source for k, v in g.dense_tflops.items()}, confidence=g.confidence)
                for g in gpu_catalog()]
        return CatalogListing(kind="gpus", models=[], gpus=gpus)
    models = []
    for m in model_catalog():
        arch = cached_architecture(m.config, immutable=True)
        fmt, _ = checkpoint_weight_format(arch.config)
        models.append(ModelEntry(name=m.name, hf_id=m.hf_id, aliases=list(m.aliases), model_type=arch.model_type,
                                 params=arch.params, active_params=arch.active_params, layers=len(arch.layers),
                                 stored_format=fmt.name, max_context_tokens=arch.max_position,
                                 source=f"{m.source.url} (read from {m.source.read_from})"))
    return CatalogListing(kind="models", models=models, gpus=[])
