"""Can this benchmark be trusted? Item-by-item findings against the benchmark contract.

``audit_benchmark(AuditRequest) -> AuditReport`` reads a write-up (markdown or plain text), a
structured manifest (JSON/YAML, schema ``BenchmarkManifest``) or a benchmark tool's result file
(vLLM ``bench serve`` JSON, GuideLLM/AIPerf exports, per-request JSONL/CSV; their recorded
configuration counts as declarations) and answers, for every contract item (SKILL.md "Benchmark
contract"; ids in DESIGN.md) whether it is declared, partial, missing or not applicable, and for
every metric rule whether the write-up is ok, violates it, is unclear or the rule does not apply.
Each finding quotes its evidence (line number and text); a missing item names the sections
searched. ``audit_template()`` is a fill-in report that satisfies every item.
"""

from __future__ import annotations

import csv
import functools
import io
import json
import re
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from .audit_text import ITEM_GROUPS, RULE_IDS, judge_writeup
from .errors import InputFormatError
from .manifest import BenchmarkManifest
from .writeup import parse_writeup

__all__ = [
    "AuditReport",
    "AuditRequest",
    "AuditSummary",
    "Evidence",
    "Inconsistency",
    "ItemFinding",
    "RuleFinding",
    "audit_benchmark",
    "audit_template",
]

MAX_TEXT_CHARS = 1_000_000
MAX_RESULT_FILE_BYTES = 256 * 1024 * 1024

ItemStatus = Literal["declared", "partial", "missing", "not_applicable"]
RuleStatus = Literal["ok", "violation", "unclear", "not_applicable"]
Group = Literal["stack", "workload", "state", "distributions", "speculative", "aggregation"]
InputFormat = Literal["auto", "markdown", "manifest", "result"]


class AuditRequest(BaseModel):
    """What to audit: inline content or a file path, and its format."""

    model_config = ConfigDict(extra="forbid")

    text: str | dict[str, Any] | list[Any] | None = Field(default=None, description="Inline content: a markdown/plain-text write-up, a manifest (JSON or YAML) or a result file's JSON (a JSON object/array is accepted as is). Up to 1,000,000 characters.")
    path: str | None = Field(default=None, description="Path to a file to audit instead of inline text (.md/.txt write-up, .json/.yaml manifest, result .json/.jsonl/.csv).", min_length=1, max_length=4096)
    format: InputFormat = Field(default="auto", description="Input kind: 'markdown' (write-up), 'manifest' (BenchmarkManifest JSON/YAML), 'result' (tool result file) or 'auto' (detect from extension and content).")

    @field_validator("text", mode="before")
    @classmethod
    def _json_to_text(cls, value: Any) -> Any:
        # MCP clients (and the SDK's argument pre-parsing) may hand inline JSON over as an object.
        if isinstance(value, (dict, list)):
            value = json.dumps(value, indent=1)
        if isinstance(value, str) and len(value) > MAX_TEXT_CHARS:
            raise ValueError(f"{len(value):,} characters exceeds the {MAX_TEXT_CHARS:,}-character limit; pass a path for large result files")
        return value

    @model_validator(mode="after")
    def _one_source(self) -> AuditRequest:
        if (self.text is None) == (self.path is None):
            raise ValueError("give exactly one of 'text' (inline content) or 'path' (a file)")
        if self.text is not None and not self.text.strip():
            raise ValueError("text: empty; paste the write-up, manifest or result file to audit")
        return self


class Evidence(BaseModel):
    line: int = Field(description="1-based line number in the input.")
    text: str = Field(description="The quoted source line (trimmed).")


class ItemFinding(BaseModel):
    id: str = Field(description="Contract item id (DESIGN.md).")
    group: Group = Field(description="Contract group of the item.")
    status: ItemStatus
    evidence: list[Evidence] = Field(default_factory=list)
    why: str = Field(description="One-line reason; for missing items, the sections searched.")
    sections_searched: list[str] = Field(default_factory=list, description="Sections searched when the item is missing.")


class RuleFinding(BaseModel):
    id: str = Field(description="Metric-rule id (DESIGN.md).")
    status: RuleStatus
    evidence: list[Evidence] = Field(default_factory=list)
    why: str


class Inconsistency(BaseModel):
    what: str = Field(description="Which values disagree, e.g. 'A100 count given as 4, 8'.")
    evidence: list[Evidence]


class AuditSummary(BaseModel):
    declared: int
    partial: int
    missing: int
    not_applicable: int
    ok: int
    violation: int
    unclear: int
    rules_not_applicable: int


