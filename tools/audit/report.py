"""From findings to a report: the summary counts and what to add or fix, most important first."""

from __future__ import annotations

import functools
import json
from importlib.resources import files

from .models import AuditReport, AuditSummary, Inconsistency, ItemFinding, RuleFinding, Setup

__all__ = ["build_report"]

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


def build_report(source: str, fmt: str, title: str | None, items: list[ItemFinding], rules: list[RuleFinding],
                 inconsistencies: list[Inconsistency], setups: list[Setup] | None = None,
                 limits: list[str] | None = None) -> AuditReport:
    rules = [_with_question(r) for r in rules]
    return AuditReport(source=source, format=fmt, title=title, items=items, rules=rules, summary=_summary(items, rules),
                       inconsistencies=inconsistencies, suggestions=_suggestions(items, rules), setups=setups or [],
                       limits=limits or [])


@functools.cache
def _questions() -> dict[str, dict[str, str]]:
    table = json.loads((files(__package__) / "data" / "questions.json").read_text(encoding="utf-8"))["questions"]
    return {k: v for k, v in table.items() if k != "source"}


def _with_question(rule: RuleFinding) -> RuleFinding:
    """An unclear rule gets its reason code (not_stated unless the judge said ambiguous) and the question a
    reader must answer, with the lines to read."""
    if rule.status != "unclear":
        return rule.model_copy(update={"reason": None, "question": None})
    reason = rule.reason or "not_stated"
    lines = sorted({e.line for e in rule.evidence})
    where = ("line " if len(lines) == 1 else "lines ") + ", ".join(map(str, lines[:6])) if lines else "the reported figures"
    question = _questions().get(rule.id, {}).get(reason, "").format(lines=where) or None
    return rule.model_copy(update={"reason": reason, "question": question})
