"""Mentions several groups and rules share: performance figures, decode rates, the benchmark client,
and the sentences that compare setups.
"""

from __future__ import annotations

import re

from .lexicon import DIGIT, GOODPUT, LAT_KW, RATE_FIG, REQ_RATE_FIG, SPEEDUP, TPOT_KW, icase
from .document import Spot
from .vocabulary import BENCH_TOOLS, ENGINE_RX

__all__ = ["comparison_hits", "compares", "decode_rates", "figures", "in_link_text", "listed_only", "ratio_claims", "tool_named",
           "within"]

_RATIO = icase(r"\b\d+(?:\.\d+)?\s*(?:[x×]|times)(?![\w])(?!\s*(?:nvidia\s+|amd\s+)?[a-z]{1,3}\d)|\b\d+(?:\.\d+)?\s*%\s+(?:faster|higher|lower|more|less|better|"
               r"speed-?up|improvement|reduction|increase)|(?:\d+(?:\.\d+)?|[一二三四五六七八九十]+)\s*倍|(?:提高|提升|加速)\s*(?:了\s*)?\d+(?:\.\d+)?\s*%|"
               # "~30% 加速", "20% 的性能提升": a percentage followed by the word for speed-up
               r"\d+(?:\.\d+)?\s*%\s*(?:的\s*)?(?:性能|速度|推理)?(?:加速|提速|提升)")
_RATIO_LATENCY = icase(r"ttft|tpot|itl|latency|time[- ]to|延迟|遅延|レイテンシ|首字")
_RATIO_DECODE = icase(r"decod(?:e|ing)\s+(?:speed|rate|throughput|latency)|(?:generation|decoding)\s+speed|token\s+generation|"
                      r"faster\s+(?:decoding|generation)|tokens?\s*/\s*s(?:ec)?\s+per\s+user|\btext\s+generation|speed-?up\s+(?:in|of|for)\s+(?:\w+\s+)?(?:generation|decoding)|生成(?:速度|加速)|解码|デコード")
_RATIO_SPEED = icase(r"faster|speed-?up|performance|throughput|boost|improv|higher|快|性能|吞吐|加速|提高|提升|高速|倍")


_SPOT_NAMES = {"ttft": "TTFT", "tpot": "TPOT", "itl": "ITL", "e2e": "latency", "prefill_latency": "prefill latency",
               "decode_latency": "decode latency", "request_rate": "requests/s", "goodput": "goodput"}
_GROUPS = {"ttft": ("lat",), "tpot": ("lat", "tpot"), "itl": ("lat", "tpot"), "e2e": ("lat",), "prefill_latency": ("lat",),
           "decode_latency": ("lat", "tpot"), "throughput": ("rate",), "decode_rate": ("rate",), "prefill_rate": ("rate",),
           "request_rate": ("req",), "goodput": ("goodput",)}


_LINK_TEXT = re.compile(r"\[([^\[\]\n]*)\]\(")


def in_link_text(text: str, pos: int) -> bool:
    """Whether ``pos`` falls inside the text of a markdown link ("[title](url)"): a cited work's title, not a figure."""
    return any(m.start(1) <= pos < m.end(1) for m in _LINK_TEXT.finditer(text))


_DATE = re.compile(r"\b(?:19|20)\d{2}([/-])(?:0?[1-9]|1[0-2])(?:\1(?:0?[1-9]|[12]\d|3[01]))?\b|"
                   r"\b(?:19|20)\d{2}\.(?:0?[1-9]|1[0-2])\.(?:0?[1-9]|[12]\d|3[01])\b|\b\d{1,2}([/.-])\d{1,2}\2\d{2,4}\b")
"""A date ('[26/06/04]', '2025-03-14', '2024/02'), not a value ('1024.5 ms'): a block whose only digits are one reports
no figure."""


