"""Rules on rates: which tokens a throughput counts (throughput_basis) and the SLOs behind goodput
(goodput_slo).
"""

from __future__ import annotations

import re

from ..reading.lexicon import icase
from ..reading.mentions import ratio_claims, figures, tool_named
from ..reading.streams import ANY_CONCURRENCY, ONE_STREAM, SEVERAL_STREAMS
from ..findings import TextFinding, said
from ..reading.tables import cell_meaning
from .timing import _SINGLE_SEQUENCE_TOOLS, one_local_stream

__all__ = ["cell_labels", "goodput_slo", "throughput_basis"]


def throughput_basis(ctx) -> TextFinding:
    f = figures(ctx)
    figs = f["rate"] + [h for h in f["req"] if not re.search(r"request[_ ]rate|arrival|poisson|--request-rate", ctx.d.sentence(*h), re.I)]
    figs += f["goodput"]
    if not figs:
        # LABELLING.md: a speed-up with no metric ("1.5x the performance") or a throughput ratio whose tokens are
        # not named falls under throughput_basis, unclear (not_stated)
        ratios = [(i, m) for i, m, kind in ratio_claims(ctx) if kind in ("bare", "throughput")]
        if not ratios:
            # a speed-up claimed beside how-to steps ("You can run the minimal example to see the speedup", a news item
            # with the commands to try it) is still a claim about performance
            saved, ctx.d.default_scope = ctx.d.default_scope, "any"
            try:
                ratios = [(i, m) for i, m, kind in ratio_claims(ctx) if kind in ("bare", "throughput")]
            finally:
                ctx.d.default_scope = saved
        if ratios:
            i, m = ratios[0]
            return TextFinding("throughput_basis", "unclear",
                               f"the ratio '{m.group(0)}' (line {ctx.d.ev(i, m.start())[0]}) does not say what is counted "
                               "(tokens or requests, aggregate or per user)", ctx.d.evidence(ratios[:2]))
        return TextFinding("throughput_basis", "not_applicable", "no throughput figure reported")
    basis_rx = re.compile(r"输入|输出|请求|生成|解码|预填充|入力|出力|リクエスト|(?:output|input)(?!\s+(?:of\s+)?(?:len\w*|length|seq\w*|\d))|total|\bout\b|\bin\b(?=\s+tok)|generat|prompt|prefill|decod|completion|\breq|request|\bRPS\b|\bQPS\b|text\s+generation|prompt\s+processing|goodput|\btg\d|\bpp\d|\bgen\b|"
                          # 'TG (256) T/s', 'PG (22) T/s': llama.cpp's token-generation and prompt tests; 't/s/u': per user
                          # llama-sweep-bench's S_PP / S_TG columns (prompt and generated tokens per second)
                          r"\b(?:TG|PG|PP)\s*\(?\s*\d|\bS_(?:PP|TG)\b|\bt/s/u\b|tok(?:en)?s?\s*/\s*s(?:ec)?\s*/\s*u(?:ser)?\b|"
                          r"\beval\s+(?:rate|count|duration)", re.I)
    unlabeled = []
    for i, m in figs:
        title = ctx.d.w.title or ""
        if not basis_rx.search(_around(ctx, i, m)) and not (ctx.d.w.blocks[i].kind == "heading" and basis_rx.search(title)):
            unlabeled.append((i, m))
    # The same figure labelled elsewhere ("decodes at 209 tok/s" in the title, "= 209 tokens/s" in the derivation)
    # is labelled.
    value = lambda m: (re.match(r"\d[\d,]*(?:\.\d+)?", m.group(0)) or m).group(0).replace(",", "")
    unlabeled_ids = {id(m) for _, m in unlabeled}
    labelled_values = {value(m) for _, m in figs if id(m) not in unlabeled_ids and m.group(0)[:1].isdigit()}
    unlabeled = [(i, m) for i, m in unlabeled if not (m.group(0)[:1].isdigit() and value(m) in labelled_values)]
    definition = ctx.d.first(icase(r"(?:prompt|input)\s*(?:\+|and|plus)\s*(?:completion|output)\s+tokens|"
                                   r"(?:throughput|speed|rate)\s+(?:is|counts|=)\s+(?:the\s+)?(?:\w+\s+){0,3}?(?:output|input|prompt|completion|total|generated)\s+tokens"))
    if unlabeled and definition:
        unlabeled = []
    # One stream at a time (batch size 1, one request at a time, tokens/s/user): its token rate counts the tokens
    # that stream generates, per stream (LABELLING.md after batch 4: TPS = 1000 / TPOT at concurrency 1)
    single = ctx.d.first(ONE_STREAM)
    if single and ctx.d.first(SEVERAL_STREAMS):  # other batch sizes too: only figures the statement is about
        unlabeled = [(i, m) for i, m in unlabeled if not ONE_STREAM.search(_around(ctx, i, m) + " " + ctx.d.w.blocks[i].section)]
        single = single if not unlabeled else None
    if unlabeled and single:
        return TextFinding("throughput_basis", "ok", "one stream at a time: the token rates count the tokens one stream "
                           f"generates (line {ctx.d.ev(single[0], single[1].start())[0]})", ctx.d.evidence(unlabeled[:1] + [single]))
    requests_only = all(re.search(r"req|goodput|request|attainment", m.group(0), re.I) for _, m in figs)
    scope = ctx.d.first(icase(r"aggregate|per[- ](?:user|session|gpu|request|stream|node|server|replica|instance)|summed\s+across|"
                              r"from\s+the\s+first\s+(?:streamed\s+)?token\s+to\s+the\s+last|/\s*(?:gpu|user|node|u)\b|"
                              r"divided\s+by\s+(?:the\s+)?(?:\w+\s+){0,4}?wall[- ]?(?:clock\s+)?time|"
                              r"\b(?:one|each|a\s+single|per)\s+(?:node|server|replica|instance)\s+(?:sustain|deliver|serve|reach|achieve|handle)\w*|"
                              r"single\s+(?:user|session|chat\s+session|request|stream)|"
                              r"batch\s+size\s+(?:of\s+)?1\b|concurrency\s+(?:of\s+)?1\b|one\s+(?:request\s+)?at\s+a\s+time|one\s+by\s+one|all\s+sessions")) \
        or tool_named(ctx) or ctx.d.first(_SINGLE_SEQUENCE_TOOLS)
    if unlabeled and one_local_stream(ctx):
        # a bare token rate of one local generation is that stream's generation speed, the basis evident
        # (LABELLING.md: "stated or evident")
        return TextFinding("throughput_basis", "ok", f"the token rate {said(ctx, unlabeled[0])} names no tokens, but nothing "
                           "in the write-up runs more than one stream at a time or on more than one GPU: it is one "
                           "stream's generation speed", ctx.d.evidence(unlabeled[:1]))
    if unlabeled:
        return TextFinding("throughput_basis", "unclear", f"the token rate {said(ctx, unlabeled[0])} does not say which "
                           "tokens it counts (input, output or both)", ctx.d.evidence(unlabeled))
    if scope or requests_only:
        return TextFinding("throughput_basis", "ok", f"the rates (first: {said(ctx, figs[0])}) state which tokens or requests "
                           "they count, and " + (f"{said(ctx, scope)} sets their scope" if scope else "a request rate is the run's own"),
                           ctx.d.evidence(figs[:1] + ([scope] if scope else [])))
    # a figure labelled as a run's throughput ("output token throughput", a table column "throughput(out tok/s)")
    # is evidently aggregate (LABELLING.md); only a bare rate leaves the scope open
    run_rate = re.compile(r"throughput|吞吐|スループット", re.I)
    if all(run_rate.search(ctx.d.sentence(i, m) + (" " + ctx.d.header(i) + " " + cell_labels(ctx, i, m.start())
                                                    if ctx.d.w.blocks[i].kind == "table" else ""))
           or re.search(r"req|request|\b[RQ]PS\b|goodput|attainment", m.group(0), re.I)  # a request rate counts the run's requests
           for i, m in figs):
        return TextFinding("throughput_basis", "ok", "token basis stated; a run's throughput is an aggregate",
                           ctx.d.evidence(figs[:1]))
    if not ctx.d.first(ANY_CONCURRENCY, scope="any"):
        # nothing in the write-up runs two streams at once (no batch, concurrency, users or request rate): a rate is one
        # stream's, so aggregate and per session coincide (LABELLING.md: the scope may be evident)
        return TextFinding("throughput_basis", "ok", f"the rate {said(ctx, figs[0])} names the tokens it counts, and nothing in "
                           "the write-up runs more than one stream at a time: aggregate and per-session rates coincide",
                           ctx.d.evidence(figs[:1]))
    return TextFinding("throughput_basis", "unclear", f"the rate {said(ctx, figs[0])} names the tokens it counts but not "
                       "whether it is aggregate or per session", ctx.d.evidence(figs[:2]))


