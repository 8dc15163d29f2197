"""size_deployment: every expected figure is derived by hand in a comment above its assert."""

import json

import pytest
from pydantic import ValidationError

from llm_inference_fundamentals.tools.sizing.architecture import parse_architecture
from llm_inference_fundamentals.tools.sizing.catalog import find_model, gpu_catalog, lookup_gpu, model_catalog
from llm_inference_fundamentals.tools.errors import (
    FundamentalsError,
    InputFormatError,
    ModelConfigError,
    UnknownGPUError,
    UnknownModelError,
)
from llm_inference_fundamentals.tools.sizing.formats import weight_format
from llm_inference_fundamentals.tools.sizing import SizingRequest, size_deployment

GiB = 2**30


def size(**kw):
    return size_deployment(SizingRequest(**kw))


def catalog_config(name):
    return json.loads(json.dumps(find_model(name).config))


# --- catalogs ---------------------------------------------------------------------------------


def test_catalog_has_at_least_30_models_each_with_a_source():
    models = model_catalog()
    assert len(models) >= 30
    for m in models:
        assert m.source.url.startswith("https://huggingface.co/") and m.source.read_from
        parse_architecture(m.config)  # every entry parses


def test_gpu_catalog_values_are_dense_and_sourced():
    h100 = lookup_gpu("H100")
    # 81,559 MiB x 1,048,576 = 85,520,809,984 B (nvidia-smi)
    assert h100.memory.bytes == 85_520_809_984
    # dense BF16 132 SMs x 4,096 FLOP/clk x 1,830 MHz = 989.4 TFLOPS, FP8 1,978.9 (the sparse figures are 1,979 / 3,958)
    assert h100.dense_tflops["bf16"].value == 989.4 and h100.dense_tflops["fp8"].value == 1978.9
    for g in gpu_catalog():
        assert g.memory.source and g.bandwidth_tb_s.source and g.interconnect.source
        for v in g.dense_tflops.values():
            assert v.source


# --- parameter counts --------------------------------------------------------------------------


def test_params_llama_3_1_8b_match_published_total():
    # embed 128,256 x 4,096 = 525,336,576, untied lm_head the same;
    # per layer q 4,096^2 + k,v 2 x 4,096 x 1,024 + o 4,096^2 = 41,943,040, MLP 3 x 4,096 x 14,336 = 176,160,768,
    # norms 8,192 -> 218,112,000 x 32 = 6,979,584,000; final norm 4,096
    # 6,979,584,000 + 2 x 525,336,576 + 4,096 = 8,030,261,248 (= 16,060,522,496 B / 2, the safetensors total_size)
    r = size(model="Llama-3.1-8B", tokens=1)
    assert r.weights.params == 8_030_261_248
    assert r.weights.bytes == 16_060_522_496 == r.weights.checkpoint_bytes


def test_params_llama_3_1_70b_match_published_total():
    # per layer: q 8,192^2 = 67,108,864, k,v 8,192 x 1,024 = 8,388,608 each, o 67,108,864 -> 150,994,944;
    # MLP 3 x 8,192 x 28,672 = 704,643,072; norms 16,384 -> 855,654,400 x 80 = 68,452,352,000
    # + embed and lm_head 2 x 128,256 x 8,192 = 2,101,346,304 + final norm 8,192 = 70,553,706,496
    assert size(model="Llama-3.1-70B", tokens=1).weights.params == 70_553_706_496


def test_params_moe_hybrid_qwen3_next_match_published_total_and_active():
    # published: 79,674,391,296 total; 3,874,929,408 active (code-index fixture for Qwen3-Coder-Next)
    r = size(model="Qwen3-Next-80B-A3B", tokens=1)
    assert r.weights.params == 79_674_391_296
    assert r.weights.active_params == 3_874_929_408


