"""Rule stack_comparison: a comparison that changes several stack elements cannot credit one of them.
"""

from __future__ import annotations

import re

from ..reading.lexicon import icase
from ..reading.mentions import comparison_hits, within
from ..reading.vocabulary import ENGINES, GPU_RX, engine_key
from ..findings import TextFinding
from ..speculative import speculative_used
from ..stack import engine_mentions, format_mentions
from ..state import cache_disabled, cache_mentions

__all__ = ["format_classes", "stack_comparison"]


def _single_variable(ctx):
    """Where the text says a comparison changes one thing only (first match, or None)."""
    return ctx.d.first(icase(
        r"only\s+(?:the\s+)?(?:\S+\s+){0,3}(?:variable|difference|change|thing)|the\s+only\s+(?:\w+\s+)?(?:variable|difference|change)|"
        r"only\s+the\s+[\w.-]+\s+(?:\w+\s+)?(?:changed|differs?)|everything\s+else\s+(?:is\s+|was\s+)?(?:identical|the\s+same|unchanged|held\s+constant)|"
        r"all\s+(?:other\s+)?(?:settings|knobs|parameters|flags)\s+(?:are\s+|were\s+)?(?:identical|the\s+same|unchanged)|"
        r"same\s+(?:machine|stack|command|hardware|settings|binary|image)|same\s+(?:\d+\s+)?(?:nodes?|gpus?|cluster|servers?)\b|single[- ]variable|held\s+constant|"
        r"identical\s+(?:stack|settings|configuration)|"
        r"\bboth\s+(?:\w+\s+){0,2}(?:run|ran|use|used|loaded|served?)\s+(?:the\s+same\b|\S+\s+\S*\d)|"
        r"(?:identical|the\s+same|unchanged)\s+(?:on|for|across|in)\s+(?:both|all|each)\b"))


def stack_comparison(ctx) -> TextFinding:
    single = _single_variable(ctx)
    cmp_hits = comparison_hits(ctx) or ([single] if single else [])  # "only X changed" says something is compared
    if not cmp_hits:
        return TextFinding("stack_comparison", "not_applicable", "nothing is compared")
    engines = {engine_key(m.group(0)) for _, m in engine_mentions(ctx)}
    against = ctx.d.first(icase(r"(?:than|vs\.?|versus|over|against|compared\s+(?:to|with)|beats?|outperforms?)\s+(?:the\s+)?(?:" + ENGINES + r")\b"))
    gpus = {re.sub(r"(?i)^(nvidia|amd|instinct)\s+", "", m.group(0)).upper().replace(" ", "") for _, m in ctx.d.hits(GPU_RX)}
    engine_or_hw = len(engines) >= 2 or len(gpus) >= 2 or against is not None
    weight, kv = format_mentions(ctx)
    wf = format_classes(m.group(0) for _, m in weight)
    kf = format_classes(m.group(0) for _, m in kv)
    kernels = {m.group(0).lower() for _, m in ctx.d.hits(icase(r"flashinfer|flash[-\s]?attention(?:[-\s]?[234])?|\btriton\b|xformers|aiter|cutlass|marlin"))}
    changes = []
    if len(wf) >= 2:
        changes.append("weight format (" + ", ".join(sorted(wf)) + ")")
    if len(kf) >= 2:
        changes.append("KV precision (" + ", ".join(sorted(kf)) + ")")
    if len(kernels) >= 2:
        changes.append("kernels (" + ", ".join(sorted(kernels)) + ")")
    if speculative_used(ctx):
        changes.append("speculative draft")
    providers = ctx.d.first(icase(r"(?:other|competing|third[- ]party|rival)\s+(?:API\s+)?(?:providers?|vendors?|clouds?)(?:'s?)?\b|"
                                  r"varies\s+by\s+(?:provider|vendor)|each\s+model's\s+(?:default\s+)?(?:API\s+)?provider"))
    if providers:
        engine_or_hw = True
        changes.append("other providers' undisclosed stacks")
    if engine_or_hw and cache_disabled(ctx) and [h for h in cache_mentions(ctx) if not within(cache_disabled(ctx), h)
                                                 and re.search(r"\b(?:on|enabled)\b", ctx.d.sentence(*h), re.I)]:
        changes.append("prefix caching on one side only")
    if engine_or_hw and not wf and ctx.d.first(icase(r"quantiz\w*")):
        changes.append("quantization on one side")
    if engine_or_hw and ctx.d.first(icase(r"(?:hand[- ]tuned|custom|fused|proprietary)\s+(?:\w+\s+)?kernels?")):
        changes.append("custom kernels on one side")
    ev_cmp = ctx.d.evidence(([against] if against else []) + cmp_hits[:2])
    if engine_or_hw and changes:
        return TextFinding("stack_comparison", "violation",
                           "an engine/hardware comparison that also changes " + "; ".join(changes) + ": a stack comparison", ev_cmp)
    if engine_or_hw and single:
        return TextFinding("stack_comparison", "ok", "single-variable comparison, stated as such", ctx.d.evidence([single]))
    if engine_or_hw:
        return TextFinding("stack_comparison", "unclear",
                           "engines or hardware are compared without showing the rest of the stack is identical", ev_cmp)
    return TextFinding("stack_comparison", "ok", "the comparison varies one dimension on a fixed engine and hardware",
                       ctx.d.evidence(([single] if single else []) + cmp_hits[:1]))


_FORMAT_CLASS = [
    (r"bf16|bfloat16", "bf16"), (r"fp16|float16|f16", "fp16"), (r"fp32|float32", "fp32"),
    (r"fp8\w*|e4m3\w*|e5m2", "fp8"), (r"int8", "int8"), (r"int4|awq|gptq|w4a16|w4a8|nf4|bitsandbytes", "int4"),
    (r"nvfp4", "nvfp4"), (r"mxfp4", "mxfp4"), (r"fp4", "fp4"), (r"q(\d)_.*", r"gguf-q\1"), (r"(\d+(?:\.\d+)?)\s?bpw", r"exl2-\1bpw"),
]
# Scheme or container words that qualify a format rather than name one: "FP8 (W8A8)", "GGUF Q4_K_M", "INT8 SmoothQuant".
_FORMAT_QUALIFIERS = {"w8a8": "int8", "gguf": None, "exl2": None, "smoothquant": "int8"}


def format_classes(names) -> set[str]:
    """Distinct precisions among format mentions (aliases and qualifiers folded)."""
    out: set[str] = set()
    qualifiers: set[str] = set()
    for name in names:
        key = re.sub(r"[_-]", "", name.lower()) if not re.match(r"(?i)q\d_", name) else name.lower()
        if key in _FORMAT_QUALIFIERS:
            qualifiers.add(key)
            continue
        for rx, cls in _FORMAT_CLASS:
            if re.fullmatch(rx, key):
                out.add(re.sub(rx, cls, key) if "\\" in cls else cls)
                break
        else:
            out.add(key)
    if "fp4" in out and out & {"nvfp4", "mxfp4"}:
        out.discard("fp4")
    for q in qualifiers:  # a qualifier alone still names a format
        if not out and _FORMAT_QUALIFIERS[q]:
            out.add(_FORMAT_QUALIFIERS[q])
    return out