def _numeric(ctx, i: int) -> bool:
    """Whether block ``i`` holds a number other than a date: asked only of blocks that name a metric, once per block
    for both views (the text is the same)."""
    memo = ctx.cache.setdefault("numeric", {})
    if i not in memo:
        text = ctx.d.plains[i]
        memo[i] = bool(DIGIT.search(text)) and bool(DIGIT.search(_DATE.sub("", text)))
    return memo[i]


def figures(ctx):
    """Latency, decode-rate, throughput and goodput figures (block, match)."""
    key = "figs:" + ctx.d.default_scope  # items read the 'run' view, rules the 'claims' view: one cache per view
    if key in ctx.cache:
        return ctx.cache[key]
    every = bool(ctx.d.first(SPEEDUP))  # "2.3x faster" in tokens per second: the metric is named without a number
    lat, tpot, rate, req = ([h for h in ctx.d.hits(rx) if every or _numeric(ctx, h[0])]
                            for rx in (LAT_KW, TPOT_KW, RATE_FIG, REQ_RATE_FIG))
    rate += [h for h in ctx.d.hits(icase(r"\b(?:output|input|total|prompt|generation)[_ ](?:token[_ ])?throughput\b"),
                                   ("paragraph", "list_item")) if every or _numeric(ctx, h[0])]
    # "[DistServe: ... for Goodput-optimized LLM Serving](https://arxiv.org/...)": a cited title names goodput, it reports none
    # ... and a '--goodput ttft:500' flag is the SLO a run is given, a setting, not a goodput it reports
    goodput = [(i, m) for i, m in ctx.d.hits(GOODPUT) if not in_link_text(ctx.d.w.blocks[i].text, m.start())
               and not ctx.d.plains[i].endswith("--", 0, m.start())]
    figs = {"lat": lat, "tpot": tpot, "rate": rate, "req": req, "goodput": goodput}
    # Tables as data: a column of figures whose metric is named only by its header glossary, caption or heading.
    seen = set()
    has = {group: {i for i, _ in hits} for group, hits in figs.items()}
    for claim in ctx.d.claims:
        column = (claim.block, claim.metric, claim.label)  # (not ``key``: that names this view's cache entry)
        if claim.metric is None or column in seen or not ctx.d.in_view(claim.block, claim.start):
            continue
        seen.add(column)
        name = _SPOT_NAMES.get(claim.metric, claim.label[:40] or claim.metric)
        hit = (claim.block, Spot(claim.start, claim.end, name))
        for group in _GROUPS.get(claim.metric, ()):
            if claim.block not in has[group]:
                has[group].add(claim.block)
                figs[group].append(hit)
    ctx.cache[key] = figs
    return figs


def decode_rates(ctx):
    """Token-rate figures that measure generation (not prefill/input/total)."""
    key = "decode:" + ctx.d.default_scope
    if key in ctx.cache:
        return ctx.cache[key]
    out = []
    # "total" tokens, not a total time ("6.93 sec total, 36.96 tokens/sec" is one generation's printout)
    prefill = re.compile(r"prefill|prompt\s+processing|\binput\b|\bpp\d+|(?<!sec\s)(?<!\ds\s)\btotal\b(?!\s+(?:time|duration|latency|elapsed))", re.I)
    decode = re.compile(r"output|generat|decode|\btg\d+", re.I)
    # a whole-run throughput (a table column "throughput", "aggregate") is not a decode rate unless it is per
    # user or per stream (LABELLING.md: aggregate whole-run throughput alone is not a decode-rate figure)
    # "thr" is how table headers shorten throughput ("per node output token thr (tok/s)")
    aggregate = re.compile(r"throughput|\bthr\b|吞吐|aggregate|across\s+all|total\s+tok", re.I)
    per_stream = re.compile(r"per[- ](?:user|request|stream|session|sequence)|/\s*(?:user|req|request|stream)\b|single[- ](?:stream|user|request|batch)|"
                            r"batch(?:[- ]size)?\s*(?:of\s*|=\s*)?1\b|\bbs\s*=\s*1\b|\bdecode\b|generation\s+speed|tokens?\s+per\s+second\s+per", re.I)
    verdict: dict[str, bool] = {}  # the same line is judged once, however many figures it holds
    for i, m in figures(ctx)["rate"]:
        line = ctx.d.line_text(i, m.start(), m.end())
        if ctx.d.w.blocks[i].kind == "table":
            line = line + " " + ctx.d.header(i)
        if line not in verdict:
            verdict[line] = (bool(prefill.search(line)) and not decode.search(line)) or \
                            (bool(aggregate.search(line)) and not per_stream.search(line))
        if verdict[line]:
            continue
        out.append((i, m))
    ctx.cache[key] = out
    return out