def test_tied_embeddings_counted_once_untied_twice():
    # Llama-3.2-1B: embed 128,256 x 2,048 = 262,668,288; per layer q 2,048 x 2,048 = 4,194,304,
    # k,v 2,048 x 512 = 1,048,576 each, o 4,194,304, MLP 3 x 2,048 x 8,192 = 50,331,648, norms 4,096
    # -> 60,821,504 x 16 = 973,144,064; final norm 2,048; tied: 262,668,288 + 973,144,064 + 2,048 = 1,235,814,400
    tied = size(model="Llama-3.2-1B", tokens=1)
    assert tied.weights.params == 1_235_814_400
    cfg = catalog_config("Llama-3.2-1B")
    cfg["tie_word_embeddings"] = False
    untied = size(config_json=cfg, tokens=1)
    # untied adds a second 262,668,288-parameter lm_head: 1,498,482,688 params, x 2 B = 2,996,965,376 B
    assert untied.weights.params == 1_498_482_688
    assert untied.weights.bytes == 2_996_965_376
    assert "lm_head" not in {c.component for c in tied.weights.by_component}


# --- KV cache per architecture -----------------------------------------------------------------


def test_kv_bytes_per_token_gqa_llama_3_1_70b():
    # 2 (K,V) x 80 layers x 8 KV heads x 128 dims x 2 B = 327,680 B/token
    r = size(model="Llama-3.1-70B", tokens=32768, concurrency=16)
    assert r.kv_cache.bytes_per_token == 327_680
    # workload: 16 x 32,768 = 524,288 tokens x 327,680 = 171,798,691,840 B = 160 GiB
    assert r.kv_cache.bytes == 171_798_691_840
    assert r.kv_cache.state_bytes_per_sequence == 0


def test_kv_formats_with_scale_overheads_llama_3_1_70b():
    # fp8: 2 x 80 x 8 x 128 x 1 = 163,840; int8 + fp32 scale per token per head: 80 x (2 x 8 x 128 + 2 x 8 x 4) = 168,960
    # nvfp4: per head 128/2 + 128/16 = 72 B -> 2 x 8 x 72 x 80 = 92,160; int4 + fp16 scale and zero per 64:
    # per head 64 + 2 x 4 = 72 B -> 92,160
    expect = {"fp8": 163_840, "int8": 168_960, "nvfp4": 92_160, "int4": 92_160, "bf16": 327_680, "fp16": 327_680}
    for kv, value in expect.items():
        assert size(model="Llama-3.1-70B", tokens=10, kv=kv).kv_cache.bytes_per_token == value, kv


def test_interleaved_sliding_window_gemma_2_alternates_by_default():
    # Gemma-2-9B: 42 layers, even indices slide (window 4,096), 21 global; per layer 2 x 8 x 256 x 2 = 8,192 B/token
    r = size(model="Gemma-2-9B", tokens=8192)
    arch = parse_architecture(find_model("Gemma-2-9B").config)
    assert arch.layers[0].attention == "sliding" and arch.layers[1].attention == "full"
    # growth per token once windows are full: 21 x 8,192 = 172,032
    assert r.kv_cache.bytes_per_token == 172_032
    # one 8,192-token sequence: 21 x 8,192 x 8,192 + 21 x 8,192 x 4,096 = 2,113,929,216 B
    assert r.kv_cache.bytes_per_sequence == 2_113_929_216


def test_interleaved_sliding_window_gemma_3_pattern_6():
    # Gemma-3-1B: 26 layers, layer i global iff (i+1) % 6 == 0 -> layers 5, 11, 17, 23 = 4 global, 22 local (512)
    # per layer 2 x 1 x 256 x 2 = 1,024; 32,768 tokens: 4 x 1,024 x 32,768 + 22 x 1,024 x 512 = 145,752,064 B
    r = size(model="Gemma-3-1B", tokens=32768)
    rows = {row.layer_type: row for row in r.kv_cache.by_layer_type}
    assert rows["full_attention"].layers == 4 and rows["sliding_attention(512)"].layers == 22
    assert r.kv_cache.bytes_per_sequence == 145_752_064
    assert r.kv_cache.bytes_per_token == 4 * 1024


