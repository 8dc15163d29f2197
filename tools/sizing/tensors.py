"""Weight tensors of one layer, by block kind: attention, MLA, Mamba, linear attention, MLP, MoE.

Each builder returns the tensors a checkpoint stores for that block (shape, component, how tensor
parallelism splits it) and, for recurrent mixers, the fixed per-sequence state they keep. The
shapes follow the Hugging Face / vLLM module layouts named in each docstring.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Literal

from ..errors import ModelConfigError
from .hf_config import config_int

__all__ = [
    "Component",
    "Split",
    "StateSpec",
    "Tensor",
    "attention_tensors",
    "dense_mlp_tensors",
    "gated_deltanet_tensors",
    "lightning_tensors",
    "mamba1_tensors",
    "mamba2_tensors",
    "mla_tensors",
    "moe_tensors",
    "norms_per_layer",
]

Component = Literal["embedding", "lm_head", "attention", "mlp", "experts", "shared_experts", "router", "mixer", "norm"]

Split = Literal["column", "row", "kv", "vocab", "expert", "replicated"]


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


def mamba2_tensors(c: dict[str, Any], p: str, i: int, h: int, conv_b: int, ssm_b: int) -> tuple[list[Tensor], StateSpec]:
    """Tensors and per-sequence state of one Mamba2 mixer (Nemotron-H, Granite-4 hybrids, Falcon-H1)."""
    heads = config_int(c, "mamba_num_heads", "mamba_n_heads")
    if c.get("mamba_d_head") == "auto" and "mamba_head_dim" not in c:
        d_ssm = config_int(c, "mamba_d_ssm", default=None) or config_int(c, "mamba_expand", "expand", default=2) * h
        mhd = d_ssm // heads
    else:
        mhd = config_int(c, "mamba_head_dim", "mamba_d_head")
    ds = config_int(c, "ssm_state_size", "mamba_d_state")
    ng = config_int(c, "n_groups", "mamba_n_groups", default=1)
    k = config_int(c, "conv_kernel", "mamba_d_conv", default=4)
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


def norms_per_layer(model_type: str) -> int:
    """Norm vectors of hidden size per layer: 2 (pre-attention, pre-MLP), 4 in Gemma 2/3 (pre and post each),
    1 in Nemotron-H (one per block) and Cohere (one LayerNorm before the parallel attention + MLP)."""
    if model_type in ("nemotron_h", "cohere", "cohere2"):
        return 1
    if model_type.startswith("gemma2") or model_type.startswith("gemma3"):
        return 4
    return 2


def attention_tensors(c: dict[str, Any], model_type: str, p: str, i: int, h: int, nh_i: int, nh: int, kv: int,
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


def mla_tensors(c: dict[str, Any], p: str, i: int, h: int, nh: int, qk_hd: int, v_hd: int, mla_dims: tuple[int, int],
         idx_dim: int) -> list[Tensor]:
    """Multi-head latent attention (DeepSeek-V2/V3 layout): optional q LoRA, the shared kv_a down-projection
    (replicated), kv_b up-projection and o_proj, plus the DSA lightning indexer when ``idx_dim`` is set."""
    kv_lora, rope = mla_dims
    ql = config_int(c, "q_lora_rank", default=None)
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
        ih = config_int(c, "index_n_heads")
        T += [Tensor(f"{p}.self_attn.indexer.wq_b", "attention", i, ih * idx_dim, ql or h, linear=True),
              Tensor(f"{p}.self_attn.indexer.wk", "attention", i, idx_dim, h, linear=True),
              Tensor(f"{p}.self_attn.indexer.k_norm", "norm", i, 2 * idx_dim),
              Tensor(f"{p}.self_attn.indexer.weights_proj", "attention", i, ih, h)]
    return T


def lightning_tensors(p: str, i: int, h: int, nh: int, hd: int) -> tuple[list[Tensor], StateSpec]:
    """MiniMax lightning (linear) attention: fused qkv, output gate, out_proj and norm; an fp32 state of
    (num_heads, head_dim, head_dim) per sequence (vLLM MiniMax linear-attention cache)."""
    T = [Tensor(f"{p}.self_attn.qkv_proj", "mixer", i, 3 * nh * hd, h, linear=True, split="column"),
         Tensor(f"{p}.self_attn.output_gate", "mixer", i, nh * hd, h, linear=True, split="column"),
         Tensor(f"{p}.self_attn.out_proj", "mixer", i, h, nh * hd, linear=True, split="row"),
         Tensor(f"{p}.self_attn.norm", "norm", i, nh * hd, split="column")]
    return T, StateSpec(0, nh * hd * hd, 0, 4)


def mamba1_tensors(c: dict[str, Any], model_type: str, p: str, i: int, h: int, conv_b: int,
            ssm_b: int) -> tuple[list[Tensor], StateSpec]:
    """Tensors and per-sequence state of one Mamba (v1) mixer (Jamba): conv state d_inner x (kernel - 1),
    SSM state d_inner x d_state."""
    expand = config_int(c, "mamba_expand", "expand", default=2)
    ds = config_int(c, "mamba_d_state", "ssm_state_size", default=16)
    k = config_int(c, "mamba_d_conv", "conv_kernel", default=4)
    d_in = expand * h
    dt_rank = c.get("mamba_dt_rank", "auto")
    dt_rank = math.ceil(h / 16) if dt_rank in (None, "auto") else config_int(c, "mamba_dt_rank")
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


def gated_deltanet_tensors(c: dict[str, Any], p: str, i: int, h: int, conv_b: int,
                    ssm_b: int) -> tuple[list[Tensor], StateSpec]:
    """Tensors and per-sequence state of one Gated DeltaNet layer (Qwen3-Next linear attention): conv state over
    q, k and v, recurrent state value_heads x value_dim x key_dim."""
    kh = config_int(c, "linear_num_key_heads")
    vh = config_int(c, "linear_num_value_heads")
    kd = config_int(c, "linear_key_head_dim")
    vd = config_int(c, "linear_value_head_dim")
    k = config_int(c, "linear_conv_kernel_dim", default=4)
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


def dense_mlp_tensors(c: dict[str, Any], model_type: str, p: str, i: int, h: int, gated: bool) -> list[Tensor]:
    """A dense MLP: gate/up/down (gated SwiGLU/GeGLU) or up/down, plus the biases some model types carry."""
    if model_type.startswith("granitemoe"):  # Granite MoE hybrids: the dense MLP is shared_mlp
        inter = config_int(c, "shared_intermediate_size", "intermediate_size")
    elif model_type == "gpt_bigcode" and c.get("n_inner") is None:
        inter = 4 * h
    else:
        inter = config_int(c, "intermediate_size_mlp", "intermediate_size", "ffn_hidden_size", "n_inner")
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
        return config_int(c, "n_shared_experts") * mi, False
    if c.get("shared_expert_intermediate_size"):
        return config_int(c, "shared_expert_intermediate_size"), True
    if c.get("moe_shared_expert_intermediate_size"):
        return config_int(c, "moe_shared_expert_intermediate_size"), False
    if c.get("shared_intermediate_size"):  # Granite MoE hybrids
        return config_int(c, "shared_intermediate_size"), False
    if model_type.startswith("llama4"):
        return mi, False
    return 0, False


def moe_tensors(c: dict[str, Any], model_type: str, p: str, i: int, h: int, E: int, gated: bool) -> list[Tensor]:
    """A MoE block: E routed experts (one stacked tensor per projection), the router, its bias where the
    family has one, and any shared expert."""
    if not E:
        raise ModelConfigError("config.n_routed_experts: MoE layers in the pattern but no expert count is given")
    mi = config_int(c, "moe_intermediate_size", "intermediate_size")
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
