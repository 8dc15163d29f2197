"""Rule evidence_class: peaks, ceilings, projections and estimates are not measurements.
"""

from __future__ import annotations

import functools
import json
import re
from importlib.resources import files

from ..reading.blocks import quote_line
from ..reading.lexicon import LAT_KW, RATE_FIG, icase
from ..reading.mentions import figures, ratio_claims
from ..reading.vocabulary import GPU_RX
from ..findings import TextFinding, said

__all__ = ["evidence_class", "in_values", "negated"]


def _table_values(ctx) -> list[str]:
    """Every number written in a table (the measured results, in most write-ups)."""
    return [n.replace(",", "") for i, b in enumerate(ctx.d.w.blocks) if b.kind == "table"
            for n in re.findall(r"\d[\d,]*(?:\.\d+)?", ctx.d.plains[i])]


def evidence_class(ctx, capacity: TextFinding) -> TextFinding:
    f = figures(ctx)
    other = ctx.d.first(icase(r"\d[\d,.]*\s*(?:[GT]B/s|[TP]FLOP/?s|[x×]\s+(?:faster|speed-?up|higher|lower|more|less))\b"))
    # a speed-up ratio ("~30% 加速", "up to 2.5 times higher effective throughput") is a performance figure too
    speedups = [(i, m) for i, m, _ in ratio_claims(ctx) if not negated(ctx.d.plains[i], m.start())
                and _SPEED_WORD.search(ctx.d.sentence(i, m))]
    if not (f["lat"] or f["rate"] or f["req"] or f["goodput"] or other or speedups) and capacity.status == "not_applicable":
        return TextFinding("evidence_class", "not_applicable", "no performance figure reported")
    prose = ("paragraph", "list_item", "heading", "quote", "table")
    # A measured maximum ("up to 2.2k tok/s", "peak throughput at concurrency 64") is a measurement; theory,
    # datasheet peaks and derivations from them are not.
    upto = icase(r"\bup\s+to\s+(?:\d[\d,.]*\s*(?:k\s*)?(?:x\b|×|%|tok(?:en)?s?\s*/\s*s|tokens?\s+per\s+second|t/s|req(?:uest)?s?\s*/\s*s|"
                 r"requests?\s+per\s+second|times|(?:concurrent\s+)?users)|[a-z]+\s+times)|"
                 r"(?<!off-)(?<!non-)\bpeak\b(?!\s+(?:load|traffic|hours?|usage|demand|concurrency|periods?|QPS|RPS|memory|FLOP\w*|bandwidth|compute|TFLOP\w*))")
    theory = icase(r"\btheoretical(?:ly)?\b|on\s+paper|max(?:imum)?\s+possible|max(?:imum)?\s+achievable\s+(?:memory\s+)?(?:bandwidth|FLOP\w*|TFLOP\w*|compute)|\broofline\b|\bpeak\s+(?:FLOP\w*|TFLOP\w*|bandwidth|compute)|"
                   r"bandwidth[^.\n]{0,80}(?:\s/\s|divided|so\b)|\d[\d,.]*\s*[GT]B/s\s*/\s*\d[\d,.]*\s*[GMT]B\b|(?<!\bno\s)(?<!\bnot\s)\bsynthetic\s+acceptance|(?<!\bno\s)(?<!\bnot\s)simulated\s+acceptance|"
                   # a spec-sheet compute figure used to derive a result ("1,979 TFLOPS ..., so prefilling ... takes 290 ms");
                   # the hardware's own FLOP:byte ratio ("83 TFLOPS，Flop:byte = 82:1") describes the GPU, not a result
                   r"\d[\d,.]*\s*[TP]FLOP/?S\b[^.\n]{0,160}?(?:\bso\b|therefore|thus|=(?!\s*\d+(?:\.\d+)?\s*:\s*\d)|divided|\s/\s)|"
                   # a measurement scaled by a hardware ratio is a projection ("scale the throughput by the bandwidth ratio")
                   r"\bscal(?:e|ed|ing)\s+(?:the\s+|our\s+)?[\w-]+\s+by\s+(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:bandwidth|FLOPS?|compute|memory|ratio)\b")
    # ... or a datasheet peak the text doubts can be reached ("it's unclear if a peak higher than ~950 GB/s is attainable
    # in practice", zeux/calm README, batch 11)
    labelled = icase(r"\bceiling\b|\bin\s+theory\b|upper\s+bound|\b(?:un)?attainable\b|\bdatasheet\b|\bspec(?:ification)?[- ]sheet\b|\bestimate[ds]?\b|not\s+(?:a\s+)?measure\w*|\bat\s+best\b|(?:upper|lower)\s+bound|projected|modelled|modeled|"
                     r"(?:vs|versus|against)\s+(?:the\s+)?measured|measured\s+(?:value|figure|result)s?\s+(?:is|are|was|were)")
    # "serves" as a verb of the run ("serves 64 users"), not inside a word or name ("observes", "first-come-first-serve")
    claim = icase(r"deliver\w*|achiev\w*|\bhits?\b|you\s+get|gets?\s+you|lands?\s+(?:at|around|near)|(?<![-\w])serves?\b|we\s+(?:see|get|measured)|runs?\s+at|decodes?\s+at|reach\w*|"
                  r"in\s+practice|real[- ]world|our\s+service|every\s+customer|customers")
    # "up to 3.0x at 64 users" names the measured operating point of a sweep: a measurement, not a peak claim.
    pinned = re.compile(r"\bat\s+(?:(?:a\s+)?(?:concurrency|batch(?:\s+size)?|bs|QPS|rate|N)\s*(?:of\s*|=\s*)?\d|"
                        r"\d[\d,]*\s+(?:concurrent\s+)?(?:users|requests|clients|sessions|streams|QPS|req/s))", re.I)
    measured = _table_values(ctx)
    ratios = [float(v) for v in re.findall(r"(\d+(?:\.\d+)?)\s*[x×](?![\w])", " ".join(
        ctx.d.plains[i] for i, b in enumerate(ctx.d.w.blocks) if b.kind == "table"))]
    live = lambda i, m: not negated(ctx.d.plains[i], m.start())
    # "the theoretical maximum of 200 GB/s", "on paper", "the maximum possible 3.87x": a figure the text itself calls
    # theoretical, or the most there could be, is labelled as a bound (a hardware figure it derives from is not)
    self_labelled = re.compile(r"theoretical|on\s+paper|achievable|possible|max(?:imum)?\s+possible", re.I)
    # "Empirically, seems like peak bandwidth is about 1700 GB/s": a peak the authors observed is a measurement.
    observed = re.compile(r"\bempirical(?:ly)?\b|\b(?:we|I)\s+(?:\w+\s+)?(?:measured|observed)\b|\bmeasured\s+(?:peak|max)", re.I)
    theories = [(i, m) for i, m in ctx.d.hits(theory, prose + ("code",)) if live(i, m) and not self_labelled.match(m.group(0))
                and not observed.search(ctx.d.sentence(i, m))]
    said_measured = re.compile(r"\b(?:we|I)\s+(?:\w+\s+)?(?:measured|observed|saw|got|recorded)\b|\bin\s+(?:our|these|the)\s+(?:runs?|tests?|benchmarks?)\b|"
                               r"\bmeasured\b", re.I)
    maxima = [(i, m) for i, m in ctx.d.hits(upto, prose) if live(i, m)
              and not (pinned.search(ctx.d.sentence(i, m)) or in_values(m.group(0), measured) or said_measured.search(ctx.d.sentence(i, m)))]
    # An "up to Nx" above every measured ratio in the tables inflates the measurements: treat it as a peak claim.
    inflated = [(i, m) for i, m in maxima if ratios and _ratio(m.group(0)) is not None and _ratio(m.group(0)) > max(ratios) * 1.05]
    peaks = theories + inflated
    if capacity.status == "violation":
        return TextFinding("evidence_class", "violation", "a capacity estimate is presented as measured serving capability "
                           f"(capacity_vs_workload: {capacity.why})", capacity.evidence)
    title = ctx.d.w.title or ""
    loose = None
    projections = list(ctx.d.hits(icase(r"\b(?:projected|extrapolated|simulated)\s+(?:from|performance|results?|figures?|using|with|by)\b")))
    if projections and (RATE_FIG.search(title) or LAT_KW.search(title)) and re.search(r"\d", title) \
            and not re.search(r"projected|estimated?|expected|simulated|up\s+to|ceiling", title, re.I):
        line = ctx.d.w.title_line or 1
        projected = next((h for h in projections if _of_the_results(ctx, h)), None)
        if projected:
            return TextFinding("evidence_class", "violation",
                               f"the headline '{' '.join(title.split())[:90]}' (line {line}) states as delivered a figure that "
                               f"{said(ctx, projected)} says is projected or simulated",
                               [(line, quote_line(ctx.d.w.lines[line - 1]))] + ctx.d.evidence([projected]))
        loose = projections[0]  # judged after the peaks, which may still make the headline a violation
    if peaks:
        if ctx.d.first(labelled, prose):
            return TextFinding("evidence_class", "ok", f"the peak or ceiling figures ({said(ctx, peaks[0])}) are labelled as such "
                               f"by {said(ctx, ctx.d.first(labelled, prose))}",
                               ctx.d.evidence([ctx.d.first(labelled, prose)]))
        # the claim must be made of the peak: in its block or the next one, not anywhere in the document
        near = [(i, m) for i, m in ctx.d.hits(claim, prose) if any(ctx.d.beside(i, j, following=True) for j, _ in peaks)]
        if near:
            return TextFinding("evidence_class", "violation",
                               f"{said(ctx, peaks[0], before=40)} is a peak, theoretical or inflated "
                               "figure presented as delivered performance",
                               ctx.d.evidence(peaks[:2] + [near[0]]))
        return TextFinding("evidence_class", "unclear", f"{said(ctx, peaks[0])} is peak or theoretical language, and no "
                           "sentence beside it says whether it was measured", ctx.d.evidence(peaks[:2]))
    if loose:
        line, at = ctx.d.w.title_line or 1, ctx.d.ev(loose[0], loose[1].start())[0]
        return TextFinding("evidence_class", "unclear",
                           f"the headline states a figure, and line {at} speaks of projected or simulated figures apart from the "
                           "write-up's own results: whether the headline figure is one of them is not said",
                           [(line, quote_line(ctx.d.w.lines[line - 1]))] + ctx.d.evidence([loose]), reason="ambiguous")
    if maxima and _setup_unstated(ctx):
        return TextFinding("evidence_class", "unclear",
                           f"{said(ctx, maxima[0], before=40)} is a best case with no setup given: "
                           "a measured maximum or a general promise cannot be told apart", ctx.d.evidence(maxima[:2]), reason="ambiguous")
    if speedups and not (f["lat"] or f["rate"] or f["req"] or f["goodput"]):
        # the write-up's only figures are speed-ups: each must be tied to what was measured (who measured, on which
        # hardware), else a result is restated as a property of the method (LABELLING.md after batch 1: unclear, ambiguous)
        loose = next((h for h in speedups if not _tied(ctx, *h)), None)
        if loose:
            return TextFinding("evidence_class", "unclear",
                               f"{said(ctx, loose, before=40)} states a speed-up with no measured setup "
                               "behind it: a measurement restated as a general property", ctx.d.evidence([loose]), reason="ambiguous")
        return TextFinding("evidence_class", "ok", "speed-ups are presented as measurements of named setups",
                           ctx.d.evidence(speedups[:2]))
    general = next((h for h in ctx.d.hits(_GENERAL, ("paragraph", "list_item", "heading", "quote")) if live(*h)), None)
    if general:
        # LABELLING.md: a measurement restated as a general property is unclear (ambiguous), not a violation
        return TextFinding("evidence_class", "unclear",
                           f"{said(ctx, general, before=40)} restates the measurements as a general "
                           "property beyond the setups measured", ctx.d.evidence([general]), reason="ambiguous")
    shown = (f["lat"] + f["rate"] + f["req"] + f["goodput"] + speedups)[:1]
    return TextFinding("evidence_class", "ok", (f"the figures (first: {said(ctx, shown[0][:2])}) are" if shown else "the figures are")
                       + " presented as measurements, with no peak, ceiling or projection among them", ctx.d.evidence(shown))


