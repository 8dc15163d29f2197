"""Rule steady_decode: decode-rate figures need outputs long enough to reach steady decode.
"""

from __future__ import annotations

import re

from ..reading.lexicon import EOS_IGNORED, IN_OUT_SHORT, OUTPUT_LEN_CAP, OUTPUT_LEN_FIXED, OUTPUT_LEN_IS, icase
from ..reading.mentions import ratio_claims, decode_rates, figures
from ..findings import TextFinding, hit_text, said
from ..workload import request_number, requested_output_hits, token_spans

__all__ = ["steady_decode"]


def steady_decode(ctx) -> TextFinding:
    rates = [h for h in figures(ctx)["tpot"] if not re.match(r"(?i)itl|inter", h[1].group(0))] + decode_rates(ctx)
    if not rates:
        # ITL percentiles are per-token decode figures too when nothing else measures decode.
        rates = [h for h in figures(ctx)["tpot"] if re.match(r"(?i)itl|inter", h[1].group(0))]
    if not rates:
        # a ratio of generation speed ("3x faster decoding") is a decode-rate figure too (LABELLING.md)
        rates = [(i, m) for i, m, kind in ratio_claims(ctx) if kind == "decode"]
    if not rates:
        return TextFinding("steady_decode", "not_applicable", "no decode-rate figure (TPOT, ms/token, decode tok/s)")
    spans = [s for s in token_spans(ctx) if s["kind"] == "output"]
    flag = icase(OUTPUT_LEN_FIXED + OUTPUT_LEN_IS + r"(\d+)|\btg\s?(\d{2,})\b|" + OUTPUT_LEN_CAP + OUTPUT_LEN_IS + r"(\d+)")
    fixed, caps, done = [], [], []
    requests = request_number(ctx)
    for s in spans:
        if s.get("total"):  # a run's token total says nothing per request without the request count
            if requests:
                done.append((s["value"] / requests, s["hit"]))
            continue
        if s["value"] >= 1:  # no output is 0 tokens long: a zero is some other figure
            (done if s["sub"] == "completed" else caps if s["cap"] else fixed).append((s["value"], s["hit"]))
    for i, m in ctx.d.hits(flag):
        v = int(m.group(1) or m.group(2) or m.group(3))
        (caps if m.group(3) else fixed).append((v, (i, m)))
    for i, m in ctx.d.hits(icase(IN_OUT_SHORT)):  # "1k in / 1k out": the second figure is the output length
        n, k = re.findall(r"(\d[\d,.]*)\s*(k?)", m.group(0), re.I)[-1]
        fixed.append((float(n.replace(",", "")) * (1000 if k else 1), (i, m)))
    # a length that cannot be the decode runs' own is not the length the decode-rate claim is made from
    # (LABELLING.md: "a decode-rate claim is made from them"): set aside, it backs no verdict either way
    apart = [x for group in (fixed, caps, done) for x in group if _not_decode_length(ctx, *x)]
    fixed, caps, done = ([x for x in group if x not in apart] for group in (fixed, caps, done))
    if ctx.d.first(EOS_IGNORED):
        fixed += caps
        caps = []
    else:
        fixed = [x for x in fixed if x[0] not in {v for v, _ in caps}]
    pool = done or fixed
    stated = [x for x in _requested_flags(ctx) + _requested_stated(ctx) if not _not_decode_length(ctx, *x)]  # read once
    if pool:
        # LABELLING.md: <= 32 tokens cannot show steady decode; 33-63 is ambiguous; >= 64 is enough. When the stated
        # lengths disagree (a sweep with a few short rows), the short rows alone do not carry the claim: ambiguous.
        low = min(pool, key=lambda x: x[0])
        high = max(pool, key=lambda x: x[0])
        # a violation needs every stated length to be short: a longer cap or request stated elsewhere ("max_new_tokens=100"
        # beside a demo's "--max_output_len=8") leaves open which runs the decode figure came from
        longer = [x for x in caps + stated if x[0] > 32 and x not in apart]
        if high[0] <= 32 and longer:
            return _which_length(ctx, rates, low, longer[0])
        if high[0] <= 32 and all(_in_table(ctx, i, m) for i, m in rates):
            # decode figures only in tables of short runs, no sentence building a claim on them (LABELLING.md: a
            # violation only when a headline or stated claim rests on the short rows)
            return TextFinding("steady_decode", "unclear",
                               f"the decode-rate figures (first: {said(ctx, rates[0])}) come from {int(low[0])}-token outputs "
                               f"(line {ctx.d.ev(*_at(low[1]))[0]}), too few intervals for steady decode, but no sentence builds "
                               "a claim on them", ctx.d.evidence([low[1]] + rates[:1]), reason="ambiguous")
        if high[0] <= 32:
            return TextFinding("steady_decode", "violation",
                               f"the decode-rate figure {said(ctx, rates[0])} rests on {int(low[0])}-token outputs (line "
                               f"{ctx.d.ev(*_at(low[1]))[0]}): too few intervals for steady decode",
                               ctx.d.evidence([low[1]] + rates[:1]))
        if low[0] >= 64:
            return TextFinding("steady_decode", "ok", f"outputs of at least {int(low[0])} tokens (line {ctx.d.ev(*_at(low[1]))[0]}) "
                               "back the decode-rate figures", ctx.d.evidence([low[1]]))
        return TextFinding("steady_decode", "unclear",
                           f"{int(low[0])}-token outputs (line {ctx.d.ev(*_at(low[1]))[0]}) are borderline or only some rows for steady decode",
                           ctx.d.evidence([low[1]]), reason="ambiguous")
    if caps and max(c[0] for c in caps) <= 32:
        low = min(caps, key=lambda x: x[0])
        return TextFinding("steady_decode", "violation", f"the decode-rate figure {said(ctx, rates[0])} comes from outputs capped at "
                           f"{int(low[0])} tokens (line {ctx.d.ev(*_at(low[1]))[0]}): too few intervals for steady decode",
                           ctx.d.evidence([low[1]] + rates[:1]))
    requested = stated + caps
    short = [x for x in requested if x[0] <= 32]
    longer = [x for x in requested if x[0] > 32]
    if short and longer:
        # a short cap beside a longer one (a demo's '--max_output_len=8' and the benchmark's 'max_new_tokens=100'):
        # which one the figure's runs used is not said
        low = min(short, key=lambda x: x[0])
        return _which_length(ctx, rates, low, longer[0])
    if requested and min(v for v, _ in requested) >= 64:
        # LABELLING.md: a requested output length of 64 or more counts as the stated output, unless completed
        # lengths are reported shorter (none are here)
        low = min(requested, key=lambda x: x[0])
        return TextFinding("steady_decode", "ok", f"the requested output length ({int(low[0])} tokens, line "
                           f"{ctx.d.ev(*_at(low[1]))[0]}) is long enough for steady decode", ctx.d.evidence([low[1]]))
    if apart and not requested:
        v, hit = apart[0]
        return TextFinding("steady_decode", "unclear",
                           f"the stated output length ({int(v)} token{'s' if v != 1 else ''}, line {ctx.d.ev(*_at(hit))[0]}) "
                           "belongs to a first-token or prefill measurement, not to the runs behind the decode-rate figures, "
                           "whose output length is not stated", ctx.d.evidence([hit] + rates[:1]), reason="not_stated")
    return TextFinding("steady_decode", "unclear",
                       f"the decode-rate figure {said(ctx, rates[0])} comes without a completed (or fixed) output length"
                       + (" (only a cap is given)" if caps else ""),
                       ctx.d.evidence(rates[:2]))


