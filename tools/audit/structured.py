"""A structured manifest (``BenchmarkManifest``) judged item by item and rule by rule.

Every contract item has a field; a field that is present but vague ("latest", "about 1k") is
partial, as in a write-up. Rules are judged from the reported results' own labels (observation
point, first-token treatment, token basis, SLOs, evidence class).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .findings import ITEM_GROUPS
from .manifest import BenchmarkManifest
from .models import Evidence, ItemFinding, RuleFinding

__all__ = ["HUB_ID", "VAGUE_VALUE", "judge_manifest", "locate"]


def locate(lines: list[str], key: str, value: Any = None) -> Evidence | None:
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
VAGUE_VALUE = re.compile(r"\b(?:latest|newest|nightly|main|master|default|auto|unknown|various|about|around|approx\w*|roughly|some|tbd|n/?a)\b|~|≈", re.I)
HUB_ID = re.compile(r"^[\w.-]+/[\w.-]+(?:@[\w.-]+)?$|\.gguf$|\.safetensors$|^/")


def _value_status(item: str, value: Any) -> tuple[str, str]:
    if value is None or value == "" or value == [] or value == {}:
        return "missing", "not given"
    text = json.dumps(value) if not isinstance(value, str) else value
    if isinstance(value, str) and VAGUE_VALUE.search(value):
        return "partial", f"vague value '{text[:60]}'"
    if item == "model_artifact" and isinstance(value, str) and not HUB_ID.search(value.strip()):
        return "partial", f"'{value[:60]}' is a name, not an exact artifact (Hub id 'org/name' or file)"
    return "declared", f"given: {text[:80]}"


def judge_manifest(m: BenchmarkManifest, lines: list[str]) -> tuple[list[ItemFinding], list[RuleFinding]]:
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
        ev = [locate(lines, key, value)] if status != "missing" else []
        items.append(ItemFinding(id=item, group=group, status=status, evidence=[e for e in ev if e], why=why,
                                 sections_searched=[f"manifest field {key}"] if status == "missing" else []))
    return items, _judge_results(m, lines)


def _judge_results(m: BenchmarkManifest, lines: list[str]) -> list[RuleFinding]:
    res = m.results
    ev = lambda key: [e for e in [locate(lines, key)] if e]

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
