"""Rule cache_hit_labeling: results helped by prefix-cache hits must say so.
"""

from __future__ import annotations

import re

from ..reading.blocks import quote_line
from ..reading.lexicon import icase
from ..reading.mentions import within
from ..findings import TextFinding, said
from ..state import cache_disabled, cache_mentions

__all__ = ["cache_hit_labeling"]


def cache_hit_labeling(ctx) -> TextFinding:
    mentions = cache_mentions(ctx) + list(ctx.d.hits(icase(r"second\s+(?:pass|run)|warm\s+(?:run|pass)")))
    if not mentions:
        return _reuse_without_prefix_cache(ctx)
    disabled = cache_disabled(ctx)
    enabled = [h for h in mentions if not within(disabled, h)]
    label = icase(r"hit\s+rate|cache[- ]hits?|hit\s+ratio|never\s+hits|no\s+(?:cache\s+)?hits|\d+(?:\.\d+)?\s*%\s+(?:of\s+)?(?:prompt\s+|prefix\s+)?(?:tokens\s+)?(?:were\s+)?(?:cached|hits|reused)|"
                  r"(?:cold|warm)[- ](?:cache|prefix|run|pass)")
    title = ctx.d.w.title or ""
    # "1x H100" is a GPU count, not a speed-up.
    speed = re.compile(r"\d+(?:\.\d+)?\s*[x×](?!\s*(?:NVIDIA\s+|AMD\s+)?[A-Z]+\d)|\d+\s*%|faster|lower|speed-?ups?|quicker|boost|cuts?\b", re.I)
    if speed.search(title) and re.search(r"cach|prefix|reuse|warm", title, re.I) and not re.search(
            r"cache[- ]hit|hit\s+rate|(?:warm|cold)[- ](?:prefix[- ])?cache|cached\s+prefix", title, re.I):
        line = ctx.d.w.title_line or 1
        return TextFinding("cache_hit_labeling", "violation",
                           f"the headline '{_clip(title)}' (line {line}) credits a speed-up to cache reuse, and nothing gives a "
                           "hit rate or a warm/cold state: cache hits are presented as ordinary performance",
                           [(line, quote_line(ctx.d.w.lines[line - 1]))])
    if not enabled:
        return TextFinding("cache_hit_labeling", "ok", f"{said(ctx, disabled[0])} states prefix caching off for the runs",
                           ctx.d.evidence(disabled))
    lab = ctx.d.first(label)
    if lab:
        return TextFinding("cache_hit_labeling", "ok", f"{said(ctx, lab)} labels the cache-hit results (hit rate or cold/warm state)",
                           ctx.d.evidence([lab]))
    body_speed = [h for h in enabled if speed.search(ctx.d.sentence(*h))]
    if body_speed:
        # the sentence itself credits the gain to the cache: labelled as a cache effect, but not measured as one
        return TextFinding("cache_hit_labeling", "unclear",
                           f"the speed-up on line {ctx.d.ev(*_at(body_speed[0]))[0]} is credited to cache reuse, but no hit rate or "
                           "warm/cold state says how much of the measured load hit the cache", ctx.d.evidence(body_speed))
    return TextFinding("cache_hit_labeling", "unclear", f"prefix caching is on ({said(ctx, enabled[0])}) but no hit rate or "
                       "cold/warm state says what the reported figures saw", ctx.d.evidence(enabled))


# the measured workload stated as one built on reuse ("reuse the same context for 10 requests", "reuse the KV Cache
# from previous conversations", "a repeated-image workload" for an embedding cache): the cache-hit nature is labelled
_REUSE_MEASURED = icase(r"\breus(?:e|es|ing)\s+the\s+(?:same\s+(?:context|prefix|prompt|document)s?|KV(?:\s+cache)?\s+(?:from|of)\s+(?:previous|earlier|prior))|"
                        r"\brepeated[- ](?:image|prompt|context|prefix|document)s?\s+workload|"
                        r"\b(?:little|no|zero)\s+reusable\s+prefix")
# speculation that drafts from earlier requests or outputs (LABELLING.md after batch 2: falls under cache_hit_labeling)
_HISTORY_DRAFTS = icase(r"\bsuffix[- ]decoding\b|\bsuffix[- ]tree\s+(?:speculat|draft)")


# prompts made to miss any cache ("some random characters to avoid cache")
_AVOIDS_CACHE = icase(r"\bto\s+avoid\s+(?:the\s+|any\s+)?(?:prefix\s+|prompt\s+|kv\s+)?cach(?:e|ing|e\s+hits)\b")
# a workload where earlier prompts come back: multi-turn conversations, a warm-up that fills the engine's caches
# (batches 7-10: reuse plausible, its state not stated)
_REUSE_PLAUSIBLE = icase(r"\bmulti[- ]turn\s+(?:conversations?|chats?|sessions?|dialogues?|workloads?|tasks?)\b|"
                         r"\bpopulate\s+(?:\S+\s+){0,3}?caches\b")


def _reuse_without_prefix_cache(ctx) -> TextFinding:
    """No prefix cache is named: reuse can still shape the figures, through a workload built on it or through
    drafts taken from earlier outputs."""
    line = lambda hit: ctx.d.ev(*_at(hit))[0]
    checks = (  # in this order: the first that the text answers decides
        (_REUSE_MEASURED, "ok", lambda h: f"the measured workload is stated as one of reuse (line {line(h)})", None),
        (_HISTORY_DRAFTS, "unclear", lambda h: f"suffix decoding (line {line(h)}) drafts from repeats in earlier prompts and "
                                               "outputs; the state of that history for the reported runs is not stated", "not_stated"),
        (_AVOIDS_CACHE, "ok", lambda h: f"{said(ctx, h)} says the prompts were made to miss any cache", None),
        (_REUSE_PLAUSIBLE, "unclear", lambda h: f"{said(ctx, h)} makes reuse of earlier prompts plausible, and nothing says "
                                                "whether the reported figures hit a cache", "not_stated"),
    )
    for rx, status, why, reason in checks:
        hit = ctx.d.first(rx)
        if hit:
            return TextFinding("cache_hit_labeling", status, why(hit), ctx.d.evidence([hit]), reason=reason)
    return TextFinding("cache_hit_labeling", "not_applicable", "no prefix-cache reuse in the write-up")


def _clip(text: str, limit: int = 90) -> str:
    words = " ".join(text.split())
    return words if len(words) <= limit else words[:limit - 3] + "..."


def _at(hit) -> tuple[int, int]:
    return hit[0], hit[1].start()
