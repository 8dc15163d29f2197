"""The human-readable sizing report: model, memory table, fit and capacity, ceilings, assumptions."""

from __future__ import annotations

from .report import GiB, Ceilings, SizingReport

__all__ = ["render_report"]

_ROW = "{:<24}{:>18}{:>16}  {}"  # item, total, per GPU, notes


def _gib(n: float | int | None) -> str:
    return "-" if n is None else f"{n / GiB:,.2f} GiB"


def _render_model(r: SizingReport) -> list[str]:
    """Model, its source and shape, and the deployment's parallel layout."""
    m, p = r.model, r.parallelism
    lines = [f"{m.name}  [{m.model_type}, {m.layers} layers]  {m.attention}", f"  source: {m.source}"]
    if m.moe:
        lines.append(f"  MoE: {m.moe}")
    lines.append(f"  deployment: {p.gpus} GPU(s) = TP {p.tp} x PP {p.pp} x DP {p.dp}, EP {p.ep}")
    return lines


def _render_memory(r: SizingReport) -> list[str]:
    """The memory table: weights, KV by layer type, overheads, the per-GPU total and, with a GPU, the budget."""
    w, kv, g = r.weights, r.kv_cache, r.per_gpu
    lines = [_ROW.format("item", "total", "per GPU", "notes"),
             _ROW.format("weights", _gib(w.bytes), _gib(w.bytes_per_gpu),
                         f"{w.format} ({w.format_basis}); {w.params:,} params, {w.active_params:,} active "
                         f"[{w.evidence}]")]
    if w.checkpoint_bytes:
        lines.append(_ROW.format("", "", "", f"checkpoint as stored: {w.checkpoint_bytes:,} B"))
    lines.append(_ROW.format("KV cache", _gib(kv.bytes), _gib(kv.bytes_per_gpu),
                             f"{kv.format}: {kv.bytes_per_token:,} B/token, state {kv.state_bytes_per_sequence:,} "
                             f"B/seq; {kv.tokens_per_sequence:,} tokens x {kv.concurrency} seq [{kv.evidence}]"))
    for lt in kv.by_layer_type:
        lines.append(f"{'  ' + lt.layer_type:<24}{lt.layers:>18} layers  {lt.bytes_per_token_per_layer:,} B/token/layer "
                     f"x {lt.resident_tokens_per_sequence:,} tokens + state {lt.state_bytes_per_layer:,} B = "
                     f"{lt.bytes_per_sequence:,} B/seq")
    for o in r.overheads:
        where = "" if o.inside_budget else " (outside budget)"
        lines.append(_ROW.format(o.name, "", _gib(o.bytes), f"{o.basis}{where} [{o.evidence}]"))
    lines.append(_ROW.format("total per GPU", "", _gib(g.total_bytes), f"worst pipeline stage {g.worst_stage}"))
    if g.budget_bytes is not None:
        verdict = "FITS" if g.fits else "DOES NOT FIT"
        lines.append(_ROW.format("budget per GPU", "", _gib(g.budget_bytes),
                                 f"{g.gpu or 'GPU'}: {g.memory_basis} x {g.memory_utilization} -> {verdict} "
                                 f"(free {_gib(g.free_bytes)})"))
        lines.append(f"  capacity: max concurrency {g.max_concurrency:,} at {kv.tokens_per_sequence:,} tokens; "
                     f"max tokens/sequence {g.max_tokens_per_sequence:,} at {kv.concurrency} seq "
                     f"(limited by {g.max_tokens_limited_by}) [estimate]")
    return lines


def _render_ceilings(c: Ceilings) -> list[str]:
    """One line per computed ceiling: the 100% bound and the estimate at the given efficiency."""
    lines = []
    if c.decode:
        d = c.decode
        step_ms = max(d.memory_time_ms, d.compute_time_ms or 0.0)
        at = f"{d.bandwidth_efficiency:.0%} bandwidth" + (
            f" / {d.compute_efficiency:.0%} of dense peak" if d.compute_time_ms is not None else "")
        lines.append(f"ceiling decode: <= {d.tokens_per_s_per_sequence:,.1f} tok/s per sequence, <= "
                     f"{d.tokens_per_s_aggregate:,.0f} tok/s aggregate ({d.bound}-bound, step >= {step_ms:.2f} "
                     f"ms); at {at} ~{d.tokens_per_s_per_sequence_at_efficiency:,.1f} / "
                     f"{d.tokens_per_s_aggregate_at_efficiency:,.0f} [ceiling]")
    if c.prefill:
        pf = c.prefill
        lines.append(f"ceiling prefill: {pf.prompt_tokens:,}-token prompt >= {pf.time_s:.3f} s at 100% of "
                     f"{pf.gpus_used} x {pf.peak_tflops_per_gpu:g} {pf.compute_dtype} TFLOPS; ~{pf.time_s_at_efficiency:.3f} s "
                     f"at {pf.efficiency:.0%} [ceiling]")
    return lines


def render_report(r: SizingReport) -> str:
    """The human table: model, memory, fit and capacity, ceilings, then every assumption and note."""
    lines = [*_render_model(r), "", *_render_memory(r), *_render_ceilings(r.ceilings), "", "assumptions:"]
    lines += [f"  - {a}" for a in r.assumptions + r.ceilings.notes]
    return "\n".join(lines)
