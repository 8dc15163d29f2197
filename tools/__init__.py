"""Domain logic of llm-inference-fundamentals, importable without MCP.

Corpus search and reading, deployment sizing, benchmark metrics, the
benchmark-contract audit and the upstream drift check: pure functions over
pydantic models, one request model in and one report model out.

    >>> from llm_inference_fundamentals.tools import SizingRequest, size_deployment
    >>> report = size_deployment(SizingRequest(model="Llama-3.1-8B", tokens=8192, concurrency=1))
    >>> report.kv_cache.bytes_per_token
    131072
"""

from .audit import AuditReport, AuditRequest, audit_benchmark, audit_template
from .corpus import (
    PageIndex,
    ReadRequest,
    ReadResult,
    SearchHit,
    SearchRequest,
    SearchResults,
    list_pages,
    read_reference,
    search_references,
)
from .errors import (
    FundamentalsError,
    InputFormatError,
    InvalidQueryError,
    ModelConfigError,
    NetworkUnavailableError,
    PathNotAllowedError,
    UnknownGPUError,
    UnknownModelError,
    UnknownPageError,
    UnknownRefError,
    UnknownSectionError,
)
from .metrics import MetricsReport, MetricsRequest, RequestRecord, compute_metrics, parse_goodput
from .sizing import SizingReport, SizingRequest, size_deployment
from .skill import SkillInstall, install_skill
from .upstream import UpstreamReport, UpstreamRequest, check_upstream

__all__ = [
    "AuditReport",
    "AuditRequest",
    "FundamentalsError",
    "InputFormatError",
    "InvalidQueryError",
    "MetricsReport",
    "MetricsRequest",
    "ModelConfigError",
    "NetworkUnavailableError",
    "PageIndex",
    "PathNotAllowedError",
    "ReadRequest",
    "ReadResult",
    "RequestRecord",
    "SearchHit",
    "SearchRequest",
    "SearchResults",
    "SizingReport",
    "SizingRequest",
    "SkillInstall",
    "UnknownGPUError",
    "UnknownModelError",
    "UnknownPageError",
    "UnknownRefError",
    "UnknownSectionError",
    "UpstreamReport",
    "UpstreamRequest",
    "audit_benchmark",
    "audit_template",
    "check_upstream",
    "compute_metrics",
    "install_skill",
    "list_pages",
    "parse_goodput",
    "read_reference",
    "search_references",
    "size_deployment",
]
