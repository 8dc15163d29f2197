"""The sides a write-up compares, and what it says about each side.

A reviewer judging a comparison looks at the two sides actually compared ("SGLang vs vLLM",
"with and without the cache", "Stack A | Stack B"), not at every format or kernel named anywhere
in the document. ``compared_sides`` finds the sides of the comparison claims and collects, for
each side, the stack values the text attributes to it: in a sentence that names one side, in the
part of a sentence after that side's name, in a table row labelled with it, or in the side's
column of a side-by-side configuration table. ``differences`` lists the stack elements (engine,
accelerator, weight and KV formats, kernels, prefix cache) whose values are stated for both sides
and differ.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..reading.lexicon import icase
from ..reading.vocabulary import ENGINE_RX, FORMATS, GPU_RX, engine_key

__all__ = ["Side", "compared_sides", "differences", "format_classes"]

_FORMAT_RX = icase(r"(?<![A-Za-z0-9])(?:" + FORMATS + r")(?![A-Za-z0-9])")
_KERNEL_RX = icase(r"flashinfer|flash[-\s]?attention(?:[-\s]?[234])?|\bFA[234]\b|\btriton\s+kernels?|xformers|\baiter\b|cutlass|\bmarlin\b|machete|flashmla")
_CACHE_ON = icase(r"(?:prefix|prompt|radix)[- ]cach\w*[^.;|\n]{0,30}?\b(?:on|enabled)\b|enable[-_]prefix[-_]caching(?!\s*=\s*false)")
_CACHE_OFF = icase(r"(?:prefix|prompt|radix)[- ]cach\w*[^.;|\n]{0,30}?\b(?:off|disabled)\b|--no-enable-prefix-caching|--disable-radix-cache")
_TOGGLE = icase(r"\bwith\s+and\s+without\b|\b(?:on|enabled)\s+(?:vs\.?|versus|and)\s+(?:off|disabled)\b|\b(?:off|disabled)\s+(?:vs\.?|versus|and)\s+(?:on|enabled)\b|"
                r"\bnot\s+\w+\s*(?:vs\.?|/|\|)\s*\w+|\bno[- ]\w+\s+(?:vs\.?|versus)\b|\bvs\.?\s+no[- ]\w+|\bnon[- ]speculative\b|\bwithout\s+(?:speculat|the\s+\w+|\w+ing)\b|"
                # before/after one change: "after enabling prefix-cache aware routing", "this PR vs main"
                r"\b(?:after|before)\s+(?:enabling|disabling|turning\s+(?:on|off)|switching\s+(?:on|off))\b|"
                r"\b(?:this|the)\s+PR\b[^.\n]{0,60}?\b(?:on\s+)?(?:main|master)\b|\b(?:on\s+)?(?:main|master)\b[^.\n]{0,60}?\b(?:this|the)\s+PR\b")
_STACK_ROW = icase(r"^\W*(?:engine|framework|runtime|server|serving|backend|hardware|gpus?|accelerators?|weights?|precision|dtype|"
                   r"quantization|kv[- ]?cache|kv\s+dtype|attention|kernels?|version|image|model|tp|parallelism|prefix\s+cach\w*|cache)\b")
_ENGINE_FEATURE = icase(r"\bradix\s*(?:cache|attention|tree)|\bRadixAttention\b")
_DIMS = {"engine": "engine", "gpu": "accelerator", "weight": "weight format", "kv": "KV precision", "kernel": "kernels",
         "cache": "prefix caching"}


@dataclass
class Side:
    """One side of a comparison: its name, the element it varies, and the values stated for it."""

    key: str
    kind: str  # engine | gpu | toggle | setup
    values: dict[str, set[str]] = field(default_factory=dict)
    evidence: list[tuple[int, object]] = field(default_factory=list)

    def add(self, dim: str, value: str, hit: tuple[int, object]) -> None:
        self.values.setdefault(dim, set()).add(value)
        if len(self.evidence) < 4:
            self.evidence.append(hit)


def _gpu_key(text: str) -> str:
    return re.sub(r"(?i)^(nvidia|amd|instinct)\s+", "", text).upper().replace(" ", "")


def _kv_before(text: str, start: int) -> bool:
    return bool(re.search(r"\bkv\b[\w\s-]{0,12}$|kv[-_ ]cache[\w\s(:-]{0,12}$", text[max(0, start - 25):start], re.I))


def _values(text: str) -> list[tuple[int, str, str]]:
    """(offset, dimension, value) of every stack value in ``text``."""
    out = []
    for m in ENGINE_RX.finditer(text):
        if not re.match(r"(?i)vllm\s+bench", text[m.start():m.start() + 12]):
            out.append((m.start(), "engine", engine_key(m.group(0))))
    for m in _ENGINE_FEATURE.finditer(text):  # a feature only one engine has names that engine ("radix cache" is SGLang's)
        out.append((m.start(), "engine", "sglang"))
    for m in GPU_RX.finditer(text):
        out.append((m.start(), "gpu", _gpu_key(m.group(0))))
    for m in _FORMAT_RX.finditer(text):
        kind = "kv" if _kv_before(text, m.start()) or re.match(r"\s*kv\b", text[m.end():m.end() + 5], re.I) else "weight"
        for cls in format_classes([m.group(0)]):
            out.append((m.start(), kind, cls))
    for m in _KERNEL_RX.finditer(text):
        out.append((m.start(), "kernel", re.sub(r"[\s_-]", "", m.group(0).lower())))
    for m in _CACHE_ON.finditer(text):
        out.append((m.start(), "cache", "on"))
    for m in _CACHE_OFF.finditer(text):
        out.append((m.start(), "cache", "off"))
    return sorted(out)


def _sentences(ctx, i: int):
    text = ctx.d.plains[i].replace("\n", " ")  # prose wraps lines inside a sentence
    for m in re.finditer(r"(?:[^.!?;]|\.(?=\d))+", text):
        yield m.start(), m.group(0)


def compared_sides(ctx, hits: list[tuple[int, object]]) -> tuple[str | None, list[Side]]:
    """(kind of element compared, the sides) for the comparison claims ``hits``."""
    engines: dict[str, Side] = {}
    gpus: dict[str, Side] = {}
    toggle = False
    for i, m in hits:
        sentence = ctx.d.sentence(i, m)
        if _TOGGLE.search(sentence):
            toggle = True
        for _, dim, value in _values(sentence):
            if dim == "engine":
                engines.setdefault(value, Side(value, "engine"))
            elif dim == "gpu":
                gpus.setdefault(value, Side(value, "gpu"))
    table_sides = _config_table_sides(ctx)
    if table_sides:
        return "setup", table_sides
    if len(engines) >= 2:
        kind, sides = "engine", engines
    elif len(gpus) >= 2:
        kind, sides = "gpu", gpus
    elif toggle:
        return "toggle", []
    else:
        return None, []
    _attribute(ctx, kind, sides)
    return kind, list(sides.values())


def _attribute(ctx, kind: str, sides: dict[str, Side]) -> None:
    """Collect the values the text states for each side: sentences and table rows that name the side."""
    for i, block in enumerate(ctx.d.w.blocks):
        if ctx.d.scopes[i] != "run" or block.kind == "heading":
            continue
        units = _rows(ctx, i) if block.kind == "table" else _sentences(ctx, i) if block.kind != "code" else []
        for start, text in units:
            found = _values(text)
            names = [(off, value) for off, dim, value in found if dim == kind and value in sides]
            if not names:
                continue
            clauses = [(0, len(text))]
            if len({n[1] for n in names}) > 1:  # several sides: read clause by clause
                cuts = [0] + [m.end() for m in re.finditer(r",|\bwhile\b|\bwhereas\b|\bbut\b|\bvs\.?\b|\bversus\b|\bthan\b", text)] + [len(text)]
                clauses = list(zip(cuts, cuts[1:]))
            for a, b in clauses:
                here = [n for n in names if a <= n[0] < b]
                owners = {n[1] for n in here}
                for off, dim, value in found:
                    if dim == kind or not a <= off < b:
                        continue
                    if len(owners) == 1:
                        owner = next(iter(owners))
                    else:  # a value belongs to the side named just before it
                        before = [n for n in here if n[0] <= off]
                        owner = before[-1][1] if before and off - before[-1][0] <= 40 else None
                    if owner is not None:
                        sides[owner].add(dim, value, (i, _Spot(start + off)))


def _rows(ctx, i: int):
    text = ctx.d.plains[i]
    offset = 0
    for line in text.split("\n"):
        yield offset, line
        offset += len(line) + 1


def _config_table_sides(ctx) -> list[Side]:
    """Sides of a side-by-side configuration table (first column: stack elements; one column per side)."""
    for i, block in enumerate(ctx.d.w.blocks):
        if block.kind != "table" or ctx.d.scopes[i] != "run":
            continue
        lines = [line for line in block.text.split("\n") if line.strip()]
        if len(lines) < 4:
            continue
        header = [c.strip() for c in lines[0].strip().strip("|").split("|")]
        rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in lines[2:]]
        stack_rows = [r for r in rows if r and _STACK_ROW.search(r[0])]
        if len(header) < 3 or len(stack_rows) < 2 or len(stack_rows) < len(rows) / 2:
            continue
        sides = [Side(header[c] or f"column {c}", "setup") for c in range(1, len(header))]
        line_starts = [m.start() for m in re.finditer(r"(?m)^", block.text)]
        for r in stack_rows:
            label = r[0].lower()
            row_at = block.text.find(r[0]) if r[0] else 0
            for c, side in enumerate(sides, 1):
                if c < len(r) and r[c]:
                    dim = next((d for d, rx in (("engine", r"engine|framework|runtime|server|backend"), ("gpu", r"hardware|gpu|accelerator"),
                                                ("kv", r"kv"), ("weight", r"weight|precision|dtype|quantization"),
                                                ("kernel", r"attention|kernel"), ("cache", r"cach")) if re.search(rx, label)), None)
                    if dim:
                        side.add(dim, _normal(dim, r[c]), (i, _Spot(max(0, row_at))))
        del line_starts
        return sides
    return []


def _normal(dim: str, cell: str) -> str:
    cell = cell.strip().strip("`*")
    if dim in ("weight", "kv"):
        classes = format_classes(m.group(0) for m in _FORMAT_RX.finditer(cell))
        return ",".join(sorted(classes)) or cell.lower()
    if dim == "engine":
        m = ENGINE_RX.search(cell)
        return engine_key(m.group(0)) if m else cell.lower()
    if dim == "gpu":
        m = GPU_RX.search(cell)
        return _gpu_key(m.group(0)) if m else cell.lower()
    return re.sub(r"\s+", " ", cell.lower())


def differences(kind: str, sides: list[Side]) -> dict[str, list[str]]:
    """Stack elements (other than the one compared) stated for at least two sides with different values."""
    out: dict[str, list[str]] = {}
    for dim, label in _DIMS.items():
        if dim == kind:
            continue
        stated = [(s.key, s.values[dim]) for s in sides if dim in s.values]
        if len(stated) < 2:
            continue
        if dim == "cache" and any(len(v) > 1 for _, v in stated):
            continue  # one side said both on and off: the text is about something else
        if any(set(a) & set(b) for n, (_, a) in enumerate(stated) for _, b in stated[n + 1:]):
            continue  # two sides share a value (both engines ran on MI300X): a like-for-like pair exists among them
        if len({frozenset(v) for _, v in stated}) > 1:
            out[label] = [f"{key}: {', '.join(sorted(v))}" for key, v in stated]
    return out


class _Spot:
    """An evidence position (quacks like re.Match for ``Document.evidence``)."""

    def __init__(self, start: int):
        self._start = start

    def start(self) -> int:
        return self._start


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
