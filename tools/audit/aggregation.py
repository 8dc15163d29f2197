"""How runs and requests were combined, and which samples were left out (contract group "aggregation").
"""

from __future__ import annotations

import functools
import json
import re
from importlib.resources import files

from .reading.document import Spot
from .reading.lexicon import icase
from .findings import TextFinding, status_of, unless_declared

__all__ = ["aggregation_rule", "exclusions"]


def aggregation_rule(ctx) -> TextFinding:
    rx = icase(r"(?:median|mean|average|best|worst|geometric\s+mean|max|min)\s+(?:run\s+)?(?:of|over|across)\s+(?:the\s+)?(?:\d+|three|five|ten|all)\b|"
               r"(?:over|across)\s+(?:all\s+|the\s+)?(?:\d[\d,]*|three|five|ten)\s+(?:\w+\s+)?(?:runs|repetitions|trials|iterations|seeds)|"
               r"\b(?:is|are)\s+the\s+(?:median|mean|average)\s+(?:of\s+)?(?:[\w/-]+\s+){0,6}?(?:we\s+)?(?:observed|measured)\b|"
               r"percentiles?\s+(?:are\s+|were\s+)?(?:(?:computed|calculated|taken)\s+(?:by\s+\S+\s+)?)?(?:over|across|per)\b|"
               r"reports?\s+the\s+(?:median|mean|best|average|worst|highest|lowest)|"
               r"(?:median|mean|average)\s+(?:\([^)]{0,20}\)\s+)?(?:over|across)\s+(?:that|each|every)\b|"
               r"\bone\s+run\s+per\b|\b(?:was|were)\s+run\s+once\b|"
               r"(?:ratio|computed\s+from)\s+(?:of\s+)?(?:the\s+)?total\s+\w+\s+(?:over|divided\s+by|/)\s+(?:the\s+)?total|"
               r"aggregat(?:ed|ion|ing)\s+(?:rule|over|across|by)|aggregation\s+rule|\b\d+\s+runs?\b[^.\n]{0,40}(?:report|take|median|mean|average)|"
               # "3 times that of SGLang" is a ratio, not repetitions
               r"\b(?:\d+|two|three|five|ten)\s+(?:times|runs|trials|repetitions)\b(?!\s+(?:that|those|faster|slower|higher|lower|more|less|"
               r"larger|smaller|better|worse|as|the|over|speed))[^.\n]{0,80}?\b(?:median|mean|average|best|worst)\b|"
               r"\bone\s+(?:measured\s+)?run\s+per\b|(?:重复|反复)\s*\d+\s*次[^。\n]{0,60}?(?:平均|中位数|最好|最佳)|"
               r"取\s*\d+\s*(?:次|个)[^。\n]{0,20}?(?:平均|中位数)|"
               r"\bthe\s+run\s+with\s+the\s+(?:median|best|worst|lowest|highest)")
    # "aggregate across all requests" (an adjective: the throughput's scope) is not a rule for combining samples.
    # "on average", "an average speed-up", "平均而言": a mean, but not over what (LABELLING.md: partial)
    part = icase(r"\baverag(?:ed|ing)\b|(?:multiple|several|repeated)\s+runs|\b(?:the\s+)?(?:mean|average)\s+(?:number|count|fraction|share)\s+of\b|"
                 r"\bon\s+average\b|\baverage\s+(?:speed-?ups?|gains?|improvements?)\b|平均而言|平均(?:来说|来看)|平均して|"
                 # a statistic of a rate or speed-up named without what it is taken over ("the average token generation
                 # rates", "mean speedup across context lengths", "最大推理速度")
                 r"\b(?:mean|average|median|maximum)\s+(?:[\w-]+\s+){0,2}?(?:speed-?ups?|rates|speeds?)\b|(?:最大|平均)[^\s，。|]{0,4}速度|"
                 # runs counted but not how they were combined ("(3 trials)", "5 batches of 10 runs each", "a single
                 # measurement" per point, "Summary across the full ladder": batches 5, 7, 8, 11)
                 r"\(\s*\d+\s+(?:trials|runs|repetitions|iterations)\s*\)|\b\d+\s+batches\s+of\s+\d+\s+runs\b|"
                 r"\ba\s+single\s+measurement\b|\bsummary\s+(?:row\s+)?across\b")
    return status_of(ctx, "aggregation_rule", list(ctx.d.hits(rx)), list(ctx.d.hits(part)) or _named_statistics(ctx), "aggregation rule",
                     "aggregation over samples/runs stated", "averaging mentioned without saying over what")


@functools.cache
def _statistics(key: str) -> re.Pattern[str]:
    """One pattern list of tools/audit/data/statistics.json, joined."""
    data = json.loads((files(__package__) / "data" / "statistics.json").read_text(encoding="utf-8"))
    return re.compile("|".join(f"(?:{p})" for p in data[key]["patterns"]), re.I)


def _named_statistics(ctx) -> list:
    """Latency or throughput figures named as a mean ('Mean TTFT (ms)', 'Average latency: 43.52 s') while no
    percentile is reported: samples were averaged, but the text does not say over what (LABELLING.md: partial).
    With percentiles beside them (a median is one), the combination is only implied by the percentiles (missing)."""
    if ctx.d.first(_statistics("spread")) or any(c.stat and c.stat.startswith("p") for c in ctx.d.claims):
        return []
    hits = [(c.block, Spot(c.start, c.end, c.label)) for c in ctx.d.claims
            if c.stat == "mean" and c.metric and ctx.d.in_view(c.block, c.start, "run")]
    return hits[:1] + list(ctx.d.hits(_statistics("named_statistic")))


