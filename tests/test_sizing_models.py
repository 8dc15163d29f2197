"""size_deployment on real configs it was not built from (tests/data/configs, sources in SOURCES.md).

Every expected figure is derived by hand in a comment above its assert.
"""

import json
from pathlib import Path

import pytest

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.tools.sizing.architecture import parse_architecture
from llm_inference_fundamentals.tools.sizing.catalog import find_model
from llm_inference_fundamentals.tools.errors import FundamentalsError, ModelConfigError
from llm_inference_fundamentals.tools.sizing import SizingRequest, size_deployment

CONFIGS = Path(__file__).parent / "data" / "configs"


def cfg(name):
    return json.loads((CONFIGS / f"{name}.json").read_text())


def size(name_or_cfg, **kw):
    c = cfg(name_or_cfg) if isinstance(name_or_cfg, str) else name_or_cfg
    kw.setdefault("tokens", 8192)
    return size_deployment(SizingRequest(config_json=c, **kw))


def by_type(report):
    return {lt.layer_type: lt for lt in report.kv_cache.by_layer_type}


# --- interleaved sliding windows ----------------------------------------------------------------


def test_gemma_3_4b_sparse_text_config_uses_gemma3_defaults():
    r = size("gemma-3-4b-it")
    # text_config omits heads/KV heads/head_dim/vocab: Gemma3TextConfig defaults 8, 4, 256, 262,208 (tied).
    # per layer: q 2,560x2,048 + k,v 2x2,560x1,024 + o 2,048x2,560 = 15,728,640; MLP 3x2,560x10,240 = 78,643,200;
    # norms 4x2,560 + q/k norm 2x256 = 10,752 -> 94,382,592 x 34 = 3,209,008,128; embed 262,208x2,560 = 671,252,480;
    # final norm 2,560 -> 3,880,263,168 (+ ~0.42 B SigLIP tower = the published 4.3 B)
    assert r.weights.params == 3_880_263_168
    # global iff (i+1) % 6 == 0 -> layers 5,11,17,23,29: 5 global, 29 sliding (window 1024);
    # per layer 2 x 4 x 256 x 2 = 4,096 B/token; growing part 5 x 4,096 = 20,480
    assert r.kv_cache.bytes_per_token == 20_480
    # at 8,192 tokens: 5 x 4,096 x 8,192 + 29 x 4,096 x 1,024 = 167,772,160 + 121,634,816 = 289,406,976
    assert r.kv_cache.bytes_per_sequence == 289_406_976
    assert by_type(r)["sliding_attention(1024)"].layers == 29
    assert any("omits" in a and "head_dim=256" in a for a in r.assumptions)


def test_gemma_3_12b_kv_and_params():
    r = size("gemma-3-12b-it", tokens=32768)
    # per layer q 3,840x4,096 + k,v 2x3,840x2,048 + o = 47,185,920; MLP 3x3,840x15,360 = 176,947,200;
    # norms 4x3,840 + 2x256 = 15,872 -> 224,148,992 x 48 = 10,759,151,616; embed 262,208x3,840 = 1,006,878,720;
    # final norm 3,840 -> 11,766,034,176
    assert r.weights.params == 11_766_034_176
    # 8 global layers x 2 x 8 x 256 x 2 = 8 x 8,192 = 65,536 B/token
    assert r.kv_cache.bytes_per_token == 65_536
    # at 32,768: 8 x 8,192 x 32,768 + 40 x 8,192 x 1,024 = 2,147,483,648 + 335,544,320 = 2,483,027,968
    assert r.kv_cache.bytes_per_sequence == 2_483_027_968


