"""``audit_benchmark``: read the input, pick the reader (write-up, manifest or result file), judge, report."""

from __future__ import annotations

import re
from typing import Any

from pydantic import ValidationError

from ..errors import InputFormatError, argument
from .collector import paused_collection
from .findings import ITEM_GROUPS
from .manifest import BenchmarkManifest
from .models import AuditReport, AuditRequest, Evidence, Inconsistency, ItemFinding, RuleFinding, Setup
from .reading.blocks import parse_writeup
from .reading.masks import fill_in_fields, mask_block, shorten_runs
from .report import build_report
from .results import judge_result
from .source import KEPT_ROWS, MANIFEST_KEYS, RecordRows, parse_structured, read_source
from .structured import judge_manifest
from .writeup import judge_writeup

__all__ = ["audit_benchmark"]


def audit_benchmark(request: AuditRequest) -> AuditReport:
    """Audit a write-up, manifest or result file against the benchmark contract.

    >>> r = audit_benchmark(AuditRequest(text="# Llama 70B on 8x H100\\n\\nvLLM, 1,000 requests."))
    >>> [f.status for f in r.items if f.id in ("model_artifact", "hardware", "request_count")]
    ['partial', 'declared', 'declared']
    """
    with paused_collection():  # the audit's objects live until it ends: collector passes would free nothing
        return _audit(request)


def _audit(request: AuditRequest) -> AuditReport:
    """``audit_benchmark``'s work: read the input, pick the reader, judge, report."""
    text, source, suffix = read_source(request)
    fmt = request.format
    data: Any = None
    if fmt in ("auto", "manifest", "result"):
        data = parse_structured(text, suffix)
        if fmt == "auto":
            if data is None:
                fmt = "markdown"
            elif isinstance(data, dict) and MANIFEST_KEYS & set(data):
                fmt = "manifest"
            else:
                fmt = "result"
        elif data is None:
            raise InputFormatError(f"{argument('format')}: '{fmt}' needs JSON or YAML input (or .jsonl/.csv for results); this input parses as neither")
    if fmt == "markdown":
        if suffix in (".json", ".jsonl", ".csv", ".yaml", ".yml") and request.format == "markdown":
            pass
        if not text.strip():
            raise InputFormatError(f"{argument('text')}: empty write-up; nothing to audit")
        writeup = parse_writeup(shorten_runs(text))
        raw_items, raw_rules, conflicts, searched, found_setups, limits = judge_writeup(writeup)
        if request.path is not None and not any(f.status in ("declared", "partial") for f in raw_items) \
                and not any(f.status in ("ok", "violation", "unclear") for f in raw_rules) and fill_in_fields(text) < 5:
            # (an unfilled report form, such as `lif audit --template`, is a write-up whose every item is missing)
            # a file with nothing a benchmark write-up holds is not reported on: its lines would be quoted back
            raise InputFormatError(f"{argument('path')}: {request.path!r} does not read as a benchmark write-up "
                                   "(nothing the benchmark contract asks for and no metric claim); the audit reads "
                                   "write-ups, manifests and result files")
        items = [ItemFinding(id=f.id, group=ITEM_GROUPS[f.id], status=f.status,
                             evidence=[Evidence(line=n, text=t) for n, t in f.evidence],
                             why=(f.why + "; searched: " + ", ".join(searched)) if f.status == "missing" else f.why,
                             sections_searched=searched if f.status == "missing" else [])
                 for f in raw_items]
        rules = [RuleFinding(id=f.id, status=f.status, evidence=[Evidence(line=n, text=t) for n, t in f.evidence], why=f.why,
                             reason=f.reason if f.status == "unclear" else None)
                 for f in raw_rules]
        incons = [Inconsistency(what=what, evidence=[Evidence(line=n, text=t) for n, t in ev]) for what, ev in conflicts]
        title = " ".join(mask_block(writeup.title or "").split()) or None  # a placeholder headline is no title
        return build_report(source, "markdown", title, items, rules, incons,
                            [Setup(label=label, lines=lines) for label, lines in found_setups], limits)
    # The lines a manifest or result finding quotes (a write-up's are split by the markdown reader): the same line
    # breaks as the markdown parser (\r\n, \r, \n); str.splitlines() also splits on \x0c, \x85, \u2028...
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    if fmt == "manifest":
        if not isinstance(data, dict):
            raise InputFormatError("manifest: expected a mapping at the top level (keys: stack, workload, state, ...)")
        try:
            manifest = BenchmarkManifest.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()[:8])
            raise InputFormatError(f"manifest does not match the BenchmarkManifest schema: {problems}") from None
        items, rules = judge_manifest(manifest, lines)
        incons = [Inconsistency(what=f.why, evidence=f.evidence) for f in items if f.id == "hardware" and "exceeds" in f.why]
        return build_report(source, "manifest", manifest.title, items, rules, incons)
    if not isinstance(data, (dict, list)) or not data:
        raise InputFormatError("result: expected a JSON object, a JSON array or JSONL/CSV records")
    if isinstance(data, RecordRows):  # per-request records: their field names are in the first lines
        lines = lines[:KEPT_ROWS]
    # read through tools/metrics (the reader compute_metrics uses), so both tools count the same requests
    items, rules, title = judge_result(text, data, lines, path=request.path, suffix=suffix)
    return build_report(source, "result", title, items, rules, [])
