"""The comparison table a sweep prints: one row per combination, the headline figures of each report."""

from __future__ import annotations

from .engine_capacity import EngineLogReport
from .report import SizingReport
from .sweep import SizingSweep, gib

__all__ = ["sweep_table"]

_COLUMNS = ("per GPU GiB", "budget GiB", "margin GiB", "fits", "max conc", "max tokens",
            "decode tok/s/seq", "decode tok/s agg", "prefill s")


def _row(r: SizingReport) -> list[str]:
    """Headline figures of one report: memory and fit (estimates), then the ceilings."""
    g, c = r.per_gpu, r.ceilings
    fits = "-" if g.fits is None else "yes" if g.fits else "NO"
    return [
        gib(g.total_bytes), gib(g.budget_bytes), gib(g.free_bytes), fits,
        "-" if g.max_concurrency is None else f"{g.max_concurrency:,}",
        "-" if g.max_tokens_per_sequence is None else f"{g.max_tokens_per_sequence:,}",
        "-" if c.decode is None else f"{c.decode.tokens_per_s_per_sequence:,.1f}",
        "-" if c.decode is None else f"{c.decode.tokens_per_s_aggregate:,.0f}",
        "-" if c.prefill is None else f"{c.prefill.time_s:.3f}",
    ]


def _log_table(sweep: SizingSweep) -> str:
    """Rows = tokens values; columns = the logged pool and the sequences it holds at that length."""
    rows = [["tokens", "KV pool tokens", "max concurrency"]]
    for r in sweep.reports:
        assert isinstance(r, EngineLogReport)
        rows.append([f"{r.tokens:,}", "-" if r.kv_pool_tokens is None else f"{r.kv_pool_tokens:,}",
                     "-" if r.max_concurrency is None else f"{r.max_concurrency:,}"])
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = ["  ".join(c.rjust(w) for c, w in zip(row, widths, strict=True)) for row in rows]
    first = sweep.reports[0]
    assert isinstance(first, EngineLogReport)
    lines += ["", "KV pool: measurement (the engine's log); max concurrency: estimate derived from it"]
    lines += [f"caveat: {c}" for c in first.caveats]
    return "\n".join(lines)


def sweep_table(sweep: SizingSweep) -> str:
    """Rows = combinations in cartesian order; columns = the swept values, then the headline figures. Memory,
    fit and capacity are estimates; decode and prefill columns are ceilings (100% of peak)."""
    if isinstance(sweep.reports[0], EngineLogReport):
        return _log_table(sweep)
    head = [a.field for a in sweep.axes] + list(_COLUMNS)
    values = [list(v) for v in _products(sweep)]
    rows = [[str(x) for x in vals] + _row(r) for vals, r in zip(values, sweep.reports, strict=True)]  # type: ignore[arg-type]
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(head)]
    first = sweep.reports[0]
    assert isinstance(first, SizingReport)
    lines = [f"{first.model.name}: {len(rows)} combinations of {', '.join(a.field for a in sweep.axes)}", "",
             "  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True))]
    lines += ["  ".join(cell.rjust(w) for cell, w in zip(row, widths, strict=True)) for row in rows]
    lines += ["", "per GPU, budget, margin, fits, max conc (sequences at the tokens given), max tokens (per sequence at "
              "the concurrency given): estimates, worst GPU; decode and prefill: ceilings at 100% of peak, not "
              "predictions. Each row is a full report: --json prints them all."]
    return "\n".join(lines)


def _products(sweep: SizingSweep) -> list[tuple]:
    import itertools

    return list(itertools.product(*(a.values for a in sweep.axes)))
