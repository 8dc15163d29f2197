"""A format comparison whose baseline runs on another engine: the gain cannot be credited to the format.

A reviewer reading "W4A16 generation is up to 2.7x faster than the FP16 baseline" checks what the FP16
side ran on. When the text says the baseline used one engine ("the default implementation from
Huggingface for the FP16 baseline", "a BF16 model using vLLM") and the other side uses the authors' own
kernel or engine ("our fast W4A16 GPU kernel", "with our kernel"), the two sides differ in the weight
format and in the engine, and a gain credited to either is a stack-comparison violation (LABELLING.md:
"engine and weight format"). ``baseline_elsewhere`` finds that, and only when all three are written:

1. a sentence of the measured runs that names the baseline's format and the engine it ran on;
2. in that sentence's other clause, or the sentence after it, the other side on "our ... kernel /
   engine / implementation", with the baseline's engine not named in that clause;
3. a gain against the baseline's format: in the same sentence ("... achieves speedups"), or a ratio
   elsewhere set against that format ("2.7x faster ... compared to the FP16 baselines"), credited to one
   element: the other side's format ("W4A16 generation") or a kernel ("with our kernel"), not the system.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..reading.lexicon import icase
from ..reading.vocabulary import ENGINES, FORMATS

__all__ = ["Elsewhere", "baseline_elsewhere"]

_FMT = r"(?<![A-Za-z0-9])(?:" + FORMATS + r")(?![A-Za-z0-9])"
# the engine a side ran on: "using vLLM", "the default implementation from Huggingface"
_ON_ENGINE = icase(r"\b(?:using|with|on|from|in|via)\s+(?:the\s+)?(?:default\s+|stock\s+|official\s+|original\s+)?"
                   r"(?:(?:implementation|code|version)\s+(?:from|of|in)\s+)?"
                   r"(" + ENGINES + r"|hugging\s?face|transformers)(?![A-Za-z0-9])")
_BASELINE = re.compile(r"\bbaselines?\b|compared\s+(?:to|with)|\bthan\b|\bvs\.?\b|\bversus\b|\bagainst\b", re.I)
_OURS = re.compile(r"\b(?:our|the\s+proposed)\s+(?:[\w-]+\s+){0,3}?(?:kernels?|engine|implementation|runtime|system)\b", re.I)
_GAIN = re.compile(r"speed-?ups?|faster|\d+(?:\.\d+)?\s*[x×](?![\w])|higher\s+throughput|lower\s+latency", re.I)
_CLAUSE = re.compile(r"[,;()]")


@dataclass
class Elsewhere:
    """The baseline's format and engine, the other side's own kernel or engine, and the credited gain."""

    fmt: str
    engine: str
    ours: str
    lines: list[int]  # the baseline sentence, the other side, the gain
    quotes: list[str]


def _clause(text: str, start: int, end: int) -> str:
    left = max((m.end() for m in _CLAUSE.finditer(text, 0, start)), default=0)
    right = next((m.start() for m in _CLAUSE.finditer(text, end)), len(text))
    return text[left:right]


def baseline_elsewhere(ctx) -> Elsewhere | None:
    """The first format comparison whose baseline is stated to run on another engine than the other side."""
    if "elsewhere" in ctx.cache:
        return ctx.cache["elsewhere"]
    found = None
    for i, m in ctx.d.hits(_ON_ENGINE, ("paragraph", "list_item"), scope="run"):
        text = ctx.d.plains[i]
        a, b = ctx.d.bounds(i, m.start(), m.end())
        sentence = text[a:b]
        fmt = re.search(_FMT, sentence, re.I)
        if not fmt or not _BASELINE.search(sentence):
            continue
        engine = text[m.start(1):m.end(1)]  # as written (the hit is read on the lowered text)
        # the other side: in this sentence (another clause) or the next one of the same block
        ours = None
        for o in _OURS.finditer(text, a, min(len(text), b + 300)):
            if o.start() >= b and text[b:o.start()].count(".") > 1:
                break
            oa, ob = ctx.d.bounds(i, o.start(), o.end())
            if engine.lower() not in _clause(text[oa:ob], o.start() - oa, o.end() - oa).lower():
                ours = o
                break
        if ours is None:
            continue
        gain = (i, m) if _GAIN.search(sentence) and ours.start() < b else _gain_against(ctx, fmt.group(0))
        if gain is None:
            continue
        gi, gm = gain
        if not _credits_one(ctx.d.sentence(gi, gm), fmt.group(0)):
            continue
        lines = [ctx.d.ev(i, a)[0], ctx.d.ev(i, ours.start())[0], ctx.d.ev(gi, gm.start())[0]]
        quotes = [" ".join(ctx.d.sentence(gi, gm).split())[:120], " ".join(sentence.split())[:120]]
        found = Elsewhere(fmt.group(0), engine, ours.group(0), lines, quotes)
        break
    ctx.cache["elsewhere"] = found
    return found


def _credits_one(sentence: str, fmt: str) -> bool:
    """Whether the gain sentence credits one element: the other side's format ("W4A16 generation is 2.7x faster")
    or a kernel ("with our kernel achieves speedups"), not the whole system."""
    others = {f.lower() for f in re.findall(_FMT, sentence, re.I)} - {fmt.lower()}
    return bool(others) or re.search(r"\bour\s+(?:[\w-]+\s+){0,3}?kernels?\b", sentence, re.I) is not None


def _gain_against(ctx, fmt: str):
    """A ratio set against ``fmt`` ("2.7x faster ... compared to the FP16 baselines", "faster than FP16")."""
    rx = icase(r"(?:than|compared\s+(?:to|with)|vs\.?|versus|over|against)\s+(?:the\s+)?" + re.escape(fmt) + r"(?![A-Za-z0-9])")
    # any section: a headline gain shown with demos ("the following examples showcase ... 2.7x faster") is still a claim
    for i, m in ctx.d.hits(rx, ("paragraph", "list_item", "heading", "quote"), scope="any"):
        if _GAIN.search(ctx.d.sentence(i, m)):
            return i, m
    return None