def test_multimodal_text_config_gemma_3_27b():
    # text_config: 62 layers, (i+1) % 6 == 0 -> 10 global; 16 KV heads x 128 dims: per layer 2 x 16 x 128 x 2 = 8,192
    # bytes_per_token = 10 x 8,192 = 81,920
    r = size(model="Gemma-3-27B", tokens=100)
    assert r.kv_cache.bytes_per_token == 81_920
    assert r.model.layers == 62


def test_use_sliding_window_false_means_full_attention():
    cfg = {"model_type": "qwen2", "hidden_size": 512, "num_hidden_layers": 4, "num_attention_heads": 8,
           "num_key_value_heads": 2, "intermediate_size": 1024, "vocab_size": 1000, "sliding_window": 64,
           "use_sliding_window": False, "layer_types": ["sliding_attention"] * 4}
    # every layer full: 2 x 4 x 2 x 64 x 2 = 2,048 B/token
    assert size(config_json=cfg, tokens=1000).kv_cache.bytes_per_token == 2048
    cfg.update(use_sliding_window=True, max_window_layers=2)
    cfg.pop("layer_types")
    # layers 0,1 full (2 x 2 x 64 x 2 = 512 each), layers 2,3 slide: growth 2 x 512 = 1,024
    r = size(config_json=cfg, tokens=1000)
    assert r.kv_cache.bytes_per_token == 1024
    # sequence of 1,000 tokens: 2 x 512 x 1,000 + 2 x 512 x 64 = 1,089,536
    assert r.kv_cache.bytes_per_sequence == 1_089_536


def test_mla_moe_fp8_checkpoint_whose_config_says_bfloat16_deepseek_v3():
    r = size(model="DeepSeek-V3", tokens=8192, concurrency=1)
    # MLA: 61 layers x (512 + 64) x 2 B = 70,272 B/token (no factor 2, bf16 KV although the weights are fp8)
    assert r.kv_cache.bytes_per_token == 70_272
    # torch_dtype says bfloat16 but quantization_config is fp8 with 128x128 blocks
    assert r.weights.format == "fp8-block-128x128" and "quantization_config" in r.weights.format_basis
    # linear params 669,065,609,216 x 1 B + 40,838,232 fp32 block scales x 4 B = 163,352,928
    # + bf16 rest (embed+head 1,853,358,080, routers 58 x (256 x 7,168 + 256) = 106,445,312, norms 1,006,592)
    #   = 1,960,809,984 x 2 = 3,921,619,968  -> 673,150,582,112 B
    assert r.weights.bytes == 673_150_582_112
    assert r.weights.params == 671_026_419_200
    # sized from torch_dtype alone it would be 2 x 671,026,419,200 = 1,342,052,838,400 B
    assert size(model="DeepSeek-V3", tokens=1, weights="bf16").weights.bytes == 1_342_052_838_400
    assert size(model="DeepSeek-V3", tokens=1, kv="fp8_ds_mla").kv_cache.bytes_per_token == 61 * 656


def test_mla_kv_is_not_split_by_tp():
    # TP=8: each rank keeps the whole latent: 70,272 B/token per GPU, replication 8
    r = size(model="DeepSeek-V3", tokens=1000, tp=8)
    assert r.kv_cache.bytes_per_token_per_gpu == 70_272
    assert r.kv_cache.kv_replication == 8


def test_gpt_oss_alternating_window_128_and_mxfp4_experts():
    r = size(model="gpt-oss-120b", tokens=32768)
    # 18 full layers x 2 x 8 x 64 x 2 = 36,864 B/token
    assert r.kv_cache.bytes_per_token == 36_864
    # per sequence: 18 x 2,048 x 32,768 + 18 x 2,048 x 128 = 1,207,959,552 + 4,718,592 = 1,212,678,144
    assert r.kv_cache.bytes_per_sequence == 1_212_678_144
    # experts: 36 x 128 x (5,760 x 2,880 + 2,880 x 2,880) = 114,661,785,600 params x 4.25 bits = 60,914,073,600 B;
    # the other 116,829,156,672 - 114,661,785,600 = 2,167,371,072 params in bf16 = 4,334,742,144 B
    # total 65,248,815,744 B = hf-mem's reading of the stored checkpoint
    assert r.weights.format == "mxfp4"
    assert r.weights.bytes == 65_248_815_744 == r.weights.checkpoint_bytes