_FAIL_COLUMN = re.compile(r"(?i)\bok\s*/\s*fail|\bfail(?:ed|ures?)?(?:\s+requests?)?\b|\bsuccess(?:ful)?(?:\s+requests?)?\b|\berrors?\b|失败|成功")


_COUNT = re.compile(r"\s*[\d,]+(?:\s*/\s*[\d,]+)?\s*%?\s*$")  # '16/16', '10,800/0', '0', '99.5%'


def exclusions(ctx) -> TextFinding:
    rx = icase(r"(?:no|none\s+of\s+the|zero|0)\s+(?:requests?|samples?|runs?)\s+(?:were\s+|was\s+)?(?:excluded|dropped|failed|removed|discarded)|"
               r"no\s+(?:request|sample)\s+(?:failed|was\s+(?:excluded|dropped))|none\s+(?:were|was)\s+(?:dropped|excluded|removed)|"
               r"(?:excluded|dropped|discarded|removed)\s+\d|\d[\d,]*\s+(?:of\s+[\d,]+\s+)?(?:requests?\s+)?(?:failed|errored|timed\s+out)|"
               r"(?:failed|errored|timed\s+out)\b[^.\n]{0,30}\d|(?:Successful|Failed)\s+requests:\s*\d+|"
               r"all\s+\d[\d,]*\s+requests\s+(?:completed|succeeded)|stay\s+in\s+the\s+denominator|no\s+(?:failures|errors)|"
               r"excluded\s+from\s+(?:the\s+)?results|error\s+rate\s*[:=]?\s*\d|"
               r"no\s+(?:requests?\s+|samples?\s+|runs?\s+)?(?:failed|errored|timed\s+out|errors|failures|timeouts)\b|"
               r"(?:every|all)\s+(?:valid\s+)?(?:requests?|samples?)\b[^.\n]{0,40}?\b(?:is|are|was|were)\s+kept|"
               r"(?:discard(?:ed)?|dropped|excluded)\s+(?:them|those|these)|(?:sent|issued|run)\s+first\s+and\s+discarded|"
               r"(?:these|they|those|which)\s+(?:are|were)\s+(?:not\s+counted|discarded|excluded|dropped)|"
               r"(?:first|initial|warm[- ]?up)\s+(?:\w+\s+){0,2}(?:was|were|is|are)\s+(?:discarded|dropped|excluded|not\s+counted)|"
               r"(?:count(?:ed|s)?|treated)\s+as\s+(?:not\s+good|bad|failures|failed|errors|SLO\s+misses)|"
               r"\d[\d,]*\s+(?:of\s+[\d,]+\s+)?requests?\b[^.\n]{0,40}?\b(?:failed|errored|timed\s+out|timeouts?|cancell?ed|rejected)\b|"
               r"(?:no|without)\s+(?:any\s+)?(?:failed|errored)\s+requests|"
               r"(?:shorter|longer|fewer|more)\s+than\s+\d[\d,]*\s+\w+\s+(?:are|were|is|was)\s+(?:excluded|dropped|discarded|removed|left\s+out|filtered\s+out)|"
               # "contended runs were discarded and rerun", "zero client errors in all runs", k6's 'http_req_failed: 0.00%',
               # GuideLLM's 'Request Failed 0/11', "Ignore the results from this run", "include all user requests"
               r"\b(?:\w+\s+)?(?:runs?|results?|samples?|iterations?|measurements?)\s+(?:were|was|are|is)\s+(?:discarded|dropped|excluded|ignored|removed|thrown\s+away)|"
               r"\b(?:zero|no|0)\s+(?:client\s+|server\s+)?(?:errors?|failures?|failed\s+requests)\s+(?:in|across|over|during)\b|"
               r"\bhttp_req_failed\W+\d|\brequests?\s+failed\s*[│|:]?\s*\d+\s*/\s*\d|"
               r"\bignore\s+the\s+results?\s+(?:from|of)\s+(?:this|that|the\s+first)\b|"
               r"\binclude[sd]?\s+all\s+(?:\w+\s+)?requests\b|"
               # a warm-up counted out by name ("one excluded warmup", "3 discarded warmup passes"), "no invalid outputs"
               r"\b(?:one|two|three|five|ten|\d+)\s+(?:excluded|discarded|dropped)\s+warm[- ]?ups?\b|\bno\s+invalid\s+(?:outputs|responses|results)\b|"
               # "9 used for metrics, excluding warmup", "All metrics exclude warmup prompt" (tt-metal reports, batch 14)
               r"\bexclud(?:e|es|ed|ing)\s+(?:the\s+)?(?:first\s+(?:run|request|prompt|iteration)|warm[- ]?up(?:\s+(?:prompts?|runs?|requests?|iterations?))?)\b")
    part = icase(r"outliers?\s+(?:were\s+)?(?:removed|excluded|dropped|filtered)|(?:removed|excluded|dropped|filtered)\s+outliers?|"
                 r"\bexclud\w+\s+(?:\w+\s+){0,3}?(?:requests?|samples?|runs?|outliers?|failures?|errors?)\b|\bfailed\s+requests")
    declared = list(ctx.d.hits(rx))
    # A results table with a failed/successful-requests column accounts for every sample (LABELLING.md exclusions).
    for t in ctx.d.tables:
        for c, h in enumerate(t.header):
            if _FAIL_COLUMN.search(h.text or "") and any(c < len(r) and _COUNT.match(r[c].text) for r in t.rows) \
                    and ctx.d.in_view(t.block, h.start, "run"):
                declared.append((t.block, Spot(h.start, h.start + len(h.text), h.text)))
                break
    return status_of(ctx, "exclusions", declared, unless_declared(declared, ctx.d.hits(part)), "statement on excluded or failed samples",
                     "excluded/failed samples accounted for", "exclusions mentioned without the criterion or count")
