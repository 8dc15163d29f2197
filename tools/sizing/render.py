"""The human-readable sizing report: model, memory table, fit and capacity, ceilings, formulas, assumptions."""

from __future__ import annotations

from .report import GiB, Ceilings, SizingReport, WeightsReport

__all__ = ["render_report"]

_ROW = "{:<24}{:>18}{:>16}  {}"  # item, total, per GPU, notes
_SHOWN_DEVIATION = 1024**2  # reasons under 1 MiB per GPU are left to the JSON


def _gib(n: float | int | None) -> str:
    return "-" if n is None else f"{n / GiB:,.2f} GiB"


def _signed_gib(n: int) -> str:
    """A signed difference: in GiB, or in MiB when under 0.01 GiB."""
    sign = "+" if n >= 0 else "-"
    if abs(n) < GiB // 100:
        return f"{sign}{abs(n) / 1024**2:,.1f} MiB"
    return f"{sign}{abs(n) / GiB:,.2f} GiB"


def _render_model(r: SizingReport) -> list[str]:
    """Model, its source and shape, and the deployment's parallel layout."""
    m, p = r.model, r.parallelism
    lines = [f"{m.name}  [{m.model_type}, {m.layers} layers]  {m.attention}", f"  source: {m.source}"]
    if m.moe:
        lines.append(f"  MoE: {m.moe}")
    lines.append(f"  deployment: {p.gpus} GPU(s) = TP {p.tp} x PP {p.pp} x DP {p.dp}, EP {p.ep}")
    return lines


def _render_share(w: WeightsReport, gpus_per_replica: int) -> list[str]:
    """Why the per-GPU weight share is not weights / (TP x PP), when it differs by 1 MiB or more."""
    diff = w.bytes_per_gpu - w.pro_rata_bytes_per_gpu
    if abs(diff) < _SHOWN_DEVIATION:
        return []
    lines = [f"  per GPU {_gib(w.bytes_per_gpu)} vs pro rata {_gib(w.bytes)} / {gpus_per_replica} = "
             f"{_gib(w.pro_rata_bytes_per_gpu)} ({_signed_gib(diff)}):"]
    for d in w.not_pro_rata:
        if abs(d.bytes_per_gpu) >= _SHOWN_DEVIATION:
            names = f": {', '.join(d.tensors)}" if d.tensors else ""
            lines.append(f"    {_signed_gib(d.bytes_per_gpu)} {d.reason}{names}")
    return lines


def _render_memory(r: SizingReport) -> list[str]:
    """The memory table: weights, KV by layer type, overheads, the per-GPU total and, with a GPU, the budget and the
    headroom left outside it."""
    w, kv, g, p = r.weights, r.kv_cache, r.per_gpu, r.parallelism
    arithmetic = "" if w.exact_arithmetic else ", approximate layout"
    lines = [_ROW.format("item", "total", "per GPU", "notes"),
             _ROW.format("weights", _gib(w.bytes), _gib(w.bytes_per_gpu),
                         f"{w.format} ({w.format_basis}); {w.params:,} params, {w.active_params:,} active "
                         f"[{w.evidence}{arithmetic}]"),
             *_render_share(w, p.tp * p.pp)]
    if w.checkpoint_bytes:
        lines.append(_ROW.format("", "", "", f"checkpoint as stored: {w.checkpoint_bytes:,} B [measurement]"))
    lines.append(_ROW.format("KV cache", _gib(kv.bytes), _gib(kv.bytes_per_gpu),
                             f"{kv.format}: {kv.bytes_per_token:,} B/token, state {kv.state_bytes_per_sequence:,} "
                             f"B/seq; {kv.tokens_per_sequence:,} tokens x {kv.concurrency} seq [{kv.evidence}]"))
    for lt in kv.by_layer_type:
        lines.append(f"{'  ' + lt.layer_type:<24}{lt.layers:>18} layers  {lt.bytes_per_token_per_layer:,} B/token/layer "
                     f"x {lt.resident_tokens_per_sequence:,} tokens + state {lt.state_bytes_per_layer:,} B = "
                     f"{lt.bytes_per_sequence:,} B/seq")
    for o in r.overheads:
        if o.inside_budget:
            lines.append(_ROW.format(o.name, "", _gib(o.bytes), f"{o.basis} [{o.evidence}]"))
    lines.append(_ROW.format("total per GPU", "", _gib(g.total_bytes),
                             f"weights + KV + overheads, worst pipeline stage {g.worst_stage} [{g.evidence}]"))
    if g.budget_bytes is not None:
        verdict = "FITS" if g.fits else "DOES NOT FIT"
        lines.append(_ROW.format("budget per GPU", "", _gib(g.budget_bytes),
                                 f"{g.gpu or 'GPU'}: {g.memory_basis} x {g.memory_utilization} -> {verdict} "
                                 f"(margin {_gib(g.free_bytes)})"))
        if g.overhead_low_bytes is not None and g.overhead_high_bytes is not None and g.margin_low_bytes is not None:
            lines.append(f"  error band: overheads {_gib(g.overhead_bytes)} estimated, plausible "
                         f"{_gib(g.overhead_low_bytes)} to {_gib(g.overhead_high_bytes)} -> margin "
                         f"{_gib(g.margin_low_bytes)} to {_gib(g.margin_high_bytes)}: {g.fit_verdict} [estimate]")
        if r.nearest_fits:
            lines.append("  nearest changes that fit: " + "; ".join(
                f"{n.change} (margin {_gib(n.margin_bytes)})" for n in r.nearest_fits) + " [estimate]")
        for o in r.overheads:
            if not o.inside_budget:
                lines.append(_ROW.format("not in the total", "", _gib(o.bytes), f"{o.name}: {o.basis}"))
        lines.append(f"  capacity: max concurrency {g.max_concurrency:,} at {kv.tokens_per_sequence:,} tokens; "
                     f"max tokens/sequence {g.max_tokens_per_sequence:,} at {kv.concurrency} seq "
                     f"(limited by {g.max_tokens_limited_by}) [estimate]")
    return lines


