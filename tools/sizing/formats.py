"""Storage formats: how many bytes a weight matrix or a KV-cache entry takes.

Answers "what does a 8192 x 28672 matrix cost in int4 AWQ g128?" and "how many bytes
does one token of one KV head take in fp8 / int8 / nvfp4?", scales and zero points
included, and which weight format a checkpoint uses (read from ``quantization_config``,
never from ``torch_dtype`` alone).

Byte layouts (per matrix of ``rows`` outputs x ``cols`` inputs):

- bf16/fp16 2 B, fp32 4 B per element;
- fp8 channel: 1 B + one fp32 scale per output row; fp8 tensor: 1 B + one fp32 scale;
  fp8 block (DeepSeek-V3 style): 1 B + one fp32 scale per 128 x 128 block;
- int8: 1 B + one fp32 scale per output row;
- int4 AWQ/GPTQ group g: 0.5 B + per group of g inputs one fp16 scale (2 B) and one packed
  4-bit zero (0.5 B); GPTQ also stores ``g_idx`` (int32 per input column);
- mxfp4: 0.5 B + one E8M0 scale byte per 32 (4.25 bits); nvfp4: 0.5 B + one fp8 scale per
  16 (4.5 bits) + two fp32 per-tensor scales;
- GGUF: the ggml block size of the type (Q4_K 144 B per 256 weights = 4.5 bpw, ...).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import ModelConfigError, argument

__all__ = [
    "GGUF_TYPES",
    "KV_FORMATS",
    "WEIGHT_FORMAT_NAMES",
    "KVFormat",
    "WeightFormat",
    "checkpoint_weight_format",
    "kv_format",
    "weight_format",
]

ScaleKind = Literal["none", "tensor", "channel", "group", "block", "gguf"]
ComputeDtype = Literal["bf16", "fp8", "int8", "fp4", "fp32"]


@dataclass(frozen=True)
class WeightFormat:
    """A weight storage format; ``quantized`` formats apply to linear layers only."""

    name: str
    bits: float  # stored bits per weight element of a quantized linear matrix
    scale: ScaleKind = "none"
    group_size: int | None = None  # inputs per scale group (group) / elements per block (gguf)
    block: tuple[int, int] | None = None  # (rows, cols) per fp32 scale (block)
    scale_bytes: float = 0.0
    zero_bytes: float = 0.0
    per_matrix_bytes: int = 0
    per_input_col_bytes: int = 0
    applies_to: Literal["linear", "all"] = "linear"
    other_bytes: int = 2  # bytes per element for tensors the format leaves alone
    compute: ComputeDtype = "bf16"
    exact: bool = True
    description: str = ""
    skip_patterns: tuple[str, ...] = ()  # module names the checkpoint leaves unquantized

    def matrix_bytes(self, rows: int, cols: int) -> int:
        """Bytes of one rows x cols linear weight in this format (scales included)."""
        n = rows * cols
        if self.scale == "gguf":
            assert self.group_size is not None
            blocks = math.ceil(n / self.group_size)
            return math.ceil(blocks * self.group_size * self.bits / 8)
        data = math.ceil(n * self.bits / 8)
        if self.scale == "tensor":
            extra = self.scale_bytes
        elif self.scale == "channel":
            extra = rows * self.scale_bytes
        elif self.scale == "group":
            groups = rows * (math.ceil(cols / self.group_size) if self.group_size else 1)
            extra = groups * (self.scale_bytes + self.zero_bytes)
        elif self.scale == "block":
            assert self.block is not None
            extra = math.ceil(rows / self.block[0]) * math.ceil(cols / self.block[1]) * self.scale_bytes
        else:
            extra = 0
        return data + math.ceil(extra) + self.per_matrix_bytes + cols * self.per_input_col_bytes

    @property
    def quantized(self) -> bool:
        return self.applies_to == "linear" and self.bits < 16


_FLOAT = {
    "fp32": WeightFormat("fp32", 32, applies_to="all", other_bytes=4, compute="fp32", description="float32, 4 B per parameter"),
    "bf16": WeightFormat("bf16", 16, applies_to="all", description="bfloat16, 2 B per parameter"),
    "fp16": WeightFormat("fp16", 16, applies_to="all", description="float16, 2 B per parameter"),
}

# ggml block layouts: (weights per block, bytes per block) -> bpw = 8 * bytes / weights
# (ggml-common.h block_q4_0 = 2 + 16 B per 32, block_q4_K = 144 B per 256, ...).
GGUF_TYPES: dict[str, tuple[int, int]] = {
    "q8_0": (32, 34),
    "q6_k": (256, 210),
    "q5_1": (32, 24),
    "q5_0": (32, 22),
    "q5_k": (256, 176),
    "q4_1": (32, 20),
    "q4_0": (32, 18),
    "q4_k": (256, 144),
    "iq4_xs": (256, 136),
    "q3_k": (256, 110),
    "q2_k": (256, 84),
}
_GGUF_MIXES = {"q5_k_m": "q5_k", "q5_k_s": "q5_k", "q4_k_m": "q4_k", "q4_k_s": "q4_k", "q3_k_m": "q3_k",
               "q3_k_s": "q3_k", "q3_k_l": "q3_k", "q2_k_s": "q2_k"}

WEIGHT_FORMAT_NAMES = (
    "fp32", "bf16", "fp16", "fp8", "fp8-channel", "fp8-tensor", "fp8-block", "int8",
    "int4-awq", "int4-gptq", "int4-awq-g<N>", "int4-gptq-g<N>", "int<2|3|4|8>-<awq|gptq>[-g<N>|-channel]",
    "nf4", "mxfp4", "nvfp4",
    *GGUF_TYPES, *_GGUF_MIXES, "gguf-<bits per weight>",
)


def _int4(kind: str, group: int, bits: int = 4) -> WeightFormat:
    """AWQ/GPTQ integer weights; group 0 means one group per output channel (group_size -1 in the config)."""
    what = f"group {group}" if group else "per output channel (group_size -1)"
    return WeightFormat(
        f"int{bits}-{kind}-{'g' + str(group) if group else 'channel'}", bits, scale="group",
        group_size=group or None, scale_bytes=2, zero_bytes=bits / 8,
        per_input_col_bytes=4 if kind == "gptq" else 0,
        description=(f"int{bits} {kind.upper()}, {what}: {bits / 8:g} B/weight + fp16 scale and packed {bits}-bit "
                     f"zero per group{' + int32 g_idx per input column' if kind == 'gptq' else ''}"),
    )


def _bnb4(double_quant: bool, kind: str = "nf4") -> WeightFormat:
    """bitsandbytes 4-bit: 0.5 B/weight + an fp32 absmax per 64 weights, or with double quantization an 8-bit
    absmax per 64 plus an fp32 scale per 256 such blocks (bitsandbytes functional.quantize_4bit)."""
    scale = (1 + 4 / 256) if double_quant else 4
    return WeightFormat(
        f"bnb-{kind}{'-dq' if double_quant else ''}", 4, scale="group", group_size=64, scale_bytes=scale,
        description=(f"bitsandbytes {kind}: 0.5 B/weight + {'8-bit absmax per 64 + fp32 per 256 blocks' if double_quant else 'fp32 absmax per 64'}"))


def _fp8_block(rows: int = 128, cols: int = 128) -> WeightFormat:
    return WeightFormat(f"fp8-block-{rows}x{cols}", 8, scale="block", block=(rows, cols), scale_bytes=4, compute="fp8",
                        description=f"fp8 e4m3, one fp32 scale per {rows}x{cols} block (DeepSeek-V3 checkpoint layout)")


@functools.lru_cache(maxsize=256)
def weight_format(name: str) -> WeightFormat:
    """The weight format for a user-facing name (see WEIGHT_FORMAT_NAMES); raises on unknown names."""
    raw = name.strip().lower()
    key = raw.replace("_", "-")
    if key in _FLOAT:
        return _FLOAT[key]
    if key in ("fp8", "fp8-channel"):
        return WeightFormat("fp8-channel", 8, scale="channel", scale_bytes=4, compute="fp8",
                            description="fp8 e4m3, one fp32 scale per output channel")
    if key == "fp8-tensor":
        return WeightFormat("fp8-tensor", 8, scale="tensor", scale_bytes=4, compute="fp8",
                            description="fp8 e4m3, one fp32 scale per tensor")
    if key == "fp8-block":
        return _fp8_block()
    if key in ("int8", "int8-channel", "w8a8"):
        return WeightFormat("int8", 8, scale="channel", scale_bytes=4, compute="int8",
                            description="int8, one fp32 scale per output channel (W8A8)")
    m = re.fullmatch(r"int([2348])-(awq|gptq)(?:-g(\d+)|-(channel))?", key)
    if m:
        group = 0 if m.group(4) else int(m.group(3) or 128)
        if group and not 8 <= group <= 8192:
            raise ModelConfigError(f"{argument('weights')}: group size {group} out of range 8..8192")
        return _int4(m.group(2), group, int(m.group(1)))
    if key in ("int4", "awq", "gptq"):
        return _int4("gptq" if key == "gptq" else "awq", 128)
    if key in ("nf4", "bnb-nf4", "bnb-4bit", "fp4-bnb"):
        return _bnb4(double_quant=False)
    if key == "mxfp4":
        return WeightFormat("mxfp4", 4, scale="group", group_size=32, scale_bytes=1,
                            description="MXFP4: 4-bit e2m1 + one E8M0 scale byte per 32 (4.25 bits)")
    if key == "nvfp4":
        return WeightFormat("nvfp4", 4, scale="group", group_size=16, scale_bytes=1, per_matrix_bytes=8, compute="fp4",
                            description="NVFP4: 4-bit e2m1 + one fp8 scale per 16 + two fp32 per-tensor scales (4.5 bits)")
    gg = raw.replace("-", "_").removeprefix("gguf_")
    if gg in GGUF_TYPES or gg in _GGUF_MIXES:
        base = _GGUF_MIXES.get(gg, gg)
        per, nbytes = GGUF_TYPES[base]
        mix = gg in _GGUF_MIXES
        return WeightFormat(
            f"gguf-{gg}", 8 * nbytes / per, scale="gguf", group_size=per, applies_to="linear", other_bytes=4,
            exact=not mix,
            description=(f"GGUF {gg.upper()}: {8 * nbytes / per:g} bits/weight ({nbytes} B per {per})"
                         + (f"; the {gg.upper()} mix keeps some tensors at higher types, so real files run a few "
                            "tenths of a bit higher (estimate; pass gguf-<bpw> with the file's average)" if mix else "")),
        )
    m = re.fullmatch(r"gguf-(\d+(?:\.\d+)?)", key)
    if m:
        bpw = float(m.group(1))
        if not 1.0 <= bpw <= 16.0:
            raise ModelConfigError(f"{argument('weights')}: GGUF bits per weight {bpw} out of range 1..16")
        return WeightFormat(f"gguf-{bpw:g}bpw", bpw, scale="gguf", group_size=1, other_bytes=4, exact=False,
                            description=f"GGUF at an average {bpw:g} bits/weight (as given)")
    raise ModelConfigError(
        f"{argument('weights')}: unknown format '{name}'; valid values: {', '.join(WEIGHT_FORMAT_NAMES)}"
    )


def _dtype_format(dtype: Any) -> WeightFormat | None:
    return {"bfloat16": _FLOAT["bf16"], "float16": _FLOAT["fp16"], "float32": _FLOAT["fp32"],
            "bf16": _FLOAT["bf16"], "fp16": _FLOAT["fp16"], "fp32": _FLOAT["fp32"]}.get(str(dtype).lower())


def _skips(qc: dict[str, Any], *keys: str) -> tuple[str, ...]:
    out: list[str] = []
    for k in keys:
        v = qc.get(k)
        if isinstance(v, list):
            out.extend(str(x) for x in v)
    return tuple(out)


def checkpoint_weight_format(config: dict[str, Any]) -> tuple[WeightFormat, str]:
    """The format the checkpoint is stored in and why: quantization_config first, then torch_dtype.

    Returns (format, basis). Raises ModelConfigError for quantization methods sizing cannot model.
    """
    qc = config.get("quantization_config")
    if isinstance(qc, dict) and qc:
        method = str(qc.get("quant_method", "")).lower()
        reader = _QUANT_METHODS.get(method)
        if reader is None:
            raise ModelConfigError(
                f"quantization_config.quant_method='{method}' is not modelled (known: fp8, fbgemm_fp8, mxfp4, awq, "
                "gptq, bitsandbytes, compressed-tensors, modelopt); pass weights=<format> explicitly"
            )
        return reader(qc, method)
    dtype = config.get("torch_dtype", config.get("dtype"))
    fmt = _dtype_format(dtype) if dtype is not None else None
    if fmt is not None:
        return fmt, f"no quantization_config; torch_dtype={dtype}"
    return _FLOAT["bf16"], "no quantization_config and no torch_dtype: assumed bf16"


def _fp8_checkpoint(qc: dict[str, Any], method: str) -> tuple[WeightFormat, str]:
    """quant_method fp8: block scales when weight_block_size is given, else one scale per tensor."""
    block = qc.get("weight_block_size")
    if isinstance(block, list) and len(block) == 2:
        fmt = _fp8_block(int(block[0]), int(block[1]))
    else:
        fmt = weight_format("fp8-tensor")
    skip = _skips(qc, "modules_to_not_convert", "ignored_layers")
    return _with_skips(fmt, skip), f"quantization_config.quant_method=fp8 (weight_block_size={block})"


def _fbgemm_fp8_checkpoint(qc: dict[str, Any], method: str) -> tuple[WeightFormat, str]:
    """quant_method fbgemm_fp8: fp8 with one scale per output channel."""
    return (_with_skips(weight_format("fp8-channel"), _skips(qc, "modules_to_not_convert")),
            "quantization_config.quant_method=fbgemm_fp8 (per-channel fp8)")


def _mxfp4_checkpoint(qc: dict[str, Any], method: str) -> tuple[WeightFormat, str]:
    """quant_method mxfp4 (gpt-oss): MXFP4 experts, the rest as listed in modules_to_not_convert."""
    return (_with_skips(weight_format("mxfp4"), _skips(qc, "modules_to_not_convert")),
            "quantization_config.quant_method=mxfp4")


def _awq_gptq_checkpoint(qc: dict[str, Any], method: str) -> tuple[WeightFormat, str]:
    """quant_method awq / gptq: integer weights of ``bits`` with a scale and zero per group (-1: per channel);
    lm_head is never quantized."""
    bits = _qc_int(qc, "bits", "w_bit", default=4)
    group = _qc_int(qc, "group_size", "q_group_size", default=128)
    if bits not in (2, 3, 4, 8):
        raise ModelConfigError(f"quantization_config.bits={bits}: {method.upper()} with 2, 3, 4 or 8 bits is "
                               "modelled; pass weights=<format> explicitly")
    if group != -1 and not 8 <= group <= 8192:
        raise ModelConfigError(f"quantization_config.group_size={group}: expected -1 (per channel) or 8..8192")
    fmt = _int4(method, 0 if group == -1 else group, bits)
    return (_with_skips(fmt, ("lm_head", *_skips(qc, "modules_to_not_convert"))),
            f"quantization_config.quant_method={method} bits={bits} group_size={group}")


def _bitsandbytes_checkpoint(qc: dict[str, Any], method: str) -> tuple[WeightFormat, str]:
    """quant_method bitsandbytes: 4-bit (nf4 / fp4, optionally double-quantized) or 8-bit LLM.int8."""
    skip = _skips(qc, "llm_int8_skip_modules")
    if qc.get("load_in_4bit"):
        kind = str(qc.get("bnb_4bit_quant_type", "fp4")).lower()
        fmt = _bnb4(bool(qc.get("bnb_4bit_use_double_quant")), kind if kind in ("nf4", "fp4") else "nf4")
        return _with_skips(fmt, skip), f"quantization_config bitsandbytes 4-bit {kind}"
    if qc.get("load_in_8bit"):
        return _with_skips(weight_format("int8"), skip), "quantization_config bitsandbytes 8-bit (LLM.int8)"
    raise ModelConfigError("quantization_config.quant_method=bitsandbytes: neither load_in_4bit nor "
                           "load_in_8bit is true; pass weights=<format> explicitly")


def _modelopt_checkpoint(qc: dict[str, Any], method: str) -> tuple[WeightFormat, str]:
    """quant_method modelopt / modelopt_fp4 (NVIDIA TensorRT Model Optimizer): FP8 or NVFP4."""
    algo = str(qc.get("quant_algo", "NVFP4" if method == "modelopt_fp4" else "")).upper()
    skip = _skips(qc, "exclude_modules", "ignore")
    if algo == "FP8":
        return _with_skips(weight_format("fp8-tensor"), skip), "quantization_config modelopt FP8"
    if algo == "NVFP4":
        return _with_skips(weight_format("nvfp4"), skip), "quantization_config modelopt NVFP4"
    raise ModelConfigError(f"quantization_config.quant_algo='{algo}': modelopt FP8 and NVFP4 are modelled; "
                           "pass weights=<format> explicitly")


def _qc_int(qc: dict[str, Any], *keys: str, default: int) -> int:
    for k in keys:
        v = qc.get(k)
        if v is None:
            continue
        if isinstance(v, bool) or not isinstance(v, (int, float)) or int(v) != v:
            raise ModelConfigError(f"quantization_config.{k}: expected an integer, got {v!r}")
        return int(v)
    return default


def _with_skips(fmt: WeightFormat, skips: tuple[str, ...]) -> WeightFormat:
    return WeightFormat(**{**fmt.__dict__, "skip_patterns": tuple(skips)})


def _compressed_tensors(qc: dict[str, Any], method: str) -> tuple[WeightFormat, str]:
    """quant_method compressed-tensors (llm-compressor): the first config group's weight scheme."""
    groups = qc.get("config_groups") or {}
    first = next(iter(groups.values()), {}) if isinstance(groups, dict) else {}
    w = (first or {}).get("weights") if isinstance(first, dict) else None
    if not isinstance(w, dict):
        raise ModelConfigError("quantization_config.config_groups: compressed-tensors config without a weights scheme")
    bits, typ = _qc_int(w, "num_bits", default=0), str(w.get("type", "int"))
    strategy, gsize = str(w.get("strategy", "")), w.get("group_size")
    skip = _skips(qc, "ignore")
    basis = f"quantization_config compressed-tensors num_bits={bits} type={typ} strategy={strategy}"
    if bits == 8 and typ == "float":
        if strategy == "block":
            b = w.get("block_structure") or [128, 128]
            return _with_skips(_fp8_block(int(b[0]), int(b[1])), skip), basis
        return _with_skips(weight_format("fp8-tensor" if strategy == "tensor" else "fp8-channel"), skip), basis
    if bits == 8 and typ == "int":
        return _with_skips(weight_format("int8"), skip), basis
    if bits == 4 and typ == "float":
        if gsize == 32 or "mxfp4" in str(qc.get("format", "")):
            return _with_skips(weight_format("mxfp4"), skip), basis
        return _with_skips(weight_format("nvfp4"), skip), basis
    if bits == 4 and typ == "int" and strategy == "channel":
        fmt = WeightFormat("int4-channel", 4, scale="channel", scale_bytes=2,
                           description="int4 packed, one bf16 scale per output channel")
        return _with_skips(fmt, skip), basis
    if bits == 4 and typ == "int":
        g = _qc_int(w, "group_size", default=128)
        if not 8 <= g <= 8192:
            raise ModelConfigError(f"quantization_config.config_groups.weights.group_size={g}: expected 8..8192")
        sym = bool(w.get("symmetric", True))
        fmt = WeightFormat(f"int4-g{g}", 4, scale="group", group_size=g, scale_bytes=2, zero_bytes=0 if sym else 0.5,
                           description=f"int4 packed, group {g}, bf16 scale{'' if sym else ' + zero'} per group")
        return _with_skips(fmt, skip), basis
    raise ModelConfigError(f"quantization_config.config_groups: {basis} is not modelled; give {argument('weights')} explicitly")



