"""Whether per-request latency is reported as a distribution (contract group "distributions").
"""

from __future__ import annotations

import itertools
import re

from .reading.document import SENTENCE_REACH
from .reading.lexicon import COLUMN_GAP, LAT_KW, RATE_UNIT, icase
from .reading.streams import ONE_STREAM_WORDS
from .findings import TextFinding, cite, missing_finding

__all__ = ["latency_distributions"]


def latency_distributions(ctx) -> TextFinding:
    stat = icase(r"\b(p\d{2}(?:\.\d+)?|median|mean|average|averaged|avg|std(?:dev)?|stddev|standard\s+deviation|"
                 r"percentiles?|(?<![-_])min(?![-_])|(?<![-_])max(?![-_])|CDF|histogram)\b|(±|\+/-)")
    lat_stats: dict[str, tuple] = {}
    other_stats: dict[str, tuple] = {}
    for i, m in itertools.islice(ctx.d.hits(stat), 2000):  # bounded: a status is settled long before
        line = ctx.d.line_text(i, m.start(), m.end())
        is_table = ctx.d.w.blocks[i].kind == "table"
        around = line + (" " + ctx.d.header(i) if is_table else "")
        a, _ = ctx.d.line_bounds(i, m.start())
        header_like = not re.search(r"\d", re.sub(r"\bp\d{2}(?:\.\d+)?\b", "", line))
        if (is_table and a == 0) or (not is_table and header_like and len(COLUMN_GAP.findall(line)) >= 2):
            # A column header: a self-describing cell ("TTFT p50 (ms)", "avg accept length") speaks for
            # itself; a bare statistic ("p50") takes the row labels of the table (transposed layout).
            cell = _cell_at(line, m.start() - max(a, m.start() - SENTENCE_REACH), is_table)
            rest = re.sub(r"\b(?:p\d{2}(?:\.\d+)?|median|mean|average|avg|std\w*|min|max|ms|s)\b|[^A-Za-z]", " ", cell)
            around = cell if (LAT_KW.search(cell) or re.search(RATE_UNIT, cell, re.I) or re.search(r"[A-Za-z]{3,}", rest)) \
                else _row_labels(ctx, i, is_table)
        key = (m.group(1) or "std").lower()
        key = {"average": "mean", "averaged": "mean", "avg": "mean", "p50": "median", "stddev": "std",
               "standard deviation": "std"}.get(key, key)
        if LAT_KW.search(around) or (re.search(r"\bms\b", around) and not re.search(RATE_UNIT, around, re.I)):
            lat_stats.setdefault(key, (i, m))
            if len(set(lat_stats) - {"percentiles"}) >= 2:
                break  # already a distribution; the rest cannot change the status
        elif re.search(RATE_UNIT, around, re.I):
            other_stats.setdefault(key, (i, m))
    for i, key, hit in _describe_rows(ctx):
        lat_stats.setdefault(key, hit)
    per_req = list(ctx.d.hits(icase(r"per[- ]request\s+(?:records|latenc\w+|data|results|traces?)|--save-detailed|"
                                    r"histogram|\bCDF\b|percentile-metrics|metric-percentiles")))
    lat_stats.pop("percentiles", None)
    if len(lat_stats) >= 2 or (per_req and lat_stats):
        bare = _metrics_without_spread(ctx)
        if bare:
            return TextFinding("latency_distributions", "partial",
                               f"percentiles are given for some latency metrics, but {', '.join(sorted(bare))} only as a single value",
                               ctx.d.evidence(list(lat_stats.values()) + [h for m in sorted(bare) for h in bare[m][:1]]))
        return TextFinding("latency_distributions", "declared", "per-request latency is reported as a distribution: "
                           + cite(ctx, list(lat_stats.values()) + per_req, 3),
                           ctx.d.evidence(list(lat_stats.values()) + per_req))
    if lat_stats or other_stats or per_req:
        return TextFinding("latency_distributions", "partial",
                           "one statistic per latency metric (or only a throughput spread) is reported, not a distribution: "
                           + cite(ctx, list(lat_stats.values()) + list(other_stats.values()) + per_req, 2),
                           ctx.d.evidence(list(lat_stats.values()) + list(other_stats.values()) + per_req))
    figures = _latency_figures(ctx)
    if figures:
        return TextFinding("latency_distributions", "partial",
                           f"latency is reported as one value per setup (line {ctx.d.ev(figures[0][0], figures[0][1].start())[0]}), "
                           "with no percentiles or spread", ctx.d.evidence(figures))
    return missing_finding(ctx, "latency_distributions", "latency percentile or per-request record")


# "E2E pipeline (train -> export -> eval)", "end-to-end tests": the word names a scope of work, not a time;
# "latency-sensitive requests", "latency-bound": it qualifies a kind of traffic or regime, not a measured time.
_NOT_A_TIME = re.compile(r"[\s-]*(?:pipelines?|tests?|testing|training|flows?|workflows?|examples?|validation|integration|"
                         r"solutions?|systems?|stack|support|demo|sensitive|critical|bound|constrained|oriented)\b", re.I)