# a speed-up about performance, not about memory or capacity ("kv block 可以增加到 4 倍" is a capacity ratio)
_SPEED_WORD = icase(r"faster|speed-?up|performance|throughput|latency|加速|提速|速度|性能|吞吐|延迟|高速|スループット|レイテンシ")
# who measured it: the authors, a benchmark, an evaluation
_TIED = icase(r"\b(?:we|our|I)\b|我们|我們|私たち|\bobserved\b|\bmeasured\b|\bbenchmark\w*|\bevaluat\w*|测试|测得|实测|评估|評価|測定")


def _tied(ctx, i: int, m) -> bool:
    """Whether the speed-up's sentence, or the one before it ("我们的FP6 kernel在A100上 ... 。这使得 ... 高出2.65倍"),
    says who measured it or on which hardware."""
    a, b = ctx.d.bounds(i, m.start(), m.end())
    if a > 1:
        a = ctx.d.bounds(i, a - 2, a - 2)[0]
    text = ctx.d.plains[i][a:b]
    return bool(_TIED.search(text) or GPU_RX.search(text))


def _load_general() -> re.Pattern[str]:
    data = json.loads((files(__package__).parent / "data" / "claims.json").read_text(encoding="utf-8"))
    return icase("|".join(f"(?:{p})" for p in data["general_property"]["patterns"]))


