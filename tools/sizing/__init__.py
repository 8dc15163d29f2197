"""Deployment sizing: weights, KV cache, overheads, per-GPU fit, capacity and roofline ceilings.

``size_deployment(SizingRequest) -> SizingReport`` is the entry point. The modules follow the
memory budget: ``source`` (config from inline JSON, a file, the catalog or the Hub),
``architecture`` / ``tensors`` / ``hf_config`` (what the config describes), ``formats`` (bytes per
weight and KV element), ``placement`` (TP/PP/EP/DP), ``weights``, ``kv``, ``memory`` (budget,
overheads, fit, capacity), ``ceilings`` (roofline), ``deployment`` (composes them), ``render``
(the text report), ``sweep`` (lists of values: one report per combination), ``plan`` (the smallest
deployments that fit) and ``nearest`` (what would make a non-fitting deployment fit), ``engine_log`` / ``engine_capacity`` (start-up
logs as input) and ``speculative`` (speculative decoding).
"""

from .catalog import CatalogModel, GPUSpec, find_model, gpu_catalog, lookup_gpu, lookup_model, model_catalog
from .deployment import size_deployment
from .report import (
    Ceilings,
    ComponentBytes,
    DecodeCeiling,
    KVCacheReport,
    LayerTypeKV,
    ModelInfo,
    Overhead,
    Parallelism,
    PerGPUReport,
    PrefillCeiling,
    SizingReport,
    WeightsReport,
)
from .listing import CatalogListing, CatalogRequest, list_catalog
from .plan import PlanCandidate, PlanReport, PlanRequest, plan_deployment
from .request import SizingRequest
from .speculative import SpeculativeReport, SpeculativeRequest, speculative_decoding
from .sweep import SizingQuery, SizingSweep, SweepAxis, size_query

__all__ = [
    "CatalogListing",
    "CatalogModel",
    "CatalogRequest",
    "Ceilings",
    "ComponentBytes",
    "DecodeCeiling",
    "GPUSpec",
    "KVCacheReport",
    "LayerTypeKV",
    "ModelInfo",
    "Overhead",
    "Parallelism",
    "PerGPUReport",
    "PlanCandidate",
    "PlanReport",
    "PlanRequest",
    "PrefillCeiling",
    "SizingReport",
    "SizingQuery",
    "SizingRequest",
    "SizingSweep",
    "SpeculativeReport",
    "SpeculativeRequest",
    "SweepAxis",
    "WeightsReport",
    "find_model",
    "gpu_catalog",
    "list_catalog",
    "lookup_gpu",
    "lookup_model",
    "model_catalog",
    "plan_deployment",
    "size_deployment",
    "size_query",
    "speculative_decoding",
]