def test_hybrid_mamba2_nemotron_h_state_and_tp_split():
    r = size(model="Nemotron-H-8B", tokens=4096)
    # 4 attention layers ('*') x 2 x 8 x 128 x 2 = 16,384 B/token
    assert r.kv_cache.bytes_per_token == 16_384
    # 24 Mamba2 layers: conv (128 x 64 + 2 x 8 x 128) x (4 - 1) x 2 B = 61,440; ssm 128 x 64 x 128 x 2 B = 2,097,152
    # 24 x 2,158,592 = 51,806,208 B per sequence
    assert r.kv_cache.state_bytes_per_sequence == 51_806_208
    # per sequence at 4,096 tokens: 16,384 x 4,096 + 51,806,208 = 118,915,072
    assert r.kv_cache.bytes_per_sequence == 118_915_072
    # TP=2: KV heads 8 -> 4 per GPU and the state halves: 118,915,072 / 2 = 59,457,536
    assert size(model="Nemotron-H-8B", tokens=4096, tp=2).kv_cache.bytes_per_gpu == 59_457_536


def test_hybrid_linear_attention_state_dtype_from_config():
    cfg = catalog_config("Qwen3-Next-80B-A3B")
    r = size(config_json=cfg, tokens=1)
    # 36 GDN layers x (conv (2 x 16 x 128 + 32 x 128) x 3 x 2 B = 49,152 + ssm 32 x 128 x 128 x 2 B = 1,048,576)
    assert r.kv_cache.state_bytes_per_sequence == 36 * (49_152 + 1_048_576)
    cfg["mamba_ssm_dtype"] = "float32"
    # ssm state in fp32: 32 x 128 x 128 x 4 = 2,097,152 -> 36 x (49,152 + 2,097,152) = 77,266,944
    assert size(config_json=cfg, tokens=1).kv_cache.state_bytes_per_sequence == 77_266_944
    # 12 full-attention layers x 2 x 2 x 256 x 2 = 24,576 B/token
    assert r.kv_cache.bytes_per_token == 24_576


def test_jamba_attn_layer_period_offset():
    # attention iff i % 8 == 4 -> 4 layers x 2 x 8 x 128 x 2 = 16,384 B/token;
    # 28 Mamba layers x (3 x 8,192 x 2 + 8,192 x 16 x 2) = 8,716,288 B state
    r = size(model="Jamba-v0.1", tokens=10)
    assert r.kv_cache.bytes_per_token == 16_384
    assert r.kv_cache.state_bytes_per_sequence == 8_716_288


def test_cross_layer_kv_sharing_layers_hold_no_kv():
    cfg = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 6, "num_attention_heads": 8,
           "num_key_value_heads": 2, "intermediate_size": 1024, "vocab_size": 1000, "num_kv_shared_layers": 2}
    # 4 layers own KV: 4 x 2 x 2 x 64 x 2 = 2,048 B/token
    assert size(config_json=cfg, tokens=10).kv_cache.bytes_per_token == 2048


# --- parallelism -------------------------------------------------------------------------------


def test_tp_splits_weights_and_kv_heads_llama_3_1_8b():
    r = size(model="Llama-3.1-8B", tokens=1000, tp=2)
    # norms (32 x 8,192 + 4,096 = 266,240 params = 532,480 B) are replicated, the rest halves:
    # (16,060,522,496 - 532,480) / 2 + 532,480 = 8,030,527,488
    assert r.weights.bytes_per_gpu == 8_030_527_488
    # 4 KV heads per GPU: 2 x 32 x 4 x 128 x 2 = 65,536 B/token
    assert r.kv_cache.bytes_per_token_per_gpu == 65_536
    assert r.kv_cache.kv_heads_per_gpu == 4 and r.kv_cache.kv_replication == 1


