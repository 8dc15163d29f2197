"""Rules on latency figures: where the clock was read (observation_point) and what TPOT divides by
(tpot_definition).
"""

from __future__ import annotations

import re

from ..reading.lexicon import icase
from ..reading.mentions import figures, ratio_claims, tool_named
from ..reading.streams import ANY_CONCURRENCY, ONE_STREAM, ONE_USER, PER_STREAM, SEVERAL_STREAMS
from ..findings import TextFinding, said
from ..stack import gpu_counts

__all__ = ["observation_point", "tpot_definition"]


def observation_point(ctx) -> TextFinding:
    f = figures(ctx)
    # LABELLING.md: the rule applies to latency figures; a single-stream decode rate and a ratio of latency count as
    # latency figures (batches 1 and 2), a throughput alone does not
    ratios = [h for h in ratio_claims(ctx) if h[2] == "latency"]  # "1.5倍的推理延迟减少": a latency figure too
    if not (f["lat"] or f["rate"] or f["goodput"] or ratios):
        return TextFinding("observation_point", "not_applicable", "no latency or throughput figure reported")
    # "gets its first token in ~72 ms" is a TTFT too, and a decode rate of the one user a write-up states is single-stream
    latency = (f["lat"] or f["goodput"] or single_stream_rates(ctx) or ratios or list(ctx.d.hits(_FIRST_TOKEN_TIME))
               or _one_user_decode(ctx))
    rx = icase(r"(?:measured?|measures|observed|tim(?:ed|ing)|recorded|taken)\s+(?:\w+\s+){0,2}?(?:at|on|by|from|in|as)\s+(?:the\s+|our\s+|a\s+|each\s+)?"
               r"(?:[\w-]+\s+){0,2}?(?:client|server|load\s*gen\w*|engine|gateway|proxy|harness)|"
               r"\bclient\s+(?:runs?|ran|is|was|sits?)\s+(?:on|in|from)\b|"
               r"latenc\w+\s+(?:\w+\s+){0,2}?(?:include|exclude)s?\s+(?:\w+\s+){0,2}?(?:network|queu\w+|transport|gateway)|"
               r"client[- ]side|server[- ]side|at\s+the\s+(?:benchmark\s+)?client|from\s+the\s+client|client[- ]observed|observation\s+point|"
               r"as\s+seen\s+by\s+the\s+(?:client|user)|engine[- ](?:side|metrics|logs)|/metrics\s+endpoint|prometheus|in-process|"
               # a named client script or driver that sends the requests is a client-side load script (LABELLING.md)
               r"\b[\w-]*(?:bench|client|load|stress|driver|request|perf|latency|speed|timing|efficiency)[\w-]*\.(?:py|sh)\b|\bbenchmark\s+(?:driver|script|client|harness)\b|"
               # a timer around the forward call; the client's first streamed chunk (batches 6-10). Tools that time their
               # own runs (llama.cpp's printout, evalscope perf, asiai, ...) are _DEFINING_TOOLS, read below.
               r"(?:synchronize\(\)|time\.time\(\)|time\.perf_counter\(\))|first\s+(?:SSE\s+)?chunk|"
               r"\b(?:simulated\s+)?(?:clients?|users?)\s+(?:\w+\s+)?(?:send|sent|sends|sending|issue[sd]?|submit(?:ted|s)?)\s+(?:\w+\s+)?requests\b|"
               r"\bsimulated\s+(?:clients|users)\b|"
               # the same in Chinese and Japanese: "使用128个请求和32个客户端", "複数のクライアント（1から32まで）... リクエストを送信"
               r"\d+\s*个\s*客户端|客户端[^。\n]{0,20}?(?:发送|发出)[^。\n]{0,10}?请求|クライアント[^。\n]{0,40}?リクエスト[^。\n]{0,20}?送信|"
               # a named script or bench binary that produced the figures ("X.py takes 14.41 seconds", "MNN 使用 llm_bench")
               r"\b[\w-]+\.py\s+(?:takes|took|reports?|measured|gives|gave)\b|"
               r"(?:使用|\busing|\bwith|\bvia|\bran)\s*`?(?:\./)?[\w-]*bench[\w-]*`?(?=[\s,.;:)`]|$)|(?<![\w/])\./[\w-]*bench[\w-]*\b")
    # an in-process tool that times its own runs (optimum-benchmark, litgpt generate, llama-bench) is named too
    hit = ctx.d.first(rx) or tool_named(ctx) or ctx.d.first(_DEFINING_TOOLS) or ctx.d.first(_SINGLE_SEQUENCE_TOOLS)
    if not latency:
        # LABELLING.md: the rule applies to latency figures (a single-stream decode rate or a latency ratio among them);
        # throughput figures alone have no observation point to judge, whether or not a benchmark tool is named
        return TextFinding("observation_point", "not_applicable", "throughput figures only: no latency figure whose timing "
                           "point matters", ctx.d.evidence([hit] if hit else f["rate"][:1]))
    if hit:
        return TextFinding("observation_point", "ok", f"the latency figures (first: {said(ctx, latency[0][:2])}) are timed where "
                           f"{said(ctx, hit)} says, or by the named client", ctx.d.evidence([hit, latency[0][:2]]))
    return TextFinding("observation_point", "unclear", f"the latency figure {said(ctx, latency[0][:2])} comes with nothing "
                       "saying where the clock was read (client, server, in-process)", ctx.d.evidence([latency[0][:2]] + f["lat"][:1]))


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
        stream = single_stream_rates(ctx)
        if not stream:
            return TextFinding("tpot_definition", "not_applicable", "no TPOT or ms-per-token figure reported")
        where = f"'{ctx.d.sentence(*stream[0]).strip()[:60]}' (line {ctx.d.ev(stream[0][0], stream[0][1].start())[0]})"
        fixed = ctx.d.first(_DEFINING_TOOLS)
        if fixed:
            return TextFinding("tpot_definition", "ok", f"the single-stream decode rate {where} is timed by the named tool, "
                               "whose definition fixes it", ctx.d.evidence(stream[:1] + [fixed]))
        return TextFinding("tpot_definition", "unclear", f"the single-stream decode rate {where} is a per-output-token figure; "
                           "the text does not say how it is timed (first token in or out)", ctx.d.evidence(stream[:2]),
                           reason="not_stated")
    bad = icase(r"TPOT\s*\(\s*(?:ITL|inter[- ]token\s+latency)\s*\)|(?:ITL|inter[- ]token\s+latency)\s*\(\s*TPOT\s*\)|"
                r"TPOT\s*(?:,\s*)?(?:also\s+called|a\.k\.a\.?|aka|i\.e\.|or)\s+(?:ITL|inter[- ]token)|"
                r"TPOT\s*=\s*(?:E2E\w*|end[- ]to[- ]end\s+latency|total\s+latency|latency)\s*/\s*(?:\(?\s*(?:number\s+of\s+)?(?:output\s+|generated\s+)?tokens\s*\)?)(?!\s*[-−]\s*1)")
    b = ctx.d.first(bad)
    if b:
        return TextFinding("tpot_definition", "violation", f"{said(ctx, b)} equates TPOT with ITL or divides by all output "
                           "tokens (first included) without saying so", ctx.d.evidence([b]))
    good = icase(r"(?:E2E\w*|end[- ]to[- ]end(?:\s+latency)?|latency)\s*[-−–]\s*TTFT\s*\)?\s*/|first\s+token\s+(?:is\s+|was\s+)?(?:excluded|included)|"
                 r"(?:excluding|excl\.?|including|incl\.?)\s+(?:the\s+)?(?:1st|first)\s+token|\b[Nn]\s*[-−]\s*1\b|tokens?\s*[-−]\s*1\b|"
                 r"denominator|vLLM'?s\s+(?:definition|TPOT)|TPOT\s+here\s+is|"
                 # the first token left out or the divisor named in other words ("each subsequent token", "divided by number
                 # of output tokens", "during steady-state generation", "for the decoding stage": batches 2-10)
                 r"\beach\s+subsequent\s+token|\bafter\s+the\s+first\s+(?:token|step)|"
                 r"divided\s+by\s+(?:the\s+)?(?:number\s+of\s+)?(?:output|generated)\s+tokens|"
                 r"(?:during|in)\s+steady[- ]state\s+(?:generation|decod\w+)|for\s+the\s+decod(?:e|ing)\s+stage")
    # the measuring tools whose TPOT (or per-token latency) definition is fixed by their own code
    g = ctx.d.first(good) or ctx.d.first(_DEFINING_TOOLS)
    if g:
        return TextFinding("tpot_definition", "ok", f"{said(ctx, g)} states the per-token denominator and first-token "
                           "treatment, or names a client whose code fixes them", ctx.d.evidence([g] + tpots[:1]))
    return TextFinding("tpot_definition", "unclear", f"the per-token figure {said(ctx, tpots[0])} comes without its "
                       "denominator or whether the first token is counted", ctx.d.evidence(tpots[:2]))


