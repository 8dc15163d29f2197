"""What kind of statement a sentence makes about the stack: a fact about the runs, or a capability.

Inside the measured runs' sections a write-up still describes what an engine can do ("ExLlamaV2 now
supports paged attention via Flash Attention", "combinable with FlashAttention") or names something
as part of a product, a file or a link target. A reviewer credits a kernel, a format or a setting only
when the sentence says the runs used it; a capability or an identifier that merely contains the word
declares nothing (LABELLING.md: feature descriptions do not declare unless the text says the measured
runs used them).
"""

from __future__ import annotations

import re

from .firstchars import guard

__all__ = ["capability", "glued", "sentence_engines"]

# A sentence that describes what something can do, supports or is compatible with.
_CAPABILITY = re.compile(r"\b(?:now\s+)?supports?\b|\bsupported\b|\bsupport\s+for\b|\bcombinable\b|\bcompatible\b|\bintegrat\w+\s+with\b|"
                         r"\bcan\s+(?:be\s+)?(?:used|use|combined|enabled|run)\b|\ballows?\b|\bavailable\b|\boptional(?:ly)?\b|"
                         r"\byou\s+can\b|\bif\s+you\b|\bworks?\s+with\b|\bplease\b|\bshould\b|\brecommend\w*|"
                         r"支持|兼容|可以|可选|建议|请使用|サポート|対応|推奨|할\s*수\s*(?:있|없)|지원", re.I)
# A sentence that says the measured runs used it.
_USED = re.compile(r"\b(?:we|I)\s+(?:\w+\s+){0,2}?(?:used?|ran|run|enabled?|built|benchmarked|measured|tested|chose|selected|set)\b|"
                   r"\b(?:was|were|is|are)\s+(?:used|enabled|selected|built|measured|run)\b|\busing\b|\bwith\s+the\b|\ball\s+runs\b|"
                   r"\bin\s+(?:all|both|each|every|our)\s+(?:runs?|experiments?|benchmarks?|tests?)\b|使用|采用|で測定|を使用", re.I)

_CAPABILITY, _USED = guard(_CAPABILITY), guard(_USED)  # searched in a sentence per figure: guarded (same matches)


def capability(sentence: str) -> bool:
    """Whether ``sentence`` describes a capability or option rather than what the runs used."""
    return bool(_CAPABILITY.search(sentence)) and not _USED.search(sentence)


def glued(text: str, start: int, end: int) -> bool:
    """Whether the span [start, end) of ``text`` is part of a longer identifier ('MiniCPM-4.1-8B-Marlin',
    'llm-d-pd', 'flash_attn_interface.py'): a name inside a file, model or package name states nothing."""
    before = text[start - 1] if start else " "
    after = text[end:end + 2]
    return before in "-_/." and start > 1 and text[start - 2].isalnum() or bool(re.match(r"[-_/.][A-Za-z0-9]", after))


def sentence_engines(sentence: str, engines: re.Pattern[str], key) -> set[str]:
    """The engines (by ``key``) named in ``sentence``."""
    return {key(m.group(0)) for m in engines.finditer(sentence)}