def test_tp_beyond_kv_heads_replicates_kv():
    # Llama-3.1-70B at TP=16: max(1, 8 // 16) = 1 head per GPU -> 2 x 80 x 1 x 128 x 2 = 40,960 B/token per GPU,
    # the same as TP=8; 16 GPUs hold 655,360 = 2 x 327,680
    r = size(model="Llama-3.1-70B", tokens=1000, tp=16)
    assert r.kv_cache.bytes_per_token_per_gpu == 40_960
    assert r.kv_cache.kv_replication == 2
    assert any("replicated 2x" in a for a in r.assumptions)


def test_pp_splits_layers_and_puts_embedding_first_lm_head_last():
    # Llama-3.1-8B, PP=2: 16 layers each; layer bytes 218,112,000 x 2 B x 16 = 6,979,584,000;
    # stage 0 + embedding 1,050,673,152 = 8,030,257,152; stage 1 + lm_head 1,050,673,152 + final norm 8,192 = 8,030,265,344
    r = size(model="Llama-3.1-8B", tokens=1000, pp=2)
    assert r.parallelism.layers_per_stage == [16, 16]
    assert r.weights.bytes_per_gpu == 8_030_265_344
    # KV per GPU: 16 layers x 2 x 8 x 128 x 2 x 1,000 tokens = 65,536,000
    assert r.kv_cache.bytes_per_gpu == 65_536_000


def test_ep_and_dp_split_experts_and_sequences():
    # Qwen3-30B-A3B on 8 GPUs, tp=1, ep=8 (dp=8): experts / 8, attention whole per GPU; 16 sequences -> 2 per replica
    r = size(model="Qwen3-30B-A3B", tokens=1000, concurrency=16, gpus=8, ep=8)
    assert r.parallelism.dp == 8 and r.parallelism.sequences_per_replica == 2
    experts = next(c for c in r.weights.by_component if c.component == "experts").bytes
    assert r.weights.bytes_per_gpu == r.weights.bytes - experts + experts // 8
    # KV per GPU: 2 sequences x 1,000 tokens x 2 x 48 x 4 x 128 x 2 = 196,608,000
    assert r.kv_cache.bytes_per_gpu == 196_608_000


# --- fit, capacity, ceilings -------------------------------------------------------------------


def test_fit_capacity_and_max_tokens_llama_3_1_70b_bf16_tp4():
    r = size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4, memory_utilization=0.9,
             overhead_bytes=4 * GiB)
    # budget floor(85,520,809,984 x 0.9) = 76,968,728,985
    assert r.per_gpu.budget_bytes == 76_968_728_985
    # weights/GPU: (141,107,412,992 - norms 2,637,824) / 4 + 2,637,824 = 35,278,831,616
    assert r.per_gpu.weights_bytes == 35_278_831_616
    # room 76,968,728,985 - 35,278,831,616 - 4,294,967,296 = 37,394,930,073; per sequence 81,920 x 32,768 =
    # 2,684,354,560 -> floor = 13 sequences; 16 need 42,949,672,960 -> does not fit
    assert r.per_gpu.max_concurrency == 13 and r.per_gpu.fits is False
    # max tokens at 16 sequences: floor(37,394,930,073 / (16 x 81,920)) = 28,530
    assert r.per_gpu.max_tokens_per_sequence == 28_530


