"""The measured setups a write-up reports: which model ran on which hardware.

Many write-ups measure several setups (an 8B model on one GPU and a 70B on four, one table per
model). ``find_setups`` pairs each model named in a heading, a sentence, a table row or a server
command of the measured runs with the accelerator named in the same place (or in the heading above
it), and returns the distinct pairs with the lines that name them. Two setups are not an
inconsistency: a GPU count is compared only with other counts of the same setup.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field

from .lexicon import icase
from .vocabulary import FAMILIES, GPU

__all__ = ["SetupMention", "find_setups", "model_key"]

_MODEL = icase(r"(?<![\w.-])(?:[\w.-]+/)?(?:meta-)?(?:" + FAMILIES + r")[\w.]*(?:[- ]?[\w.]+){0,3}?[- ]?(\d+(?:\.\d+)?)\s?[bB]\b(?:[- ](?:instruct|chat|base|it))?")
_HW = icase(r"(?:(\d+)\s*[x×]\s*|\b(one|single|a|an)\s+)?(?:nvidia\s+|amd\s+)?(" + GPU + r")(?:[\w-]*)(?:\s+\d+\s*G[B]?)?(?:\s*[x×]\s*(\d+))?")
# Every _MODEL match holds a size in billions: a text without one is passed over without the (slow) family search.
_SIZE_B = re.compile(r"\d\s?[bB]\b")
_WORDS = {"one": 1, "single": 1, "a": 1, "an": 1}


@dataclass
class SetupMention:
    """A model and an accelerator named together, and where."""

    model: str
    hardware: str
    count: int | None
    label: str
    lines: list[int] = field(default_factory=list)


def model_key(text: str) -> str | None:
    """A model's family and size as one key ('llama-70b'), or None when no size is named."""
    m = _MODEL.search(text) if _SIZE_B.search(text) else None
    if not m:
        return None
    family = re.match(r"(?i)(?:[\w.-]+/)?(?:meta-)?([A-Za-z]+)", m.group(0))
    return f"{(family.group(1) if family else '').lower()}-{m.group(1)}b"


@functools.lru_cache(maxsize=256)
def _hardware(text: str) -> tuple[str, int | None, str] | None:
    """(accelerator, count, as written) of the first accelerator named in ``text`` (cached: every part under
    a heading may fall back on the heading)."""
    m = _HW.search(text)
    if not m:
        return None
    count = m.group(1) or m.group(4) or m.group(2)
    n = _WORDS.get(count.lower(), None) if count and not count.isdigit() else (int(count) if count else None)
    return re.sub(r"(?i)^(nvidia|amd)\s+", "", m.group(3)).upper().replace(" ", ""), n, m.group(0).strip()


def find_setups(units: list[tuple[int, str, str]]) -> list[SetupMention]:
    """Distinct (model, accelerator) pairs in ``units`` ((line, text, heading above) of the measured runs)."""
    found: dict[tuple[str, str, int | None], SetupMention] = {}
    budget = 200_000  # characters read: setups are named early; a megabyte of repetition names no new one
    for line, text, heading in units:
        if budget <= 0:
            break
        budget -= len(text)
        for part in re.split(r"(?<=[.;!?])\s+|\n", text[:50_000]):
            key = model_key(part)
            if not key:
                continue  # the accelerator is looked for only beside a model
            hw = _hardware(part) or (_hardware(heading) if heading else None)
            if not hw:
                continue
            model_text = _MODEL.search(part).group(0).strip()
            ident = (key, hw[0], hw[1])
            mention = found.get(ident)
            if mention is None:
                if len(found) >= 12:
                    continue
                mention = found[ident] = SetupMention(key, hw[0], hw[1], f"{model_text} on {hw[2]}")
            if line not in mention.lines and len(mention.lines) < 6:
                mention.lines.append(line)
    return list(found.values())