def _render_ceilings(c: Ceilings) -> list[str]:
    """The 100% bounds, each followed on its own line by the estimate at the assumed efficiency."""
    lines = []
    if c.decode:
        d = c.decode
        step_ms = max(d.memory_time_ms, d.compute_time_ms or 0.0)
        lines.append(f"ceiling decode: <= {d.tokens_per_s_per_sequence:,.1f} tok/s per sequence, <= "
                     f"{d.tokens_per_s_aggregate:,.0f} tok/s aggregate ({d.bound}-bound, step >= {step_ms:.2f} "
                     f"ms) [{d.evidence}]")
    if c.decode_estimate:
        e = c.decode_estimate
        at = f"{e.bandwidth_efficiency:.0%} of peak bandwidth" + (
            f" / {e.compute_efficiency:.0%} of dense peak" if c.decode and c.decode.compute_time_ms is not None else "")
        lines.append(f"estimate decode at {at}: ~{e.tokens_per_s_per_sequence:,.1f} tok/s per sequence, "
                     f"~{e.tokens_per_s_aggregate:,.0f} tok/s aggregate [{e.evidence}]")
    if c.prefill:
        pf = c.prefill
        lines.append(f"ceiling prefill: {pf.prompt_tokens:,}-token prompt >= {pf.time_s:.3f} s at 100% of "
                     f"{pf.gpus_used} x {pf.peak_tflops_per_gpu:g} dense {pf.compute_dtype} TFLOPS [{pf.evidence}]")
    if c.prefill_estimate:
        pe = c.prefill_estimate
        lines.append(f"estimate prefill at {pe.efficiency:.0%} of dense peak: ~{pe.time_s:.3f} s [{pe.evidence}]")
    return lines


def _render_formulas(r: SizingReport) -> list[str]:
    """Every formula the figures above come from, with this report's numbers where they are short."""
    lines = ["formulas:", f"  - weights: {r.weights.formula}", f"  - KV: {r.kv_cache.formula}",
             f"  - fit: {r.per_gpu.formula}"]
    if r.ceilings.decode:
        lines.append(f"  - decode ceiling: {r.ceilings.decode.formula}")
    if r.ceilings.decode_estimate:
        lines.append(f"  - decode estimate: {r.ceilings.decode_estimate.formula}")
    if r.ceilings.prefill:
        lines.append(f"  - prefill ceiling: {r.ceilings.prefill.formula}")
    if r.ceilings.prefill_estimate:
        lines.append(f"  - prefill estimate: {r.ceilings.prefill_estimate.formula}")
    return lines


def _render_engine_log(r: SizingReport) -> list[str]:
    """The prediction against the engine's start-up log, one row per figure both sides have."""
    c = r.engine_log
    if c is None:
        return []

    def shown(value: float, unit: str) -> str:
        return _gib(value) if unit == "bytes" else f"{value:,.2f}" if unit == "sequences" else f"{value:,.0f}"

    lines = ["", f"engine log ({c.engine}) vs prediction, per GPU [logged: measurement; predicted: estimate]:",
             f"  {'item':<34}{'predicted':>16}{'logged':>16}{'difference':>16}{'relative':>10}"]
    for i in c.items:
        rel = "-" if i.relative is None else f"{i.relative:+.1%}"
        lines.append(f"  {i.item:<34}{shown(i.predicted, i.unit):>16}{shown(i.logged, i.unit):>16}"
                     f"{shown(i.difference, i.unit):>16}{rel:>10}")
    lines += [f"  inputs taken from the log: {t}" for t in c.inputs_from_log]
    lines += [f"  note: {n}" for n in c.notes]
    return lines


def render_report(r: SizingReport) -> str:
    """The human table: model, memory, fit and capacity, ceilings, formulas, the evidence note, then every
    assumption and note."""
    lines = [*_render_model(r), "", *_render_memory(r), *_render_ceilings(r.ceilings), *_render_engine_log(r), "",
             *_render_formulas(r), "",
             f"evidence: {r.evidence}", "", "assumptions:"]
    lines += [f"  - {a}" for a in r.assumptions + r.ceilings.notes]
    return "\n".join(lines)
