"""GPU and model names as people type them: 'rtx4090', 'RTX 4090', '4090', 'H100-SXM5-80GB', 'NVIDIA H100 80GB
HBM3', 'mi300x', 'llama 3.1 70b instruct'.

One normalisation serves every spelling instead of a list of variants. A GPU name becomes a set of
tokens: lower case, a memory size ('80GB', '80 GB', '40g') kept as one token, everything else split
at non-alphanumerics and at letter/digit boundaries ('rtx4090' -> rtx, 4090; 'h100sxm5' -> h, 100,
sxm, 5); vendor, brand and memory-type words (nvidia, geforce, instinct, hbm3, ...) are dropped. A
catalog GPU matches when every token typed appears in its names (id, product name, aliases) and its
core (the tokens of its shortest alias, e.g. {h, 100} for the H100 SXM) is all typed: 'a10' does not
match the A10G, 'h100 pcie' does not match the SXM part. Of several matches the most specific core
wins; a tie is ambiguous. Model names compare with every separator removed and the org, a 'Meta-'
prefix and an '-Instruct' / '-it' / '-chat' suffix optional.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

__all__ = ["NOISE", "gpu_tokens", "match_gpu", "squash_model"]

NOISE = frozenset({"nvidia", "amd", "google", "geforce", "instinct", "tesla", "cloud", "radeon", "gpu", "card",
                   "per", "the", "hbm", "hbm2", "hbm2e", "hbm3", "hbm3e", "gddr6", "gddr6x", "gddr7", "pcie5"})
"""Words that name a vendor, a brand line or a memory type: never what tells two catalog GPUs apart."""

_MEMORY = re.compile(r"(?:(?<=^)|(?<=[^a-z0-9]))(\d{2,3})\s*g(?:b|ib)?(?![a-z0-9])")
_PART = re.compile(r"[a-z]+|\d+")


def gpu_tokens(text: str) -> frozenset[str]:
    """The tokens of a GPU name: memory sizes as 'NNgb', the rest split at separators and letter/digit changes."""
    low = text.lower()
    tokens = {f"{m.group(1)}gb" for m in _MEMORY.finditer(low)}
    for word in re.split(r"[^a-z0-9]+", _MEMORY.sub(" ", low)):
        if word and word not in NOISE:
            tokens.update(_PART.findall(word))
    return frozenset(tokens)


def match_gpu(typed: str, candidates: Sequence[tuple[str, Iterable[str], Iterable[str]]]) -> list[str]:
    """Ids of the catalog GPUs ``typed`` names, best first (empty: none). ``candidates`` holds (id, every name of
    the GPU, its aliases)."""
    wanted = gpu_tokens(typed)
    if not wanted:
        return []
    scored: list[tuple[int, str]] = []
    for gpu_id, names, aliases in candidates:
        known = frozenset().union(*(gpu_tokens(n) for n in names))
        alias_sets = [gpu_tokens(a) for a in aliases] or [gpu_tokens(gpu_id)]
        core = min(alias_sets, key=len)
        if wanted <= known and core <= wanted:
            scored.append((len(core), gpu_id))
    scored.sort(key=lambda s: -s[0])
    if len(scored) > 1 and scored[0][0] == scored[1][0]:
        return [gpu_id for _, gpu_id in scored]  # a tie: the caller reports the ambiguity
    return [gpu_id for _, gpu_id in scored[:1]]


def squash_model(name: str) -> str:
    """A model name with case and every separator removed: 'Llama 3.1 70B' and 'llama-3.1-70b' -> 'llama3170b'."""
    return re.sub(r"[^a-z0-9]", "", name.lower())