def test_llama_4_scout_wrapper_config_chunked_and_nope_layers():
    r = size("llama-4-scout", tokens=16384)
    # per layer: attention 26,214,400 x 2 + 10,485,760 = 62,914,560; 16 experts x 3 x 5,120 x 8,192 = 2,013,265,920;
    # shared expert 125,829,120; router 16 x 5,120 = 81,920; norms 10,240 -> 2,202,101,760 x 48 = 105,700,884,480;
    # untied embed + lm_head 2 x 202,048 x 5,120 = 2,068,971,520; final norm 5,120 -> 107,769,861,120
    assert r.weights.params == 107_769_861_120
    # every 4th layer NoPE/global: 12 global x 2 x 8 x 128 x 2 = 12 x 4,096 = 49,152 B/token
    assert r.kv_cache.bytes_per_token == 49_152
    # at 16,384 tokens: 12 x 4,096 x 16,384 + 36 x 4,096 x 8,192 (chunk) = 805,306,368 + 1,207,959,552
    assert r.kv_cache.bytes_per_sequence == 2_013_265_920


# --- tied embeddings and MLP shapes by model type -----------------------------------------------


def test_cohere_ties_embeddings_by_default_and_has_one_norm_per_layer():
    r = size("aya-23-8b")
    # CohereConfig ties lm_head (no tie_word_embeddings key in the file). per layer: attention 2 x 4,096^2 +
    # 2 x 4,096 x 1,024 = 41,943,040; MLP 3 x 4,096 x 14,336 = 176,160,768; one LayerNorm 4,096 -> 218,107,904 x 32
    # = 6,979,452,928; embed 256,000 x 4,096 = 1,048,576,000 (once); final norm 4,096 -> 8,028,033,024 (published 8.0 B)
    assert r.weights.params == 8_028_033_024
    assert r.weights.format == "fp16"  # torch_dtype float16
    # 2 x 32 x 8 x 128 x 2 = 131,072
    assert r.kv_cache.bytes_per_token == 131_072


def test_starcoder2_ungated_mlp_biases_and_tied_head():
    r = size("starcoder2-7b")
    # c_fc/c_proj (2 matrices, not 3): 2 x 4,608 x 18,432 = 169,869,312; attention 2 x 4,608^2 + 2 x 4,608 x 512 =
    # 47,185,920; use_bias: q,k,v,o biases 4,608+512+512+4,608 = 10,240, MLP biases 18,432+4,608 = 23,040; norm weights
    # 2 x 4,608 = 9,216 -> 217,097,728 x 32 = 6,947,127,296; tied embed 49,152 x 4,608 = 226,492,416; final norm 4,608
    # -> 7,173,624,320 (published 7,173,923,840 also counts the 299,520 LayerNorm biases)
    assert r.weights.params == 7_173_624_320
    # GQA 4 KV heads, head_dim 4,608/36 = 128: 2 x 32 x 4 x 128 x 2 = 65,536
    assert r.kv_cache.bytes_per_token == 65_536


def test_gpt_bigcode_multi_query_has_one_kv_head():
    r = size("gpt-bigcode-1b")
    # multi_query: true -> 1 KV head: 2 x 24 x 1 x 128 x 2 = 12,288 B/token (16 heads would be 196,608)
    assert r.kv_cache.bytes_per_token == 12_288
    assert "MQA" in r.model.attention


def test_phi_3_5_mini_mha_params_and_kv():
    r = size("phi-3.5-mini")
    # per layer 4 x 3,072^2 = 37,748,736 + MLP 3 x 3,072 x 8,192 = 75,497,472 + norms 6,144 = 113,252,352 x 32
    # = 3,624,075,264; untied 2 x 32,064 x 3,072 = 197,001,216; + 3,072 -> 3,821,079,552 (keras-hub preset 3821079552)
    assert r.weights.params == 3_821_079_552
    # MHA: 2 x 32 x 32 x 96 x 2 = 393,216 B/token (sliding_window 262,144 > context: full attention)
    assert r.kv_cache.bytes_per_token == 393_216


def test_qwen1_5_moe_shared_expert_and_use_sliding_window_false():
    r = size("qwen1.5-moe-a2.7b")
    # per layer: attention 4 x 2,048^2 = 16,777,216 + qkv bias 6,144; experts 60 x 3 x 2,048 x 1,408 = 519,045,120;
    # shared expert 3 x 2,048 x 5,632 = 34,603,008 + its gate 2,048; router 60 x 2,048 = 122,880; norms 4,096
    # -> 570,560,512 x 24 = 13,693,452,288; untied 2 x 151,936 x 2,048 = 622,329,856; + 2,048 -> 14,315,784,192
    assert r.weights.params == 14_315_784_192
    # use_sliding_window false: no sliding-window note at all
    assert not any("sliding_window=" in a for a in r.assumptions)
    # 2 x 24 x 16 x 128 x 2 = 196,608
    assert r.kv_cache.bytes_per_token == 196_608


