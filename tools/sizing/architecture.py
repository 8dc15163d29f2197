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

import functools
import json
import math
from dataclasses import dataclass, field
from typing import Any, Literal

from ..errors import ModelConfigError
from .hf_config import CONFIG_LIMITS, config_int, dtype_bytes, model_dtype, text_config
from .tensors import (
    StateSpec,
    Tensor,
    attention_tensors,
    dense_mlp_tensors,
    gated_deltanet_tensors,
    lightning_tensors,
    mamba1_tensors,
    mamba2_tensors,
    mla_tensors,
    moe_tensors,
    norms_per_layer,
)

__all__ = [
    "Architecture",
    "LayerSpec",
    "StateSpec",
    "Tensor",
    "cached_architecture",
    "parse_architecture",
    "text_config",
]

Mixer = Literal["attention", "mla", "mamba1", "mamba2", "gdn", "lightning", "none"]


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


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: parses are cached, so equal configs share one
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

    @functools.cached_property
    def params(self) -> int:
        """All parameters (every expert)."""
        return sum(t.numel for t in self.tensors)

    @functools.cached_property
    def active_params(self) -> int:
        """Parameters used per token: routed experts count top_k of E; everything else in full."""
        total = 0
        for t in self.tensors:
            if t.component == "experts" and self.experts:
                total += t.rows * t.cols * self.top_k * (t.count // self.experts)
            else:
                total += t.numel
        return total


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
        period = config_int(c, "attn_layer_period")
        offset = config_int(c, "attn_layer_offset", positive=False)
        return [_FULL if i % period == offset else ("mamba1", None, None, "") for i in range(L)]
    if c.get("full_attention_interval"):
        k = config_int(c, "full_attention_interval")
        return [_FULL if (i + 1) % k == 0 else ("gdn", None, None, "") for i in range(L)]
    if model_type.startswith("gemma3") or "sliding_window_pattern" in c:
        p = config_int(c, "sliding_window_pattern", default=6)
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
        start = config_int(c, "max_window_layers", default=0, positive=False)
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
        k = config_int(c, "first_k_dense_replace", default=0, positive=False)
        f = c.get("moe_layer_freq", 1)
        f = f if isinstance(f, int) and f > 0 else 1
        return [i >= k and i % f == 0 for i in range(L)]
    if "interleave_moe_layer_step" in c:
        s = config_int(c, "interleave_moe_layer_step")
        return [(i + 1) % s == 0 for i in range(L)]
    if "expert_layer_period" in c:
        p = config_int(c, "expert_layer_period")
        o = config_int(c, "expert_layer_offset", default=0, positive=False)
        return [i % p == o for i in range(L)]
    only = c.get("mlp_only_layers") or []
    step = config_int(c, "decoder_sparse_step", default=1)
    return [i not in only and (i + 1) % step == 0 for i in range(L)]


def cached_architecture(config: dict[str, Any], *, immutable: bool = False) -> Architecture:
    """parse_architecture, remembered per config (sweeps and plans size one model many times): by identity for
    configs the caller knows never change (the catalog's own), else by the config's JSON text."""
    if not immutable:
        return _by_text(config)
    held = _BY_IDENTITY.get(id(config))
    if held is not None and held[0] is config:
        return held[1]
    arch = _by_text(config)
    if len(_BY_IDENTITY) < 256:
        _BY_IDENTITY[id(config)] = (config, arch)  # holding the config keeps its id from being reused
    return arch


_BY_IDENTITY: dict[int, tuple[dict[str, Any], Architecture]] = {}


def _by_text(config: dict[str, Any]) -> Architecture:
    try:
        key = json.dumps(config, sort_keys=True)
    except (TypeError, ValueError):  # not JSON-serialisable: parse it, it will say what is wrong
        return parse_architecture(config)
    return _parse_json_text(key)


@functools.lru_cache(maxsize=64)
def _parse_json_text(text: str) -> Architecture:
    return parse_architecture(json.loads(text))


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
    h = config_int(c, "hidden_size", "n_embd", "d_model")
    L = config_int(c, "num_hidden_layers", "n_layer", "num_layers")
    V = config_int(c, "vocab_size")
    nh = config_int(c, "num_attention_heads", "n_head")
    kv = config_int(c, "num_key_value_heads", "n_head_kv", "num_kv_heads", "multi_query_group_num",
              default=1 if c.get("multi_query") is True else nh)
    if kv > nh:
        raise ModelConfigError(f"config.num_key_value_heads: {kv} exceeds num_attention_heads ({nh})")
    explicit_hd = config_int(c, "head_dim", "attention_head_dim", default=None)
    hd = explicit_hd if explicit_hd is not None else h // nh
    if explicit_hd is None and h % nh:
        raise ModelConfigError(f"config.head_dim: missing and hidden_size ({h}) is not divisible by num_attention_heads ({nh})")
    dtype = model_dtype(c)
    if "tie_word_embeddings" in c and c["tie_word_embeddings"] is not None:
        tied = bool(c["tie_word_embeddings"])
    else:
        tied = model_type in _TIED_DEFAULT_TRUE or str(c.get("_wrapper_model_type")) in _TIED_DEFAULT_TRUE
        notes.append(f"tie_word_embeddings absent: {'tied' if tied else 'untied'} (the {model_type} default)")
    act = str(c.get("mlp_hidden_act", c.get("hidden_act", c.get("hidden_activation", "silu"))))
    gated = act not in ("relu2",) and model_type not in _UNGATED_MLP
    mla = c.get("kv_lora_rank") is not None
    E = config_int(c, "n_routed_experts", "num_local_experts", "num_experts", default=0, positive=False)
    if E > CONFIG_LIMITS["experts"]:
        raise ModelConfigError(f"config.num_experts: {E} is implausibly large")
    top_k = config_int(c, "num_experts_per_tok", "moe_topk", "top_k", default=0, positive=False) if E else 0
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
    idx_dim = config_int(c, "index_head_dim", default=0, positive=False) if c.get("index_topk") else 0
    moe = _moe_layers(c, L, model_type) if E else [False] * L
    shared_n = config_int(c, "num_kv_shared_layers", default=0, positive=False)
    if shared_n >= L:
        raise ModelConfigError(f"config.num_kv_shared_layers: {shared_n} must be smaller than num_hidden_layers ({L})")

    T: list[Tensor] = [Tensor("model.embed_tokens", "embedding", None, V, h, linear=False, split="vocab")]
    if not tied:
        T.append(Tensor("lm_head", "lm_head", None, V, h, linear=True, split="vocab"))
    T.append(Tensor("model.norm", "norm", None, h))
    if model_type in ("gpt2", "gpt_bigcode"):  # learned absolute position embeddings
        T.append(Tensor("transformer.wpe", "embedding", None, config_int(c, "n_positions", "max_position_embeddings"), h,
                        split="replicated"))

    layers: list[LayerSpec] = []
    qk_hd, v_hd = hd, hd
    mla_dims = None
    if mla:
        kv_lora = config_int(c, "kv_lora_rank")
        rope = config_int(c, "qk_rope_head_dim")
        nope = config_int(c, "qk_nope_head_dim")
        v_hd = config_int(c, "v_head_dim")
        qk_hd = nope + rope
        mla_dims = (kv_lora, rope)
    conv_b = dtype_bytes(c.get("mamba_cache_dtype"), {"fp32": 4}.get(dtype, 2))
    ssm_b = dtype_bytes(c.get("mamba_ssm_cache_dtype", c.get("mamba_ssm_dtype")), conv_b)

    norms = norms_per_layer(model_type)
    for i, (mixer, span, window, ffn_hint) in enumerate(mixers):
        p = f"model.layers.{i}"
        kv_shared = i >= L - shared_n if shared_n else False
        if mixer == "attention" and mla:
            mixer = "mla"
        mt: list[Tensor] = []
        state: StateSpec | None = None
        if mixer == "attention":
            mt = attention_tensors(c, model_type, p, i, h, per_layer_heads[i] if per_layer_heads else nh, nh, kv, hd)
            if model_type == "falcon_h1":  # parallel hybrid: a Mamba2 mixer beside attention in every layer
                mamba, state = mamba2_tensors(c, p, i, h, conv_b, ssm_b)
                mt += mamba
        elif mixer == "mla":
            mt = mla_tensors(c, p, i, h, nh, qk_hd, v_hd, mla_dims, idx_dim)  # type: ignore[arg-type]
        elif mixer == "mamba2":
            mt, state = mamba2_tensors(c, p, i, h, conv_b, ssm_b)
        elif mixer == "lightning":
            mt, state = lightning_tensors(p, i, h, nh, hd)
        elif mixer == "mamba1":
            mt, state = mamba1_tensors(c, model_type, p, i, h, conv_b, ssm_b)
        elif mixer == "gdn":
            mt, state = gated_deltanet_tensors(c, p, i, h, conv_b, ssm_b)
        T += mt
        ffn = ffn_hint or ("moe" if moe[i] else "dense")
        if ffn == "dense":
            T += dense_mlp_tensors(c, model_type, p, i, h, gated)
        elif ffn == "moe":
            T += moe_tensors(c, model_type, p, i, h, E, gated)
        T.append(Tensor(f"{p}.norms", "norm", i, norms * h))
        layers.append(LayerSpec(i, mixer, span if mixer == "attention" else None, window if mixer == "attention" else None,  # type: ignore[arg-type]
                                kv_shared and mixer in ("attention", "mla"), ffn, state))  # type: ignore[arg-type]

    if not any(lay.mixer in ("attention", "mla", "mamba1", "mamba2", "gdn", "lightning") for lay in layers):
        raise ModelConfigError("config: no token-mixing layer found (attention, MLA, Mamba or linear attention)")
    max_pos = config_int(c, "max_position_embeddings", "n_positions", "max_seq_len", "seq_length", default=None)
    return Architecture(
        model_type=model_type, hidden=h, vocab=V, heads=nh, kv_heads=kv, head_dim=hd, layers=tuple(layers),
        tensors=tuple(T), tied_embeddings=tied, dtype=dtype, max_position=max_pos, mla=mla_dims,
        qk_head_dim=qk_hd, v_head_dim=v_hd, experts=E, top_k=top_k, notes=tuple(notes), config=c,
        indexer_bytes_per_token=(idx_dim + 4 * math.ceil(idx_dim / 128)) if (idx_dim and mla_dims) else 0,
    )
