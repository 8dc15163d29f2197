"""Reading vLLM and SGLang start-up logs: the KV pool, the max-concurrency line and the memory profile.

Every figure read here is a Measurement: the engine observed it on the user's hardware. Formats
recognised (one regular expression per line kind, whatever the prefix: ``INFO 01-30 03:19:14
kv_cache_utils.py:395]``, ``(EngineCore_DP0 pid=1)``, ``[2025-10-16 09:06:22 TP5]``):

vLLM
- ``# GPU blocks: 1381`` / ``# CUDA blocks: 6001`` (V0 and early V1; tokens = blocks x block size)
- ``GPU KV cache size: 2,042,016 tokens`` (V1 from Feb 2025), and the V0 refusal ``... the maximum number
  of tokens that can be stored in KV cache (23648)``
- ``Maximum concurrency for 2,048 tokens per request: 997.08x`` (max_model_len and the ratio)
- ``Available KV cache memory: 8.11 GiB`` (V1)
- ``Loading model weights took 67.7229 GB`` / ``Model loading took 55.22 GiB memory`` (weights; the
  older "GB" is GiB: vLLM divided by 2^30)
- ``Memory profiling results: total_gpu_memory=23.58GiB ... non_torch_memory=0.35GiB
  kv_cache_size=3.81GiB gpu_memory_utilization=0.90`` (v0.6.4, one line)
- the v0.6.5 table (``model weights take   14.96GiB``, ``non_torch_memory     1.79GiB``,
  ``PyTorch activation peak memory       1.26GiB``, ``available_kv_cache_memory    53.29GiB``)
- ``total_gpu_memory (23.58GiB) x gpu_memory_utilization (0.99) = 23.35GiB`` and ``model weights
  take 21.21GiB; non_torch_memory takes 0.20GiB; PyTorch activation peak memory takes 0.37GiB;
  the rest of the memory reserved for KV Cache is 1.57GiB.`` (v0.7 to v0.9)
- ``Estimated CUDA graph memory: 1.10 GiB total`` and ``Graph capturing finished in 18 secs,
  took 0.96 GiB``
SGLang (its "GB" is GiB too: memory is divided by 2^30)
- ``KV Cache is allocated. #tokens: 367404, K size: 8.23 GB, V size: 8.23 GB`` (MHA/GQA) or
  ``KV size: X GB`` (MLA)
- ``max_total_num_tokens=2086558, ... context_len=256000, available_gpu_mem=17.22 GB``
- ``Load weight end. type=..., avail mem=163.13 GB, mem usage=14.53 GB.``
- ``Capture cuda graph end. Time elapsed: ... mem usage=1.23 GB.``
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Literal

from pydantic import BaseModel, Field

from ..errors import InputFormatError, argument
from .report import Evidence

__all__ = ["MAX_LOG_CHARS", "EngineLogFacts", "LoggedItem", "parse_engine_log"]

MAX_LOG_CHARS = 2_000_000
"""Start-up logs are a few hundred kB at most; longer text is refused before it is read."""

_GiB = 1024**3
_NUM = r"([\d,]+(?:\.\d+)?)"


class LoggedItem(BaseModel):
    """One figure read from the log, with the line it came from."""

    item: str = Field(description="What the figure is (kv_pool_tokens, weights_bytes, ...)")
    value: float = Field(description="The figure in the item's unit (tokens, bytes, ratio)")
    line: int = Field(description="1-based line number in the log text")
    text: str = Field(description="The log line, trimmed to 200 characters")


class EngineLogFacts(BaseModel):
    """What an engine's start-up log says about memory and capacity (Measurements on the user's hardware)."""

    engine: Literal["vllm", "sglang", "unknown"] = Field(description="Engine the lines come from")
    kv_pool_tokens: int | None = Field(description="Tokens the KV pool holds, as the engine logs them (vLLM: "
                                                   "'GPU KV cache size', or blocks x block size; SGLang: #tokens "
                                                   "or max_total_num_tokens)")
    kv_pool_tokens_basis: str | None = Field(description="Which line gave kv_pool_tokens")
    gpu_blocks: int | None = Field(description="vLLM '# GPU blocks' (older versions)")
    block_size: int = Field(description="Tokens per KV block used to turn blocks into tokens (vLLM default 16; "
                                        "SGLang pages of 1 token)")
    max_model_len: int | None = Field(description="The max-concurrency line's tokens per request (vLLM "
                                                  "max_model_len; SGLang context_len)")
    max_concurrency_logged: float | None = Field(description="The engine's own 'Maximum concurrency' ratio at "
                                                             "max_model_len")
    kv_cache_bytes: int | None = Field(description="Memory the engine gave the KV pool (per GPU)")
    weights_bytes: int | None = Field(description="Model weights as loaded (per GPU)")
    non_torch_bytes: int | None = Field(description="Memory outside PyTorch's allocator (NCCL, cuBLAS, context)")
    activation_peak_bytes: int | None = Field(description="Peak activation memory of the profiling run")
    cuda_graph_bytes: int | None = Field(description="CUDA-graph memory (estimated before, or measured after, "
                                                     "capture)")
    total_gpu_bytes: int | None = Field(description="GPU memory the engine saw")
    memory_utilization: float | None = Field(description="gpu_memory_utilization (vLLM) as logged")
    budget_bytes: int | None = Field(description="What the instance may use: total x utilization (vLLM)")
    items: list[LoggedItem] = Field(description="Every figure read, with its line")
    notes: list[str] = Field(description="Units, conflicts between ranks, and what the figures mean")
    evidence: Evidence = Field("measurement", description="Measurement: the engine observed these on its GPU")


def _num(text: str) -> float:
    return float(text.replace(",", ""))


def _gib(text: str) -> int:
    return round(_num(text) * _GiB)


# (item, engine, pattern, converter for group 1); the first group is the value unless noted
_Rule = tuple[str, str, re.Pattern[str], Callable[[str], float]]
_RULES: list[_Rule] = [
    ("kv_pool_tokens", "vllm", re.compile(r"GPU KV cache size:\s*" + _NUM + r"\s*tokens"), _num),
    ("kv_pool_tokens", "vllm", re.compile(r"maximum number of tokens that can be stored in KV cache \(" + _NUM + r"\)"),
     _num),
    ("gpu_blocks", "vllm", re.compile(r"(?:#\s*)?\b(?:GPU|CUDA) blocks:\s*" + _NUM), _num),
    ("kv_cache_bytes", "vllm", re.compile(r"Available KV cache memory:\s*" + _NUM + r"\s*GiB"), _gib),
    ("kv_cache_bytes", "vllm", re.compile(r"kv_cache_size=" + _NUM + r"\s*GiB"), _gib),
    ("kv_cache_bytes", "vllm", re.compile(r"available_kv_cache_memory\s+" + _NUM + r"\s*GiB"), _gib),
    ("kv_cache_bytes", "vllm", re.compile(r"reserved for KV Cache is\s*" + _NUM + r"\s*GiB"), _gib),
    ("weights_bytes", "vllm", re.compile(r"Loading model weights took\s*" + _NUM + r"\s*Gi?B"), _gib),
    ("weights_bytes", "vllm", re.compile(r"Model loading took\s*" + _NUM + r"\s*Gi?B"), _gib),
    ("weights_bytes", "vllm", re.compile(r"model weights take\s+" + _NUM + r"\s*GiB"), _gib),
    ("non_torch_bytes", "vllm", re.compile(r"non_torch_memory(?:=|\s+takes\s+|\s+)" + _NUM + r"\s*GiB"), _gib),
    ("activation_peak_bytes", "vllm",
     re.compile(r"PyTorch activation peak memory(?:\s+takes)?\s+" + _NUM + r"\s*GiB"), _gib),
    ("cuda_graph_bytes", "vllm", re.compile(r"Estimated CUDA graph memory:\s*" + _NUM + r"\s*GiB"), _gib),
    ("cuda_graph_bytes", "vllm", re.compile(r"Graph capturing finished in [\d.]+ secs?, took\s*" + _NUM + r"\s*GiB"),
     _gib),
    ("total_gpu_bytes", "vllm", re.compile(r"total_gpu_memory(?:=|\s*\(|\s+)" + _NUM + r"\s*GiB"), _gib),
    ("memory_utilization", "vllm", re.compile(r"gpu_memory_utilization(?:=|\s*\(|\s+)" + _NUM), _num),
    ("budget_bytes", "vllm", re.compile(r"gpu_memory_utilization\s*\([\d.]+\)\s*=\s*" + _NUM + r"\s*GiB"), _gib),
    ("budget_bytes", "vllm", re.compile(r"the current vLLM instance can use\s+" + _NUM + r"\s*GiB"), _gib),
    ("kv_pool_tokens", "sglang", re.compile(r"KV Cache is allocated\. #tokens:\s*" + _NUM), _num),
    ("kv_pool_tokens", "sglang", re.compile(r"max_total_num_tokens=" + _NUM), _num),
    ("weights_bytes", "sglang", re.compile(r"Load weight end\..*?mem usage=" + _NUM + r"\s*GB"), _gib),
    ("cuda_graph_bytes", "sglang", re.compile(r"Capture cuda graph end\..*?mem usage=" + _NUM + r"\s*GB"), _gib),
]
_SGLANG_KV = re.compile(r"KV Cache is allocated\..*?(?:K size:\s*" + _NUM + r"\s*GB,\s*V size:\s*" + _NUM
                        + r"\s*GB|KV size:\s*" + _NUM + r"\s*GB)")
_CONCURRENCY = re.compile(r"Maximum concurrency for\s*" + _NUM + r"\s*tokens per request:\s*" + _NUM + r"x")
_SGLANG_CONTEXT = re.compile(r"context_len=" + _NUM)


def _read_lines(text: str) -> tuple[dict[str, list[LoggedItem]], set[str]]:
    """Every matching figure by item, and the engines whose lines were seen."""
    found: dict[str, list[LoggedItem]] = {}
    engines: set[str] = set()

    def add(item: str, value: float, number: int, line: str, engine: str) -> None:
        found.setdefault(item, []).append(LoggedItem(item=item, value=value, line=number, text=line.strip()[:200]))
        engines.add(engine)

    for number, line in enumerate(text.splitlines(), 1):
        for item, engine, pattern, convert in _RULES:
            for match in pattern.finditer(line):
                add(item, convert(match.group(1)), number, line, engine)
        m = _SGLANG_KV.search(line)
        if m:
            k, v, both = m.group(1), m.group(2), m.group(3)
            add("kv_cache_bytes", _gib(both) if both else round((_num(k) + _num(v)) * _GiB), number, line, "sglang")
        m = _CONCURRENCY.search(line)
        if m:
            add("max_model_len", _num(m.group(1)), number, line, "vllm")
            add("max_concurrency_logged", _num(m.group(2)), number, line, "vllm")
        m = _SGLANG_CONTEXT.search(line)
        if m:
            add("max_model_len", _num(m.group(1)), number, line, "sglang")
    return found, engines


def parse_engine_log(text: str, *, block_size: int = 16) -> EngineLogFacts:
    """The memory and capacity figures of a vLLM or SGLang start-up log.

    Ranks of a TP group print the same lines; when their figures differ the smallest is kept (the
    engine sizes every rank's pool to the smallest) and a note says so. Raises InputFormatError when
    nothing is recognised.
    """
    if len(text) > MAX_LOG_CHARS:
        raise InputFormatError(f"{argument('engine_log')}: {len(text):,} characters, over the {MAX_LOG_CHARS:,} "
                               "limit; paste the start-up part of the log")
    found, engines = _read_lines(text)
    if not found:
        raise InputFormatError(
            f"{argument('engine_log')}: no vLLM or SGLang start-up line recognised (looked for 'GPU KV cache size', "
            "'# GPU blocks', 'Maximum concurrency for', 'Available KV cache memory', the memory profiling lines, "
            "'KV Cache is allocated', 'max_total_num_tokens')")
    engine = "vllm" if engines == {"vllm"} else "sglang" if engines == {"sglang"} else "unknown"
    notes: list[str] = []

    def pick(item: str) -> float | None:
        values = found.get(item)
        if not values:
            return None
        distinct = sorted({v.value for v in values})
        if len(distinct) > 1:
            notes.append(f"{item}: the log holds {len(distinct)} different values "
                         f"({', '.join(f'{d:g}' for d in distinct[:4])}); the smallest is used")
        return distinct[0]

    def as_int(value: float | None) -> int | None:
        return None if value is None else int(value)

    pool = as_int(pick("kv_pool_tokens"))
    blocks = as_int(pick("gpu_blocks"))
    basis = None
    if pool is not None:
        basis = found["kv_pool_tokens"][0].text
    elif blocks is not None:
        pool = blocks * block_size
        basis = f"{blocks:,} blocks x {block_size} tokens per block (vLLM's default block size; pass the " \
                "engine's --block-size if it was changed)"
    sglang_only = engine == "sglang"
    if engines & {"vllm"} and any(i.text.find(" GB") > 0 for i in found.get("weights_bytes", [])):
        notes.append("older vLLM prints weights in 'GB' computed as bytes / 2^30: read as GiB")
    if engines & {"sglang"}:
        notes.append("SGLang prints memory in 'GB' computed as bytes / 2^30: read as GiB")
    return EngineLogFacts(
        engine=engine, kv_pool_tokens=pool, kv_pool_tokens_basis=basis, gpu_blocks=blocks,
        block_size=1 if sglang_only else block_size, max_model_len=as_int(pick("max_model_len")),
        max_concurrency_logged=pick("max_concurrency_logged"), kv_cache_bytes=as_int(pick("kv_cache_bytes")),
        weights_bytes=as_int(pick("weights_bytes")), non_torch_bytes=as_int(pick("non_torch_bytes")),
        activation_peak_bytes=as_int(pick("activation_peak_bytes")),
        cuda_graph_bytes=as_int(pick("cuda_graph_bytes")), total_gpu_bytes=as_int(pick("total_gpu_bytes")),
        memory_utilization=pick("memory_utilization"), budget_bytes=as_int(pick("budget_bytes")),
        items=[i for values in found.values() for i in values][:200], notes=notes)