# wordings that generalise a measurement beyond its setup (tools/audit/data/claims.json, with sources)
_GENERAL = _load_general()


_MEASURED_DATA = re.compile(r"\b(?:we|I)\s+(?:\w+\s+){0,2}?(?:measured|benchmarked|observed|saw|got|recorded|ran|tested|profiled|timed)\b|"
                            r"\bin\s+(?:our|my)\s+(?:runs?|tests?|benchmarks?|experiments?|measurements?)\b|"
                            r"!\[[^\]]*(?:bench|throughput|latency|ttft|tpot|perf|result|speed|chart|plot)", re.I)


def _shows_measurements(ctx) -> bool:
    """Whether the write-up shows measured data: a results table, a result printout, a chart, or a sentence
    saying what was measured. An 'up to' figure in a write-up that shows none stands alone as the claim."""
    for i, block in enumerate(ctx.d.w.blocks):
        if ctx.d.scopes[i] not in ("run", "background"):
            continue
        text = ctx.d.w.blocks[i].text
        if block.kind == "table" and re.search(r"\|\s*[\d.,]+\s*(?:\w+/s|ms|s|x|%)?\s*\|", text):
            return True
        if block.kind == "code" and re.search(r"(?:TTFT|TPOT|ITL|throughput|latency)[^\n]{0,40}?[:=|]\s*\d", text, re.I):
            return True
        if _MEASURED_DATA.search(text):
            return True
    return False


