"""A benchmark tool's result file judged against the contract: its recorded configuration counts as
declarations, and its metric definitions are the tool's.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .findings import ITEM_GROUPS
from .models import ItemFinding, RuleFinding
from .structured import HUB_ID, VAGUE_VALUE, locate

__all__ = ["judge_result", "looks_like_result"]


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


def looks_like_result(data: Any) -> bool:
    """True when the data holds at least one field a benchmark tool's result file writes (a key of _RESULT_ALIASES)."""
    found: dict[str, Any] = {}
    _walk(data, found)
    return any(alias in found for aliases in _RESULT_ALIASES.values() for alias in aliases)


def judge_result(data: Any, lines: list[str]) -> tuple[list[ItemFinding], list[RuleFinding], str | None]:
    found: dict[str, Any] = {}
    records = data if isinstance(data, list) else None
    _walk(data, found)
    if records:
        found.setdefault("request_count", getattr(records, "total", len(records)))  # RecordRows: all, not the kept
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
                                     evidence=[e for e in [locate(lines, "backend")] if e] if status == "partial" else [],
                                     sections_searched=[] if status != "missing" else [f"result keys: {', '.join(keys) or '(none known)'}"]))
            continue
        key, value = hit
        status, why = ("declared", f"{key} = {json.dumps(value)[:60] if not isinstance(value, list) else f'{len(value)} values'}")
        if isinstance(value, str) and VAGUE_VALUE.search(value):
            status, why = "partial", f"vague value {key} = '{value[:40]}'"
        if item == "model_artifact" and isinstance(value, str) and not HUB_ID.search(value):
            status, why = "partial", f"{key} = '{value[:60]}' is not an exact artifact id"
        items.append(ItemFinding(id=item, group=group, status=status, why=why, evidence=[e for e in [locate(lines, key, value)] if e]))
    rules: list[RuleFinding] = []
    vllm_like = any(k in found for k in ("mean_tpot_ms", "mean_ttft_ms", "ttfts", "itls"))
    has_lat = vllm_like or has_ttft or any("latency" in k for k in found)
    has_thr = any("throughput" in k for k in found)
    evk = lambda k: [e for e in [locate(lines, k)] if e]
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