class AuditReport(BaseModel):
    """Findings for every contract item and metric rule, with evidence."""

    source: str = Field(description="File path, or 'inline'.")
    format: Literal["markdown", "manifest", "result"]
    title: str | None = None
    items: list[ItemFinding]
    rules: list[RuleFinding]
    summary: AuditSummary
    inconsistencies: list[Inconsistency] = Field(default_factory=list)
    suggestions: list[str] = Field(default_factory=list, description="What to add or fix, most important first.")

    def to_text(self) -> str:
        mark = {"declared": "[x]", "partial": "[~]", "missing": "[ ]", "not_applicable": "[-]",
                "ok": "ok ", "violation": "!! ", "unclear": "?? "}
        out = [f"Benchmark audit: {self.title or self.source} ({self.format})"]
        s = self.summary
        out.append(f"items: {s.declared} declared, {s.partial} partial, {s.missing} missing, {s.not_applicable} n/a | "
                   f"rules: {s.ok} ok, {s.violation} violation, {s.unclear} unclear, {s.rules_not_applicable} n/a")
        group = None
        for f in self.items:
            if f.group != group:
                group = f.group
                out.append(f"\n{group}")
            where = f" (l. {', '.join(str(e.line) for e in f.evidence[:3])})" if f.evidence else ""
            why = f.why if f.status != "missing" else "not found"
            out.append(f"  {mark[f.status]} {f.id:<24} {f.status:<14} {why}{where}")
        out.append("\nmetric rules")
        for r in self.rules:
            where = f" (l. {', '.join(str(e.line) for e in r.evidence[:3])})" if r.evidence else ""
            out.append(f"  {mark[r.status]} {r.id:<24} {r.status:<14} {r.why}{where}")
        if self.inconsistencies:
            out.append("\ninconsistencies")
            out += [f"  - {c.what} (l. {', '.join(str(e.line) for e in c.evidence)})" for c in self.inconsistencies]
        missing = [f for f in self.items if f.status == "missing"]
        if missing and missing[0].sections_searched:
            out.append("\nsections searched: " + "; ".join(missing[0].sections_searched))
        if self.suggestions:
            out.append("\nto add or fix")
            out += [f"  - {x}" for x in self.suggestions]
        return "\n".join(out)


# ------------------------------------------------------------------ suggestions
_SUGGEST: dict[str, str] = {
    "model_artifact": "Name the exact weights: Hub id 'org/name' plus revision (e.g. meta-llama/Llama-3.1-8B-Instruct@<commit>).",
    "tokenizer": "Say which tokenizer counted the tokens (the model's own, or a named one).",
    "weight_format": "State the weight format (bf16, fp8, AWQ int4, GGUF Q4_K_M, ...).",
    "kv_format": "State the KV-cache dtype (e.g. --kv-cache-dtype fp8_e4m3, or bf16).",
    "engine_revision": "Pin the engine version, commit or image tag (not 'latest').",
    "launch_command": "Paste the exact server launch command with every non-default flag.",
    "kernels": "Name the attention backend and GEMM kernels (FlashAttention 3, FlashInfer, Marlin, ...).",
    "hardware": "Give the accelerator SKU and count (e.g. 8x H100 SXM 80GB).",
    "prompt_length": "Give prompt lengths in tokens (fixed value or distribution), not 'about 1k'.",
    "output_length_requested": "Give the requested output length (max_tokens / --random-output-len).",
    "output_length_completed": "Report the output tokens actually completed (mean/distribution), not only the request.",
    "request_count": "State how many requests were measured per run (--num-prompts).",
    "concurrency": "State the load: max concurrency or request rate (and arrival process).",
    "sampling": "State sampling parameters (temperature, top_p, seed).",
    "stopping": "State stopping behaviour (ignore_eos, stop at EOS, stop strings).",
    "prefix_cache_state": "Say whether the prefix cache was disabled, cold, warm or reset between runs; give the hit rate.",
    "warmup": "Describe the warm-up (number of requests discarded) and the CUDA-graph/compile state.",
    "distinct_prefixes": "Say whether prompts share prefixes; fresh-prefill TTFT needs distinct uncached prefixes.",
    "latency_distributions": "Report latency distributions (p50/p90/p99 of TTFT, TPOT, ITL) or keep per-request records.",
    "spec_draft_tokens": "Report draft tokens proposed per step (num_speculative_tokens) and in total.",
    "spec_acceptance": "Report acceptance rate and acceptance length (per position if possible).",
    "spec_verification": "Report target verification traffic (verification passes / tokens verified).",
    "spec_rejected_work": "Report rejected draft tokens (wasted work).",
    "aggregation_rule": "State the aggregation rule (e.g. median of 3 runs; percentiles over all requests).",
    "exclusions": "State which samples were excluded and why (or that none were; failed-request count).",
}
_RULE_SUGGEST: dict[str, str] = {
    "observation_point": "Name the observation point (client, server, engine) for every latency and throughput figure.",
    "tpot_definition": "Define TPOT: (E2E - TTFT) / (output tokens - 1), first token excluded, or say otherwise.",
    "throughput_basis": "Say which tokens a throughput counts (input/output/total) and whether it is aggregate, per session or per GPU.",
    "goodput_slo": "Declare the SLO thresholds (e.g. TTFT <= 500 ms, TPOT <= 50 ms) behind any goodput figure.",
    "cache_hit_labeling": "Label warm-prefix results as cache hits (give the hit rate), headline included.",
    "steady_decode": "Use outputs long enough for steady decode (hundreds of tokens) before quoting decode rates.",
    "capacity_vs_workload": "Keep configured capacity (max-model-len, KV blocks) apart from the served workload.",
    "stack_comparison": "Change one dimension at a time, or call it a stack comparison and list every difference.",
    "evidence_class": "Label ceilings and estimates as such; present only completed-request results as measurements.",
}
_PRIORITY = {"violation": 0, "missing": 1, "unclear": 2, "partial": 3}


