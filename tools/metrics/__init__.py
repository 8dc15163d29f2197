"""Benchmark metrics: TTFT, TPOT, ITL, E2E latency, throughput and goodput from records or result files.

``compute_metrics(MetricsRequest) -> MetricsReport`` is the one entry point; definitions follow
``vllm bench serve`` and every figure names its observation point and denominator.
"""

from .compare import CompareReport, CompareRequest, MetricComparison, compare_runs
from .confounders import CONFOUNDER_KINDS, Confounder
from .cost import CostEstimate
from .formats import FORMATS, detect_format
from .goodput import parse_goodput
from .latency import Distribution
from .records import LoadSetting, RequestRecord, SourceReported
from .runs import RunInput
from .sweep import CapacityGoodput, SweepPoint, SweepReport, SweepRequest, analyze_sweep
from .summary import DEFINITIONS, MetricDefinition, MetricsReport, MetricsRequest, SessionThroughput, SLOs, compute_metrics

__all__ = [
    "CONFOUNDER_KINDS",
    "CapacityGoodput",
    "CompareReport",
    "CompareRequest",
    "Confounder",
    "CostEstimate",
    "DEFINITIONS",
    "FORMATS",
    "LoadSetting",
    "MetricComparison",
    "Distribution",
    "MetricDefinition",
    "MetricsReport",
    "MetricsRequest",
    "RequestRecord",
    "RunInput",
    "SLOs",
    "SessionThroughput",
    "SourceReported",
    "SweepPoint",
    "SweepReport",
    "SweepRequest",
    "analyze_sweep",
    "compare_runs",
    "compute_metrics",
    "detect_format",
    "parse_goodput",
]
