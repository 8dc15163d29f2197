"""Model architecture from a Hugging Face config.json: layers, tensors and parameter counts.

Answers "what does this config describe?": every layer's token mixer (attention, MLA, Mamba,
Gated DeltaNet) and attention span (full, sliding window, chunked), which layers are MoE,
every weight tensor with its shape (embedding, attention, MLP/experts, norms, lm_head), and
the fixed per-sequence state of recurrent layers. Parameter counts are sums over those
tensors, so they can be checked by hand against published totals.

Per-layer rules, in order: ``hybrid_override_pattern`` (Nemotron-H: M Mamba2, * attention,
- MLP, E MoE), ``layers_block_type``, ``layer_types``, ``attn_layer_period/offset`` (Jamba),
``attn_type_list`` (MiniMax: 0 lightning linear attention, 1 softmax attention),
``full_attention_interval`` (Qwen3-Next), ``sliding_window_pattern`` (Gemma 3, default 6:
layer i global iff (i+1) % 6 == 0), Gemma 2 / gpt-oss alternation (even layers slide),
Llama 4 ``no_rope_layers`` (default: every 4th layer global, the rest chunked), Qwen2
``use_sliding_window`` with ``max_window_layers``; otherwise full attention. MLA when
``kv_lora_rank`` is set; the last ``num_kv_shared_layers`` layers reuse earlier KV. Falcon-H1 runs
attention and a Mamba2 mixer side by side in every layer (KV and state both held).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal

from .errors import ModelConfigError

__all__ = [
    "Architecture",
    "LayerSpec",
    "StateSpec",
    "Tensor",
    "parse_architecture",
    "text_config",
]

Component = Literal["embedding", "lm_head", "attention", "mlp", "experts", "shared_experts", "router", "mixer", "norm"]
Split = Literal["column", "row", "kv", "vocab", "expert", "replicated"]
Mixer = Literal["attention", "mla", "mamba1", "mamba2", "gdn", "lightning", "none"]


@dataclass(frozen=True)
class Tensor:
    """One weight tensor (``count`` identical copies, e.g. the experts of a layer)."""

    name: str
    component: Component
    layer: int | None
    rows: int
    cols: int = 1
    count: int = 1
    linear: bool = False
    split: Split = "replicated"

    @property
    def numel(self) -> int:
        return self.rows * self.cols * self.count


@dataclass(frozen=True)
class StateSpec:
    """Fixed per-sequence state of one recurrent layer: conv and SSM elements and their bytes."""

    conv_elems: int
    ssm_elems: int
    conv_bytes: int
    ssm_bytes: int

    @property
    def bytes(self) -> int:
        return self.conv_elems * self.conv_bytes + self.ssm_elems * self.ssm_bytes


@dataclass(frozen=True)
class LayerSpec:
    index: int
    mixer: Mixer
    attention: Literal["full", "sliding", "chunked"] | None = None
    window: int | None = None
    kv_shared: bool = False
    ffn: Literal["dense", "moe", "none"] = "dense"
    state: StateSpec | None = None

    @property
    def holds_kv(self) -> bool:
        """An attention or MLA layer with KV of its own (cross-layer-shared layers reuse an earlier layer's)."""
        return self.mixer in ("attention", "mla") and not self.kv_shared

    @property
    def kind(self) -> str:
        """Label for breakdowns: full_attention, sliding_attention(4096), mla, mamba2, ..."""
        if self.kv_shared:
            return "kv_shared"
        if self.mixer == "attention":
            span = "full_attention" if self.attention == "full" else f"{self.attention}_attention({self.window})"
            return span + ("+mamba2" if self.state is not None else "")
        return self.mixer


@dataclass(frozen=True)
class Architecture:
    model_type: str
    hidden: int
    vocab: int
    heads: int
    kv_heads: int
    head_dim: int
    layers: tuple[LayerSpec, ...]
    tensors: tuple[Tensor, ...]
    tied_embeddings: bool
    dtype: str  # bf16 | fp16 | fp32: the model's activation / KV 'auto' dtype
    max_position: int | None
    mla: tuple[int, int] | None = None  # (kv_lora_rank, qk_rope_head_dim)
    qk_head_dim: int = 0  # per-head q.k width (MLA: nope + rope)
    v_head_dim: int = 0
    experts: int = 0
    indexer_bytes_per_token: int = 0  # DSA lightning indexer K cache per MLA layer (fp8 + fp32 scale per 128)
    top_k: int = 0
    notes: tuple[str, ...] = ()
    config: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def params(self) -> int:
        return sum(t.numel for t in self.tensors)

    @property
    def active_params(self) -> int:
        """Parameters used per token: routed experts count top_k of E; everything else in full."""
        total = 0
        for t in self.tensors:
            if t.component == "experts" and self.experts:
                total += t.rows * t.cols * self.top_k * (t.count // self.experts)
            else:
                total += t.numel
        return total


# ---------------------------------------------------------------------------------------------
# config access

_MISSING = object()
_LIMITS = {"hidden_size": 1 << 20, "num_hidden_layers": 10_000, "vocab_size": 100_000_000,
           "num_attention_heads": 65_536, "num_key_value_heads": 65_536, "head_dim": 65_536,
           "intermediate_size": 1 << 24, "moe_intermediate_size": 1 << 24, "experts": 1 << 17}
# Model types whose transformers config class leaves tie_word_embeddings at PretrainedConfig's True default.
_TIED_DEFAULT_TRUE = ("gemma", "gemma2", "gemma3", "gemma3_text", "gemma3n", "gemma3n_text", "cohere", "cohere2",
                      "starcoder2", "gpt_bigcode", "gpt2", "falcon", "opt", "bloom", "mpt")
# Model types whose MLP is up -> activation -> down (two matrices), not gated SwiGLU/GeGLU (three).
_UNGATED_MLP = ("starcoder2", "gpt_bigcode", "gpt2", "gpt_neox", "gptj", "falcon", "opt", "bloom", "mpt", "phi")
# Fields a published config may omit because its transformers config class supplies them (google/gemma-3-4b-it's
# text_config gives only hidden_size, intermediate_size, num_hidden_layers and sliding_window).
_CONFIG_DEFAULTS: dict[str, dict[str, Any]] = {
    "gemma3_text": {"vocab_size": 262_208, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
                    "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256,
                    "max_position_embeddings": 131_072, "sliding_window": 4096, "sliding_window_pattern": 6},
    "gemma2": {"vocab_size": 256_000, "hidden_size": 2304, "intermediate_size": 9216, "num_hidden_layers": 26,
               "num_attention_heads": 8, "num_key_value_heads": 4, "head_dim": 256, "max_position_embeddings": 8192,
               "sliding_window": 4096},
}


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


def _get(c: dict[str, Any], *keys: str, default: Any = _MISSING, positive: bool = True) -> Any:
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
            limit = _LIMITS.get(k, _LIMITS.get(keys[0], 1 << 40))  # aliases (n_layer, n_embd) share the limit
            if v > limit:
                raise ModelConfigError(f"config.{k}: {v} is implausibly large (limit {limit})")
            return v
    if default is _MISSING:
        raise ModelConfigError(f"config.{keys[0]}: required field is missing")
    return default


def _dtype(c: dict[str, Any]) -> str:
    d = str(c.get("torch_dtype", c.get("dtype", "bfloat16"))).lower().removeprefix("torch.")
    return {"float16": "fp16", "float32": "fp32", "bfloat16": "bf16"}.get(d, "bf16")


def _dtype_bytes(value: Any, fallback: int) -> int:
    if value is None:
        return fallback
    return {"float32": 4, "fp32": 4, "float16": 2, "bfloat16": 2, "bf16": 2, "fp16": 2, "auto": fallback}.get(
        str(value).lower().removeprefix("torch."), fallback)


# ---------------------------------------------------------------------------------------------
# layer layout


_LayerLayout = tuple[Mixer, str | None, int | None, str]  # mixer, attention span, window, FFN hint
_FULL: _LayerLayout = ("attention", "full", None, "")  # full softmax attention, FFN decided later


def _mixers(c: dict[str, Any], L: int, model_type: str, notes: list[str]) -> list[_LayerLayout]:
    """(mixer, attention span, window, ffn-hint) per layer; ffn-hint '' means 'decide later'."""
    window = c.get("sliding_window")
    chunk = c.get("attention_chunk_size")

    def sliding() -> tuple[Mixer, str, int | None, str]:
        if not isinstance(window, int) or isinstance(window, bool) or window <= 0:
            raise ModelConfigError("config.sliding_window: layers slide but no positive sliding_window is given")
        return ("attention", "sliding", window, "")

    pattern = c.get("hybrid_override_pattern")
    if pattern is not None:
        if not isinstance(pattern, str) or len(pattern) != L or set(pattern) - set("M*-E"):
            raise ModelConfigError(
                f"config.hybrid_override_pattern: expected {L} characters from 'M' (Mamba2), '*' (attention), "
                f"'-' (MLP), 'E' (MoE), got {pattern!r}")
        table = {"M": ("mamba2", None, None, "none"), "*": ("attention", "full", None, "none"),
                 "-": ("none", None, None, "dense"), "E": ("none", None, None, "moe")}
        return [table[ch] for ch in pattern]  # type: ignore[misc]
    blocks = c.get("layers_block_type")
    if isinstance(blocks, list):
        table2 = {"mamba": ("mamba2", None, None, "none"), "attention": ("attention", "full", None, "none"),
                  "mlp": ("none", None, None, "dense"), "moe": ("none", None, None, "moe")}
        if len(blocks) != L or any(b not in table2 for b in blocks):
            raise ModelConfigError(f"config.layers_block_type: expected {L} entries from {sorted(table2)}")
        return [table2[b] for b in blocks]  # type: ignore[misc]
    types = c.get("layer_types")
    if types is not None:
        if not isinstance(types, list) or len(types) != L:
            raise ModelConfigError(f"config.layer_types: expected a list of {L} layer types (num_hidden_layers)")
        out: list[_LayerLayout] = []
        for t in types:
            if t in ("full_attention", "attention", "global_attention", "global"):
                out.append(_FULL)
            elif t in ("sliding_attention", "local_attention", "local", "sliding"):
                out.append(sliding())
            elif t == "chunked_attention":
                if not isinstance(chunk, int) or chunk <= 0:
                    raise ModelConfigError("config.attention_chunk_size: chunked layers need a positive chunk size")
                out.append(("attention", "chunked", chunk, ""))
            elif t == "linear_attention":
                out.append(("lightning" if model_type.startswith("minimax") else "gdn", None, None, ""))
            elif t == "mamba":
                out.append(("mamba2", None, None, ""))
            else:
                raise ModelConfigError(
                    f"config.layer_types: unknown layer type {t!r}; accepted: full_attention, sliding_attention, "
                    "chunked_attention, linear_attention, mamba")
        if c.get("use_sliding_window") is False and any(o[1] == "sliding" for o in out):
            notes.append("use_sliding_window=false: sliding layers in layer_types treated as full attention")
            out = [_FULL if o[1] == "sliding" else o for o in out]
        return out
    atl = c.get("attn_type_list")
    if atl is not None:
        if not isinstance(atl, list) or len(atl) != L or any(a not in (0, 1) for a in atl):
            raise ModelConfigError(f"config.attn_type_list: expected {L} entries of 0 (lightning linear attention) "
                                   "or 1 (softmax attention)")
        return [_FULL if a == 1 else ("lightning", None, None, "") for a in atl]
    if "attn_layer_period" in c and "attn_layer_offset" in c:
        period = _get(c, "attn_layer_period")
        offset = _get(c, "attn_layer_offset", positive=False)
        return [_FULL if i % period == offset else ("mamba1", None, None, "") for i in range(L)]
    if c.get("full_attention_interval"):
        k = _get(c, "full_attention_interval")
        return [_FULL if (i + 1) % k == 0 else ("gdn", None, None, "") for i in range(L)]
    if model_type.startswith("gemma3") or "sliding_window_pattern" in c:
        p = _get(c, "sliding_window_pattern", default=6)
        if "sliding_window_pattern" not in c:
            notes.append("sliding_window_pattern absent: Gemma 3 default 6 (layer i global iff (i+1) % 6 == 0)")
        return [_FULL if (i + 1) % p == 0 else sliding() for i in range(L)]
    if model_type in ("gemma2", "gpt_oss"):
        notes.append(f"{model_type} without layer_types: even layers slide (window {window}), odd layers are global")
        return [sliding() if i % 2 == 0 else _FULL for i in range(L)]
    if isinstance(chunk, int) and chunk > 0:
        nope = c.get("no_rope_layers")
        if not isinstance(nope, list) or len(nope) != L:
            nope = [int((i + 1) % 4 != 0) for i in range(L)]
            notes.append("no_rope_layers absent: Llama 4 default (every 4th layer is a global NoPE layer)")
        return [_FULL if nope[i] == 0 else ("attention", "chunked", chunk, "") for i in range(L)]
    if c.get("use_sliding_window") is True:
        start = _get(c, "max_window_layers", default=0, positive=False)
        return [sliding() if i >= start else _FULL for i in range(L)]
    if c.get("use_sliding_window") is False:
        return [_FULL] * L
    if isinstance(window, int) and not isinstance(window, bool) and window > 0:
        notes.append(f"sliding_window={window} is declared without layer_types or use_sliding_window: "
                     "treated as full attention (as vLLM does for such configs); an upper bound if it does slide")
    return [_FULL] * L


def _moe_layers(c: dict[str, Any], L: int, model_type: str) -> list[bool]:
    kinds = c.get("mlp_layer_types")
    if kinds is not None:
        if not isinstance(kinds, list) or len(kinds) != L or any(k not in ("dense", "sparse") for k in kinds):
            raise ModelConfigError(f"config.mlp_layer_types: expected {L} entries of 'dense' or 'sparse'")
        return [k == "sparse" for k in kinds]
    if "first_k_dense_replace" in c or "moe_layer_freq" in c:
        k = _get(c, "first_k_dense_replace", default=0, positive=False)
        f = c.get("moe_layer_freq", 1)
        f = f if isinstance(f, int) and f > 0 else 1
        return [i >= k and i % f == 0 for i in range(L)]
    if "interleave_moe_layer_step" in c:
        s = _get(c, "interleave_moe_layer_step")
        return [(i + 1) % s == 0 for i in range(L)]
    if "expert_layer_period" in c:
        p = _get(c, "expert_layer_period")
        o = _get(c, "expert_layer_offset", default=0, positive=False)
        return [i % p == o for i in range(L)]
    only = c.get("mlp_only_layers") or []
    step = _get(c, "decoder_sparse_step", default=1)
    return [i not in only and (i + 1) % step == 0 for i in range(L)]


# ---------------------------------------------------------------------------------------------
# tensors


def _mamba2(c: dict[str, Any], p: str, i: int, h: int, conv_b: int, ssm_b: int) -> tuple[list[Tensor], StateSpec]:
    """Tensors and per-sequence state of one Mamba2 mixer (Nemotron-H, Granite-4 hybrids, Falcon-H1)."""
    heads = _get(c, "mamba_num_heads", "mamba_n_heads")
    if c.get("mamba_d_head") == "auto" and "mamba_head_dim" not in c:
        d_ssm = _get(c, "mamba_d_ssm", default=None) or _get(c, "mamba_expand", "expand", default=2) * h
        mhd = d_ssm // heads
    else:
        mhd = _get(c, "mamba_head_dim", "mamba_d_head")
    ds = _get(c, "ssm_state_size", "mamba_d_state")
    ng = _get(c, "n_groups", "mamba_n_groups", default=1)
    k = _get(c, "conv_kernel", "mamba_d_conv", default=4)
    d_in = heads * mhd
    conv_dim = d_in + 2 * ng * ds
    T = [Tensor(f"{p}.mixer.in_proj", "mixer", i, d_in + conv_dim + heads, h, linear=True, split="column"),
         Tensor(f"{p}.mixer.conv1d", "mixer", i, conv_dim, k, split="column"),
         Tensor(f"{p}.mixer.out_proj", "mixer", i, h, d_in, linear=True, split="row"),
         Tensor(f"{p}.mixer.dt_bias+A_log+D", "mixer", i, 3 * heads, split="column"),
         Tensor(f"{p}.mixer.norm", "norm", i, d_in, split="column")]
    if c.get("use_conv_bias", True):
        T.append(Tensor(f"{p}.mixer.conv1d.bias", "mixer", i, conv_dim, split="column"))
    if c.get("use_bias") or c.get("mamba_proj_bias"):
        T += [Tensor(f"{p}.mixer.in_proj.bias", "mixer", i, d_in + conv_dim + heads, split="column"),
              Tensor(f"{p}.mixer.out_proj.bias", "mixer", i, h)]
    return T, StateSpec(conv_dim * (k - 1), heads * mhd * ds, conv_b, ssm_b)


def _norms_per_layer(model_type: str) -> int:
    """Norm vectors of hidden size per layer: 2 (pre-attention, pre-MLP), 4 in Gemma 2/3 (pre and post each),
    1 in Nemotron-H (one per block) and Cohere (one LayerNorm before the parallel attention + MLP)."""
    if model_type in ("nemotron_h", "cohere", "cohere2"):
        return 1
    if model_type.startswith("gemma2") or model_type.startswith("gemma3"):
        return 4
    return 2


def _attention(c: dict[str, Any], model_type: str, p: str, i: int, h: int, nh_i: int, nh: int, kv: int,
               hd: int) -> list[Tensor]:
    """q/k/v/o projections of one softmax-attention layer with ``nh_i`` query heads, plus the biases, q/k norms,
    output gate (Qwen3-Next) and attention sinks (gpt-oss) the model type carries."""
    gate = 2 if (model_type == "qwen3_next" or c.get("attn_output_gate")) else 1
    T = [Tensor(f"{p}.self_attn.q_proj", "attention", i, nh_i * hd * gate, h, linear=True, split="column"),
         Tensor(f"{p}.self_attn.k_proj", "attention", i, kv * hd, h, linear=True, split="kv"),
         Tensor(f"{p}.self_attn.v_proj", "attention", i, kv * hd, h, linear=True, split="kv"),
         Tensor(f"{p}.self_attn.o_proj", "attention", i, h, nh_i * hd, linear=True, split="row")]
    if c.get("attention_bias") or c.get("use_bias") or model_type in ("qwen2", "qwen2_moe", "gpt_bigcode"):
        T += [Tensor(f"{p}.self_attn.q_proj.bias", "attention", i, nh * hd, split="column"),
              Tensor(f"{p}.self_attn.k_proj.bias", "attention", i, kv * hd, split="kv"),
              Tensor(f"{p}.self_attn.v_proj.bias", "attention", i, kv * hd, split="kv")]
        if (c.get("attention_bias") and not model_type.startswith("glm")) or c.get("use_bias") or (
                model_type == "gpt_bigcode"):
            T.append(Tensor(f"{p}.self_attn.o_proj.bias", "attention", i, h))
    if model_type in ("qwen3", "qwen3_moe", "qwen3_next", "gemma3", "gemma3_text", "olmo2") or c.get("qk_norm"):
        T += [Tensor(f"{p}.self_attn.q_norm", "norm", i, hd), Tensor(f"{p}.self_attn.k_norm", "norm", i, hd)]
    if model_type == "gpt_oss":
        T.append(Tensor(f"{p}.self_attn.sinks", "attention", i, nh, split="column"))
    return T


def _mla(c: dict[str, Any], p: str, i: int, h: int, nh: int, qk_hd: int, v_hd: int, mla_dims: tuple[int, int],
         idx_dim: int) -> list[Tensor]:
    """Multi-head latent attention (DeepSeek-V2/V3 layout): optional q LoRA, the shared kv_a down-projection
    (replicated), kv_b up-projection and o_proj, plus the DSA lightning indexer when ``idx_dim`` is set."""
    kv_lora, rope = mla_dims
    ql = _get(c, "q_lora_rank", default=None)
    T: list[Tensor] = []
    if ql:
        T += [Tensor(f"{p}.self_attn.q_a_proj", "attention", i, ql, h, linear=True),
              Tensor(f"{p}.self_attn.q_a_layernorm", "norm", i, ql),
              Tensor(f"{p}.self_attn.q_b_proj", "attention", i, nh * qk_hd, ql, linear=True, split="column")]
    else:
        T.append(Tensor(f"{p}.self_attn.q_proj", "attention", i, nh * qk_hd, h, linear=True, split="column"))
    T += [Tensor(f"{p}.self_attn.kv_a_proj_with_mqa", "attention", i, kv_lora + rope, h, linear=True),
          Tensor(f"{p}.self_attn.kv_a_layernorm", "norm", i, kv_lora),
          Tensor(f"{p}.self_attn.kv_b_proj", "attention", i, nh * (qk_hd - rope + v_hd), kv_lora, linear=True,
                 split="column"),
          Tensor(f"{p}.self_attn.o_proj", "attention", i, h, nh * v_hd, linear=True, split="row")]
    if idx_dim:  # DSA lightning indexer (DeepSeek-V3.2, GLM-5): its own q, k and head weights
        ih = _get(c, "index_n_heads")
        T += [Tensor(f"{p}.self_attn.indexer.wq_b", "attention", i, ih * idx_dim, ql or h, linear=True),
              Tensor(f"{p}.self_attn.indexer.wk", "attention", i, idx_dim, h, linear=True),
              Tensor(f"{p}.self_attn.indexer.k_norm", "norm", i, 2 * idx_dim),
              Tensor(f"{p}.self_attn.indexer.weights_proj", "attention", i, ih, h)]
    return T


def _lightning(p: str, i: int, h: int, nh: int, hd: int) -> tuple[list[Tensor], StateSpec]:
    """MiniMax lightning (linear) attention: fused qkv, output gate, out_proj and norm; an fp32 state of
    (num_heads, head_dim, head_dim) per sequence (vLLM MiniMax linear-attention cache)."""
    T = [Tensor(f"{p}.self_attn.qkv_proj", "mixer", i, 3 * nh * hd, h, linear=True, split="column"),
         Tensor(f"{p}.self_attn.output_gate", "mixer", i, nh * hd, h, linear=True, split="column"),
         Tensor(f"{p}.self_attn.out_proj", "mixer", i, h, nh * hd, linear=True, split="row"),
         Tensor(f"{p}.self_attn.norm", "norm", i, nh * hd, split="column")]
    return T, StateSpec(0, nh * hd * hd, 0, 4)


def _mamba1(c: dict[str, Any], model_type: str, p: str, i: int, h: int, conv_b: int,
            ssm_b: int) -> tuple[list[Tensor], StateSpec]:
    """Tensors and per-sequence state of one Mamba (v1) mixer (Jamba): conv state d_inner x (kernel - 1),
    SSM state d_inner x d_state."""
    expand = _get(c, "mamba_expand", "expand", default=2)
    ds = _get(c, "mamba_d_state", "ssm_state_size", default=16)
    k = _get(c, "mamba_d_conv", "conv_kernel", default=4)
    d_in = expand * h
    dt_rank = c.get("mamba_dt_rank", "auto")
    dt_rank = math.ceil(h / 16) if dt_rank in (None, "auto") else _get(c, "mamba_dt_rank")
    T = [Tensor(f"{p}.mamba.in_proj", "mixer", i, 2 * d_in, h, linear=True, split="column"),
         Tensor(f"{p}.mamba.conv1d", "mixer", i, d_in, k, split="column"),
         Tensor(f"{p}.mamba.x_proj", "mixer", i, dt_rank + 2 * ds, d_in, linear=True, split="row"),
         Tensor(f"{p}.mamba.dt_proj", "mixer", i, d_in, dt_rank, linear=True, split="column"),
         Tensor(f"{p}.mamba.dt_proj.bias", "mixer", i, d_in, split="column"),
         Tensor(f"{p}.mamba.A_log", "mixer", i, d_in, ds, split="column"),
         Tensor(f"{p}.mamba.D", "mixer", i, d_in, split="column"),
         Tensor(f"{p}.mamba.out_proj", "mixer", i, h, d_in, linear=True, split="row")]
    if c.get("mamba_conv_bias", True):
        T.append(Tensor(f"{p}.mamba.conv1d.bias", "mixer", i, d_in, split="column"))
    if c.get("mamba_proj_bias"):
        T += [Tensor(f"{p}.mamba.in_proj.bias", "mixer", i, 2 * d_in, split="column"),
              Tensor(f"{p}.mamba.out_proj.bias", "mixer", i, h)]
    if model_type == "jamba":
        T += [Tensor(f"{p}.mamba.dt_layernorm", "norm", i, dt_rank),
              Tensor(f"{p}.mamba.b_layernorm+c_layernorm", "norm", i, 2 * ds)]
    return T, StateSpec(d_in * (k - 1), d_in * ds, conv_b, ssm_b)


def _gated_deltanet(c: dict[str, Any], p: str, i: int, h: int, conv_b: int,
                    ssm_b: int) -> tuple[list[Tensor], StateSpec]:
    """Tensors and per-sequence state of one Gated DeltaNet layer (Qwen3-Next linear attention): conv state over
    q, k and v, recurrent state value_heads x value_dim x key_dim."""
    kh = _get(c, "linear_num_key_heads")
    vh = _get(c, "linear_num_value_heads")
    kd = _get(c, "linear_key_head_dim")
    vd = _get(c, "linear_value_head_dim")
    k = _get(c, "linear_conv_kernel_dim", default=4)
    key_dim, value_dim = kh * kd, vh * vd
    conv_dim = 2 * key_dim + value_dim
    T = [Tensor(f"{p}.linear_attn.in_proj_qkvz", "mixer", i, 2 * key_dim + 2 * value_dim, h, linear=True,
                split="column"),
         Tensor(f"{p}.linear_attn.in_proj_ba", "mixer", i, 2 * vh, h, linear=True, split="column"),
         Tensor(f"{p}.linear_attn.conv1d", "mixer", i, conv_dim, k, split="column"),
         Tensor(f"{p}.linear_attn.dt_bias+A_log", "mixer", i, 2 * vh, split="column"),
         Tensor(f"{p}.linear_attn.norm", "norm", i, vd),
         Tensor(f"{p}.linear_attn.out_proj", "mixer", i, h, value_dim, linear=True, split="row")]
    return T, StateSpec(conv_dim * (k - 1), vh * vd * kd, conv_b, ssm_b)


def _dense_mlp(c: dict[str, Any], model_type: str, p: str, i: int, h: int, gated: bool) -> list[Tensor]:
    """A dense MLP: gate/up/down (gated SwiGLU/GeGLU) or up/down, plus the biases some model types carry."""
    if model_type.startswith("granitemoe"):  # Granite MoE hybrids: the dense MLP is shared_mlp
        inter = _get(c, "shared_intermediate_size", "intermediate_size")
    elif model_type == "gpt_bigcode" and c.get("n_inner") is None:
        inter = 4 * h
    else:
        inter = _get(c, "intermediate_size_mlp", "intermediate_size", "ffn_hidden_size", "n_inner")
    names = ("gate_proj", "up_proj", "down_proj") if gated else ("up_proj", "down_proj")
    T: list[Tensor] = []
    for nm in names:
        rows, cols = (h, inter) if nm == "down_proj" else (inter, h)
        T.append(Tensor(f"{p}.mlp.{nm}", "mlp", i, rows, cols, linear=True,
                        split="row" if nm == "down_proj" else "column"))
    if c.get("mlp_bias") or c.get("use_bias") or model_type == "gpt_bigcode":
        T.append(Tensor(f"{p}.mlp.bias", "mlp", i, inter * (len(names) - 1) + h))
    return T


def _shared_expert_width(c: dict[str, Any], model_type: str, mi: int) -> tuple[int, bool]:
    """Intermediate width of the always-active shared expert(s) (0: none), and whether a sigmoid gate scales it
    (Qwen2-MoE shared_expert_gate). Keys in the order the model families use them."""
    if c.get("n_shared_experts"):
        return _get(c, "n_shared_experts") * mi, False
    if c.get("shared_expert_intermediate_size"):
        return _get(c, "shared_expert_intermediate_size"), True
    if c.get("moe_shared_expert_intermediate_size"):
        return _get(c, "moe_shared_expert_intermediate_size"), False
    if c.get("shared_intermediate_size"):  # Granite MoE hybrids
        return _get(c, "shared_intermediate_size"), False
    if model_type.startswith("llama4"):
        return mi, False
    return 0, False


def _moe(c: dict[str, Any], model_type: str, p: str, i: int, h: int, E: int, gated: bool) -> list[Tensor]:
    """A MoE block: E routed experts (one stacked tensor per projection), the router, its bias where the
    family has one, and any shared expert."""
    if not E:
        raise ModelConfigError("config.n_routed_experts: MoE layers in the pattern but no expert count is given")
    mi = _get(c, "moe_intermediate_size", "intermediate_size")
    if model_type == "gpt_oss":
        return [Tensor(f"{p}.mlp.experts.gate_up_proj", "experts", i, 2 * mi, h, count=E, linear=True, split="expert"),
                Tensor(f"{p}.mlp.experts.gate_up_proj_bias", "experts", i, 2 * mi, count=E, split="expert"),
                Tensor(f"{p}.mlp.experts.down_proj", "experts", i, h, mi, count=E, linear=True, split="expert"),
                Tensor(f"{p}.mlp.experts.down_proj_bias", "experts", i, h, count=E, split="expert"),
                Tensor(f"{p}.mlp.router", "router", i, E, h, linear=False),
                Tensor(f"{p}.mlp.router.bias", "router", i, E)]
    up = 2 if gated else 1  # gate and up projections stacked, or up alone
    T = [Tensor(f"{p}.mlp.experts.up_gate_proj", "experts", i, up * mi, h, count=E, linear=True, split="expert"),
         Tensor(f"{p}.mlp.experts.down_proj", "experts", i, h, mi, count=E, linear=True, split="expert"),
         Tensor(f"{p}.mlp.gate", "router", i, E, h, linear=False)]
    if c.get("topk_method") == "noaux_tc" or model_type in ("deepseek_v3", "kimi_k2", "glm4_moe", "nemotron_h"):
        T.append(Tensor(f"{p}.mlp.gate.e_score_correction_bias", "router", i, E))
    shared, gated_shared = _shared_expert_width(c, model_type, mi)
    if gated_shared:
        T.append(Tensor(f"{p}.mlp.shared_expert_gate", "router", i, 1, h))
    if shared:
        T += [Tensor(f"{p}.mlp.shared_experts.up_gate_proj", "shared_experts", i, up * shared, h, linear=True,
                     split="column"),
              Tensor(f"{p}.mlp.shared_experts.down_proj", "shared_experts", i, h, shared, linear=True, split="row")]
    return T


def parse_architecture(config: dict[str, Any]) -> Architecture:
    """Parse an HF config (multimodal wrappers included) into layers, tensors and state.

    Raises ModelConfigError naming the field when the config is malformed or incomplete.
    """
    c = text_config(config)
    model_type = str(c.get("model_type") or "unknown")
    notes: list[str] = []
    if c.get("compress_ratios") is not None or model_type == "deepseek_v4":
        raise ModelConfigError("config.compress_ratios: DeepSeek-V4 compressed sparse attention is not modelled "
                               "(its KV per layer depends on per-layer compression ratios); no size is given")
    defaults = _CONFIG_DEFAULTS.get(model_type, {})
    filled = [k for k in defaults if k not in c and not (k == "sliding_window_pattern" and "layer_types" in c)]
    if filled:
        c = {**c, **{k: defaults[k] for k in filled}}
        notes.append(f"{model_type} config omits {', '.join(f'{k}={defaults[k]}' for k in filled)}: the transformers "
                     "config-class defaults are used")
    h = _get(c, "hidden_size", "n_embd", "d_model")
    L = _get(c, "num_hidden_layers", "n_layer", "num_layers")
    V = _get(c, "vocab_size")
    nh = _get(c, "num_attention_heads", "n_head")
    kv = _get(c, "num_key_value_heads", "n_head_kv", "num_kv_heads", "multi_query_group_num",
              default=1 if c.get("multi_query") is True else nh)
    if kv > nh:
        raise ModelConfigError(f"config.num_key_value_heads: {kv} exceeds num_attention_heads ({nh})")
    explicit_hd = _get(c, "head_dim", "attention_head_dim", default=None)
    hd = explicit_hd if explicit_hd is not None else h // nh
    if explicit_hd is None and h % nh:
        raise ModelConfigError(f"config.head_dim: missing and hidden_size ({h}) is not divisible by num_attention_heads ({nh})")
    dtype = _dtype(c)
    if "tie_word_embeddings" in c and c["tie_word_embeddings"] is not None:
        tied = bool(c["tie_word_embeddings"])
    else:
        tied = model_type in _TIED_DEFAULT_TRUE or str(c.get("_wrapper_model_type")) in _TIED_DEFAULT_TRUE
        notes.append(f"tie_word_embeddings absent: {'tied' if tied else 'untied'} (the {model_type} default)")
    act = str(c.get("mlp_hidden_act", c.get("hidden_act", c.get("hidden_activation", "silu"))))
    gated = act not in ("relu2",) and model_type not in _UNGATED_MLP
    mla = c.get("kv_lora_rank") is not None
    E = _get(c, "n_routed_experts", "num_local_experts", "num_experts", default=0, positive=False)
    if E > _LIMITS["experts"]:
        raise ModelConfigError(f"config.num_experts: {E} is implausibly large")
    top_k = _get(c, "num_experts_per_tok", "moe_topk", "top_k", default=0, positive=False) if E else 0
    if E and not 0 < top_k <= E:
        raise ModelConfigError(f"config.num_experts_per_tok: must be 1..{E} (number of experts), got {top_k}")

    mixers = _mixers(c, L, model_type, notes)
    per_layer_heads = c.get("num_attention_heads_per_layer")
    if per_layer_heads is not None:
        if (not isinstance(per_layer_heads, list) or len(per_layer_heads) != L
                or any(isinstance(x, bool) or not isinstance(x, int) or x <= 0 or x % kv for x in per_layer_heads)):
            raise ModelConfigError(f"config.num_attention_heads_per_layer: expected {L} positive multiples of "
                                   f"num_key_value_heads ({kv})")
        notes.append("num_attention_heads_per_layer: query heads vary by layer (q/o projections sized per layer)")
    idx_dim = _get(c, "index_head_dim", default=0, positive=False) if c.get("index_topk") else 0
    moe = _moe_layers(c, L, model_type) if E else [False] * L
    shared_n = _get(c, "num_kv_shared_layers", default=0, positive=False)
    if shared_n >= L:
        raise ModelConfigError(f"config.num_kv_shared_layers: {shared_n} must be smaller than num_hidden_layers ({L})")

    T: list[Tensor] = [Tensor("model.embed_tokens", "embedding", None, V, h, linear=False, split="vocab")]
    if not tied:
        T.append(Tensor("lm_head", "lm_head", None, V, h, linear=True, split="vocab"))
    T.append(Tensor("model.norm", "norm", None, h))
    if model_type in ("gpt2", "gpt_bigcode"):  # learned absolute position embeddings
        T.append(Tensor("transformer.wpe", "embedding", None, _get(c, "n_positions", "max_position_embeddings"), h,
                        split="replicated"))

    layers: list[LayerSpec] = []
    qk_hd, v_hd = hd, hd
    mla_dims = None
    if mla:
        kv_lora = _get(c, "kv_lora_rank")
        rope = _get(c, "qk_rope_head_dim")
        nope = _get(c, "qk_nope_head_dim")
        v_hd = _get(c, "v_head_dim")
        qk_hd = nope + rope
        mla_dims = (kv_lora, rope)
    conv_b = _dtype_bytes(c.get("mamba_cache_dtype"), {"fp32": 4}.get(dtype, 2))
    ssm_b = _dtype_bytes(c.get("mamba_ssm_cache_dtype", c.get("mamba_ssm_dtype")), conv_b)

    norms = _norms_per_layer(model_type)
    for i, (mixer, span, window, ffn_hint) in enumerate(mixers):
        p = f"model.layers.{i}"
        kv_shared = i >= L - shared_n if shared_n else False
        if mixer == "attention" and mla:
            mixer = "mla"
        mt: list[Tensor] = []
        state: StateSpec | None = None
        if mixer == "attention":
            mt = _attention(c, model_type, p, i, h, per_layer_heads[i] if per_layer_heads else nh, nh, kv, hd)
            if model_type == "falcon_h1":  # parallel hybrid: a Mamba2 mixer beside attention in every layer
                mamba, state = _mamba2(c, p, i, h, conv_b, ssm_b)
                mt += mamba
        elif mixer == "mla":
            mt = _mla(c, p, i, h, nh, qk_hd, v_hd, mla_dims, idx_dim)  # type: ignore[arg-type]
        elif mixer == "mamba2":
            mt, state = _mamba2(c, p, i, h, conv_b, ssm_b)
        elif mixer == "lightning":
            mt, state = _lightning(p, i, h, nh, hd)
        elif mixer == "mamba1":
            mt, state = _mamba1(c, model_type, p, i, h, conv_b, ssm_b)
        elif mixer == "gdn":
            mt, state = _gated_deltanet(c, p, i, h, conv_b, ssm_b)
        T += mt
        ffn = ffn_hint or ("moe" if moe[i] else "dense")
        if ffn == "dense":
            T += _dense_mlp(c, model_type, p, i, h, gated)
        elif ffn == "moe":
            T += _moe(c, model_type, p, i, h, E, gated)
        T.append(Tensor(f"{p}.norms", "norm", i, norms * h))
        layers.append(LayerSpec(i, mixer, span if mixer == "attention" else None, window if mixer == "attention" else None,  # type: ignore[arg-type]
                                kv_shared and mixer in ("attention", "mla"), ffn, state))  # type: ignore[arg-type]

    if not any(lay.mixer in ("attention", "mla", "mamba1", "mamba2", "gdn", "lightning") for lay in layers):
        raise ModelConfigError("config: no token-mixing layer found (attention, MLA, Mamba or linear attention)")
    max_pos = _get(c, "max_position_embeddings", "n_positions", "max_seq_len", "seq_length", default=None)
    return Architecture(
        model_type=model_type, hidden=h, vocab=V, heads=nh, kv_heads=kv, head_dim=hd, layers=tuple(layers),
        tensors=tuple(T), tied_embeddings=tied, dtype=dtype, max_position=max_pos, mla=mla_dims,
        qk_head_dim=qk_hd, v_head_dim=v_hd, experts=E, top_k=top_k, notes=tuple(notes), config=c,
        indexer_bytes_per_token=(idx_dim + 4 * math.ceil(idx_dim / 128)) if (idx_dim and mla_dims) else 0,
    )