# --- MoE and MLA ----------------------------------------------------------------------------------


def test_glm_4_5_air_params_and_kv():
    r = size("glm-4.5-air")
    # attention: q 4,096x12,288 + k,v 2x4,096x1,024 + o 12,288x4,096 = 109,051,904 + qkv bias 14,336 (no o bias)
    # layer 0 dense MLP 3 x 4,096 x 10,944 = 134,479,872; layers 1-45: 128 experts x 3 x 4,096 x 1,408 =
    # 2,214,592,512 + shared 17,301,504 + router 524,288 + correction bias 128; norms 8,192
    # = 243,554,304 + 45 x 2,341,492,864 + untied 2 x 151,552 x 4,096 + 4,096 = 106,852,251,264 (published 106 B)
    assert r.weights.params == 106_852_251_264
    # 2 x 46 x 8 x 128 x 2 = 188,416
    assert r.kv_cache.bytes_per_token == 188_416


def test_deepseek_v2_lite_mla_without_q_lora():
    r = size("deepseek-v2-lite", gpu="h100", tp=2)
    # published 15.7 B total; computed 15,706,484,224 (q_proj 2,048 -> 16 x 192 since q_lora_rank is absent)
    assert r.weights.params == 15_706_484_224
    # MLA: 27 x (512 + 64) x 2 = 31,104 B/token, not split by TP
    assert r.kv_cache.bytes_per_token == 31_104
    assert r.kv_cache.bytes_per_token_per_gpu == 31_104


def test_glm_5_2_dsa_indexer_adds_its_key_cache():
    r = size("glm-5.2-fp8")
    # per MLA layer: latent (512 + 64) x 2 = 1,152 + indexer key 128 fp8 + one fp32 scale = 132 -> 1,284 x 78 = 100,152
    assert r.kv_cache.bytes_per_token == 100_152
    r8 = size("glm-5.2-fp8", kv="fp8")
    # fp8: (576 + 132) x 78 = 55,224
    assert r8.kv_cache.bytes_per_token == 55_224
    assert r.weights.format == "fp8-block-128x128"


# --- hybrids --------------------------------------------------------------------------------------


def test_falcon_h1_parallel_attention_and_mamba2_in_every_layer():
    r = size("falcon-h1-7b")
    # all 44 layers hold KV: 2 x 2 x 128 x 2 = 1,024 x 44 = 45,056 B/token
    assert r.kv_cache.bytes_per_token == 45_056
    # and Mamba2 state: conv (3,072 + 2 x 1 x 256) x 3 = 10,752 + ssm 24 x 128 x 256 = 786,432 elements, bf16
    # -> 1,594,368 B/layer x 44 = 70,152,192 B/sequence
    assert r.kv_cache.state_bytes_per_sequence == 70_152_192
    assert by_type(r)["full_attention+mamba2"].layers == 44


def test_minimax_text_01_lightning_layers_hold_state_not_kv():
    r = size("minimax-text-01")
    # 10 softmax layers x 2 x 8 x 128 x 2 = 40,960 B/token; 70 lightning layers x 64 x 128 x 128 x 4 B (fp32)
    # = 70 x 4,194,304 = 293,601,280 B/sequence
    assert r.kv_cache.bytes_per_token == 40_960
    assert r.kv_cache.state_bytes_per_sequence == 293_601_280
    # 10 x 113,246,208 (attention) + 70 x 251,666,432 (qkv 3x8,192x6,144 + gate + out + norm) + 80 x (32 x 3 x
    # 6,144 x 9,216 + router 196,608 + norms 12,288) + untied 2 x 200,064 x 6,144 + 6,144 = 456,089,655,296 (456 B)
    assert r.weights.params == 456_089_655_296


