"""Benchmark metrics: TTFT, TPOT, ITL, E2E latency, throughput and goodput from records or result files.

``compute_metrics(MetricsRequest) -> MetricsReport`` is the one entry point; definitions follow
``vllm bench serve`` and every figure names its observation point and denominator.
"""

from .formats import FORMATS, detect_format
from .goodput import parse_goodput
from .latency import Distribution
from .records import RequestRecord, SourceReported
from .summary import DEFINITIONS, MetricDefinition, MetricsReport, MetricsRequest, SessionThroughput, SLOs, compute_metrics

__all__ = [
    "DEFINITIONS",
    "FORMATS",
    "Distribution",
    "MetricDefinition",
    "MetricsReport",
    "MetricsRequest",
    "RequestRecord",
    "SLOs",
    "SessionThroughput",
    "SourceReported",
    "compute_metrics",
    "detect_format",
    "parse_goodput",
]
