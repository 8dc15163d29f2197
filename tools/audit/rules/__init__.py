"""The metric rules, one module per concern; ``judge_rules`` runs them in report order."""

from __future__ import annotations

from ..findings import Context, TextFinding
from .cache import cache_hit_labeling
from .capacity import capacity_vs_workload
from .comparison import stack_comparison
from .decode import steady_decode
from .evidence import evidence_class
from .throughput import goodput_slo, throughput_basis
from .timing import observation_point, tpot_definition

__all__ = ["judge_rules"]


def judge_rules(ctx: Context) -> list[TextFinding]:
    """Every metric rule over the document in ``ctx``, in RULE_IDS order.

    Rules judge claims, which a write-up can make in its background prose as much as in its results
    (a headline speed-up in the introduction), so they read the 'claims' view of the document.
    """
    ctx.d.default_scope = "claims"
    capacity = capacity_vs_workload(ctx)
    return [observation_point(ctx), tpot_definition(ctx), throughput_basis(ctx), goodput_slo(ctx), cache_hit_labeling(ctx),
            steady_decode(ctx), capacity, stack_comparison(ctx), evidence_class(ctx, capacity)]
