"""Rules on latency figures: where the clock was read (observation_point) and what TPOT divides by
(tpot_definition).
"""

from __future__ import annotations

import re

from ..reading.lexicon import icase
from ..reading.mentions import figures, tool_named
from ..findings import TextFinding

__all__ = ["observation_point", "tpot_definition"]


def observation_point(ctx) -> TextFinding:
    f = figures(ctx)
    if not (f["lat"] or f["rate"] or f["goodput"]):
        return TextFinding("observation_point", "not_applicable", "no latency or throughput figure reported")
    rx = icase(r"(?:measured?|measures|observed|tim(?:ed|ing)|recorded|taken)\s+(?:\w+\s+){0,2}?(?:at|on|by|from|in|as)\s+(?:the\s+|our\s+|a\s+|each\s+)?"
               r"(?:[\w-]+\s+){0,2}?(?:client|server|load\s*gen\w*|engine|gateway|proxy|harness)|"
               r"\bclient\s+(?:runs?|ran|is|was|sits?)\s+(?:on|in|from)\b|"
               r"latenc\w+\s+(?:\w+\s+){0,2}?(?:include|exclude)s?\s+(?:\w+\s+){0,2}?(?:network|queu\w+|transport|gateway)|"
               r"client[- ]side|server[- ]side|at\s+the\s+(?:benchmark\s+)?client|from\s+the\s+client|client[- ]observed|observation\s+point|"
               r"as\s+seen\s+by\s+the\s+(?:client|user)|engine[- ](?:side|metrics|logs)|/metrics\s+endpoint|prometheus|in-process|"
               # a named client script or driver that sends the requests is a client-side load script (LABELLING.md)
               r"\b[\w-]*(?:bench|client|load|stress|driver|request|perf)[\w-]*\.py\b|\bbenchmark\s+(?:driver|script|client|harness)\b|"
               r"\b(?:simulated\s+)?(?:clients?|users?)\s+(?:\w+\s+)?(?:send|sent|sends|sending|issue[sd]?|submit(?:ted|s)?)\s+(?:\w+\s+)?requests\b|"
               r"\bsimulated\s+(?:clients|users)\b")
    hit = ctx.d.first(rx) or tool_named(ctx)
    if hit:
        return TextFinding("observation_point", "ok", "observation point named (or implied by the named benchmark client)",
                           ctx.d.evidence([hit]))
    return TextFinding("observation_point", "unclear", "figures are reported without saying where the clock was read",
                       ctx.d.evidence(f["lat"][:1] + f["rate"][:1]))


def tpot_definition(ctx) -> TextFinding:
    tpots = [h for h in figures(ctx)["tpot"] if not re.match(r"(?i)itl|inter", h[1].group(0))]
    if not tpots:
        # GenAI-Perf/AIPerf call (E2E - TTFT) / (output tokens - 1) "ITL": with that client named, its ITL is a
        # per-output-token figure whose definition the client fixes.
        itl = [h for h in figures(ctx)["tpot"] if re.match(r"(?i)itl|inter", h[1].group(0))]
        client = ctx.d.first(icase(r"genai-perf|\baiperf\b"))
        if itl and client:
            return TextFinding("tpot_definition", "ok", "ITL here is the named client's per-output-token latency "
                               "((E2E - TTFT) / (output tokens - 1))", ctx.d.evidence([client] + itl[:1]))
        return TextFinding("tpot_definition", "not_applicable", "no TPOT or ms-per-token figure reported")
    bad = icase(r"TPOT\s*\(\s*(?:ITL|inter[- ]token\s+latency)\s*\)|(?:ITL|inter[- ]token\s+latency)\s*\(\s*TPOT\s*\)|"
                r"TPOT\s*(?:,\s*)?(?:also\s+called|a\.k\.a\.?|aka|i\.e\.|or)\s+(?:ITL|inter[- ]token)|"
                r"TPOT\s*=\s*(?:E2E\w*|end[- ]to[- ]end\s+latency|total\s+latency|latency)\s*/\s*(?:\(?\s*(?:number\s+of\s+)?(?:output\s+|generated\s+)?tokens\s*\)?)(?!\s*[-−]\s*1)")
    b = ctx.d.first(bad)
    if b:
        return TextFinding("tpot_definition", "violation", "TPOT is conflated with ITL or divided by all tokens without saying so",
                           ctx.d.evidence([b]))
    good = icase(r"(?:E2E\w*|end[- ]to[- ]end(?:\s+latency)?|latency)\s*[-−–]\s*TTFT\s*\)?\s*/|first\s+token\s+(?:is\s+|was\s+)?(?:excluded|included)|"
                 r"(?:excluding|excl\.?|including|incl\.?)\s+(?:the\s+)?(?:1st|first)\s+token|\b[Nn]\s*[-−]\s*1\b|tokens?\s*[-−]\s*1\b|"
                 r"denominator|vLLM'?s\s+(?:definition|TPOT)|TPOT\s+here\s+is")
    # the measuring tools whose TPOT (or per-token latency) definition is fixed by their own code
    g = ctx.d.first(good) or ctx.d.first(icase(r"vllm\s+bench\s+serve|benchmark_serving(?:\.py)?|sglang\.bench_serving|bench_serving|"
                                               r"inference-perf|guidellm|mlx_lm\.generate|llama-bench|trtllm-bench|genai-perf|\baiperf\b|llmperf|"
                                               r"token_benchmark_ray"))
    if g:
        return TextFinding("tpot_definition", "ok", "TPOT denominator / first-token treatment stated or fixed by the named client",
                           ctx.d.evidence([g]))
    return TextFinding("tpot_definition", "unclear", "TPOT-like figure without its denominator or first-token treatment",
                       ctx.d.evidence(tpots[:2]))