# the measuring tools whose per-token latency (or decode rate) definition is fixed by their own code
_DEFINING_TOOLS = icase(r"vllm\s+bench\s+serve|benchmark_serving(?:\.py)?|sglang\.bench_serving|bench_serving|"
                        r"inference-perf|guidellm|mlx_lm\.generate|litgpt\s+generate|llama-bench|trtllm-bench|genai-perf|\baiperf\b|llmperf|"
                        r"token_benchmark_ray|optimum-benchmark|\baisbench\b|\btg\d{2,}\b|"
                        # printouts and clients whose per-token figure is their own computation (batches 6-10)
                        r"llama_print_timings|llama_perf_context_print|\bevalscope\s+perf\b|\bvllm-benchmark\b|benchmark_genai|\basiai\b|"
                        # `ollama run --verbose`, whose printout gives 'eval rate' = eval count / eval duration
                        r"\bollama\s+run\b[^\n]*--verbose|(?m:^)\s*eval\s+rate:")
_SINGLE_SEQUENCE_TOOLS = icase(r"llama-bench|mlx_lm\.generate|litgpt\s+generate|mistralrs[- ]bench|\btg\d{2,}\b")


# the first token's time given as a duration ("gets its first token in ~72 ms"): a TTFT figure
_FIRST_TOKEN_TIME = icase(r"first\s+token\s+(?:in|after|within)\s+(?:about\s+|~\s*|≈\s*)?\d[\d,.]*\s*(?:ms|s|seconds?)\b")