def _setup_unstated(ctx) -> bool:
    """Neither the model nor the hardware of the measured runs is stated."""
    from ..stack import hardware, model_artifact

    return hardware(ctx).status == "missing" or model_artifact(ctx).status == "missing"


def _ratio(text: str) -> float | None:
    m = re.search(r"(\d+(?:\.\d+)?)\s*(?:x\b|×|times)", text, re.I)
    return float(m.group(1)) if m else None


def negated(text: str, start: int) -> bool:
    """Whether the clause before ``start`` negates what follows ("should not be read as the peak")."""
    clause = re.split(r"[.;:!?\n]", text[max(0, start - 60):start])[-1]
    return bool(re.search(r"\b(?:not|never|no|isn't|aren't|wasn't|weren't|cannot|can't|shouldn't|without)\b", clause, re.I))


def in_values(claim: str, values: list[str]) -> bool:
    """Whether the number in ``claim`` ("up to 2.3x") is one of ``values`` at the claim's precision (2.29 -> 2.3):
    an "up to" that quotes the best measured row is a measurement, not a peak."""
    n = re.search(r"\d[\d,]*(?:\.(\d+))?", claim)
    if not n:
        return False
    digits = len(n.group(1) or "")
    target = round(float(n.group(0).replace(",", "")), digits)
    return target in _rounded(tuple(values), digits)


@functools.lru_cache(maxsize=8)
def _rounded(values: tuple[str, ...], digits: int) -> frozenset[float]:
    return frozenset(round(float(v), digits) for v in values)


_OURS = re.compile(r"\b(?:we|our|us)\b", re.I)


def _of_the_results(ctx, hit) -> bool:
    """Whether a projection is the write-up's own results: stated in a table of its results or configurations, beside
    the headline (the title's block or the next two), or in a sentence about our own figures; not a remark about
    others' work ("Earlier studies reported results simulated with a roofline model")."""
    i, m = hit
    title = next((k for k, b in enumerate(ctx.d.w.blocks) if b.first_line == (ctx.d.w.title_line or 1)), 0)
    return ctx.d.w.blocks[i].kind == "table" or i - title <= 2 or bool(_OURS.search(ctx.d.sentence(i, m)))