def _around(ctx, i: int, m) -> str:
    """The figure's sentence and, in a table, its header, row label and caption: what says what the figure counts."""
    a, b = ctx.d.bounds(i, m.start(), m.end())
    text = ctx.d.plains[i][a:b]
    if ctx.d.w.blocks[i].kind == "table":
        # the row's other cells too: a llama-bench table names the test ('pp512', 'tg128') in a column of its own
        text += " " + ctx.d.header(i) + " " + cell_labels(ctx, i, m.start()) + " " + ctx.d.line_text(i, m.start())
        if ctx.d.line_bounds(i, m.start())[0] == 0:  # a unit in the header row: its rows say what each value counts
            text += " " + ctx.d.plains[i][:4000]
    elif ctx.d.w.blocks[i].kind == "list_item":
        text += " " + _parent_item(ctx, i)
    return text


def _parent_item(ctx, i: int) -> str:
    """The list item a nested item hangs under ("- 解码(Decode)速度 (tokens/s):" over "  - 与 llama.cpp ... 4.51 tokens/s"):
    a nested figure takes what it counts from its parent, as a table cell takes it from its header."""
    blocks = ctx.d.w.blocks
    indent = len(blocks[i].text) - len(blocks[i].text.lstrip())
    for k in range(i - 1, max(-1, i - 12), -1):
        if blocks[k].kind != "list_item":
            break
        own = len(blocks[k].text) - len(blocks[k].text.lstrip())
        if own < indent:
            return ctx.d.plains[k]
    return ""


