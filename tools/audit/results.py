"""A benchmark tool's result file judged against the contract, read through the metrics readers.

``compute_metrics`` reads the file (tools/metrics/formats: which tool wrote it, warm-up records dropped,
failures counted), so the audit counts requests, output lengths and load exactly as ``lif metrics`` does,
and takes the observation point and metric definitions from the format. What the tool writes as its
configuration (model, tokenizer, lengths asked for, warm-up, SLOs) is read at the paths
``data/result_files.json`` gives per format; what a client's file cannot know (engine, launch command,
formats, kernels, hardware) is missing, and the why says that the file does not record it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import FundamentalsError, InputFormatError, argument
from ..files import read_user_file
from ..metrics import LoadSetting, MetricsReport, MetricsRequest, compute_metrics, detect_format
from ..metrics.formats import FORMATS
from ..metrics.formats.aiperf import SUMMARY_NAME, summary_load
from .findings import ITEM_GROUPS
from .models import Evidence, ItemFinding, RuleFinding
from .reading.vocabulary import ENGINES
from .resultdoc import ResultDoc, format_table, server_side
from .result_rules import judge_rules
from .source import MAX_RESULT_FILE_BYTES
from .structured import HUB_ID, VAGUE_VALUE

__all__ = ["MAX_RESULT_RUNS", "Run", "judge_items", "judge_result"]

MAX_RESULT_RUNS = 20
"""Runs of a multi-run file (appended runs, guidellm benchmarks, genai-perf experiments) audited at most."""

_RESULT_SUFFIXES = (".json", ".jsonl", ".csv")
_ITEM_RANK = {"missing": 0, "partial": 1, "declared": 2}
_RULE_RANK = {"violation": 3, "unclear": 2, "ok": 1, "not_applicable": 0}


@dataclass
class Run:
    """One run of the file: its label, compute_metrics' report of it, and the file as a document."""

    label: str
    report: MetricsReport
    doc: ResultDoc

    @property
    def tool(self) -> str:
        reported = self.report.source_reported
        return reported.tool if reported is not None else self.doc.table["tool"]

    @property
    def counted(self) -> int:
        return self.report.completed + self.report.failed


def judge_result(text: str, data: Any, lines: list[str], *, path: str | None, suffix: str) -> tuple[list[ItemFinding], list[RuleFinding], str | None]:
    """Items, rules and a title for a result file (every run of a multi-run file, merged)."""
    _check_result(text, data, path, suffix)
    jsonl = isinstance(data, list) and text.lstrip().startswith("{")
    first = _measure(text, path, None)
    fmt = first.source_format
    summary = _aiperf_summary(path) if fmt == "aiperf" and path else None
    count = _run_count(fmt, data)
    reports = [first] + [_measure(text, path, i) for i in range(1, min(count, MAX_RESULT_RUNS))]
    index: dict = {}
    docs = [ResultDoc(text, data, lines, fmt, run=i, jsonl=jsonl, summary=summary, index=index) for i in range(len(reports))]
    runs = [Run(_label(doc, count), r, doc) for doc, r in zip(docs, reports)]
    judged = [(judge_items(run), judge_rules(run)) for run in runs]
    items = _merge([j[0] for j in judged], runs, _ITEM_RANK)
    rules = _merge([j[1] for j in judged], runs, _RULE_RANK, worst=True)
    if count > MAX_RESULT_RUNS:
        for f in items:
            if f.id == "request_count":
                f.why += f"; the file holds {count} runs, the first {MAX_RESULT_RUNS} audited"
    return items, rules, _title(runs[0], count)


# ---------------------------------------------------------------------- reading through tools/metrics
def _check_result(text: str, data: Any, path: str | None, suffix: str) -> None:
    """A clear error for JSON/YAML that no result reader recognises (never a report titled after one of its keys)."""
    name = f"{argument('path')}: {path!r}" if path else f"{argument('text')}: the input"
    tools = ", ".join(dict.fromkeys(format_table(fmt)["tool"] for fmt in FORMATS))
    if suffix not in _RESULT_SUFFIXES and not text.lstrip().startswith(("{", "[")):
        raise InputFormatError(f"{name} is YAML but not a benchmark manifest (no key stack, workload, state, ...); result "
                               f"files are JSON, JSONL or CSV, written by: {tools}")
    sample = data if isinstance(data, dict) else data[0] if (isinstance(data, list) and data and text.lstrip().startswith("{")) else None
    if sample is None:
        return  # a JSON array or CSV rows: the generic records reader names any field it does not know
    try:
        detect_format(sample)
    except InputFormatError:
        keys = ", ".join(str(k)[:30] for k in list(sample)[:8]) if isinstance(sample, dict) else type(sample).__name__
        raise InputFormatError(
            f"{name} is JSON with none of the fields a benchmark manifest or a result file holds (top-level keys: {keys}); "
            f"the audit reads write-ups (markdown or text), manifests (keys stack, workload, state, ...) and result files "
            f"of: {tools}") from None