def test_decode_and_prefill_ceilings_llama_3_1_70b_fp8_tp4():
    r = size(model="Llama-3.1-70B", weights="fp8-tensor", kv="fp8", tokens=32768, concurrency=16, gpu="h100", tp=4)
    d = r.ceilings.decode
    # KV read per step per GPU: 16 x 32,768 x (163,840 / 4) = 21,474,836,480 B
    assert d.kv_bytes_per_step_per_gpu == 21_474_836_480
    # weights read: everything but the embedding: (72,656,373,952 - 2,101,346,304 / 2 [embedding bf16]) / 4 + 3/4 of
    # replicated norms 2,637,824 = 17,901,407,616 + 1,978,368 = 17,903,385,984 (checked by components below)
    emb = 128256 * 8192 * 2
    assert d.weights_bytes_per_step_per_gpu == (72_656_373_952 - emb - 2_637_824) // 4 + 2_637_824
    # step >= (17,903,385,984 + 21,474,836,480) / 3.35e12 = 11.755 ms -> 85.07 tok/s per sequence, x16 = 1,361 tok/s
    step = (d.weights_bytes_per_step_per_gpu + d.kv_bytes_per_step_per_gpu) / 3.35e12
    assert d.tokens_per_s_per_sequence == pytest.approx(1 / step)
    assert d.tokens_per_s_aggregate == pytest.approx(16 / step)
    assert 84 < d.tokens_per_s_per_sequence < 86 and d.bound == "memory" and d.evidence == "ceiling"
    p = r.ceilings.prefill
    # FLOPs = 2 x (70,553,706,496 - 2 x 1,050,673,152) x 32,768 + 2 x 1,050,673,152
    #         + 80 x 2 x 64 x (128 + 128) x 32,768 x 32,769 / 2   (causal: sum of i for i = 1..32,768)
    flops = 2 * (70_553_706_496 - 2 * 1_050_673_152) * 32768 + 2 * 1_050_673_152 + 80 * 2 * 64 * 256 * (32768 * 32769 // 2)
    assert p.flops == flops
    # time >= FLOPs / (4 x 1,978.9e12 fp8 dense)
    assert p.time_s == pytest.approx(flops / (4 * 1978.9e12)) and p.compute_dtype == "fp8"


def test_moe_decode_counts_expected_distinct_experts():
    # Qwen3-30B-A3B, E = 128, k = 8: B = 1 -> 8 experts; B = 16 -> 128 x (1 - (15/16)^16)
    # (15/16)^16 = exp(16 x ln 0.9375) = exp(-1.03262) = 0.35607 -> 128 x 0.64393 = 82.42
    one = size(model="Qwen3-30B-A3B", tokens=100, concurrency=1, gpu="h100").ceilings.decode
    many = size(model="Qwen3-30B-A3B", tokens=100, concurrency=16, gpu="h100").ceilings.decode
    assert one.expected_distinct_experts_per_layer == pytest.approx(8.0)
    assert many.expected_distinct_experts_per_layer == pytest.approx(128 * (1 - (120 / 128) ** 16))
    assert 82.41 < many.expected_distinct_experts_per_layer < 82.43
    assert many.weights_bytes_per_step_per_gpu > one.weights_bytes_per_step_per_gpu


def test_default_tokens_is_capacity_not_workload():
    r = size(model="Llama-3.1-8B")
    # max_position_embeddings 131,072
    assert r.kv_cache.tokens_per_sequence == 131_072
    assert "capacity, not workload" in r.kv_cache.tokens_basis


# --- formats -----------------------------------------------------------------------------------


def test_weight_format_bytes_by_hand():
    # int4 AWQ g128, 4,096 x 4,096: data 16,777,216 / 2 = 8,388,608; groups 4,096 x 32 = 131,072 x (2 + 0.5) = 327,680
    assert weight_format("int4-awq").matrix_bytes(4096, 4096) == 8_716_288
    # GPTQ adds int32 g_idx per input column: + 4,096 x 4 = 16,384
    assert weight_format("int4-gptq").matrix_bytes(4096, 4096) == 8_732_672
    # nvfp4: 8,388,608 + 16,777,216 / 16 = 1,048,576 fp8 scales + 8 B of fp32 tensor scales
    assert weight_format("nvfp4").matrix_bytes(4096, 4096) == 9_437_192
    # mxfp4: 8,388,608 + 16,777,216 / 32 = 524,288 -> 8,912,896 (4.25 bits)
    assert weight_format("mxfp4").matrix_bytes(4096, 4096) == 8_912_896
    # GGUF Q4_K: 144 B per 256 weights -> 65,536 blocks x 144 = 9,437,184 (4.5 bpw)
    assert weight_format("q4_k_m").matrix_bytes(4096, 4096) == 9_437_184
    # fp8 block 128x128: 16,777,216 + 32 x 32 x 4 = 16,781,312
    assert weight_format("fp8-block").matrix_bytes(4096, 4096) == 16_781_312


def test_awq_checkpoint_format_read_from_quantization_config():
    cfg = catalog_config("Llama-3.1-8B")
    cfg["quantization_config"] = {"quant_method": "awq", "bits": 4, "group_size": 128, "zero_point": True}
    r = size(config_json=cfg, tokens=1)
    assert r.weights.format == "int4-awq-g128" and "awq" in r.weights.format_basis
    # linear 6,979,584,000 - 32 x 8,192 (norms) = 6,979,321,856 params -> x 0.5 B = 3,489,660,928 and
    # groups: linear params / 128 x 2.5 B = 136,314,880; embedding + lm_head + norms in bf16:
    # (2 x 525,336,576 + 266,240) x 2 = 2,101,878,784 -> total 5,727,854,592
    assert r.weights.bytes == 5_727_854_592


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize("kw, field", [
    ({"model": "Llama-3.1-8B", "tokens": -5}, "tokens"),
    ({"model": "Llama-3.1-8B", "tokens": 0}, "tokens"),
    ({"model": "Llama-3.1-8B", "concurrency": 0}, "concurrency"),
    ({"model": "Llama-3.1-8B", "tp": 100_000}, "tp"),
    ({"model": "Llama-3.1-8B", "tokens": 10**12}, "tokens"),
    ({"model": "Llama-3.1-8B", "memory_utilization": 1.5}, "memory_utilization"),
    ({"model": "Llama-3.1-8B", "bogus": 1}, "bogus"),
    ({"model": "Llama-3.1-8B", "tokens": "many"}, "tokens"),
])
def test_bad_request_fields_are_named(kw, field):
    with pytest.raises(ValidationError) as exc:
        SizingRequest(**kw)
    assert field in str(exc.value)


def test_exactly_one_model_source_required():
    with pytest.raises(ValidationError, match="exactly one of model, config_path, config_json"):
        SizingRequest()
    with pytest.raises(ValidationError, match="exactly one"):
        SizingRequest(model="Llama-3.1-8B", config_json={"a": 1})


@pytest.mark.parametrize("kw, error, text", [
    ({"model": "Llama-3.1-70", "tokens": 1}, UnknownModelError, "Llama-3.1-70B"),
    ({"model": "Llama-3.1-8B", "tokens": 1, "gpu": "h900"}, UnknownGPUError, "nvidia-h100-sxm"),
    ({"model": "Llama-3.1-8B", "tokens": 1, "tp": 3}, ModelConfigError, "tp"),
    ({"model": "Llama-3.1-8B", "tokens": 1, "weights": "int3"}, ModelConfigError, "weights"),
    ({"model": "Llama-3.1-8B", "tokens": 1, "kv": "fp8_ds_mla"}, ModelConfigError, "kv"),
    ({"model": "Llama-3.1-8B", "tokens": 1, "kv": "int2"}, ModelConfigError, "kv"),
    ({"model": "Llama-3.1-8B", "tokens": 1, "pp": 64}, ModelConfigError, "pp"),
    ({"model": "Llama-3.1-8B", "tokens": 1, "ep": 4}, ModelConfigError, "ep"),
    ({"model": "Qwen3-30B-A3B", "tokens": 1, "ep": 4}, ModelConfigError, "ep: 4 exceeds"),
    ({"config_json": "{not json", "tokens": 1}, InputFormatError, "config_json"),
    ({"config_json": "[1, 2]", "tokens": 1}, InputFormatError, "config_json"),
    ({"config_json": {"hidden_size": 4096}, "tokens": 1}, ModelConfigError, "config.num_hidden_layers"),
    ({"config_json": {"hidden_size": 4096, "num_hidden_layers": "32", "vocab_size": 10, "num_attention_heads": 32},
      "tokens": 1}, ModelConfigError, "config.num_hidden_layers"),
    ({"config_json": {"hidden_size": -1, "num_hidden_layers": 2, "vocab_size": 10, "num_attention_heads": 1},
      "tokens": 1}, ModelConfigError, "config.hidden_size"),
    ({"config_json": {"hidden_size": 10**9, "num_hidden_layers": 2, "vocab_size": 10, "num_attention_heads": 1},
      "tokens": 1}, ModelConfigError, "implausibly large"),
    ({"config_json": {"hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 10, "num_attention_heads": 4,
                      "intermediate_size": 8, "layer_types": ["full_attention"]}, "tokens": 1},
     ModelConfigError, "config.layer_types"),
    ({"config_json": {"hidden_size": 64, "num_hidden_layers": 2, "vocab_size": 10, "num_attention_heads": 4,
                      "intermediate_size": 8, "quantization_config": {"quant_method": "bitsandbytes"}}, "tokens": 1},
     ModelConfigError, "quant_method"),
])
def test_bad_input_gives_clear_error_naming_the_field(kw, error, text):
    with pytest.raises(error) as exc:
        size(**kw)
    assert text in str(exc.value)
    assert isinstance(exc.value, FundamentalsError)


def test_config_path_missing_malformed_and_huge(tmp_path):
    with pytest.raises(InputFormatError, match="config_path"):
        size(config_path=str(tmp_path / "nope.json"), tokens=1)
    bad = tmp_path / "bad.json"
    bad.write_text("{oops")
    with pytest.raises(InputFormatError, match="not valid JSON"):
        size(config_path=str(bad), tokens=1)
    huge = tmp_path / "huge.json"
    huge.write_text(" " * (6 * 1024 * 1024))
    with pytest.raises(InputFormatError, match="byte cap"):
        size(config_path=str(huge), tokens=1)
    good = tmp_path / "config.json"
    good.write_text(json.dumps(find_model("Llama-3.1-8B").config))
    assert size(config_path=str(good), tokens=1).weights.params == 8_030_261_248


def test_text_output_is_a_readable_table():
    # bf16 70B on TP=4 H100s: 32.9 GiB of weights per GPU leaves room for 4 x 8,192 tokens
    text = size(model="Llama-3.1-70B", tokens=8192, concurrency=4, gpu="h100", tp=4).to_text()
    for word in ("weights", "KV cache", "total per GPU", "FITS", "ceiling decode", "assumptions"):
        assert word in text


# --- UAT: forgiving names, actionable errors ---------------------------------------------------


@pytest.mark.parametrize("name, entry", [
    ("meta-llama/Llama-3.1-70B-Instruct", "Llama-3.1-70B"),   # the entry's own org + the Instruct repo
    ("Meta-Llama-3.1-70B-Instruct", "Llama-3.1-70B"),         # the repo's name before the rename
    ("Meta-Llama-3.1-8B", "Llama-3.1-8B"),
    ("qwen3 235b", "Qwen3-235B-A22B"),
    ("Qwen/Qwen3-235B-A22B", "Qwen3-235B-A22B"),
    ("google/gemma-3-27b-it", "Gemma-3-27B"),
])
def test_model_names_as_engineers_type_them(name, entry):
    assert find_model(name).name == entry


@pytest.mark.parametrize("name", [
    "someorg/Llama-3.1-70B-Instruct",  # another org's repo may differ: left to the Hub
    "Qwen3-235B-A22B-FP8",             # a quantized checkpoint stores another format than the catalog entry
])
def test_model_names_that_are_other_checkpoints_are_not_folded_in(name):
    assert find_model(name) is None


def test_tp_error_lists_the_valid_tp_values():
    # Llama-3.1-70B: 64 query heads, 8 KV heads -> TP must divide 64 and divide 8 or be a multiple of 8:
    # 1, 2, 4, 8 divide 8; 16, 32, 64 are multiples of 8 that divide 64
    with pytest.raises(ModelConfigError, match=r"tp: 3 .*valid tp values for this model: 1, 2, 4, 8, 16, 32, 64$"):
        size(model="Llama-3.1-70B", tokens=1, tp=3)


def test_no_gpu_is_said_once_in_the_text():
    text = size(model="Llama-3.1-8B", tokens=1024).to_text()
    assert text.count("no gpu given") == 1