def cell_labels(ctx, i: int, pos: int) -> str:
    """The row label, column header and caption/headings of the table cell at offset ``pos`` of block ``i``:
    a figure in a table takes what it counts from them ("prompt (16 toks) | 2.35 toks/sec")."""
    for table in ctx.d.tables_at(i):
        for r, row in enumerate(table.rows):
            for c, cell in enumerate(row):
                if cell.start <= pos <= cell.start + len(cell.text):
                    return " ".join(cell_meaning(table, r, c))
    return ""


def goodput_slo(ctx) -> TextFinding:
    g = figures(ctx)["goodput"]
    if not g:
        return TextFinding("goodput_slo", "not_applicable", "no goodput figure reported")
    slo = icase(r"(?:TTFT|TPOT|ITL|E2E\w*|latency)\s*(?:<=|≤|<|under|below|of\s+at\s+most|within|at\s+most)\s*\d|"
                r"\bSLOs?\b[^.\n]{0,60}\d+\s*(?:ms|s)\b|\w+:\d+\s*(?:ms)?\s+SLO|"
                # the thresholds given to the client ('--goodput ttft:500', '--goodput "time_to_first_token:5000 ..."')
                r"--goodput[\s=\\\"']+\w+:\d")
    s = ctx.d.first(slo)
    if s:
        return TextFinding("goodput_slo", "ok", f"the goodput figure {said(ctx, g[0])} comes with the SLO threshold "
                           f"{said(ctx, s)}", ctx.d.evidence([s] + g[:1]))
    return TextFinding("goodput_slo", "violation", f"the goodput figure {said(ctx, g[0])} is reported, and no TTFT, TPOT or latency "
                       "threshold that defines it is stated anywhere", ctx.d.evidence(g[:2]))
