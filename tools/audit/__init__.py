"""Can this benchmark be trusted? Item-by-item findings against the benchmark contract.

``audit_benchmark(AuditRequest) -> AuditReport`` reads a write-up (markdown or plain text), a
structured manifest (JSON/YAML, schema ``BenchmarkManifest``) or a benchmark tool's result file
and answers, for every contract item (SKILL.md "Benchmark contract"; ids in DESIGN.md) whether
it is declared, partial, missing or not applicable, and for every metric rule whether the
write-up is ok, violates it, is unclear or the rule does not apply. Each finding quotes its
evidence (line number and text). ``audit_template()`` is a fill-in report.

Modules follow the contract: ``reading`` (blocks, document look-ups, vocabularies), one module
per contract group (``stack``, ``workload``, ``state``, ``distributions``, ``speculative``,
``aggregation``), ``rules``, ``report``; ``manifest``/``structured`` and ``results`` for
structured inputs.
"""

from .findings import ITEM_GROUPS, RULE_IDS
from .manifest import BenchmarkManifest, manifest_json_schema
from .models import AuditReport, AuditRequest, AuditSummary, Evidence, Inconsistency, ItemFinding, RuleFinding
from .run import audit_benchmark
from .template import audit_template

__all__ = [
    "ITEM_GROUPS",
    "RULE_IDS",
    "AuditReport",
    "AuditRequest",
    "AuditSummary",
    "BenchmarkManifest",
    "Evidence",
    "Inconsistency",
    "ItemFinding",
    "RuleFinding",
    "audit_benchmark",
    "audit_template",
    "manifest_json_schema",
]