def test_granite_moe_hybrid_layer_types_and_shared_mlp():
    r = size("granite-4.0-tiny-hybrid-doc")
    # Mamba2: d_in 8 x 128 = 1,024, conv (1,024 + 2 x 128) x 3 = 3,840 + ssm 8 x 128 x 128 = 131,072 -> x 2 B = 269,824
    assert by_type(r)["mamba2"].state_bytes_per_layer == 269_824
    assert r.kv_cache.state_bytes_per_sequence == 6 * 269_824
    # 2 attention layers x 2 x 8 x 64 x 2 = 4,096 B/token
    assert r.kv_cache.bytes_per_token == 4_096
    arch = parse_architecture(cfg("granite-4.0-tiny-hybrid-doc"))
    shared = sum(t.numel for t in arch.tensors if t.component == "shared_experts")
    # shared_intermediate_size 512: 8 layers x 3 x 512 x 512 = 6,291,456
    assert shared == 6_291_456


# --- checkpoint formats ---------------------------------------------------------------------------

LLAMA_8B = json.loads(json.dumps(find_model("Llama-3.1-8B").config))
# Llama-3.1-8B per layer linear elements: q,o 2 x 4,096^2 + k,v 2 x 1,024 x 4,096 + 3 x 4,096 x 14,336 = 218,103,808;
# untouched bf16: embed + lm_head 2 x 525,336,576 x 2 B = 2,101,346,304; norms (32 x 8,192 + 4,096) x 2 B = 532,480


def with_qc(qc):
    return {**LLAMA_8B, "quantization_config": qc}


def test_awq_int4_g128_checkpoint_bytes():
    r = size(with_qc({"bits": 4, "group_size": 128, "modules_to_not_convert": None, "quant_method": "awq",
                      "version": "gemm", "zero_point": True}))
    # data 218,103,808 / 2 = 109,051,904; groups per layer q,o 4,096x32, k,v 1,024x32, gate,up 14,336x32,
    # down 4,096x112 = 1,703,936 x (2 B scale + 0.5 B zero) = 4,259,840 -> 113,311,744 x 32 = 3,625,975,808
    # + 2,101,346,304 + 532,480 = 5,727,854,592 (hugging-quants AWQ-INT4 repo: 5.73 GB)
    assert r.weights.bytes == 5_727_854_592
    assert r.weights.format == "int4-awq-g128"


def test_gptq_int8_checkpoint_is_modelled_not_refused():
    r = size(with_qc({"bits": 8, "damp_percent": 0.01, "desc_act": False, "group_size": 128, "quant_method": "gptq",
                      "sym": True, "true_sequential": True}))
    # data 218,103,808 B; groups 1,703,936 x (2 + 1) = 5,111,808; g_idx int32 per input column:
    # (6 x 4,096 + 14,336) x 4 = 155,648 -> 223,371,264 x 32 = 7,147,880,448 + 2,101,346,304 + 532,480
    assert r.weights.bytes == 9_249_759_232


def test_gptq_group_size_minus_one_is_per_channel():
    r = size(with_qc({"bits": 4, "group_size": -1, "desc_act": False, "quant_method": "gptq", "sym": True}))
    # one group per output row: rows per layer 4,096+1,024+1,024+4,096+14,336+14,336+4,096 = 43,008 x 2.5 = 107,520;
    # data 109,051,904; g_idx 155,648 -> 109,315,072 x 32 = 3,498,082,304 + 2,101,346,304 + 532,480
    assert r.weights.bytes == 5_599_961_088