def _one_user_decode(ctx) -> list:
    """Decode rates and ratios of generation speed in a write-up that states one user or session (or batch 1), on any
    line, and no larger batch or concurrency anywhere: single-stream decode rates, so latency figures for
    observation_point (LABELLING.md)."""
    from ..reading.mentions import decode_rates

    if not ctx.d.first(ONE_USER) or ctx.d.first(SEVERAL_STREAMS):
        return []
    return decode_rates(ctx) + [h for h in ratio_claims(ctx) if h[2] == "decode"]


_DRAFTING = icase(r"\bdraft(?:[- ]models?|ing)?\b|speculative|spec[-_ ]decod\w*|--model-draft|投机|推测解码")
"""A write-up whose runs draft tokens (a draft model, '3090-with-draft'): its bare tok/s compares drafting setups."""
_SPREAD = icase(r"per[- ]GPU|/\s*GPU\b|offline\s+(?:throughput|inference|batch)")
"""Rates spread over GPUs or taken offline (a batch at once): not one stream's speed, even where no concurrency is named."""
_GENERATES = icase(r"generat|decod|\beval\s+(?:rate|time)|生成|解码|デコード")


def one_local_stream(ctx) -> bool:
    """Whether the write-up evidently runs one stream on one device: it speaks of generating tokens, and nothing in it
    runs two streams at once (no batch, concurrency, users or request rate), spreads a rate over GPUs, runs offline, or
    counts more than one GPU (llama.cpp on a laptop, one generation in a browser)."""
    key = "one_local_stream"
    if key not in ctx.cache:
        ctx.cache[key] = bool(ctx.d.first(_GENERATES, scope="any")) and not ctx.d.first(ANY_CONCURRENCY, scope="any") \
            and not ctx.d.first(_SPREAD, scope="any") and not any(n > 1 for n, *_ in gpu_counts(ctx))
    return ctx.cache[key]


def single_stream_rates(ctx) -> list:
    """Decode-rate figures of one stream (LABELLING.md: a single-stream decode rate is a decode-rate figure, so
    tpot_definition applies; a decode speed with no batch stated is not a per-token latency)."""
    from ..reading.mentions import decode_rates

    rates = decode_rates(ctx)
    if not rates:
        return []
    from ..speculative import speculative_used
    from .throughput import cell_labels

    # LABELLING.md: decode tok/s from a named single-sequence bench tool counts as single-stream
    tool = ctx.d.first(_SINGLE_SEQUENCE_TOOLS)
    # one stream stated for the whole write-up ("batch_size=1", "单并发", "That's single user") and no other batch or
    # concurrency anywhere, or evident (one local generation, nothing concurrent): every decode rate in it is that
    # stream's. Not in a speculative-decoding comparison: its bare tok/s is a throughput figure (LABELLING.md, batch 3)
    alone = ((ctx.d.first(ONE_STREAM) or ctx.d.first(ONE_USER)) and not ctx.d.first(SEVERAL_STREAMS)) \
        or (one_local_stream(ctx) and not (speculative_used(ctx) or ctx.d.first(_DRAFTING)))
    out = []
    for i, m in rates:
        line = ctx.d.line_text(i, m.start(), m.end())
        if ctx.d.w.blocks[i].kind == "table":
            line += " " + ctx.d.header(i) + " " + cell_labels(ctx, i, m.start())
        figure = ctx.d.w.blocks[i].kind == "table" or ctx.d.plains[i][m.start():m.start() + 1].isdigit()  # a value, not a unit named
        if tool or PER_STREAM.search(line) or (alone and figure):
            out.append((i, m))
    return out
