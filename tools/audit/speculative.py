"""Speculative decoding: whether the measured runs use it, and its draft, acceptance, verification and
rejected-work figures (contract group "speculative").
"""

from __future__ import annotations

import re

from .reading.lexicon import DIGIT, icase
from .findings import TextFinding, run_setting, status_of

__all__ = ["spec_items", "speculative_used"]


@run_setting
def speculative_used(ctx):
    rx = icase(r"speculative|spec[-_ ]decod\w*|\bdraft\s+(?:model|head|tokens?)|\bEAGLE\d?\b|\bMedusa\b|\bMTP\b|"
               r"multi[- ]token\s+prediction|n-?gram\s+(?:speculation|lookup|proposer)|lookahead\s+decoding|prompt\s+lookup")
    negated = re.compile(r"(?:no|without|disabled?|not\s+use\w*|off)\b[^.\n]{0,25}$", re.I)
    positive = []
    for i, m in ctx.d.hits(rx):
        text = ctx.d.plains[i]
        before = text[max(0, m.start() - 30):m.start()]
        after = text[m.end():m.end() + 60]
        if negated.search(before) or re.match(r"\s*(?:decoding\s+)?(?:was\s+|is\s+)?(?:disabled|off|not\s+used)", after, re.I) \
                or re.match(r"(?:\s*(?:/|,|and|or)\s*[\w-]+)*\s+(?:decoding\s+)?(?:was|is|are|were|stays?|left)\s+"
                            r"(?:disabled|off|not\s+used|turned\s+off)\b", after, re.I):
            continue
        positive.append((i, m))
    return positive


def spec_items(ctx) -> list[TextFinding]:
    used = speculative_used(ctx)
    ids = ["spec_draft_tokens", "spec_acceptance", "spec_verification", "spec_rejected_work"]
    if not used:
        return [TextFinding(x, "not_applicable", "no speculative decoding in the write-up") for x in ids]
    draft_decl = icase(r"num[_-]speculative[_-]tokens\W*\d|--speculative-num-(?:draft-tokens|steps)[\s=]+\d|"
                       r"\b\d+\s+(?:draft|speculative|proposed)\s+tokens|draft\s+(?:length|depth|tokens?)\s*(?:of\s*|[=:]\s*)?\d|"
                       r"\bk\s*=\s*\d|\bgamma\s*=\s*\d|\d[\d,]*\s+(?:proposed|drafted)\b|proposed\s+\d|\b\d+\s+(?:medusa\s+)?heads\b")
    acc_decl = icase(r"accept\w*\s+(?:rate|length|ratio)\b[^.\n|]{0,40}?\d|acceptance[^.\n|]{0,40}?\d|\d+(?:\.\d+)?\s*%?\s+(?:acceptance|accepted)|"
                     r"accepted[_ ]tokens?\W*\d|mean\s+accepted")
    ver_decl = icase(r"verif\w*\s+(?:passes|steps|calls|traffic|tokens|forward\w*)\b[^.\n|]{0,30}?\d|\d[\d,]*\s+(?:target\s+)?(?:verification|target)\s+"
                     r"(?:steps|passes|forward|calls)|target\s+(?:forward\s+passes|model\s+calls)[^.\n]{0,30}\d")
    rej_decl = icase(r"reject\w*[^.\n|]{0,40}?\d|\d[\d,.]*\s*%?\s+(?:rejected|wasted|discarded)|wasted\s+(?:draft|compute|work)[^.\n]{0,30}\d")
    method = icase(r"\bEAGLE\d?\b|\bMedusa\b|\bMTP\b|draft\s+(?:model|head)|n-?gram|speculative[-_ ]draft[-_ ]model")
    # A table column of acceptance figures ("| avg accept length |" over numeric rows) reports them.
    acc_cols = [(i, mm) for i, block in enumerate(ctx.d.w.blocks)
                if block.kind == "table" and DIGIT.search(ctx.d.plains[i][len(ctx.d.header(i)):])
                and (mm := re.search(r"accept\w*\s+(?:rate|length|len|ratio)|\bAL\b|accepted\s+tokens", ctx.d.header(i), re.I))]
    return [
        status_of(ctx, "spec_draft_tokens", list(ctx.d.hits(draft_decl)), list(ctx.d.hits(method)),
                  "draft token count", "draft tokens per step stated", "draft method named without the number of draft tokens"),
        status_of(ctx, "spec_acceptance", list(ctx.d.hits(acc_decl)) + acc_cols, list(ctx.d.hits(icase(r"accept\w*"))),
                  "acceptance rate or length", "acceptance rate/length reported", "acceptance mentioned without figures"),
        status_of(ctx, "spec_verification", list(ctx.d.hits(ver_decl)),
                  list(ctx.d.hits(icase(r"verif\w*|target\s+(?:model\s+)?(?:forward\s+pass(?:es)?|forward|step)s?\b"))),
                  "target verification traffic", "verification traffic reported", "verification mentioned without figures"),
        status_of(ctx, "spec_rejected_work", list(ctx.d.hits(rej_decl)), list(ctx.d.hits(icase(r"reject\w*|wasted"))),
                  "rejected draft work", "rejected work reported", "rejected work mentioned without figures"),
    ]