def ratio_claims(ctx) -> list[tuple[int, object, str]]:
    """Speed-up ratios ("2.3x faster", "5.6 faster than vanilla", "提高 70%", "27.79 倍"): (block, match, kind), kind
    'latency' (a ratio of latency), 'decode' (of generation speed), 'throughput' (of throughput) or 'bare' (no metric
    named). LABELLING.md judges each kind under its own rule."""
    key = "ratios:" + ctx.d.default_scope
    if key not in ctx.cache:
        from ..speculative import speculative_used

        speculating = bool(speculative_used(ctx))
        out = []
        for i, m in ctx.d.hits(_RATIO, ("paragraph", "list_item", "heading", "quote")):
            sentence = ctx.d.sentence(i, m)
            if not _RATIO_SPEED.search(sentence):
                continue  # "4x A100", "8 times the memory": not a speed-up
            # in a write-up about speculative decoding, a speed-up is one of generation speed
            decode = _RATIO_DECODE.search(sentence) or (speculating and not re.search(r"throughput|吞吐", sentence, re.I))
            kind = ("latency" if _RATIO_LATENCY.search(sentence) else "decode" if decode
                    else "throughput" if re.search(r"throughput|吞吐|スループット|tok(?:en)?s?\s*/\s*s|req", sentence, re.I) else "bare")
            out.append((i, m, kind))
            if len(out) >= 50:
                break
        ctx.cache[key] = out
    return ctx.cache[key]


def tool_named(ctx):
    return ctx.d.first(icase(BENCH_TOOLS))


def within(hits, h) -> bool:
    """Whether match h starts inside (or within 5 characters after) one of ``hits`` in the same block."""
    return any(i == h[0] and m.start() <= h[1].start() < m.end() + 5 for i, m in hits if i == h[0])


_COMPARISON = icase(r"\bvs\.?\b|\bversus\b|compared\s+(?:to|with|against)|\bcompar(?:e|ed|ing|ison)\b|(?:faster|slower|higher|lower|better|worse|more|less|greater|cheaper|quicker)\s+(?:\w+\s+){0,3}?than\b|relative\s+to|"
                    r"(?:than|vs\.?|against|over|relative\s+to)\s+(?:the\s+)?baseline|\bA/B\b|\bbeats?\b|outperform\w*|\d+(?:\.\d+)?\s*[x×]\s+(?:faster|higher|lower|more|better|speed-?up|the)|"
                    r"drops?\s+by|speed-?up\s+(?:over|of)|\bbecomes\b|switch(?:ed|ing)?\s+from\b|\bwent\s+from\s+~?\d|"
                    r"\b(?:the\s+)?fastest\s+(?:[\w.-]+\s+){0,3}?(?:on|in|of|available)\b|\bwith\s+and\s+without\b|\b(?:baseline|reference)\s*(?:\(|:)|\bregress(?:ed|ion|es)?\b|"
                    r"\b(?:improvement|reduction|increase|speed-?up|gain|drop)\b[^.\n]{0,80}?\bafter\s+(?:enabling|disabling|turning\s+(?:on|off)|switching\s+(?:on|off))\b|"
                    # Chinese and Japanese comparisons: 相比/相较/对比, 与 X 相比, 比 X 快, N 倍, 比べ, と比較, 上回る
                    r"相比|相较|对比|与\S{1,30}?比|较\S{1,30}?(?:提升|提高|快|慢|降低|减少|增加)|\d+(?:\.\d+)?\s*%\s*(?:的\s*)?(?:加速|提速)|比\s*[A-Za-z][\w.\- ]{0,30}?\s*(?:快|慢|高|低|提高|提升|减少|降低|多|少)|\d+(?:\.\d+)?\s*(?:[x×]\s*)?倍|比べ|と比較|に比較|上回|对照组|从\s*~?\d[\d,.]*\s*\S{0,8}?\s*(?:降|升|提|增|减)[低高升少加]?(?:到|至)")