# a sentence that sets its length for a first-token or prefill measurement ("for TTFT we send requests with max_tokens
# set to 1", "Prefill latency is measured with max_tokens=1") and names no decode figure
_FIRST_TOKEN = re.compile(r"\bTTFT\b|time\s+to\s+first\s+token|first[- ]token\s+latency|\bprefill\b|首(?:字|token)", re.I)
_DECODE = re.compile(r"\bdecod\w*|\bTPOT\b|\bITL\b|inter[- ]token|per[- ]output[- ]token|tok(?:en)?s?\s*/\s*s|tokens?\s+per\s+second|"
                     r"ms\s*/\s*tok|解码", re.I)


def _in_table(ctx, i: int, m) -> bool:
    """Whether a figure sits in a table (a parsed one, or a pipe row the markdown parser left as text)."""
    return ctx.d.w.blocks[i].kind == "table" or ctx.d.line_text(i, m.start()).lstrip().startswith("|")


def _which_length(ctx, rates, low, longer) -> TextFinding:
    """Unclear (ambiguous): a short length and a longer one are both stated, and the text does not say which runs the
    decode-rate figure came from."""
    return TextFinding("steady_decode", "unclear",
                       f"the decode-rate figure {said(ctx, rates[0])} may rest on {int(low[0])}-token outputs (line "
                       f"{ctx.d.ev(*_at(low[1]))[0]}), but line {ctx.d.ev(*_at(longer[1]))[0]} states {int(longer[0])} "
                       "tokens: which length the figure's runs used is not said", ctx.d.evidence([low[1], longer[1]] + rates[:1]),
                       reason="ambiguous")


def _not_decode_length(ctx, value: float, hit) -> bool:
    """Whether an output length belongs to another measurement than the decode runs: one token has no decode step
    after it, and a length set in a sentence about TTFT or prefill alone is that measurement's."""
    if value < 2:
        return True
    sentence = ctx.d.sentence(*hit)
    return bool(_FIRST_TOKEN.search(sentence)) and not _DECODE.search(sentence)


def _requested_flags(ctx) -> list[tuple[float, tuple]]:
    """(length, hit) of every numeric requested-output-length flag in the measured runs' commands."""
    from ..reading.document import Spot
    from ..reading.flagvalues import numeric

    out = []
    for cmd, flag in ctx.d.flags("output_length_requested"):
        if flag.value and numeric(flag.value):
            try:
                length = float(flag.value.split()[0].replace(",", ""))
            except ValueError:
                continue
            out.append((length, (cmd.block, Spot(flag.offset, flag.offset + len(flag.written), f"{flag.written} {flag.value}"))))
    return out


def _requested_stated(ctx) -> list[tuple[float, tuple]]:
    """(length, hit) of each requested output length the output_length_requested item reads (phrases such as
    "输出长度 512" or "强制模型生成512个 token", a 'New_tokens' column, '--output-tokens 128'), where the statement holds
    one plain number: the same vocabulary for the item and for this rule."""
    out = []
    for hit in requested_output_hits(ctx):
        text = hit_text(ctx, hit)
        numbers = re.findall(r"\d[\d,]*(?:\.\d+)?", text)
        if re.search(r"(?i)\bcapped\b|\blimited\b|\bat\s+most\b|\bup\s+to\b", text):
            continue  # "capped at the reference length, at most 2,048": a bound over lengths that vary, not the length
        if len(numbers) == 1 and not re.search(r"\d\s?k\b", text, re.I):  # '2k' is not a plain number
            out.append((float(numbers[0].replace(",", "")), hit))
    return out


def _at(hit) -> tuple[int, int]:
    return hit[0], hit[1].start()