def _summary(items: list[ItemFinding], rules: list[RuleFinding]) -> AuditSummary:
    count = lambda seq, st: sum(1 for x in seq if x.status == st)
    return AuditSummary(declared=count(items, "declared"), partial=count(items, "partial"), missing=count(items, "missing"),
                        not_applicable=count(items, "not_applicable"), ok=count(rules, "ok"), violation=count(rules, "violation"),
                        unclear=count(rules, "unclear"), rules_not_applicable=count(rules, "not_applicable"))


def _suggestions(items: list[ItemFinding], rules: list[RuleFinding]) -> list[str]:
    todo = [(_PRIORITY[r.status], f"{r.id} ({r.status}): {_RULE_SUGGEST[r.id]}") for r in rules if r.status in ("violation", "unclear")]
    todo += [(_PRIORITY[f.status], f"{f.id} ({f.status}): {_SUGGEST[f.id]}") for f in items if f.status in ("missing", "partial")]
    return [s for _, s in sorted(todo, key=lambda x: x[0])]


def _report(source: str, fmt: str, title: str | None, items: list[ItemFinding], rules: list[RuleFinding],
            inconsistencies: list[Inconsistency]) -> AuditReport:
    return AuditReport(source=source, format=fmt, title=title, items=items, rules=rules, summary=_summary(items, rules),
                       inconsistencies=inconsistencies, suggestions=_suggestions(items, rules))


