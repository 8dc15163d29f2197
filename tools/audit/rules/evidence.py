"""Rule evidence_class: peaks, ceilings, projections and estimates are not measurements.
"""

from __future__ import annotations

import re

from ..reading.blocks import quote_line
from ..reading.lexicon import LAT_KW, RATE_FIG, icase
from ..reading.mentions import figures
from ..findings import TextFinding

__all__ = ["evidence_class"]


def _table_values(ctx) -> list[str]:
    """Every number written in a table (the measured results, in most write-ups)."""
    return [n.replace(",", "") for i, b in enumerate(ctx.d.w.blocks) if b.kind == "table"
            for n in re.findall(r"\d[\d,]*(?:\.\d+)?", ctx.d.plains[i])]


def evidence_class(ctx, capacity: TextFinding) -> TextFinding:
    f = figures(ctx)
    if not (f["lat"] or f["rate"] or f["req"] or f["goodput"]) and capacity.status == "not_applicable":
        return TextFinding("evidence_class", "not_applicable", "no performance figure reported")
    prose = ("paragraph", "list_item", "heading", "quote", "table")
    peak = icase(r"\bup\s+to\s+(?:\d[\d,.]*\s*(?:k\s*)?(?:x\b|×|%|tok|tokens|t/s|req|ms\b|times|users)|[a-z]+\s+times)|(?<!off-)(?<!non-)\bpeak\b(?!\s+(?:load|traffic|hours?|usage|demand|concurrency|periods?|QPS|RPS))|\btheoretical(?:ly)?\b|on\s+paper|max(?:imum)?\s+(?:achievable|possible)|\broofline\b|"
                 r"memory[- ]bound|bandwidth[^.\n]{0,80}(?:\s/\s|divided|so\b)|(?<!\bno\s)(?<!\bnot\s)\bsynthetic\s+acceptance|(?<!\bno\s)(?<!\bnot\s)simulated\s+acceptance|"
               # a spec-sheet compute figure used to derive a result ("1,979 TFLOPS ..., so prefilling ... takes 290 ms")
                 r"\d[\d,.]*\s*[TP]FLOP/?S\b[^.\n]{0,160}?(?:\bso\b|therefore|thus|=|divided|\s/\s)")
    labelled = icase(r"\bceiling\b|\bin\s+theory\b|upper\s+bound|\bestimate[ds]?\b|not\s+(?:a\s+)?measure\w*|\bat\s+best\b|(?:upper|lower)\s+bound|projected|modelled|modeled|"
                     r"(?:vs|versus|against)\s+(?:the\s+)?measured|measured\s+(?:value|figure|result)s?\s+(?:is|are|was|were)")
    claim = icase(r"deliver\w*|achiev\w*|\bhits?\b|you\s+get|serves?\b|we\s+(?:see|get|measured)|runs?\s+at|decodes?\s+at|reach\w*|"
                  r"in\s+practice|real[- ]world|our\s+service|every\s+customer|customers")
    # "up to 3.0x at 64 users" names the measured operating point of a sweep: a measurement, not a peak claim.
    pinned = re.compile(r"\bat\s+(?:(?:a\s+)?(?:concurrency|batch(?:\s+size)?|bs|QPS|rate|N)\s*(?:of\s*|=\s*)?\d|"
                        r"\d[\d,]*\s+(?:concurrent\s+)?(?:users|requests|clients|sessions|streams|QPS|req/s))", re.I)
    measured = _table_values(ctx)
    peaks = [(i, m) for i, m in ctx.d.hits(peak, prose)
             if not (m.group(0).lower().startswith("up") and (pinned.search(ctx.d.sentence(i, m)) or in_values(m.group(0), measured)))]
    if capacity.status == "violation":
        return TextFinding("evidence_class", "violation", "a capacity estimate is presented as measured serving capability",
                           capacity.evidence)
    title = ctx.d.w.title or ""
    projected = ctx.d.first(icase(r"\b(?:projected|extrapolated|simulated)\s+(?:from|performance|results?|figures?|using|with|by)\b"))
    if projected and (RATE_FIG.search(title) or LAT_KW.search(title)) and re.search(r"\d", title) \
            and not re.search(r"projected|estimated?|expected|simulated|up\s+to|ceiling", title, re.I):
        line = ctx.d.w.title_line or 1
        return TextFinding("evidence_class", "violation", "the headline states a projected figure as delivered performance",
                           [(line, quote_line(ctx.d.w.lines[line - 1]))] + ctx.d.evidence([projected]))
    if peaks:
        if ctx.d.first(labelled, prose):
            return TextFinding("evidence_class", "ok", "peak/ceiling figures are labelled as such",
                               ctx.d.evidence([ctx.d.first(labelled, prose)]))
        if ctx.d.first(claim, prose):
            return TextFinding("evidence_class", "violation",
                               "a peak or theoretical figure is presented as delivered performance",
                               ctx.d.evidence(peaks[:2] + [ctx.d.first(claim, prose)]))
        return TextFinding("evidence_class", "unclear", "peak or theoretical language without saying what was measured",
                           ctx.d.evidence(peaks[:2]))
    return TextFinding("evidence_class", "ok", "figures are not presented as ceilings or peaks",
                       ctx.d.evidence((f["lat"] + f["rate"])[:1]))


def in_values(claim: str, values: list[str]) -> bool:
    """Whether the number in ``claim`` ("up to 2.3x") is one of ``values`` at the claim's precision (2.29 -> 2.3):
    an "up to" that quotes the best measured row is a measurement, not a peak."""
    n = re.search(r"\d[\d,]*(?:\.(\d+))?", claim)
    if not n:
        return False
    digits = len(n.group(1) or "")
    target = float(n.group(0).replace(",", ""))
    return any(abs(round(float(v), digits) - target) < 1e-9 for v in values)
