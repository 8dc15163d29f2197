"""A result file's own figures beside ours: how big is each definition difference on this run?

``definition_differences`` says *how* a tool defines a figure; ``compare_with_source``
says *how much* that matters here ("aiperf inter_token_latency avg 14.7 ms vs TPOT mean
8.2 ms here (+79%)") and names the cause, so the most important difference in a file is
stated, not left for the reader to find.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .summary import MetricsReport
    from .workload import Workload

__all__ = ["compare_with_source"]

AGREE = 0.001
"""Relative difference below which the tool's figure and ours are called equal (0.1%)."""


def _get(path: str) -> Callable[[Any], float | None]:
    """``"tpot_ms.mean"`` -> a getter on a report (None where the distribution is missing)."""
    attr, stat = path.split(".")

    def get(report: Any) -> float | None:
        dist = getattr(report, attr)
        return None if dist is None else getattr(dist, stat)

    return get


# (tool's key, scale to our unit, our figure, cause of a difference)
_PAIRS: dict[str, list[tuple[str, float, str, str]]] = {
    "aiperf": [
        ("time_to_first_token.avg", 1.0, "ttft_ms.mean", "same definition (first content chunk)"),
        ("request_latency.avg", 1.0, "e2el_ms.mean", "same definition (to the last content chunk)"),
        ("inter_token_latency.avg", 1.0, "tpot_ms.mean",
         "aiperf's ITL is vLLM's TPOT formula, divided by aiperf's output count (its client tokenizer unless "
         "--use-server-token-count); here the server's usage count"),
        ("inter_token_latency.p99", 1.0, "tpot_ms.p99", "as for the mean"),
    ],
    "guidellm": [
        ("time_to_first_token_ms.mean", 1.0, "ttft_ms.mean", "same definition (first content line)"),
        ("inter_token_latency_ms.mean", 1.0, "tpot_ms.mean",
         "guidellm's ITL is vLLM's per-request TPOT, averaged token-weighted (weights n - 1) rather than per request"),
        ("time_per_output_token_ms.mean", 1.0, "tpot_ms.mean",
         "guidellm's TPOT includes TTFT ((last token - start) / n) and is token-weighted"),
        ("request_latency.mean", 1000.0, "e2el_ms.mean",
         "guidellm's request_latency ends at request_end (after [DONE]); E2E here ends at the last token"),
    ],
    "sglang bench_serving": [
        ("mean_ttft_ms", 1.0, "ttft_ms.mean", "same definition (first non-empty content)"),
        ("mean_itl_ms", 1.0, "itl_ms.mean", "same definition (chunk gaps)"),
        ("mean_tpot_ms", 1.0, "tpot_ms.mean",
         "SGLang's latency ends at the last line received ([DONE]/usage included); here at the last content chunk"),
        ("mean_e2e_latency_ms", 1.0, "e2el_ms.mean", "as for TPOT: SGLang's E2E ends at the last line received"),
    ],
}
_VLLM = [f"{stat}_{metric}_ms" for metric in ("ttft", "tpot", "itl", "e2el") for stat in ("mean", "median", "p99")]


def _fmt(value: float) -> str:
    return f"{value:.4g}" if abs(value) < 1000 else f"{value:,.0f}"


def compare_with_source(report: MetricsReport, workload: Workload) -> list[str]:
    """Sentences pairing the file's own figures with this report's, each with the size of the difference."""
    reported = report.source_reported
    if reported is None or not reported.figures:
        return []
    tool = reported.tool.split(" (")[0]
    figures = reported.figures
    out: list[str] = []
    if tool == "vllm bench serve":
        agree, differ = [], []
        for key in _VLLM:
            theirs = figures.get(key)
            stat, metric, _ = key.split("_")
            ours = _get(f"{metric}_ms.{stat}")(report)
            if theirs is None or ours is None:
                continue
            rel = (theirs - ours) / ours if ours else 0.0
            (agree if abs(rel) < AGREE else differ).append((key, theirs, ours, rel))
        if agree:
            out.append(f"vLLM's own {', '.join(k for k, *_ in agree)} match this report's recomputation within 0.1%")
        for key, theirs, ours, rel in differ:
            out.append(f"vLLM's own {key} = {_fmt(theirs)} vs {_fmt(ours)} recomputed here ({rel:+.1%}): "
                       + ("the legacy script's TTFT waited for the first non-empty text" if "legacy" in reported.tool
                          else "the records differ from what the summary was computed on"))
        return out
    for key, scale, ours_path, cause in _PAIRS.get(tool, []):
        theirs = figures.get(key)
        ours = _get(ours_path)(report)
        if theirs is None or ours is None or ours == 0:
            continue
        theirs *= scale
        rel = (theirs - ours) / ours
        size = "equal within 0.1%" if abs(rel) < AGREE else f"{rel:+.1%}"
        line = f"{tool} {key} = {_fmt(theirs)} ms vs {ours_path} = {_fmt(ours)} ms here ({size})"
        if abs(rel) >= AGREE:
            line += f": {cause}"
            if ours_path.startswith("tpot_ms") and tool == "aiperf" and workload.client_output_tokens is not None:
                line += (f"; aiperf's tokenizer counted {workload.client_output_tokens.mean:.1f} output tokens per request on "
                         f"average where the server reported {workload.output_tokens.mean:.1f}" if workload.output_tokens else "")
        out.append(line)
    return out
