"""Reading a Hugging Face config.json: the text part of multimodal wrappers, checked integers, dtypes.

Every architecture rule reads its fields through ``config_int``, so a malformed or implausible value
is refused with the field's name instead of producing a wrong size.
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelConfigError

__all__ = ["CONFIG_LIMITS", "config_int", "dtype_bytes", "model_dtype", "text_config"]

_MISSING = object()

CONFIG_LIMITS = {"hidden_size": 1 << 20, "num_hidden_layers": 10_000, "vocab_size": 100_000_000,
           "num_attention_heads": 65_536, "num_key_value_heads": 65_536, "head_dim": 65_536,
           "intermediate_size": 1 << 24, "moe_intermediate_size": 1 << 24, "experts": 1 << 17}


def text_config(config: dict[str, Any]) -> dict[str, Any]:
    """The language-model part of a config: ``text_config``/``llm_config`` of multimodal wrappers
    merged over the top level's quantization_config, torch_dtype and tie_word_embeddings."""
    if not isinstance(config, dict):
        raise ModelConfigError("config: expected a JSON object (a Hugging Face config.json)")
    inner = config.get("text_config") or config.get("llm_config")
    if not isinstance(inner, dict):
        return dict(config)
    merged = dict(inner)
    for key in ("quantization_config", "torch_dtype", "dtype", "tie_word_embeddings"):
        if key in config and key not in merged:
            merged[key] = config[key]
    merged.setdefault("_wrapper_model_type", config.get("model_type"))
    return merged


def config_int(c: dict[str, Any], *keys: str, default: Any = _MISSING, positive: bool = True) -> Any:
    for k in keys:
        if k in c and c[k] is not None:
            v = c[k]
            if isinstance(v, bool) or not isinstance(v, int):
                if isinstance(v, float) and v.is_integer():
                    v = int(v)
                else:
                    raise ModelConfigError(f"config.{k}: expected an integer, got {v!r}")
            if positive and v <= 0:
                raise ModelConfigError(f"config.{k}: must be a positive integer, got {v}")
            if v < 0:
                raise ModelConfigError(f"config.{k}: must not be negative, got {v}")
            limit = CONFIG_LIMITS.get(k, CONFIG_LIMITS.get(keys[0], 1 << 40))  # aliases (n_layer, n_embd) share the limit
            if v > limit:
                raise ModelConfigError(f"config.{k}: {v} is implausibly large (limit {limit})")
            return v
    if default is _MISSING:
        raise ModelConfigError(f"config.{keys[0]}: required field is missing")
    return default


def model_dtype(c: dict[str, Any]) -> str:
    d = str(c.get("torch_dtype", c.get("dtype", "bfloat16"))).lower().removeprefix("torch.")
    return {"float16": "fp16", "float32": "fp32", "bfloat16": "bf16"}.get(d, "bf16")


def dtype_bytes(value: Any, fallback: int) -> int:
    if value is None:
        return fallback
    return {"float32": 4, "fp32": 4, "float16": 2, "bfloat16": 2, "bf16": 2, "fp16": 2, "auto": fallback}.get(
        str(value).lower().removeprefix("torch."), fallback)
