"""The plan as people read it: one row per candidate, then what was searched, what does not fit, and the notes."""

from __future__ import annotations

from .plan import PlanCandidate, PlanReport

__all__ = ["plan_table"]

_GiB = 1024**3
_HEAD = ("#", "GPUs", "GPU", "TP", "PP", "DP", "EP", "weights", "KV", "margin GiB", "low GiB", "max conc",
         "decode tok/s/seq", "prefill s", "targets", "$/hour")


def _row(i: int, c: PlanCandidate) -> list[str]:
    targets = "-" if not c.targets else ("possible" if all(t.possible for t in c.targets) else "ruled out")
    return [str(i), str(c.gpus), c.gpu, str(c.tp), str(c.pp), str(c.dp), str(c.ep), c.weights, c.kv,
            f"{c.margin_bytes / _GiB:,.2f}",
            "-" if c.margin_low_bytes is None else f"{c.margin_low_bytes / _GiB:,.2f}", f"{c.max_concurrency:,}",
            "-" if c.decode_tokens_per_s_per_sequence is None else f"{c.decode_tokens_per_s_per_sequence:,.1f}",
            "-" if c.prefill_s is None else f"{c.prefill_s:.3f}", targets,
            "-" if c.cost_per_hour is None else f"{c.cost_per_hour:,.2f}"]


def plan_table(plan: PlanReport) -> str:
    """Candidates best first (margin and capacity: estimates; decode and prefill: ceilings), then the rest."""
    lines = [f"{plan.model}: {plan.concurrency:,} sequences x {plan.tokens_per_sequence:,} tokens "
             f"(concurrency {plan.concurrency_basis}); ranked by {plan.rank_by}", ""]
    if plan.candidates:
        rows = [list(_HEAD)] + [_row(i, c) for i, c in enumerate(plan.candidates, 1)]
        widths = [max(len(r[k]) for r in rows) for k in range(len(_HEAD))]
        lines += ["  ".join(cell.rjust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
        lines.append("")
        lines.append("margin (per GPU) and max conc: estimates; low: the margin if the overheads sit at the high "
                     "end of published profiles (negative: fits only at the estimate); decode tok/s/seq and prefill "
                     "s: ceilings at 100% of peak, bounds not predictions.")
        best = plan.candidates[0]
        if best.command:
            lines.append(f"full report of #1: {best.command}")
        priced = [c for c in plan.candidates if c.price_basis and c.price_basis != "given"]
        for c in priced[:3]:
            lines.append(f"price {c.gpu}: {c.price_basis}")
    else:
        lines.append("no deployment fits within the search; see below")
    lines += ["", f"searched: {plan.searched}"]
    if plan.not_fitting:
        lines += ["does not fit:"] + [f"  - {t}" for t in plan.not_fitting]
    lines += ["notes:"] + [f"  - {n}" for n in plan.notes]
    return "\n".join(lines)