# quant_method -> reader of its quantization_config
_QUANT_METHODS = {
    "fp8": _fp8_checkpoint,
    "fbgemm_fp8": _fbgemm_fp8_checkpoint,
    "mxfp4": _mxfp4_checkpoint,
    "awq": _awq_gptq_checkpoint,
    "gptq": _awq_gptq_checkpoint,
    "bitsandbytes": _bitsandbytes_checkpoint,
    "compressed-tensors": _compressed_tensors,
    "modelopt": _modelopt_checkpoint,
    "modelopt_fp4": _modelopt_checkpoint,
}

# ---------------------------------------------------------------------------------------------
# KV cache formats


@dataclass(frozen=True)
class KVFormat:
    """Bytes one K or V vector of ``head_dim`` elements takes for one token and one head."""

    name: str
    description: str
    element_bits: float
    per_vector_bytes: float = 0.0  # scale/zero bytes per token per head per K or V
    per_16_scale_bytes: float = 0.0  # nvfp4: one fp8 scale per 16 elements
    per_64_bytes: float = 0.0  # int4: fp16 scale + fp16 zero per 64 elements

    def vector_bytes(self, dim: int) -> float:
        return (dim * self.element_bits / 8 + self.per_vector_bytes + math.ceil(dim / 16) * self.per_16_scale_bytes
                + math.ceil(dim / 64) * self.per_64_bytes)


