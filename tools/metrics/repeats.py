"""Several runs of one configuration: across-run mean, spread and interval, and do they agree within their noise?

For each figure: the mean of the k run values, their sample standard deviation (ddof 1),
and a Student-t interval for the mean, ``mean +- t(k-1) x std / sqrt(k)``. Each run's own
noise is its bootstrap standard error; Cochran's Q = sum ((x_i - x_w) / se_i)^2, with x_w
the inverse-variance weighted mean, is compared with the chi-square quantile at 99% for
k - 1 degrees of freedom (Wilson-Hilferty): above it, the runs disagree beyond their noise.
"""

from __future__ import annotations

import math
from statistics import NormalDist
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

if TYPE_CHECKING:
    import numpy as np

    from .compare import MetricComparison

__all__ = ["RepeatFigure", "RepeatsSummary", "chi2_quantile", "summarise_repeats", "t_quantile"]

AGREEMENT_LEVEL = 0.99
_SAMPLE_KEY = {"ttft_ms": "ttft", "tpot_ms": "tpot", "e2el_ms": "e2el", "itl_ms": "itl"}


class RepeatFigure(BaseModel):
    """One figure across repeated runs."""

    model_config = ConfigDict(extra="forbid")

    metric: str = Field(description="Metric name as in metrics[].metric.")
    statistic: str = Field(description="mean, median, p90, p99, or value for a rate.")
    values: list[float] = Field(description="The figure in each run.")
    mean: float = Field(description="Mean of the run values.")
    std: float | None = Field(description="Sample standard deviation of the run values (ddof 1).")
    cv: float | None = Field(description="std / mean: the spread relative to the level.")
    ci: tuple[float, float] | None = Field(description="Student-t interval of the across-run mean at the requested confidence.")
    within_run_se: list[float] | None = Field(description="Each run's bootstrap standard error of the figure (its own noise).")
    cochran_q: float | None = Field(description="Cochran's Q of the run values against their standard errors.")
    consistent: bool | None = Field(description="False when Q exceeds the 99% chi-square quantile (k - 1 df): the runs disagree.")


class RepeatsSummary(BaseModel):
    """Across-run statistics for repeated runs of one configuration."""

    model_config = ConfigDict(extra="forbid")

    runs: int = Field(description="Number of repeated runs.")
    figures: list[RepeatFigure] = Field(description="Each figure across the runs.")
    warnings: list[str] = Field(description="Figures on which the runs disagree beyond their own noise, with values.")
    method: str = Field(description="How the mean, spread, interval and agreement test are computed.")

    def to_text(self) -> str:
        lines = [f"repeats ({self.runs} runs): across-run mean, std, interval"]
        for f in self.figures:
            ci = "-" if f.ci is None else f"{f.ci[0]:.4g} to {f.ci[1]:.4g}"
            std = "-" if f.std is None else f"{f.std:.3g}"
            flag = "" if f.consistent is not False else "  DISAGREE"
            lines.append(f"  {f.metric:<24}{f.statistic:<7} mean {f.mean:.4g}  std {std}  CI {ci}{flag}")
        lines.extend(f"  ! {w}" for w in self.warnings)
        return "\n".join(lines)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the regularized incomplete beta (modified Lentz)."""
    tiny, qab, qap, qam = 1e-300, a + b, a + 1, a - 1
    c, d = 1.0, 1 - qab * x / qap
    d = 1 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 300):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1 + aa * d
        d = 1 / (d if abs(d) > tiny else tiny)
        c = 1 + aa / c if abs(1 + aa / c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-14:
            break
    return h


def _betai(a: float, b: float, x: float) -> float:
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log(1 - x))
    if x < (a + 1) / (a + b + 2):
        return front * _betacf(a, b, x) / a
    return 1 - front * _betacf(b, a, 1 - x) / b


def _t_cdf(t: float, df: float) -> float:
    tail = 0.5 * _betai(df / 2, 0.5, df / (df + t * t))
    return 1 - tail if t >= 0 else tail


def t_quantile(p: float, df: int) -> float:
    """The Student-t quantile t_p(df) by bisection on the CDF (exact to ~1e-10)."""
    lo, hi = -1e4, 1e4
    for _ in range(200):
        mid = (lo + hi) / 2
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def chi2_quantile(p: float, df: int) -> float:
    """Chi-square quantile by Wilson-Hilferty: df (1 - 2/(9 df) + z sqrt(2/(9 df)))^3."""
    z = NormalDist().inv_cdf(p)
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def summarise_repeats(
    metrics: list[MetricComparison],
    reps: list[dict[str, dict[str, np.ndarray]]],
    labels: list[str],
    confidence: float,
) -> RepeatsSummary:
    """Across-run figures for every metric entry that all runs have."""
    import numpy as np

    k = len(labels)
    t = t_quantile(1 - (1 - confidence) / 2, k - 1)
    q_limit = chi2_quantile(AGREEMENT_LEVEL, k - 1)
    figures, warnings = [], []
    for m in metrics:
        if any(v is None for v in m.values):
            continue
        x = np.asarray(m.values, dtype=float)
        mean = float(x.mean())
        std = float(x.std(ddof=1))
        ci = (mean - t * std / math.sqrt(k), mean + t * std / math.sqrt(k))
        se = None
        q = consistent = None
        key = _SAMPLE_KEY.get(m.metric)
        if key and all(key in r and m.statistic in r[key] for r in reps):
            se = [float(np.nanstd(r[key][m.statistic], ddof=1)) * 1000 for r in reps]  # replicates in s, values in ms
            if all(s > 0 for s in se):
                w = 1 / np.square(se)
                center = float(np.sum(w * x) / np.sum(w))
                q = float(np.sum(w * np.square(x - center)))
                consistent = q <= q_limit
                if not consistent:
                    spread = ", ".join(f"{label} {v:.4g} (se {s:.2g})" for label, v, s in zip(labels, x, se))
                    warnings.append(
                        f"{m.statistic} {m.metric}: the runs disagree beyond their own noise ({spread}; Cochran's Q = {q:.1f} > "
                        f"{q_limit:.1f}, the 99% chi-square quantile for {k - 1} df): something changed between runs (cache state, "
                        "background load, thermals, server restarts)"
                    )
        figures.append(RepeatFigure(
            metric=m.metric, statistic=m.statistic, values=[float(v) for v in x], mean=mean, std=std,
            cv=std / mean if mean else None, ci=ci, within_run_se=se, cochran_q=q, consistent=consistent,
        ))
    return RepeatsSummary(
        runs=k,
        figures=figures,
        warnings=warnings,
        method=(
            f"mean and sample std (ddof 1) of the {k} run values; interval = mean +- t({confidence:.0%}, {k - 1} df) x std / "
            f"sqrt({k}) (t = {t:.3f}); agreement: Cochran's Q over each run's bootstrap standard error against the 99% "
            f"chi-square quantile ({q_limit:.2f}, Wilson-Hilferty); rates have no within-run error, so no agreement test"
        ),
    )
