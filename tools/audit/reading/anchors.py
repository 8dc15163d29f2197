"""Where a write-up reports results, and which statements of the stack speak for each of them.

A document that measures several setups states the stack per section ("### Online latency: Llama2-70B
on 8xA100"), per table row, or once for all (a "Setup" section, the title). An item is declared only
when it is declared for every measured setup (LABELLING.md "Several setups"), so a reviewer checks,
for each reported result, whether something stated covers it.

``anchors(ctx)`` finds the results of the measured runs: prose sentences that report a performance
figure (a number with a latency, rate, ratio or percentage unit) and table rows holding a figure under
a metric header (``reading.claims``). ``uncovered(ctx, hits)`` returns the results no hit speaks for.
A statement covers the results of its own section and of the sections below it; a statement in a
section that reports no result (a setup or methodology section, an introduction, the text before the
first heading) covers every result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .firstchars import guard
from .statements import capability

__all__ = ["Anchor", "anchors", "in_results", "uncovered"]

# A performance figure in prose; "4x H100" and "2x A100-80G" are counts, not ratios.
_FIGURE = re.compile(r"(?<![\w.])\d[\d,]*(?:\.\d+)?\s*(?:k\s*)?(?:ms|s|sec|seconds|tok(?:en)?s?\s*/\s*s(?:ec)?|tokens?\s+per\s+second|"
                     r"t/s|tps|req(?:uest)?s?\s*/\s*s|requests?\s+per\s+second|qps|rps|倍|tflops|gb/s|%|"
                     r"(?:x|×)(?!\s*(?:[A-Za-z]+[\s-]?)?\d|\s*(?:gpus?|nodes?|cards?|pods?|nvidia|amd|instinct|rtx|tesla)\b))(?![A-Za-z0-9_/])", re.I)
_PROSE = ("paragraph", "list_item", "quote")
_UNIT_LABEL = re.compile(r"\(\s*(?:ms|s|tok(?:en)?s?\s*/\s*s|t/s|req(?:uest)?s?\s*/\s*s|qps)\s*\)\s*[:：]?\s*$", re.I)
_LABEL_NUMBER = re.compile(r"^\W*[^:：\n]{1,60}[:：]\s*~?\d")
_PRINTED = re.compile(r"(?im)^[ \t]*(?:mean|median|p\d\d|average|avg|total|output|input|request|successful)?[\w ()/%-]{0,40}?"
                      r"(?:ttft|tpot|itl|latency|throughput|tok(?:en)?s?/s|req(?:uest)?s?/s)[\w ()/%-]{0,30}:[ \t]*\d")
_METRIC_HEADER = re.compile(r"tok(?:en)?s?\s*/\s*s|\bt/s\b|\btps\b|\(\s*m?s\s*\)|\bms\b|latency|throughput|\bttft\b|\btpot\b|\bitl\b|"
                            r"req(?:uest)?s?\s*/\s*s|\bqps\b|\brps\b|speed|goodput|速度|吞吐|延迟|时延|スループット|レイテンシ", re.I)
# A section that states the setup for everything that follows, whatever figures it also gives.
# A section that states the setup for everything that follows, or sums up the whole document, whatever
# figures it also gives.
_SETUP = re.compile(r"\b(?:setup|set-up|configurations?|config|environment|hardware|testbed|test\s+bed|methodology|reproduc\w*|deployment|"
                    r"experimental\s+settings?|settings|system|platform|infrastructure|how\s+we\s+(?:ran|tested|measured)|"
                    r"summary|abstract|overview|tl;?\s?dr|scope|introduction|executive|highlights|key\s+(?:results|findings))\b|"
                    r"环境|配置|设置|硬件|平台|環境|設定|構成|摘要|概要|简介|概述|要約|総括|复现|再現", re.I)
# A list item or line that labels the stack: "Hardware: 8x H100", "GPU: A6000".
_LABELLED = re.compile(r"^\W*(?:hardware|gpus?|accelerators?|devices?|machine|instance|nodes?|model|engine|"
                       r"software|framework|precision|dtype|quantization|硬件|显卡|模型|引擎|精度)\W{0,3}\s*[:：]", re.I)
_MAX = 400
_FIGURE, _METRIC_HEADER = guard(_FIGURE), guard(_METRIC_HEADER)  # searched in every prose block and header: guarded


@dataclass
class Anchor:
    """One reported result: its block, where in it, and the sections it sits in (heading block indices)."""

    block: int
    start: int
    end: int
    sections: tuple[int, ...]


def _sections(ctx) -> list[tuple[int, ...]]:
    """Per block, the heading blocks it sits under, outermost first; a heading sits under itself too."""
    if "anchor_sections" not in ctx.cache:
        out: list[tuple[int, ...]] = []
        stack: list[tuple[int, int]] = []  # (level, block index)
        for i, b in enumerate(ctx.d.w.blocks):
            if b.kind == "heading":
                while stack and stack[-1][0] >= b.level:
                    stack.pop()
                stack.append((b.level, i))
            out.append(tuple(k for _, k in stack))
        ctx.cache["anchor_sections"] = out
    return ctx.cache["anchor_sections"]


def anchors(ctx) -> list[Anchor]:
    """The reported results of the measured runs (at most a few hundred, in document order)."""
    if "anchors" in ctx.cache:
        return ctx.cache["anchors"]
    from .cells import in_run, tables

    sections = _sections(ctx)
    found: dict[tuple[int, int], Anchor] = {}
    unit_above = False  # the list item above named the unit its children report: "Prefill speed (tokens/s):"
    for i, b in enumerate(ctx.d.w.blocks):
        if len(found) >= _MAX:
            break
        if b.kind not in _PROSE:
            unit_above = False
            continue
        text = ctx.d.plains[i]
        if b.kind == "list_item" and unit_above and _LABEL_NUMBER.match(text) and in_run(ctx, i, 0):
            a, e = ctx.d.line_bounds(i, 0)
            found.setdefault((i, a), Anchor(i, a, e, sections[i]))
        if b.kind == "list_item" and _UNIT_LABEL.search(text):
            unit_above = True
        elif b.kind != "list_item":
            unit_above = False
        for m in _FIGURE.finditer(text):
            if not in_run(ctx, i, m.start()):
                continue
            a, e = ctx.d.bounds(i, m.start(), m.end())
            if capability(text[a:e]):
                continue  # "LoRAX supports ... a speed-up of up to 2x": what the feature can do, not a result
            found.setdefault((i, a), Anchor(i, a, e, sections[i]))
            if len(found) >= _MAX:
                break
    for claim in ctx.d.claims:
        if len(found) >= _MAX:
            break
        if claim.metric is None or not in_run(ctx, claim.block, claim.start):
            continue
        a, e = ctx.d.line_bounds(claim.block, claim.start)
        found.setdefault((claim.block, a), Anchor(claim.block, a, e, sections[claim.block]))
    # A benchmark tool's printout in a code block ("Mean TTFT (ms):  25349.32", "Throughput: 8.98 requests/s").
    for i, b in enumerate(ctx.d.w.blocks):
        if b.kind == "code" and len(found) < _MAX and in_run(ctx, i, 0):
            m = _PRINTED.search(ctx.d.plains[i])
            if m:
                a, e = ctx.d.line_bounds(i, m.start())
                found.setdefault((i, a), Anchor(i, a, e, sections[i]))
    # Table rows with a number under a header that names a rate, a time or a ratio ("t/s", "TTFT (ms)", "speed-up").
    for t in tables(ctx):
        cols = [c for c, h in enumerate(t.header) if _METRIC_HEADER.search(h.text)]
        for row in t.rows if cols else []:
            if len(found) >= _MAX:
                break
            cell = next((row[c] for c in cols if c < len(row) and re.search(r"\d", row[c].text)), None)
            if cell is not None:
                a, e = ctx.d.line_bounds(t.block, cell.start)
                found.setdefault((t.block, a), Anchor(t.block, a, e, sections[t.block]))
    result = sorted(found.values(), key=lambda x: (x.block, x.start))
    ctx.cache["anchors"] = result
    return result


def uncovered(ctx, hits) -> list[Anchor]:
    """The results that none of ``hits`` ((block, match) statements) speaks for; [] when no result is found.

    A hit covers a result in the same block (a table's header or caption row, the same paragraph), in the
    heading blocks above it, or anywhere below the section the hit sits in. A hit in a section with no
    result of its own, or before the first heading, covers all results."""
    found = anchors(ctx)
    if not found:
        return []
    sections = _sections(ctx)
    with_results = {s for an in found for s in an.sections[-1:]}
    reach: set[int] = set()
    blocks: set[int] = set()
    blocks_all = ctx.d.w.blocks
    for i, m in hits:
        own = sections[i]
        line_start = ctx.d.line_bounds(i, m.start())[0]
        if not own or own[-1] not in with_results and not any(s in with_results for s in _below(ctx, own[-1])) \
                or _SETUP.search(blocks_all[own[-1]].text) or _LABELLED.match(ctx.d.plains[i], line_start):
            return []  # stated for everything: a setup section, the introduction, the top of the page
        reach.add(own[-1])
        blocks.add(i)
    return [an for an in found if an.block not in blocks and not reach.intersection(an.sections)]


def _below(ctx, heading: int) -> list[int]:
    """Heading blocks nested under ``heading`` (computed once per heading)."""
    memo = ctx.cache.setdefault("anchor_below", {})
    if heading in memo:
        return memo[heading]
    blocks = ctx.d.w.blocks
    level = blocks[heading].level
    out = []
    for k in range(heading + 1, len(blocks)):
        if blocks[k].kind == "heading":
            if blocks[k].level <= level:
                break
            out.append(k)
    memo[heading] = out
    return out


def in_results(ctx, rx: re.Pattern[str]) -> list[str]:
    """The matches of ``rx`` that name what a result is about: in the reported result itself (its sentence or
    table row), its table's header and caption, or the headings above it. Empty when nothing is found there
    (then every setting the runs name is the caller's best reading of the setups)."""
    found = anchors(ctx)
    out: list[str] = []
    seen_blocks: set[int] = set()
    by_block = {t.block: t for t in ctx.d.tables}
    for an in found:
        a, e = ctx.d.line_bounds(an.block, an.start, an.end)
        out += [m.group(0) for m in rx.finditer(ctx.d.plains[an.block], min(a, an.start), max(e, an.end))]
        for k in an.sections:
            if k not in seen_blocks:
                seen_blocks.add(k)
                out += [m.group(0) for m in rx.finditer(ctx.d.plains[k])]
        t = by_block.get(an.block)
        if t is not None and an.block not in seen_blocks:
            seen_blocks.add(an.block)
            out += [m.group(0) for m in rx.finditer(" ".join([h.text for h in t.header] + [t.caption]))]
    return out
