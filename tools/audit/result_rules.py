"""The metric rules on one run of a result file: the format fixes what a write-up has to say in words.

A client tool's file settles where its times were taken (the observation point the metrics reader names)
and how its TPOT is defined (the tool's own definition, and how it differs from vLLM's); decode-rate
figures are judged against the output lengths compute_metrics counted; goodput against the SLOs the file
records. Every why names the field judged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..metrics import DEFINITIONS
from .models import RuleFinding

if TYPE_CHECKING:
    from .results import Run

__all__ = ["STEADY_OK_TOKENS", "STEADY_SHORT_TOKENS", "judge_rules"]

STEADY_SHORT_TOKENS = 64
"""Median completed output below this: decode-rate figures rest on start-up, not steady decode (violation),
the same bound the write-up rule applies."""
STEADY_OK_TOKENS = 128
"""Median completed output at or above this: long enough for steady decode."""


def _rule(rule: str, status: str, why: str, evidence=None) -> RuleFinding:
    return RuleFinding(id=rule, status=status, why=why, evidence=evidence or [])


def _own(run: Run, *names: str) -> list[str]:
    figures = run.report.source_reported.figures if run.report.source_reported else {}
    return [k for k, v in figures.items() if v is not None and any(n in k for n in names)]


def _differences(run: Run) -> list[str]:
    return run.report.source_reported.definition_differences if run.report.source_reported else []


def _observation(run: Run) -> RuleFinding:
    r = run.report
    if not (r.ttft_ms or r.e2el_ms or r.tpot_ms or _own(run, "ttft", "latency", "throughput", "per_second", "time_to")):
        return _rule("observation_point", "not_applicable", "no latency or throughput figure in the file")
    kind = "the generic record schema" if run.doc.fmt in ("records", "csv") else f"the {run.tool} format"
    return _rule("observation_point", "ok", f"client-side timing fixed by {kind}: {r.observation_point}",
                 run.doc.evidence_for("observation_point"))


def _tpot(run: Run) -> RuleFinding:
    r, fields = run.report, run.doc.table.get("tpot_fields", [])
    own = [f for f in fields if _own(run, f)]
    if not own and not (fields and r.tpot_ms is not None):
        if r.tpot_ms is not None:
            return _rule("tpot_definition", "not_applicable", "the records hold raw times and no TPOT figure; a TPOT derived from "
                         f"them by compute_metrics is {DEFINITIONS['tpot_ms'].formula}")
        return _rule("tpot_definition", "not_applicable", "no TPOT or per-token decode figure in the file")
    named = own or fields
    # the tool's own definition of each TPOT-like field, as the metrics reader states it (one sentence per field)
    said = list(dict.fromkeys(next((d for d in _differences(run) if f in d), "") for f in named))
    said = [d for d in said if d]
    if not said:
        said = [f"{run.tool} is the reference definition: TPOT = {DEFINITIONS['tpot_ms'].formula}."] if run.doc.fmt == "vllm" else \
            [d for d in _differences(run) if "TPOT" in d][:1] or [f"TPOT = {DEFINITIONS['tpot_ms'].formula}."]
    return _rule("tpot_definition", "ok", f"{', '.join(named)} ({run.tool}): {' '.join(said)}", run.doc.evidence_for("tpot_definition"))


def _throughput(run: Run) -> RuleFinding:
    keys = [k for k in _own(run, "throughput", "per_second") if "per_user" not in k and "retokenized" not in k]
    if not keys:
        return _rule("throughput_basis", "not_applicable", "no throughput figure in the file (compute_metrics derives them: "
                     f"{DEFINITIONS['output_throughput'].formula})")
    said = [d for d in _differences(run) if "rates" in d or "throughput" in d] or [
        f"{run.tool}: output_throughput = {DEFINITIONS['output_throughput'].formula}"]
    names = list(dict.fromkeys(k.split(".")[0] for k in keys))
    shown = ", ".join(names[:4]) + (f" and {len(names) - 4} more" if len(names) > 4 else "")
    return _rule("throughput_basis", "ok", f"{shown}: the key names its basis (requests, input, output or total tokens); {said[0]}",
                 run.doc.evidence_for("throughput_basis"))


def _goodput(run: Run) -> RuleFinding:
    table, doc = run.doc.table, run.doc
    goodput = _own(run, "goodput", "slo_attainment")
    marked = [p for p in table.get("goodput_fields", []) if doc.find(p) is not None]
    if not goodput and not marked:
        return _rule("goodput_slo", "not_applicable", "no goodput figure in the file")
    what = ", ".join(goodput[:2]) if goodput else marked[0].removeprefix("row:")
    slo = next((f for f in (doc.find(p) for p in table.get("slo", ())) if f is not None and not f.null
                and (not isinstance(f.value, dict) or any(v is not None for v in f.value.values()))), None)
    if slo is not None:
        return _rule("goodput_slo", "ok", f"{what} is judged against {slo.said()}", slo.evidence)
    reason = table.get("not_recorded", {}).get("goodput_slo", "the SLO thresholds are not in the file")
    return _rule("goodput_slo", "unclear", f"{what} is in the file, but {reason}: a reader cannot tell which SLO it meets",
                 doc.evidence_for("goodput_slo"))


def _cache(run: Run) -> RuleFinding:
    w = run.report.workload
    if w is not None and w.cached_prompt_tokens is not None:
        share = f"{w.cached_share:.0%}" if w.cached_share is not None else "a share"
        return _rule("cache_hit_labeling", "ok", f"cached prompt tokens are recorded per request ({w.cached_prompt_tokens}, {share} "
                     "of prompt tokens): the hits are labelled by the file itself")
    return _rule("cache_hit_labeling", "not_applicable", "the file makes no cache-hit claim and records no cached tokens")


def _steady(run: Run) -> RuleFinding:
    r, w = run.report, run.report.workload
    own = _own(run, *run.doc.table.get("tpot_fields", ()), "tpot", "itl")
    derived = [name.removesuffix("_ms").upper() for name in ("tpot_ms", "itl_ms") if getattr(r, name) is not None]
    if not own and not derived:
        return _rule("steady_decode", "not_applicable", "no decode-rate figure (TPOT, ITL) in the file")
    stems = list(dict.fromkeys(k.split(".")[0] for k in own))
    stems = [k for k in stems if k.startswith("mean_")] or [k for k in stems if not k.startswith(("median_", "std_", "p"))]
    what = ", ".join(stems[:3]) if stems else f"the {' and '.join(derived)} of its per-request times"
    if w is not None and w.output_tokens is not None:
        n, basis = w.output_tokens.median, f"median completed output {w.output_tokens.median:g} tokens over {w.output_tokens.count} requests"
    elif r.total_output_tokens is not None and r.completed:
        n, basis = r.total_output_tokens / r.completed, f"mean completed output {r.total_output_tokens / r.completed:.1f} tokens " \
                                                           f"(total_output_tokens {r.total_output_tokens} / completed {r.completed})"
    else:
        return _rule("steady_decode", "unclear", f"{what} in the file, but not how many tokens the requests completed")
    evidence = run.doc.evidence_for("output_length_completed")
    if n < STEADY_SHORT_TOKENS:
        return _rule("steady_decode", "violation", f"{what} rest on a {basis}: too short for steady decode "
                     f"(under {STEADY_SHORT_TOKENS})", evidence)
    if n >= STEADY_OK_TOKENS:
        return _rule("steady_decode", "ok", f"{what} rest on a {basis}", evidence)
    return _rule("steady_decode", "unclear", f"{what} rest on a {basis}: borderline for steady decode "
                 f"({STEADY_SHORT_TOKENS}-{STEADY_OK_TOKENS})", evidence)


def _evidence_class(run: Run) -> RuleFinding:
    r = run.report
    if not r.completed:
        return _rule("evidence_class", "not_applicable", "no request completed: the file measures nothing")
    return _rule("evidence_class", "ok", f"every figure is a measurement over the {r.completed} completed requests of the run "
                 f"(timed at the client: {run.tool})")


def judge_rules(run: Run) -> list[RuleFinding]:
    """The nine metric rules for one run, in rule order."""
    return [
        _observation(run),
        _tpot(run),
        _throughput(run),
        _goodput(run),
        _cache(run),
        _steady(run),
        _rule("capacity_vs_workload", "not_applicable", "a result file reports the load it served, no capacity figure"),
        _rule("stack_comparison", "not_applicable", "one result file measures one stack: nothing is compared"),
        _evidence_class(run),
    ]
