"""Names the audit recognises: model families, engines, accelerators, benchmark clients, weight formats.

The lists live in ``tools/audit/data/vocabulary.json`` (each table with its source); this module
joins them into the regular-expression fragments the readers use, once, at import.
"""

from __future__ import annotations

import functools
import json
import re
from importlib.resources import files

__all__ = [
    "BENCH_TOOLS",
    "CLIENT_FLAGS",
    "ENGINES",
    "ENGINE_RX",
    "FAMILIES",
    "FORMATS",
    "GPU",
    "GPU_RX",
    "VAGUE",
    "VERSION",
    "engine_key",
    "patterns",
    "vague",
    "vague_version",
]


def _load() -> dict:
    return json.loads((files(__package__).parent / "data" / "vocabulary.json").read_text(encoding="utf-8"))


_DATA = _load()

FAMILIES: str = "|".join(_DATA["model_families"]["patterns"])
"""Model family names (regex alternation)."""
ENGINES: str = "|".join(_DATA["engines"]["patterns"])
"""Inference engine and runtime names (regex alternation)."""
VERSION: str = _DATA["version"]["pattern"]
"""A version, build number or commit hash."""
GPU_VENDOR: str = _DATA["accelerators"]["vendor_prefix"]
"""The vendor word that may come before an accelerator's name (an optional group)."""
GPU_NAMES: str = "|".join(_DATA["accelerators"]["patterns"])
"""Accelerator product names (regex alternation)."""
GPU: str = GPU_VENDOR + "(?:" + GPU_NAMES + ")"
"""An accelerator product name, with an optional vendor word."""
# ASCII word edges: in Chinese or Japanese text the name touches other word characters ("80G的A800显卡").
GPU_RX = re.compile(r"(?<![A-Za-z0-9_/.-])" + GPU + r"(?![A-Za-z0-9_])", re.IGNORECASE)
# ASCII word edges again ("vLLMなど", "比较了lightllm和"): no \b beside CJK text.
ENGINE_RX = re.compile(r"(?<![A-Za-z0-9_])(?:" + ENGINES + r")(?![A-Za-z0-9_])", re.IGNORECASE)
"""An inference engine's name as a word of its own."""
BENCH_TOOLS: str = "|".join(_DATA["benchmark_tools"]["patterns"])
"""Benchmark client command names (regex alternation)."""
FORMATS: str = "|".join(_DATA["weight_formats"]["patterns"])
"""Weight dtype and quantization names (regex alternation)."""
VAGUE = re.compile(_DATA["vague_words"]["pattern"], re.IGNORECASE)
CLIENT_FLAGS: frozenset[str] = frozenset(_DATA["client_flags"]["names"])
"""Benchmark-client flags (not server launch settings)."""
_ALIASES: dict[str, str] = _DATA["engines"]["aliases"]

_VAGUE_VERSION = re.compile(r"(?i)\b(?:latest|newest|current|recent|nightly|main(?:\s+branch)?|head|tip\s+of)\W{0,3}(?:\w+\W{1,3}){0,1}$")


def vocabulary_entry(table: str, key: str) -> str:
    """One string value of vocabulary.json (a single pattern)."""
    return _DATA[table][key]


def patterns(table: str, key: str) -> str:
    """The alternation of the patterns listed under ``table``.``key`` of vocabulary.json."""
    return "|".join(f"(?:{p})" for p in _DATA[table][key])


@functools.lru_cache(maxsize=4096)  # (asked for every engine mention: a long write-up names the same few thousands of times)
def engine_key(name: str) -> str:
    """One spelling per engine: 'TensorRT-LLM', 'trt-llm' and 'TRTLLM' are the same engine."""
    key = re.sub(r"[^a-z0-9.]", "", name.lower())
    return _ALIASES.get(key, key)


def vague_version(text: str, start: int) -> bool:
    """True when the words just before an engine name leave its version open ('the latest vLLM')."""
    return bool(_VAGUE_VERSION.search(text[max(0, start - 30):start]))


def vague(text: str) -> bool:
    """Whether ``text`` holds a hedge ('about', 'latest', '~', ...)."""
    return bool(VAGUE.search(text))