KV_FORMATS: dict[str, KVFormat] = {
    "bf16": KVFormat("bf16", "bfloat16, 2 B per element", 16),
    "fp16": KVFormat("fp16", "float16, 2 B per element", 16),
    "fp32": KVFormat("fp32", "float32, 4 B per element", 32),
    "fp8": KVFormat("fp8", "fp8 (e4m3/e5m2), 1 B per element; per-tensor scales only (vLLM --kv-cache-dtype fp8)", 8),
    "int8": KVFormat("int8", "int8 + one fp32 scale per token per head (vLLM int8_per_token_head)", 8, per_vector_bytes=4),
    "int4": KVFormat("int4", "int4 + fp16 scale and fp16 zero per 64 elements (references/memory-sizing.md"
                     "#kv-cache-quantization)", 4, per_64_bytes=4),
    "nvfp4": KVFormat("nvfp4", "nvfp4: head_dim/2 data bytes + one fp8 scale per 16 elements (vLLM nvfp4 KV)", 4,
                      per_16_scale_bytes=1),
    "fp8_ds_mla": KVFormat("fp8_ds_mla", "vLLM fp8_ds_mla: 656 B per MLA layer per token (512 fp8 latent + 4 fp32 "
                           "scales + 64 bf16 rope)", 8),
}
_KV_ALIASES = {"bfloat16": "bf16", "float16": "fp16", "half": "fp16", "float32": "fp32", "fp8_e4m3": "fp8",
               "fp8_e5m2": "fp8", "fp8-e4m3": "fp8", "int8_per_token_head": "int8", "fp4": "nvfp4"}


def kv_format(name: str, model_dtype: str) -> KVFormat:
    """The KV format for a name; 'auto' means the model's dtype (as vLLM's --kv-cache-dtype auto)."""
    key = name.strip().lower()
    if key == "auto":
        key = {"bf16": "bf16", "fp16": "fp16", "fp32": "fp32"}.get(model_dtype, "bf16")
    key = _KV_ALIASES.get(key, key)
    if key not in KV_FORMATS:
        raise ModelConfigError(f"{argument('kv')}: unknown KV format '{name}'; valid values: auto, {', '.join(KV_FORMATS)}")
    return KV_FORMATS[key]