def _measure(text: str, path: str | None, run_index: int | None) -> MetricsReport:
    """compute_metrics on the audited input: the one reader both tools share."""
    if path is not None:
        request = MetricsRequest(path=path, run_index=run_index, max_file_mb=MAX_RESULT_FILE_BYTES // 2**20)
    else:
        request = MetricsRequest(text=text, run_index=run_index)
    return compute_metrics(request)


def _aiperf_summary(path: str) -> dict | None:
    """aiperf's profile_export_aiperf.json beside the audited records (through tools.files), or None."""
    sibling = str(Path(path).expanduser().parent / SUMMARY_NAME)
    try:
        doc = json.loads(read_user_file(sibling, field="path", max_bytes=16 * 2**20).decode("utf-8"))
    except (FundamentalsError, ValueError, RecursionError):
        return None
    return doc if isinstance(doc, dict) else None


def _run_count(fmt: str, data: Any) -> int:
    if fmt in ("vllm", "sglang") and isinstance(data, list):
        return getattr(data, "total", len(data))  # RecordRows: every line counted, the first ones kept
    key = {"guidellm": "benchmarks", "genai-perf": "experiments"}.get(fmt)
    if key and isinstance(data, dict) and isinstance(data.get(key), list):
        return max(1, len(data[key]))
    return 1


def _label(doc: ResultDoc, count: int) -> str:
    """How a why names one run of a multi-run file: its list entry, or its line for appended runs."""
    if count == 1:
        return ""
    i = doc.run
    line = f" (line {doc.row_lines[i]})" if i < len(doc.row_lines) else ""
    return {"guidellm": f"benchmarks[{i}]", "genai-perf": f"experiments[{i}]"}.get(doc.fmt, f"run {i}{line}")


def _title(run: Run, count: int) -> str:
    doc = run.doc
    for key in doc.table.get("title", ()):
        found = doc.find(key)
        if found is not None and not found.null:
            return str(found.value)[:120]
    model = next((f.value for f in doc.config("model_artifact") if not f.null), None)
    runs = f", {count} runs" if count > 1 else ""
    return f"{run.tool} result" + (f": {str(model)[:80]}" if model else "") + runs


def _merge(per_run: list[list], runs: list[Run], rank: dict[str, int], *, worst: bool = False) -> list:
    """One finding per id over the runs: the weakest item status (the most severe rule status), each run's why."""
    if len(per_run) == 1:
        return per_run[0]
    merged = []
    for k, base in enumerate(per_run[0]):
        findings = [found[k] for found in per_run]
        applicable = [f for f in findings if f.status != "not_applicable"] or findings
        pick = (max if worst else min)(applicable, key=lambda f: rank.get(f.status, 0))
        # the same finding in every run reads once, its per-run paths as benchmarks[*] / experiments[*]
        whys = list(dict.fromkeys(re.sub(r"\b(benchmarks|experiments)\[\d+\]", r"\1[*]", f.why) for f in findings))
        if len(whys) == 1:
            why = whys[0]
        else:
            why = "; ".join(f"{run.label}: {f.why}" for run, f in zip(runs, findings) if f.status == pick.status)
        evidence = list({(e.line, e.text): e for f in findings for e in f.evidence[:1]}.values())[:5]
        merged.append(base.model_copy(update={"status": pick.status, "why": why, "evidence": evidence}))
    return merged


# ---------------------------------------------------------------------- items
def _stat(d: Any, unit: str = "tokens") -> str:
    if d is None:
        return ""
    spread = f"{d.min:g}" if d.min == d.max else f"{d.min:g}-{d.max:g}"
    return f"median {d.median:g} {unit} ({spread}) over {d.count} requests"


def _item(run: Run, item: str, status: str, why: str, evidence: list[Evidence] | None = None) -> ItemFinding:
    searched = [f"{run.tool} result file"] if status == "missing" else []
    return ItemFinding(id=item, group=ITEM_GROUPS[item], status=status, why=why, evidence=evidence or [], sections_searched=searched)


def _not_recorded(run: Run, item: str) -> ItemFinding:
    what = server_side().get(item)
    if what is not None:
        return _item(run, item, "missing", f"{run.tool} result files do not record {what}: a benchmark client sees the "
                     "server only through its API; state it beside the file")
    reason = run.doc.table["not_recorded"].get(item, "it has no field for it")
    return _item(run, item, "missing", f"not in this {run.tool} result file: {reason}")


def _from_config(run: Run, item: str) -> ItemFinding | None:
    """declared (or partial when vague) from the first configuration field that holds a value."""
    found = run.doc.config(item)
    value = next((f for f in found if not f.null), None)
    if value is None:
        none_means = run.doc.table.get("none_means", {}).get(item)
        if found and none_means:
            return _item(run, item, "declared", f"{none_means}: " + ", ".join(f.said() for f in found), found[0].evidence)
        return None
    status = "declared"
    why = value.said()
    text = str(value.value)
    if isinstance(value.value, str) and VAGUE_VALUE.search(text):
        status, why = "partial", f"vague value: {why}"
    elif item == "model_artifact" and not HUB_ID.search(text.strip()):
        status, why = "partial", f"{why} is a served name, not an exact artifact (Hub id 'org/name' or a path)"
    return _item(run, item, status, why, value.evidence)


def _request_count(run: Run) -> ItemFinding:
    r = run.report
    warm = run.doc.warm_lines()
    why = f"{run.counted} requests measured ({r.completed} completed + {r.failed} failed), as compute_metrics counts them"
    if r.warmup_dropped:
        where = f" (lines {_lines(warm)})" if warm else ""
        why += f"; {r.warmup_dropped} warm-up records{where} not counted"
    asked = next((f for f in run.doc.config("request_count") if not f.null), None)
    if asked is not None:
        value = _per_run(asked.value, run.doc.run)
        why += f"; {asked.said()} asked for" + ("" if value == run.counted else f": {run.counted} in the file")
    evidence = run.doc.evidence_for("request_count")
    if asked is not None:
        evidence = evidence + asked.evidence
    return _item(run, "request_count", "declared" if run.counted else "partial", why if run.counted else "no request in the file", evidence)


def _per_run(value: Any, run: int) -> Any:
    """A setting a sweep writes once for all its runs as a list (guidellm's max_requests count): this run's value."""
    if isinstance(value, list) and value and all(isinstance(v, (int, float, str)) for v in value):
        return value[run] if run < len(value) else value[0]
    return value


def _lines(numbers: list[int]) -> str:
    if not numbers:
        return ""
    return f"{numbers[0]}-{numbers[-1]}" if numbers == list(range(numbers[0], numbers[-1] + 1)) and len(numbers) > 1 else ", ".join(map(str, numbers[:8]))


def _warmup(run: Run) -> ItemFinding:
    r, doc = run.report, run.doc
    if r.warmup_dropped:
        warm = doc.warm_lines()
        field = "metadata.benchmark_phase" if run.doc.fmt == "aiperf" else "phase"
        where = f" (lines {_lines(warm)})" if warm else ""
        return _item(run, "warmup", "declared", f"{r.warmup_dropped} warm-up requests{where} carry {field} 'warmup': sent before "
                     "the measured ones, and dropped by compute_metrics before counting")
    configured = _from_config(run, "warmup")
    if configured is not None:
        if configured.status == "declared" and configured.why[:1].isalpha() and "=" in configured.why and "no warm-up" not in configured.why:
            configured.why = f"warm-up requests: {configured.why}"
        return configured
    if doc.table.get("marks_phases"):
        basis = "no record carries metadata.benchmark_phase 'warmup'" if doc.fmt == "aiperf" else "input_config.phases lists no warm-up phase"
        return _item(run, "warmup", "declared", f"no warm-up phase: {basis} (aiperf marks the phase of every request)",
                     doc.evidence_for("warmup"))
    found = _not_recorded(run, "warmup")
    ratio = r.workload.first_requests_ttft_ratio if r.workload else None
    if ratio is not None and ratio >= 2:
        found.why += f"; the first requests' median TTFT is {ratio:.1f}x the rest's (a cold start looks included)"
    return found


def _lengths(run: Run, item: str) -> ItemFinding:
    r, w = run.report, run.report.workload
    if item == "prompt_length":
        dist, total, key = (w.prompt_tokens if w else None), r.total_input_tokens, "total_input_tokens"
    else:
        dist, total, key = (w.output_tokens if w else None), r.total_output_tokens, "total_output_tokens"
    asked = _from_config(run, item) if item == "prompt_length" else None
    tail = f"; asked for: {asked.why}" if asked is not None else ""
    source = f" ({w.output_token_source})" if item == "output_length_completed" and w else ""
    if dist is not None:
        return _item(run, item, "declared", f"{_stat(dist)} as compute_metrics reads them{source}{tail}",
                     run.doc.evidence_for(item))
    if total is not None and r.completed:
        return _item(run, item, "declared", f"mean {total / r.completed:.1f} tokens per request: {key} {total} / completed "
                     f"{r.completed}{tail}", run.doc.evidence_for(item))
    if asked is not None:
        return asked
    return _not_recorded(run, item)


def _requested(run: Run) -> ItemFinding:
    configured = _from_config(run, "output_length_requested")
    if configured is not None:
        return configured
    w = run.report.workload
    if w is not None and w.requested_output_tokens is not None:
        how = " (from aiperf's osl_mismatch_diff_pct)" if run.doc.fmt == "aiperf" else ""
        return _item(run, "output_length_requested", "declared", f"requested output tokens: {_stat(w.requested_output_tokens)}{how}",
                     run.doc.evidence_for("output_length_requested"))
    return _not_recorded(run, "output_length_requested")


def _concurrency(run: Run) -> ItemFinding:
    w = run.report.workload
    load = w.load if w else None
    if load is not None:
        return _item(run, "concurrency", "declared", _load_said(load), run.doc.evidence_for("concurrency"))
    if load is None and run.doc.fmt in ("aiperf", "aiperf-summary"):
        # the load aiperf was asked for is in its summary's input_config (read as the metrics reader reads it)
        summary = run.doc.data if run.doc.fmt == "aiperf-summary" else run.doc.summary
        load = summary_load(summary) if isinstance(summary, dict) else None
        if load is not None:
            return _item(run, "concurrency", "declared", _load_said(load), run.doc.evidence_for("concurrency"))
    configured = _from_config(run, "concurrency")
    if configured is not None:
        mode = run.doc.find("experiments[{run}].experiment.mode")
        if mode is not None:
            configured.why = f"{mode.said()}, {configured.why}"
        return configured
    missing = _not_recorded(run, "concurrency")
    if w is not None and (w.mean_concurrency is not None or w.peak_concurrency is not None):
        seen = [f"mean {w.mean_concurrency:.2f}" if w.mean_concurrency is not None else "",
                f"peak {w.peak_concurrency}" if w.peak_concurrency is not None else ""]
        return _item(run, "concurrency", "partial", "the load asked for (rate or concurrency) is not in the file"
                     + (f" ({SUMMARY_NAME} has it, input_config.phases)" if run.doc.fmt == "aiperf" else "")
                     + f"; the records show {', '.join(s for s in seen if s)} requests in flight (measured, not the setting)")
    missing.why = "the load asked for (rate or concurrency) is not recorded"
    return missing


def _load_said(load: LoadSetting) -> str:
    parts = [f"at most {load.max_concurrency} requests in flight" if load.max_concurrency is not None else "",
             f"{load.request_rate:g} requests/s" if load.request_rate is not None else
             "" if load.loop == "closed" else "no rate limit (all requests at once)"]
    loop = f", {load.loop} loop" if load.loop else ""
    return f"{' and '.join(p for p in parts if p)}{loop} (stated by {load.stated_by or 'the file'})"


def _simple(run: Run, item: str) -> ItemFinding:
    return _from_config(run, item) or _not_recorded(run, item)


def _engine(run: Run) -> ItemFinding:
    import re

    for key in run.doc.table.get("engine_hint", ()):
        found = run.doc.find(key)
        if found is not None and isinstance(found.value, str) and re.search(ENGINES, found.value, re.I):
            return _item(run, "engine_revision", "partial", f"{found.said()} names the engine the client targeted, without a "
                         "version; the server's version is not in a client's result file", found.evidence)
    return _not_recorded(run, "engine_revision")


def _prefix_cache(run: Run) -> ItemFinding:
    w = run.report.workload
    if w is not None and w.cached_prompt_tokens is not None:
        share = f" ({w.cached_share:.0%} of prompt tokens)" if w.cached_share is not None else ""
        return _item(run, "prefix_cache_state", "declared", f"cached prompt tokens recorded per request: {w.cached_prompt_tokens} in "
                     f"all{share}", run.doc.evidence_for("prefix_cache_state"))
    return _not_recorded(run, "prefix_cache_state")


def _distinct(run: Run) -> ItemFinding:
    r, w = run.report, run.report.workload
    if r.ttft_ms is None and not _own(run, "ttft", "time_to_first_token"):
        return _item(run, "distinct_prefixes", "not_applicable", "no TTFT or prefill figure in the file")
    if w is not None and w.repeated_prompts is not None:
        return _item(run, "distinct_prefixes", "declared", f"{w.repeated_prompts} of {r.completed} prompts repeat an earlier one "
                     "(the records identify each prompt)")
    return _not_recorded(run, "distinct_prefixes")


def _own(run: Run, *names: str) -> list[str]:
    """The file's own figure keys (source_reported) that name one of ``names``."""
    figures = run.report.source_reported.figures if run.report.source_reported else {}
    return [k for k, v in figures.items() if v is not None and any(n in k for n in names)]


def _distributions(run: Run) -> ItemFinding:
    r = run.report
    shown = [name.removesuffix("_ms").upper() for name in ("ttft_ms", "tpot_ms", "itl_ms", "e2el_ms") if getattr(r, name) is not None]
    if shown:
        n = max(getattr(r, name).count for name in ("ttft_ms", "tpot_ms", "e2el_ms") if getattr(r, name) is not None)
        return _item(run, "latency_distributions", "declared", f"per-request {', '.join(shown)} of {n} requests in the file "
                     "(percentiles recomputed by compute_metrics)", run.doc.evidence_for("latency_distributions"))
    pcts = [k for k in _own(run, "ttft", "tpot", "itl", "e2e", "latency", "time_to_first_token") if any(s in k for s in ("p9", "p5", "median"))]
    if pcts:
        return _item(run, "latency_distributions", "declared", f"the file's own percentiles: {', '.join(pcts[:4])}",
                     run.doc.evidence(pcts[0]))
    return _item(run, "latency_distributions", "missing", "no per-request latencies and no percentile in the file")


def _speculative(run: Run) -> list[ItemFinding]:
    ids = ["spec_draft_tokens", "spec_acceptance", "spec_verification", "spec_rejected_work"]
    found = {i: [f for f in run.doc.config(i) if not f.null] for i in ids}
    if not any(found.values()):
        return [_item(run, i, "not_applicable", "the file records no speculative decoding") for i in ids]
    out = []
    for i in ids:
        if i == "spec_rejected_work" and found[i] and found["spec_draft_tokens"]:
            draft, accepted = found["spec_draft_tokens"][0], found[i][0]
            if isinstance(draft.value, (int, float)) and isinstance(accepted.value, (int, float)):
                out.append(_item(run, i, "declared", f"rejected = {draft.said()} - {accepted.said()} = {draft.value - accepted.value:g}",
                                 draft.evidence + accepted.evidence))
                continue
        out.append(_item(run, i, "declared", found[i][0].said(), found[i][0].evidence) if found[i] else
                   _item(run, i, "missing", f"{run.tool}'s result file records speculative decoding but not this"))
    return out


def _aggregation(run: Run) -> ItemFinding:
    method = next((d for d in (run.report.source_reported.definition_differences if run.report.source_reported else [])
                   if "percentile" in d), "numpy linear percentiles, as compute_metrics")
    return _item(run, "aggregation_rule", "declared", f"one run; {run.tool} takes every statistic over its {run.report.completed} "
                 f"successful requests ({method.rstrip('.')})")


def _exclusions(run: Run) -> ItemFinding:
    r = run.report
    unknown = run.doc.fmt == "sglang" and r.ttft_ms is None
    if run.doc.fmt == "vllm" and run.doc.find("failed") is None:
        unknown = run.doc.find("num_prompts") is None
    if unknown:
        return _item(run, "exclusions", "partial", f"{run.tool} records only 'completed': failed requests are not counted in it")
    why = f"{r.failed} failed requests excluded from the latency statistics"
    if r.warmup_dropped:
        why += f", {r.warmup_dropped} warm-up records dropped"
    return _item(run, "exclusions", "declared", why + " (compute_metrics, as the format marks them)",
                 run.doc.evidence_for("exclusions"))


def judge_items(run: Run) -> list[ItemFinding]:
    """Every contract item for one run, in contract order."""
    special = {
        "request_count": _request_count, "warmup": _warmup, "output_length_requested": _requested,
        "concurrency": _concurrency, "engine_revision": _engine, "prefix_cache_state": _prefix_cache,
        "distinct_prefixes": _distinct, "latency_distributions": _distributions, "aggregation_rule": _aggregation,
        "exclusions": _exclusions,
    }
    spec = {f.id: f for f in _speculative(run)}
    out = []
    for item in ITEM_GROUPS:
        if item in spec:
            out.append(spec[item])
        elif item in special:
            out.append(special[item](run))
        elif item in ("prompt_length", "output_length_completed"):
            out.append(_lengths(run, item))
        else:
            out.append(_simple(run, item))
    return out