# ------------------------------------------------------------------ input
def _read_source(request: AuditRequest) -> tuple[str, str, str]:
    """(text, source label, file suffix) with clear errors for unreadable input."""
    if request.text is not None:
        text = request.text if isinstance(request.text, str) else json.dumps(request.text, indent=1)
        if "\x00" in text:
            raise InputFormatError("text: contains NUL bytes (binary data?); paste a markdown/plain-text write-up, a manifest or a result JSON")
        return text, "inline", ""
    path = Path(request.path).expanduser()
    if not path.is_file():
        raise InputFormatError(f"path: no such file: {request.path}")
    size = path.stat().st_size
    suffix = path.suffix.lower()
    limit = MAX_RESULT_FILE_BYTES if suffix in (".json", ".jsonl", ".csv") else MAX_TEXT_CHARS * 4
    if size > limit:
        raise InputFormatError(f"path: {request.path} is {size:,} bytes; the limit for {suffix or 'text'} files is {limit:,} bytes")
    data = path.read_bytes()
    if b"\x00" in data:
        raise InputFormatError(f"path: {request.path} looks binary (NUL bytes); expected a markdown/text write-up, a JSON/YAML manifest or a result file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputFormatError(f"path: {request.path} is not UTF-8 text (byte {exc.start}); expected a write-up, manifest or result file") from None
    if not text.strip():
        raise InputFormatError(f"path: {request.path} is empty; nothing to audit")
    return text, str(request.path), suffix


_MANIFEST_KEYS = {"manifest_version", "stack", "workload", "state", "distributions", "speculative", "aggregation", "results", "comparison"}


def _parse_structured(text: str, suffix: str) -> Any | None:
    """JSON or YAML mapping/list, or None when the text is neither."""
    stripped = text.lstrip()
    if suffix == ".jsonl" or (stripped.startswith("{") and "\n{" in stripped.rstrip() and suffix not in (".json", ".yaml", ".yml")):
        rows = []
        for n, line in enumerate(re.split(r"\r\n|\r|\n", text), 1):  # not splitlines(): JSON strings may hold \u2028
            if line.strip():
                try:
                    rows.append(json.loads(line))
                except json.JSONDecodeError as exc:
                    if suffix == ".jsonl":
                        raise InputFormatError(f"line {n}: not valid JSON ({exc.msg}); a .jsonl result file holds one JSON object per line") from None
                    rows = None
                    break
        if rows is not None:
            return rows
    if stripped.startswith(("{", "[")) or suffix == ".json":
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            if suffix == ".json":
                raise InputFormatError(f"line {exc.lineno}: not valid JSON ({exc.msg})") from None
            return None
    if suffix in (".yaml", ".yml") or re.match(r"(?m)^(?:manifest_version|stack|workload)\s*:", stripped):
        import yaml

        try:
            data = yaml.safe_load(text)
        except yaml.YAMLError as exc:
            mark = getattr(exc, "problem_mark", None)
            where = f"line {mark.line + 1}: " if mark else ""
            raise InputFormatError(f"{where}not valid YAML ({getattr(exc, 'problem', exc)})") from None
        return data if isinstance(data, (dict, list)) else None
    if suffix == ".csv":
        rows = list(csv.DictReader(io.StringIO(text)))
        if not rows:
            raise InputFormatError("csv: no data rows under the header")
        return rows
    return None


def _locate(lines: list[str], key: str, value: Any = None) -> Evidence | None:
    """The first line naming ``key`` (JSON '"key"' or YAML 'key:')."""
    rx = re.compile(r'(?:"' + re.escape(key) + r'"\s*:|(?:^|\s|-\s)' + re.escape(key) + r"\s*:|^" + re.escape(key) + r",|," + re.escape(key) + r"(?:,|$))")
    for n, line in enumerate(lines, 1):
        if rx.search(line):
            text = line.strip()
            if len(text) > 160:
                m = rx.search(line)
                text = line[m.start():m.start() + 160].strip()
            return Evidence(line=n, text=text)
    if value is not None:
        return Evidence(line=1, text=f"{key}: {str(value)[:120]}")
    return None


# ------------------------------------------------------------------ structured judging
_VAGUE_VALUE = re.compile(r"\b(?:latest|newest|nightly|main|master|default|auto|unknown|various|about|around|approx\w*|roughly|some|tbd|n/?a)\b|~|≈", re.I)
_HUB_ID = re.compile(r"^[\w.-]+/[\w.-]+(?:@[\w.-]+)?$|\.gguf$|\.safetensors$|^/")


def _value_status(item: str, value: Any) -> tuple[str, str]:
    if value is None or value == "" or value == [] or value == {}:
        return "missing", "not given"
    text = json.dumps(value) if not isinstance(value, str) else value
    if isinstance(value, str) and _VAGUE_VALUE.search(value):
        return "partial", f"vague value '{text[:60]}'"
    if item == "model_artifact" and isinstance(value, str) and not _HUB_ID.search(value.strip()):
        return "partial", f"'{value[:60]}' is a name, not an exact artifact (Hub id 'org/name' or file)"
    return "declared", f"given: {text[:80]}"


def _judge_manifest(m: BenchmarkManifest, lines: list[str]) -> tuple[list[ItemFinding], list[RuleFinding]]:
    s, w, st, d, a = m.stack, m.workload, m.state, m.distributions, m.aggregation
    hw = s.hardware
    engine_rev = s.engine_revision if s.engine_revision else None
    values: dict[str, tuple[str, Any]] = {
        "model_artifact": ("model_artifact", s.model_artifact),
        "tokenizer": ("tokenizer", s.tokenizer),
        "weight_format": ("weight_format", s.weight_format),
        "kv_format": ("kv_format", s.kv_format),
        "engine_revision": ("engine_revision", engine_rev),
        "launch_command": ("launch_command", s.launch_command),
        "kernels": ("kernels", s.kernels),
        "hardware": ("hardware", f"{hw.count}x {hw.accelerator}" if hw else None),
        "prompt_length": ("prompt_length_tokens", w.prompt_length_tokens),
        "output_length_requested": ("output_length_requested_tokens", w.output_length_requested_tokens),
        "output_length_completed": ("output_length_completed_tokens", w.output_length_completed_tokens),
        "request_count": ("request_count", w.request_count),
        "concurrency": ("concurrency" if w.concurrency is not None else "request_rate_per_s",
                        w.concurrency if w.concurrency is not None else w.request_rate_per_s),
        "sampling": ("sampling", w.sampling),
        "stopping": ("stopping", w.stopping),
        "prefix_cache_state": ("prefix_cache", st.prefix_cache),
        "warmup": ("warmup" if st.warmup else "graph_capture", st.warmup or (st.graph_capture if st.graph_capture not in (None, "unknown") else None)),
        "distinct_prefixes": ("distinct_prefixes", st.distinct_prefixes),
        "latency_distributions": ("percentiles" if d.percentiles else "per_request_records", d.percentiles or d.per_request_records),
        "aggregation_rule": ("rule", a.rule),
        "exclusions": ("exclusions", a.exclusions),
    }
    spec = m.speculative
    if spec and spec.enabled:
        values["spec_draft_tokens"] = ("num_draft_tokens" if spec.num_draft_tokens else "proposed_tokens", spec.num_draft_tokens or spec.proposed_tokens)
        acc = spec.acceptance_rate if spec.acceptance_rate is not None else spec.acceptance_length
        values["spec_acceptance"] = ("acceptance_rate" if spec.acceptance_rate is not None else "acceptance_length", acc)
        values["spec_verification"] = ("verification_steps", spec.verification_steps)
        values["spec_rejected_work"] = ("rejected_tokens", spec.rejected_tokens)
    ttft_reported = any(r.name in ("ttft", "prefill_throughput") for r in m.results)
    items: list[ItemFinding] = []
    for item, group in ITEM_GROUPS.items():
        if group == "speculative" and item not in values:
            items.append(ItemFinding(id=item, group=group, status="not_applicable", why="no speculative decoding (speculative.enabled is not true)"))
            continue
        if item == "distinct_prefixes" and not ttft_reported and values[item][1] is None:
            items.append(ItemFinding(id=item, group=group, status="not_applicable", why="no TTFT or prefill figure among the results"))
            continue
        key, value = values[item]
        status, why = _value_status(item, value)
        if item == "engine_revision" and status == "missing" and s.engine:
            status, why = "partial", f"engine '{s.engine}' without a version"
        if item == "hardware" and status == "declared" and s.launch_command:
            tp = re.search(r"--(?:tensor-parallel-size|tp(?:-size)?)[\s=]+(\d+)", s.launch_command)
            if tp and hw and int(tp.group(1)) > hw.count:
                status, why = "partial", f"tensor parallel {tp.group(1)} exceeds hardware.count {hw.count}"
        ev = [_locate(lines, key, value)] if status != "missing" else []
        items.append(ItemFinding(id=item, group=group, status=status, evidence=[e for e in ev if e], why=why,
                                 sections_searched=[f"manifest field {key}"] if status == "missing" else []))
    return items, _judge_results(m, lines)


def _judge_results(m: BenchmarkManifest, lines: list[str]) -> list[RuleFinding]:
    res = m.results
    ev = lambda key: [e for e in [_locate(lines, key)] if e]

    def rule(rid: str, applies: list, ok_when, why_ok: str, why_bad: str, bad_status: str = "unclear", key: str = "name") -> RuleFinding:
        if not applies:
            return RuleFinding(id=rid, status="not_applicable", why="no result the rule applies to")
        bad = [r for r in applies if not ok_when(r)]
        if bad:
            return RuleFinding(id=rid, status=bad_status, why=why_bad + f" ({', '.join(sorted({r.name for r in bad}))})", evidence=ev(key))
        return RuleFinding(id=rid, status="ok", why=why_ok, evidence=ev(key))

    lat = {"ttft", "tpot", "itl", "e2e_latency"}
    thr = {"request_throughput", "input_throughput", "output_throughput", "total_throughput", "goodput", "prefill_throughput", "decode_rate"}
    decode = [r for r in res if r.name in ("tpot", "decode_rate", "itl")]
    rules = [
        rule("observation_point", [r for r in res if r.name in lat | thr], lambda r: r.observation_point is not None,
             "every figure names its observation point", "figures without observation_point", key="observation_point"),
        rule("tpot_definition", [r for r in res if r.name in ("tpot", "decode_rate")], lambda r: r.first_token_excluded is not None,
             "first-token treatment stated", "TPOT without first_token_excluded", key="first_token_excluded"),
        rule("throughput_basis", [r for r in res if r.name in thr], lambda r: r.token_basis is not None and (r.scope is not None or r.token_basis == "requests"),
             "token basis and scope stated", "throughput without token_basis or scope", key="token_basis"),
        rule("goodput_slo", [r for r in res if r.name == "goodput"], lambda r: bool(r.slo),
             "goodput with declared SLOs", "goodput without SLO thresholds", bad_status="violation", key="slo"),
    ]
    cache_on = m.state.prefix_cache in ("warm", "mixed") or any(r.cache_state in ("warm", "mixed") for r in res)
    if m.state.prefix_cache is None and not any(r.cache_state for r in res):
        rules.append(RuleFinding(id="cache_hit_labeling", status="not_applicable", why="no prefix-cache state recorded"))
    elif cache_on and m.state.prefix_cache_hit_rate is None:
        rules.append(RuleFinding(id="cache_hit_labeling", status="violation", why="warm-cache results without a hit rate", evidence=ev("prefix_cache")))
    else:
        rules.append(RuleFinding(id="cache_hit_labeling", status="ok", why="cache state and hit rate recorded", evidence=ev("prefix_cache")))
    lengths = [v for v in (m.workload.output_length_completed_tokens, m.workload.output_length_requested_tokens) if isinstance(v, (int, float))]
    if not decode:
        rules.append(RuleFinding(id="steady_decode", status="not_applicable", why="no decode-rate result"))
    elif not lengths:
        rules.append(RuleFinding(id="steady_decode", status="unclear", why="decode-rate results without a numeric output length"))
    else:
        n = lengths[0]
        status = "violation" if n < 64 else "ok" if n >= 128 else "unclear"
        rules.append(RuleFinding(id="steady_decode", status=status, why=f"decode rates rest on {n:g}-token outputs",
                                 evidence=ev("output_length_completed_tokens") or ev("output_length_requested_tokens")))
    cap = [r for r in res if r.name in ("kv_capacity_tokens", "max_concurrency")]
    if not cap:
        rules.append(RuleFinding(id="capacity_vs_workload", status="not_applicable", why="no capacity figure among the results"))
    elif any(r.evidence_class == "measurement" for r in cap):
        rules.append(RuleFinding(id="capacity_vs_workload", status="violation", why="a capacity figure is recorded as a measurement of served load", evidence=ev("max_concurrency") or ev("kv_capacity_tokens")))
    else:
        rules.append(RuleFinding(id="capacity_vs_workload", status="ok", why="capacity figures are labelled estimate/ceiling"))
    c = m.comparison
    if c is None:
        rules.append(RuleFinding(id="stack_comparison", status="not_applicable", why="nothing is compared"))
    else:
        changed = set(c.changed)
        confounders = changed & {"weight_format", "kv_format", "kernels", "draft_model", "speculation"}
        if changed & {"engine", "hardware"} and confounders:
            rules.append(RuleFinding(id="stack_comparison", status="violation", why="engine/hardware comparison also changes " + ", ".join(sorted(confounders)), evidence=ev("changed")))
        elif len(changed) == 1:
            rules.append(RuleFinding(id="stack_comparison", status="ok", why=f"single-variable comparison ({next(iter(changed))})", evidence=ev("changed")))
        else:
            rules.append(RuleFinding(id="stack_comparison", status="unclear", why="several dimensions change: " + ", ".join(sorted(changed)), evidence=ev("changed")))
    if not res:
        rules.append(RuleFinding(id="evidence_class", status="not_applicable", why="no results"))
    elif any(r.statistic == "peak" and r.headline and r.evidence_class == "measurement" for r in res) or any(
            r.evidence_class in ("ceiling", "estimate") and r.headline and r.name not in ("kv_capacity_tokens", "max_concurrency") for r in res):
        rules.append(RuleFinding(id="evidence_class", status="violation", why="a peak/ceiling/estimate is the headline", evidence=ev("headline")))
    else:
        rules.append(rule("evidence_class", res, lambda r: r.evidence_class is not None, "every result carries its evidence class",
                          "results without evidence_class", key="evidence_class"))
    return rules


# ------------------------------------------------------------------ result files
_RESULT_ALIASES: dict[str, tuple[str, ...]] = {
    "model_artifact": ("model_id", "model", "model_name", "model_names", "served_model_name"),
    "tokenizer": ("tokenizer_id", "tokenizer", "tokenizer_name"),
    "engine": ("backend", "engine", "framework"),
    "engine_revision": ("engine_version", "vllm_version", "sglang_version", "framework_version", "server_version", "image"),
    "prompt_length": ("random_input_len", "input_len", "isl", "prompt_tokens", "input_lens", "total_input_tokens", "synthetic_input_tokens_mean", "prompt_tokens_mean", "input_sequence_length"),
    "output_length_requested": ("random_output_len", "output_len", "osl", "max_tokens", "output_tokens_mean", "max_new_tokens"),
    "output_length_completed": ("output_lens", "total_output_tokens", "output_tokens", "completion_tokens", "output_token_count", "output_sequence_length"),
    "request_count": ("num_prompts", "request_count", "num_requests", "total_requests", "completed", "successful_requests"),
    "concurrency": ("max_concurrency", "concurrency", "request_rate", "rate", "qps"),
    "sampling": ("temperature", "top_p", "top_k", "sampling_params"),
    "stopping": ("ignore_eos", "stop", "stop_sequences"),
    "warmup": ("num_warmups", "warmup_request_count", "warmup_requests", "warmup"),
    "latency_distributions": ("p99_ttft_ms", "ttfts", "itls", "percentiles_ttft_ms", "time_to_first_token", "ttft_ms", "ttft", "e2e_latency", "latency_ms"),
    "exclusions": ("failed", "errors", "error_count", "failed_requests", "completed", "successful_requests"),
    "prefix_cache_state": ("enable_prefix_caching", "prefix_cache", "prefix_cache_hit_rate"),
    "weight_format": ("dtype", "quantization", "precision"),
    "kv_format": ("kv_cache_dtype",),
    "hardware": ("gpu", "gpu_name", "gpu_type", "hardware", "accelerator", "device_name"),
}


def _walk(data: Any, found: dict[str, Any], depth: int = 0) -> None:
    if depth > 6:
        return
    if isinstance(data, dict):
        for k, v in data.items():
            key = str(k).lower()
            if key not in found:
                found[key] = v
            if isinstance(v, (dict, list)):
                _walk(v, found, depth + 1)
    elif isinstance(data, list):
        for v in data[:3]:
            _walk(v, found, depth + 1)


def _judge_result(data: Any, lines: list[str]) -> tuple[list[ItemFinding], list[RuleFinding], str | None]:
    found: dict[str, Any] = {}
    records = data if isinstance(data, list) else None
    _walk(data, found)
    if records:
        found.setdefault("request_count", len(records))
    items: list[ItemFinding] = []
    has_ttft = any(k in found for k in ("mean_ttft_ms", "ttfts", "ttft_ms", "ttft", "time_to_first_token", "p99_ttft_ms"))
    for item, group in ITEM_GROUPS.items():
        if group == "speculative":
            spec = [k for k in found if "spec" in k or "draft" in k or "accept" in k]
            if not spec:
                items.append(ItemFinding(id=item, group=group, status="not_applicable", why="the result file records no speculative decoding"))
                continue
        if item == "distinct_prefixes" and not has_ttft:
            items.append(ItemFinding(id=item, group=group, status="not_applicable", why="no TTFT or prefill figure in the result file"))
            continue
        keys = _RESULT_ALIASES.get(item, ())
        hit = next(((k, found[k]) for k in keys if k in found and found[k] not in (None, "", [], {})), None)
        if item == "exclusions" and hit is None and records is not None and found.get("request_count"):
            hit = None
        if hit is None:
            status, why = "missing", "not recorded in the result file"
            if item == "engine_revision":
                eng = next((found[k] for k in _RESULT_ALIASES["engine"] if found.get(k)), None)
                if eng:
                    status, why = "partial", f"engine '{str(eng)[:40]}' recorded without a version"
            items.append(ItemFinding(id=item, group=group, status=status, why=why,
                                     evidence=[e for e in [_locate(lines, "backend")] if e] if status == "partial" else [],
                                     sections_searched=[] if status != "missing" else [f"result keys: {', '.join(keys) or '(none known)'}"]))
            continue
        key, value = hit
        status, why = ("declared", f"{key} = {json.dumps(value)[:60] if not isinstance(value, list) else f'{len(value)} values'}")
        if isinstance(value, str) and _VAGUE_VALUE.search(value):
            status, why = "partial", f"vague value {key} = '{value[:40]}'"
        if item == "model_artifact" and isinstance(value, str) and not _HUB_ID.search(value):
            status, why = "partial", f"{key} = '{value[:60]}' is not an exact artifact id"
        items.append(ItemFinding(id=item, group=group, status=status, why=why, evidence=[e for e in [_locate(lines, key, value)] if e]))
    rules: list[RuleFinding] = []
    vllm_like = any(k in found for k in ("mean_tpot_ms", "mean_ttft_ms", "ttfts", "itls"))
    has_lat = vllm_like or has_ttft or any("latency" in k for k in found)
    has_thr = any("throughput" in k for k in found)
    evk = lambda k: [e for e in [_locate(lines, k)] if e]
    rules.append(RuleFinding(id="observation_point", status=("ok" if vllm_like else "unclear") if (has_lat or has_thr) else "not_applicable",
                             why="recorded by a benchmark client (client-side timing)" if vllm_like else "observation point not recorded",
                             evidence=evk("mean_ttft_ms")))
    has_tpot = any("tpot" in k for k in found)
    rules.append(RuleFinding(id="tpot_definition", status=("ok" if vllm_like else "unclear") if has_tpot else "not_applicable",
                             why="vLLM-style TPOT: (E2E - TTFT) / (output tokens - 1)" if vllm_like else "TPOT definition not recorded",
                             evidence=evk("mean_tpot_ms")))
    basis = any(k in found for k in ("output_throughput", "total_token_throughput", "input_throughput", "request_throughput"))
    rules.append(RuleFinding(id="throughput_basis", status=("ok" if basis else "unclear") if has_thr else "not_applicable",
                             why="throughput keys name their token basis (aggregate over the run)" if basis else "throughput basis not named",
                             evidence=evk("output_throughput")))
    if any("goodput" in k for k in found):
        slo = any(k in found for k in ("goodput_config", "slo", "slos", "goodput_slo"))
        rules.append(RuleFinding(id="goodput_slo", status="ok" if slo else "unclear", why="SLO recorded" if slo else "goodput recorded but the SLO thresholds are not in the file", evidence=evk("request_goodput")))
    else:
        rules.append(RuleFinding(id="goodput_slo", status="not_applicable", why="no goodput in the result file"))
    rules.append(RuleFinding(id="cache_hit_labeling", status="not_applicable", why="a single result file makes no cache-reuse claim"))
    completed = found.get("total_output_tokens")
    n = found.get("completed") or found.get("num_prompts")
    if has_tpot or "output_throughput" in found:
        if isinstance(completed, (int, float)) and isinstance(n, (int, float)) and n:
            mean_out = completed / n
            status = "violation" if mean_out < 64 else "ok" if mean_out >= 128 else "unclear"
            rules.append(RuleFinding(id="steady_decode", status=status, why=f"mean completed output {mean_out:.0f} tokens per request",
                                     evidence=evk("total_output_tokens")))
        else:
            rules.append(RuleFinding(id="steady_decode", status="unclear", why="completed output length not recorded"))
    else:
        rules.append(RuleFinding(id="steady_decode", status="not_applicable", why="no decode-rate figure"))
    rules.append(RuleFinding(id="capacity_vs_workload", status="not_applicable", why="no capacity figure in a result file"))
    rules.append(RuleFinding(id="stack_comparison", status="not_applicable", why="a single result file compares nothing"))
    rules.append(RuleFinding(id="evidence_class", status="ok" if (has_lat or has_thr) else "not_applicable",
                             why="figures recorded from completed requests (measurements)"))
    title = next((str(found[k]) for k in ("label", "run_name", "benchmark_name") if found.get(k)), None)
    return items, rules, title


# ------------------------------------------------------------------ public API
def audit_benchmark(request: AuditRequest) -> AuditReport:
    """Audit a write-up, manifest or result file against the benchmark contract.

    >>> r = audit_benchmark(AuditRequest(text="# Llama 70B on 8x H100\\n\\nvLLM, 1,000 requests."))
    >>> [f.status for f in r.items if f.id in ("model_artifact", "hardware", "request_count")]
    ['partial', 'declared', 'declared']
    """
    text, source, suffix = _read_source(request)
    # Same line breaks as the markdown parser (\r\n, \r, \n): str.splitlines() also splits on \x0c, \x85, \u2028...
    lines = re.split(r"\r\n|\r|\n", text)
    if lines and lines[-1] == "":
        lines.pop()
    fmt = request.format
    data: Any = None
    if fmt in ("auto", "manifest", "result"):
        data = _parse_structured(text, suffix)
        if fmt == "auto":
            if data is None:
                fmt = "markdown"
            elif isinstance(data, dict) and _MANIFEST_KEYS & set(data):
                fmt = "manifest"
            else:
                fmt = "result"
        elif data is None:
            raise InputFormatError(f"format: '{fmt}' needs JSON or YAML input (or .jsonl/.csv for results); this input parses as neither")
    if fmt == "markdown":
        if suffix in (".json", ".jsonl", ".csv", ".yaml", ".yml") and request.format == "markdown":
            pass
        if not text.strip():
            raise InputFormatError("text: empty write-up; nothing to audit")
        writeup = parse_writeup(text)
        raw_items, raw_rules, conflicts, searched = judge_writeup(writeup)
        items = [ItemFinding(id=f.id, group=ITEM_GROUPS[f.id], status=f.status,
                             evidence=[Evidence(line=n, text=t) for n, t in f.evidence],
                             why=(f.why + "; searched: " + ", ".join(searched)) if f.status == "missing" else f.why,
                             sections_searched=searched if f.status == "missing" else [])
                 for f in raw_items]
        rules = [RuleFinding(id=f.id, status=f.status, evidence=[Evidence(line=n, text=t) for n, t in f.evidence], why=f.why)
                 for f in raw_rules]
        incons = [Inconsistency(what=what, evidence=[Evidence(line=n, text=t) for n, t in ev]) for what, ev in conflicts]
        return _report(source, "markdown", writeup.title, items, rules, incons)
    if fmt == "manifest":
        if not isinstance(data, dict):
            raise InputFormatError("manifest: expected a mapping at the top level (keys: stack, workload, state, ...)")
        try:
            manifest = BenchmarkManifest.model_validate(data)
        except ValidationError as exc:
            problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(top)'}: {e['msg']}" for e in exc.errors()[:8])
            raise InputFormatError(f"manifest does not match the BenchmarkManifest schema: {problems}") from None
        items, rules = _judge_manifest(manifest, lines)
        incons = [Inconsistency(what=f.why, evidence=f.evidence) for f in items if f.id == "hardware" and "exceeds" in f.why]
        return _report(source, "manifest", manifest.title, items, rules, incons)
    if not isinstance(data, (dict, list)) or not data:
        raise InputFormatError("result: expected a JSON object, a JSON array or JSONL/CSV records")
    items, rules, title = _judge_result(data, lines)
    return _report(source, "result", title, items, rules, [])


def audit_template() -> str:
    """A fill-in markdown report that declares every contract item (replace the example values)."""
    return _template()


@functools.cache
def _template() -> str:
    from importlib.resources import files

    data = _Template.model_validate_json((files(__package__) / "data" / "audit-template.json").read_text(encoding="utf-8"))
    return "\n".join(data.lines) + "\n"


class _Template(BaseModel):
    source: str
    lines: list[str] = Field(min_length=1)