_METRIC = r"(?:throughput|latency|inferences?/s\w*|tok(?:en)?s?/s|req(?:uest)?s?/s|concurrency|qps|ttft|tpot|itl|batch\s+size)"
_AXES = re.compile(_METRIC + r"\W*(?:vs\.?|versus)\s+(?:\w+\s+){0,3}?" + _METRIC, re.I)  # 'throughput vs concurrency': a chart's axes
_SETUP_HEADER = re.compile(r"\b(?:setup|config\w*|stack|engine|framework|system|variant|arm|version|commit|revision|build|branch|backend|method|mode|dtype|"
                           r"precision|quantization|hardware|gpu)\b", re.I)


def comparison_hits(ctx):
    """Sentences that compare setups, and tables whose header names what they compare (per view, as figures())."""
    key = "cmp:" + ctx.d.default_scope
    if key not in ctx.cache:
        ctx.cache[key] = list(_comparisons(ctx))
    return ctx.cache[key]


def compares(ctx) -> bool:
    """Whether ``comparison_hits`` finds anything, read only up to the first comparison when not read already."""
    key = "cmp:" + ctx.d.default_scope
    if key in ctx.cache:
        return bool(ctx.cache[key])
    return next(_comparisons(ctx), None) is not None


def listed_only(ctx, hits) -> bool:
    """Whether the comparisons found are all tables listing one setup per row, with nothing framing them as a
    comparison: no comparative word, no baseline row, not two engines side by side as columns (LABELLING.md)."""
    for i, m in hits:
        if ctx.d.w.blocks[i].kind != "table" or _COMPARISON.search(m.group(0)) or _BASELINE_CELL.search(ctx.d.plains[i]):
            return False
        if len({e.group(0).lower() for e in ENGINE_RX.finditer(ctx.d.header(i))}) >= 2 or _toggled_rows(ctx.d.plains[i]):
            return False
    return True


def _toggled_rows(table: str) -> bool:
    """Rows labelled with and without one thing ('aggregated' / 'disaggregated', 'X' / 'no X'): one change set side by side."""
    labels = {m.group(1).strip().lower() for m in re.finditer(r"^\|?\s*([^|\n]+?)\s*\|", table, re.M)}
    heads = {re.split(r"[\s(]", x)[0] for x in labels if x}
    for label in labels:
        negated = _NEGATED_LABEL.match(label)
        if negated and re.split(r"[\s(]", label[negated.end():] + " ")[0] in heads:
            return True
    return False


_NEGATED_LABEL = re.compile(r"(?:dis|non-?|un|no\s+|w/o\s+|without\s+)(?=\w)")


_BASELINE_CELL = re.compile(r"(?:^|\|)\s*(?:\w+\s+)?(?:baseline|reference|vanilla|original|default|w/o\b|without\b|基线|基准|原始|默认)", re.I | re.M)
"""A table row or column labelled as the baseline ('| Baseline |', '| vanilla HF |', '| w/o X |')."""


def _comparisons(ctx):
    for i, m in ctx.d.hits(_COMPARISON):
        if not (m.group(0).lower().startswith(("vs", "versus")) and _AXES.search(ctx.d.window(i, m, 40, 40))):
            yield i, m
    for i, block in enumerate(ctx.d.w.blocks):
        if block.kind == "table":
            header = ctx.d.header(i)
            if _SETUP_HEADER.search(header) or re.search(r"stack\s+[ab]\b", header, re.I):
                yield i, re.search(r"\S", header)
