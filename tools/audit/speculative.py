"""Speculative decoding: whether the measured runs use it, and its draft, acceptance, verification and
rejected-work figures (contract group "speculative").

The four items are not_applicable unless the measured runs use speculative decoding, MTP or lookahead
(LABELLING.md): a mention in a feature list, a how-to, future work, or a sentence that says the runs
or the engine do not use it, is not use. Use is read from a command of the runs that sets a speculative
flag, a results table or heading about it, or a sentence about it that reports a figure or a gain.
"""

from __future__ import annotations

import re

from .reading.cells import cell_hits
from .reading.lexicon import icase
from .reading.vocabulary import patterns
from .findings import TextFinding, cite, run_setting, status_of, unless_declared

__all__ = ["spec_items", "speculative_used"]

_SPEC = (r"speculative|speculators?\b|spec[-_ ]decod\w*|\bdraft\s+(?:model|head|tokens?)|\bEAGLE-?\d?\b|\bMedusa\b|\bMTP\b|\bReDrafter\b|"
         r"multi[- ]token\s+prediction|n-?gram\s+(?:speculation|lookup|proposer)|lookahead\s+decoding|prompt\s+lookup|"
         r"suffix\s+decoding|投机(?:采样|解码|推理)|推测解码|投機的(?:デコーディング|サンプリング)|スペキュレイティブ")
# The clause before a mention that says it is not used: "turn off ... speculative decoding", "不支持".
_NEG_BEFORE = re.compile(r"(?:\bno\b|\bnot\b|\bwithout\b|\bdisabl\w*|\bturn(?:s|ed)?\s+off\b|\boff\b|\bexcept\b|不支持|不使用|未使用|"
                         r"不启用|关闭|禁用|不兼容|なし|無効)[^.;:\n。；]{0,60}$", re.I)
_NEG_AFTER = re.compile(r"(?:\s*(?:/|,|and|or)\s*[\w-]+)*\s*(?:decoding\s+)?(?:(?:was|is|are|were|stays?|left)\s+)?"
                        r"(?:disabled|off|not\s+(?:used|supported|enabled)|turned\s+off|unsupported)\b|\s*[:：]?\s*不支持", re.I)
# A sentence that reports what speculation did: a figure, a ratio, a gain.
_REPORTS = re.compile(r"\d(?:\.\d+)?\s*(?:x|×|%|倍|ms\b|tok|tokens?/s|t/s)|speed-?ups?|faster|accelerat\w+\s+\w*\s*\d|"
                      r"acceptance\s+(?:rate|length)\s*(?:of|:|=|is|was)?\s*\d|加速|倍", re.I)
# A feature list or how-to sentence: the engine can do it, the reader may use it.
_FEATURE = re.compile(r"\bsupports?\b|\bsupported\b|\bcan\s+(?:be\s+)?(?:use|enable|combine)|\byou\s+can\b|\ballows?\b|"
                      r"\bfeatures?\b|支持|可以|你可以|ことができ", re.I)


@run_setting
def speculative_used(ctx):
    """Mentions that show the measured runs use speculative decoding (block, match)."""
    rx = icase(_SPEC)
    used = []
    for i, m in ctx.d.hits(rx):
        text = ctx.d.plains[i]
        a, b = ctx.d.bounds(i, m.start(), m.end())
        if _NEG_BEFORE.search(text[a:m.start()]) or _NEG_AFTER.match(text, m.end()):
            continue
        kind = ctx.d.w.blocks[i].kind
        sentence = text[a:b]
        if kind in ("heading", "table"):
            used.append((i, m))
        elif _REPORTS.search(sentence) and not (_FEATURE.search(sentence) and not re.search(r"\d", sentence)):
            used.append((i, m))
    used += [(c.block, m) for c, f in ctx.d.flags("speculative") for m in [_flag_span(c, f)]]
    return used


def _flag_span(command, flag):
    from .reading.document import Spot

    return Spot(flag.offset, flag.offset + len(flag.written), f"{flag.written} {flag.value or ''}".strip())