_RATIO = re.compile(r"\d[\d.,]*\s*(?:[-–~]\s*\d[\d.,]*\s*)?(?:x|×|%|倍|times)(?![A-Za-z])", re.I)
"""A ratio or a percentage ("2.2x", "22-32%", "5.7倍"): a change of latency, not a latency value."""
_VALUE = re.compile(r"(?<![A-Za-z0-9_.])\d[\d,.]*(?:\s*(?:ms|s|sec|secs|seconds?|µs|us|min)\b|\s*(?:毫秒|秒)|(?![A-Za-z0-9_]))")
"""A number standing alone or with a time unit, not inside a name ('A100', 'H20', 'Llama-3')."""


def _latency_figures(ctx) -> list:
    """Latency figures of the measured runs: TTFT, TPOT, ITL, E2E, ms per token (tables included), and
    single-stream decode rates (a one-user tok/s is a latency figure)."""
    from .reading.mentions import figures

    saved, ctx.d.default_scope = ctx.d.default_scope, "run"
    try:
        figs = figures(ctx)
    finally:
        ctx.d.default_scope = saved
    # a value, not only a ratio: "22-32% lower TTFT", "reduces latency by 2.2x" are no per-request latency (LABELLING.md,
    # batches 7-9)
    found = [h for h in figs["lat"] + figs["tpot"] if _VALUE.search(_RATIO.sub(" ", ctx.d.sentence(*h)))
             and not _NOT_A_TIME.match(ctx.d.plains[h[0]], h[1].end())]
    if not found:  # a table column of latency figures (header, glossary, caption or heading names the metric)
        from .reading.claims import LATENCY_METRICS
        from .reading.document import Spot

        found = [(c.block, Spot(c.start, c.end, c.label)) for c in ctx.d.claims
                 if c.metric in LATENCY_METRICS and ctx.d.in_view(c.block, c.start, "run")]
    if not found:
        found = [h for h in figs["rate"] if ONE_STREAM_WORDS.search(ctx.d.sentence(*h)) or ONE_STREAM_WORDS.search(ctx.d.header(h[0]))]
    if not found:  # the single-stream decode rates tpot_definition reads (one tool, batch 1, tg128: LABELLING.md)
        from .rules.timing import single_stream_rates

        found = single_stream_rates(ctx)
    return found[:3]


def _metrics_without_spread(ctx) -> dict[str, list]:
    """Latency metrics reported in tables only as a single statistic (mean or one value), while others
    have percentiles: 'percentiles of only one of several latency metrics' is partial."""
    from .reading.claims import LATENCY_METRICS
    from .reading.document import Spot

    stats: dict[str, set] = {}
    where: dict[str, list] = {}
    for claim in ctx.d.claims:
        if claim.metric in LATENCY_METRICS and ctx.d.in_view(claim.block, claim.start, "run"):
            name = {"decode_latency": "tpot", "prefill_latency": "ttft"}.get(claim.metric, claim.metric)
            stats.setdefault(name, set()).add("p50" if claim.stat == "median" else claim.stat)
            where.setdefault(name, []).append((claim.block, Spot(claim.start, claim.end, claim.label)))
    spread = {m for m, s in stats.items() if any(x and x.startswith("p") for x in s) or len(s - {None}) >= 2}
    if not spread:
        return {}
    # a metric given only as one unlabelled value or a mean, beside others with percentiles
    return {m: where[m] for m, s in stats.items() if m not in spread and s <= {None, "mean"}}


def _describe_rows(ctx):
    """(block, statistic, hit) for the statistic rows ("mean", "50%", "99%") of a printed summary frame
    (pandas ``describe()``) whose header row names latency columns (ttft_ms, tpot_ms, e2e_ms)."""
    out = []
    stat_row = re.compile(r"[ \t]*(mean|std|min|max|\d{2}(?:\.\d+)?%)[ \t]+-?\d")
    for i, block in enumerate(ctx.d.w.blocks):
        if block.kind != "code":
            continue
        text, header = ctx.d.plains[i], ""
        for line in re.finditer(r"[^\n]+", text):
            m = stat_row.match(text, line.start())
            if not m:
                if not re.match(r"\s*count\s", line.group(0)):
                    header = line.group(0)
                continue
            if re.search(r"(?<![a-z])(?:ttft|tpot|itl|e2el?|latency)(?![a-z])", header, re.I):
                stat = m.group(1).lower()
                key = "median" if stat == "50%" else "p" + stat[:-1] if stat.endswith("%") else stat
                out.append((i, key, (i, re.compile(re.escape(m.group(1))).match(text, m.start(1)))))
    return out


def _cell_at(line: str, col: int, is_table: bool) -> str:
    """The table cell (or space-aligned column) of ``line`` that holds column ``col``."""
    if is_table:
        a = line.rfind("|", 0, col) + 1
        b = line.find("|", col)
        return line[a:b if b >= 0 else len(line)]
    pieces = [(m.start(), m.end()) for m in re.finditer(r"\S+(?:\s\S+)*", line)]
    return next((line[a:b] for a, b in pieces if a <= col < b), line)


def _row_labels(ctx, i: int, is_table: bool) -> str:
    """First cell (or first space-aligned column) of every row of block i."""
    rows = ctx.d.plains[i].split("\n")[1:]
    if is_table:
        return " ".join(r.strip().strip("|").split("|")[0] for r in rows)
    # a rich-text printout (GenAI-Perf, AIPerf) frames its cells with box-drawing bars: '│ Request Latency (ms) │ 7,510 │'
    return " ".join(re.split(r"\s{2,}", _BOX.sub("  ", r).strip())[0] for r in rows)


_BOX = re.compile(r"\s*[│┃║]\s*")