def test_modelopt_nvfp4_checkpoint_bytes():
    r = size(with_qc({"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16, "ignore": ["lm_head"]}))
    # 0.5 B + 1/16 B fp8 scale per weight + 8 B per matrix: 109,051,904 + 13,631,488 + 7 x 8 = 122,683,448 x 32
    # = 3,925,870,336 + 2,101,346,304 + 532,480 = 6,027,749,120
    assert r.weights.bytes == 6_027_749_120


def test_bitsandbytes_nf4_double_quant_bytes():
    r = size(with_qc({"bnb_4bit_compute_dtype": "bfloat16", "bnb_4bit_quant_type": "nf4",
                      "bnb_4bit_use_double_quant": True, "llm_int8_skip_modules": None, "load_in_4bit": True,
                      "quant_method": "bitsandbytes"}))
    # 0.5 B/weight + per 64 weights one uint8 absmax and 1/256 of an fp32: 218,103,808 / 64 = 3,407,872 blocks
    # x 1.015625 = 3,461,120 -> 112,513,024 x 32 = 3,600,416,768 + 2,101,346,304 + 532,480 = 5,702,295,552 (~5.7 GB)
    assert r.weights.bytes == 5_702_295_552


def test_compressed_tensors_fp8_channel():
    qc = {"quant_method": "compressed-tensors", "format": "float-quantized", "ignore": ["lm_head"],
          "config_groups": {"group_0": {"targets": ["Linear"], "weights": {
              "num_bits": 8, "type": "float", "strategy": "channel", "symmetric": True, "dynamic": False},
              "input_activations": {"num_bits": 8, "type": "float", "strategy": "token", "dynamic": True}}}}
    r = size(with_qc(qc))
    # 1 B/weight + fp32 per output row (43,008 rows/layer x 4 = 172,032) -> 218,275,840 x 32 = 6,984,826,880
    # + 2,101,346,304 + 532,480 = 9,086,705,664
    assert r.weights.bytes == 9_086_705_664


# --- malformed and unsupported ------------------------------------------------------------------


@pytest.mark.parametrize("edit, field", [
    ({"architectures": 7}, None),  # a wrong label type must not crash
    ({"attn_type_list": [0, 1]}, "attn_type_list"),
    ({"num_attention_heads_per_layer": [16] * 3}, "num_attention_heads_per_layer"),
    ({"compress_ratios": [0, 4]}, "compress_ratios"),
    ({"quantization_config": {"quant_method": "awq", "bits": 5}}, "bits"),
    ({"quantization_config": {"quant_method": "gptq", "bits": 4, "group_size": 0}}, "group_size"),
    ({"quantization_config": {"quant_method": "gptq", "bits": "four"}}, "bits"),
    ({"quantization_config": {"quant_method": "modelopt", "quant_algo": "W4A8_AWQ"}}, "quant_algo"),
    ({"quantization_config": {"quant_method": "compressed-tensors", "config_groups": {"g": {"weights": 3}}}},
     "config_groups"),
])
def test_malformed_configs_give_errors_naming_the_field(edit, field):
    c = {**LLAMA_8B, **edit}
    if field is None:
        assert size(c).weights.params > 0
        return
    with pytest.raises(FundamentalsError) as exc:
        size(c)
    assert field in str(exc.value)


def test_mlp_layer_types_must_name_each_layer_dense_or_sparse():
    c = {**cfg("glm-4.5-air"), "mlp_layer_types": ["dense", "huge"]}
    with pytest.raises(ModelConfigError, match="mlp_layer_types"):
        size(c)
    # a valid list overrides first_k_dense_replace: all 46 layers dense -> no experts in any layer
    dense = size({**cfg("glm-4.5-air"), "mlp_layer_types": ["dense"] * 46})
    assert dense.weights.active_params == dense.weights.params


def test_alias_fields_share_the_size_limits():
    # n_layer is an alias of num_hidden_layers: 10**15 must be refused, not allocate 10**15 layers
    c = {**cfg("gpt-bigcode-1b"), "n_layer": 10**15}
    with pytest.raises(ModelConfigError, match="n_layer"):
        size(c)


def test_cli_sizes_a_config_file_and_rejects_a_broken_one(capsys, tmp_path):
    assert main(["size", "--config", str(CONFIGS / "falcon-h1-7b.json"), "--tokens", "4096", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["kv_cache"]["bytes_per_token"] == 45_056
    bad = {**cfg("minimax-text-01"), "attn_type_list": "all"}
    rc = main(["size", "--config-json", json.dumps(bad), "--tokens", "4096"])
    err = capsys.readouterr()
    assert rc != 0 and "attn_type_list" in (err.err + err.out) and "Traceback" not in err.err