def spec_items(ctx) -> list[TextFinding]:
    used = speculative_used(ctx)
    ids = ["spec_draft_tokens", "spec_acceptance", "spec_verification", "spec_rejected_work"]
    if not used:
        return [TextFinding(x, "not_applicable", "the measured runs do not use speculative decoding (no command, "
                                                 "table or reported figure of it)") for x in ids]
    because = f"speculative decoding in the runs: {cite(ctx, used, 1)}; "
    # k given as one number: a flag value, "k = 5", "5 draft tokens"; not a range ("3-4 heads") or an example.
    draft_decl = icase(r"num[_-]speculative[_-]tokens\W{0,4}(?:(?:to|of|is|as)\s+)?\d|--speculative-num-(?:draft-tokens|steps)[\s=]+\d|"
                       r"(?<![\d-])\d+\s+(?:draft|speculative|proposed|lookahead)\s+tokens|(?<![\d-])\d+-tokens?\s+draft|draft\s+(?:length|depth|tokens?)\s*(?:of\s*|[=:]\s*)?\d|"
                       r"\bk\s*=\s*\d+(?!\s*-?\s*bits?)\b|\bgamma\s*=\s*\d|\d[\d,]*\s+(?:proposed|drafted)\b|proposed\s+\d|"
                       r"(?<![\d-])\d+\s+(?:medusa\s+)?heads\b(?!\s+(?:will|would|can|could))")
    ranges = icase(r"\d+\s*[-–~]\s*\d+\s+(?:medusa\s+)?(?:heads|draft\s+tokens|tokens\s+ahead)")
    # an example value is not the runs' ("e.g. k=4"), unless the authors say they set it ("For example, we are setting ... to 5")
    draft = [h for h in ctx.d.hits(draft_decl) if not re.search(r"for\s+example|e\.g\.|such\s+as", ctx.d.window(*h, 40, 0), re.I)
             or re.search(r"\bwe\s+(?:are\s+|were\s+)?(?:set|setting|used?|using|ran|chose)\b", ctx.d.window(*h, 40, 0), re.I)]
    method = icase(patterns("speculative_methods", "patterns"))
    acc_decl = icase(r"accept\w*\s+(?:rate|length|ratio)\b[^.\n|;,]{0,30}?\d|acceptance[^.\n|;,]{0,25}?\d|\d+(?:\.\d+)?\s*%?\s+(?:acceptance|accepted)|"
                     r"accepted[_ ]tokens?\W*\d|mean\s+accepted|接受率[^。\n|]{0,20}\d")
    # Table columns or rows of these figures ("| avg accept length |", "| rejected draft tokens | 66,740 |").
    acc_cells = cell_hits(ctx, icase(r"accept\w*\s+(?:rate|length|len|ratio)|\bAL\b|accepted\s+tokens|接受"))
    ver_cells = cell_hits(ctx, icase(r"verif\w*\s+(?:steps|passes|calls|forward\w*|time|latency|cost)|target\s+forward"))
    rej_cells = cell_hits(ctx, icase(r"reject\w*\s+(?:draft\s+)?tokens|wasted|rejected"))
    ver_decl = icase(r"verif\w*\s+(?:passes|steps|calls|traffic|tokens|forward\w*|time|latency|cost)\b[^.\n|]{0,30}?\d|"
                     r"\d[\d,]*\s+(?:target\s+)?(?:verification|target)\s+(?:steps|passes|forward|calls)|"
                     r"target\s+(?:forward\s+passes|model\s+calls|verify\w*\s+forward)[^.\n]{0,30}\d")
    ver_part = icase(r"--speculative-num-draft-tokens[\s=]+\d|draft\s+tree|tree\s+(?:attention|shape|structure|verification)|"
                     r"--speculative-eagle-topk[\s=]+\d|"
                     # how the target checks the drafts, told without a figure ("calling the LLM to verify and accept")
                     r"\bverif(?:y|ies|ied|ying|ication|ier|iers)\b")
    rej_decl = icase(r"reject\w*[^.\n|]{0,40}?\d|\d[\d,.]*\s*%?\s+(?:rejected|wasted|discarded)|wasted\s+(?:draft|compute|work)[^.\n]{0,30}\d|"
                     r"\d[\d,]*\s+(?:accepted\s+)?(?:of|out\s+of)\s+\d[\d,]*\s+(?:proposed|draft(?:ed)?)")
    accepted = list(ctx.d.hits(acc_decl)) + acc_cells
    # (the vaguer statements are read only when nothing declares the item: unless_declared)
    draft_status = status_of(ctx, "spec_draft_tokens", draft, unless_declared(draft, ctx.d.hits(ranges), ctx.d.hits(method)),
                             "draft token count", "draft tokens per step stated",
                             "draft method named without one number of draft tokens per step")
    # LABELLING.md: acceptance must be measured; a description of the accept step is not partial.
    acceptance_status = status_of(ctx, "spec_acceptance", accepted, [], "measured acceptance rate or length",
                                  "acceptance rate/length reported", "")
    verified = list(ctx.d.hits(ver_decl)) + ver_cells
    verification_status = status_of(ctx, "spec_verification", verified, unless_declared(verified, ctx.d.hits(ver_part)),
                                    "verification figure or tree shape", "verification cost or traffic reported",
                                    "verification budget or tree named, no measured cost")
    return [
        _prefixed(because, draft_status),
        _prefixed(because, acceptance_status),
        _prefixed(because, verification_status),
        # An acceptance rate alone lets the rejected share follow, but does not quantify it (batch-3 clarifications).
        _prefixed(because, status_of(ctx, "spec_rejected_work", list(ctx.d.hits(rej_decl)) + rej_cells, accepted,
                                     "rejected draft tokens or wasted compute", "rejected work quantified",
                                     "only an acceptance rate, from which the rejected share merely follows")),
    ]


def _prefixed(because: str, finding: TextFinding) -> TextFinding:
    if finding.status == "missing":
        finding.why = because + finding.why
    return finding
