"""GPU catalog and roofline ceilings: every expected figure is derived by hand in a comment above its assert.

Dense (no 2:4 sparsity) peaks come from the vendors' datasheets, where the printed tensor figures carry an asterisk
"with sparsity": dense = printed / 2. Memory is what nvidia-smi / rocm-smi reports when known.
"""

import pytest

from llm_inference_fundamentals.tools.sizing.catalog import gpu_catalog, lookup_gpu
from llm_inference_fundamentals.tools.errors import UnknownGPUError
from llm_inference_fundamentals.tools.sizing import SizingRequest, size_deployment

MiB = 2**20


def size(**kw):
    return size_deployment(SizingRequest(**kw))


# --- catalog values ----------------------------------------------------------------------------

# (gpu, datasheet BF16 with sparsity, dense BF16, datasheet FP8 with sparsity or None, dense FP8)
SPARSE_VS_DENSE = [
    ("h100", 1979, 989.4, 3958, 1978.9),          # H100 SXM: 1,979* / 3,958*
    ("h100-pcie", 1513, 756.5, 3026, 1513),       # H100 PCIe: 1,513* / 3,026*
    ("h100-nvl", 1671, 835.5, 3341, 1670.5),      # H100 NVL: 1,671* / 3,341*
    ("h200", 1979, 989.4, 3958, 1978.9),          # H200 SXM: same compute as H100 SXM
    ("h200-nvl", 1671, 835.5, 3341, 1670.5),      # H200 NVL: 1,671* / 3,341*
    ("a100", 624, 312, None, None),               # A100: 624* BF16, no FP8
    ("l40s", 733, 362.05, 1466, 733),             # L40S: 733* / 1,466* (362.05 per NVIDIA's dense column)
    ("l4", 242, 121, 485, 242.5),                 # L4: 242* / 485*
    ("b200", 4500, 2250, 9000, 4500),             # HGX B200 per GPU: 4.5 PF* / 9 PF*
    ("gb200", 5000, 2500, 10000, 5000),           # GB200 NVL72 per GPU: 5 PF* / 10 PF*
    ("mi300x", 2614.9, 1307.4, 5229.8, 2614.9),   # MI300X: 1,307.4 dense FP16, 2,614.9 with sparsity
]


@pytest.mark.parametrize("gpu, bf16_sparse, bf16_dense, fp8_sparse, fp8_dense", SPARSE_VS_DENSE)
def test_dense_not_sparse_peaks(gpu, bf16_sparse, bf16_dense, fp8_sparse, fp8_dense):
    g = lookup_gpu(gpu)
    # dense = datasheet-with-sparsity / 2 to the datasheet's rounding (L40S prints 362.05 dense next to 733*: 1.2%)
    assert g.dense_tflops["bf16"].value == bf16_dense
    assert bf16_sparse / 2 == pytest.approx(bf16_dense, rel=0.013)
    if fp8_dense is None:
        assert "fp8" not in g.dense_tflops
    else:
        assert g.dense_tflops["fp8"].value == fp8_dense
        assert fp8_sparse / 2 == pytest.approx(fp8_dense, rel=2e-3)


def test_every_gpu_fp8_and_int8_are_twice_bf16():
    # Hopper, Ada, Blackwell and CDNA run FP8 / INT8 at 2x BF16 (L40S 733 / 362.05 = 2.025 is NVIDIA's rounding);
    # a sparse figure slipped into one dtype would make the ratio 1 or 4. (TPU v5e: 394 / 197 = 2.)
    for g in gpu_catalog():
        bf16 = g.dense_tflops.get("bf16")
        for dt in ("fp8", "int8"):
            v = g.dense_tflops.get(dt)
            if bf16 is None or v is None or g.id == "nvidia-rtx-4090" and dt == "int8":
                continue
            assert 1.99 <= float(v.value) / float(bf16.value) <= 2.03, (g.id, dt)
    # RTX 4090 (Ada whitepaper): BF16 FP32-accumulate 165.2, FP8 FP32-accumulate 330.3, INT8 660.6 = 4 x 165.15
    ada = lookup_gpu("4090").dense_tflops
    assert (ada["bf16"].value, ada["fp8"].value, ada["int8"].value) == (165.2, 330.3, 660.6)


def test_rtx_5090_bf16_peak_is_not_below_measured_gemms():
    # 170 SMs x 2,407 MHz x 1,024 dense FP16 FLOP/clk/SM = 419.0 TFLOPS; PyTorch BF16 GEMMs measure 235-240 TFLOPS
    # on RTX 5090, so the halved GeForce FP32-accumulate rate (209.5) cannot be a ceiling here.
    g = lookup_gpu("rtx-5090").dense_tflops
    assert g["bf16"].value == 419.0 and g["bf16"].value > 240
    # FP8 and INT8 2 x 419 = 838, FP4 4 x 419 = 1,676 (NVIDIA's 3,352 "AI TOPS" is FP4 with sparsity)
    assert (g["fp8"].value, g["int8"].value, g["fp4"].value) == (838.0, 838.0, 1676.0)


@pytest.mark.parametrize("gpu, mib", [
    ("h100", 81_559), ("h100-pcie", 81_559), ("h100-nvl", 95_830), ("h200", 143_771), ("h200-nvl", 143_771),
    ("a100", 81_920), ("a100-pcie", 81_920), ("a100-40gb", 40_960), ("l40s", 46_068), ("l4", 23_034),
    ("a10g", 23_028), ("h20", 97_871), ("b200", 183_359), ("gb200", 189_471), ("rtx-4090", 24_564),
    ("rtx-5090", 32_607),
])
def test_memory_is_what_nvidia_smi_reports(gpu, mib):
    # e.g. H100 SXM 81,559 MiB x 1,048,576 = 85,520,809,984 B; H100 NVL 95,830 MiB = 100,485,038,080 B
    g = lookup_gpu(gpu)
    assert g.memory.bytes == mib * MiB
    assert f"{mib} MiB as reported by nvidia-smi" == g.memory.basis


def test_mi300x_memory_is_what_rocm_smi_reports():
    # rocm-smi 'VRAM Total Memory (B): 205822885888' = 191.69 GiB, 7% more than the decimal "192 GB"
    assert lookup_gpu("mi300x").memory.bytes == 205_822_885_888


def test_decimal_marketed_capacities_are_conservative_and_say_so():
    # "256 GB" MI325X etc.: the device reports more than 256e9 B (MI300X: 205.8e9 for "192 GB"), never less
    for g in gpu_catalog():
        if "marketed capacity (decimal)" in g.memory.basis:
            assert g.memory.bytes % 10**9 == 0 and "conservative" in g.memory.basis
            assert "reports somewhat less" not in g.memory.basis
        else:
            assert "reported by" in g.memory.basis


@pytest.mark.parametrize("gpu, ridge", [
    ("h100", 295.34),      # 989.4e12 / 3.35e12 = 295.34 FLOP/B
    ("h200", 206.13),      # 989.4e12 / 4.8e12
    ("b200", 281.25),      # 2,250e12 / 8.0e12
    ("a100", 153.02),      # 312e12 / 2.039e12
    ("l40s", 419.04),      # 362.05e12 / 0.864e12
    ("mi300x", 246.68),    # 1,307.4e12 / 5.3e12
    ("h20", 37.0),         # 148e12 / 4.0e12: the H20 is bandwidth-rich, compute-poor
])
def test_bf16_ridge_points(gpu, ridge):
    g = lookup_gpu(gpu)
    assert float(g.dense_tflops["bf16"].value) * 1e12 / g.bandwidth_bytes_per_s == pytest.approx(ridge, abs=0.01)


# --- ceilings by hand --------------------------------------------------------------------------

# Llama-3.1-8B BF16: 8,030,261,248 params; embedding = lm_head = 128,256 x 4,096 = 525,336,576 params (untied).
# Bytes read per step: all weights but the embedding lookup = (8,030,261,248 - 525,336,576) x 2 = 15,009,849,344 B.
# KV per token 32 layers x 2 x 8 KV heads x 128 x 2 B = 131,072 B; 1,024 tokens = 134,217,728 B per sequence.
# Decode FLOPs per token: 2 x (8,030,261,248 - 525,336,576) = 15,009,849,344 + attention 32 x 2 x 32 heads x
# (128 + 128) x 1,024 keys = 536,870,912 -> 15,546,720,256.
LLAMA_8B_READ = 15_009_849_344
LLAMA_8B_KV_SEQ_1K = 134_217_728
LLAMA_8B_DECODE_FLOPS_1K = 15_546_720_256


def test_dense_decode_ceiling_batch_1_and_64():
    one = size(model="Llama-3.1-8B", tokens=1024, concurrency=1, gpu="h100").ceilings.decode
    # (15,009,849,344 + 134,217,728) / 3.35e12 = 4.52062 ms -> 221.21 tok/s
    assert one.weights_bytes_per_step_per_gpu == LLAMA_8B_READ
    assert one.kv_bytes_per_step_per_gpu == LLAMA_8B_KV_SEQ_1K
    assert one.memory_time_ms == pytest.approx(4.520617, rel=1e-6)
    assert one.tokens_per_s_per_sequence == pytest.approx(221.2087, rel=1e-6) and one.bound == "memory"
    # compute 15,546,720,256 / 989.4e12 = 0.015713 ms
    assert one.compute_time_ms == pytest.approx(LLAMA_8B_DECODE_FLOPS_1K / 989.4e12 * 1e3)
    # at 80% of bandwidth: 4.52062 / 0.8 = 5.65077 ms -> 176.97 tok/s
    est = size(model="Llama-3.1-8B", tokens=1024, concurrency=1, gpu="h100").ceilings.decode_estimate
    assert est.tokens_per_s_per_sequence == pytest.approx(176.967, rel=1e-5) and est.evidence == "estimate"

    b64 = size(model="Llama-3.1-8B", tokens=1024, concurrency=64, gpu="h100").ceilings.decode
    # KV 64 x 134,217,728 = 8,589,934,592; (15,009,849,344 + 8,589,934,592) / 3.35e12 = 7.04471 ms
    # -> 141.95 tok/s per sequence, x 64 = 9,084.8 tok/s aggregate
    assert b64.kv_bytes_per_step_per_gpu == 8_589_934_592
    assert b64.memory_time_ms == pytest.approx(7.044712, rel=1e-6)
    assert b64.tokens_per_s_aggregate == pytest.approx(9084.83, rel=1e-6)
    # compute 64 x 15,546,720,256 / 989.4e12 = 1.00565 ms < 7.04 ms: still memory-bound
    assert b64.compute_time_ms == pytest.approx(64 * LLAMA_8B_DECODE_FLOPS_1K / 989.4e12 * 1e3)
    assert b64.bound == "memory"


# Qwen3-30B-A3B BF16, E = 128, k = 8, 48 MoE layers. Routed experts 48 x 128 x 3 x 2,048 x 768 = 28,991,029,248
# params = 57,982,058,496 B. Read in full: attention 48 x (2 x 2,048 x 4,096 + 2 x 2,048 x 512 + 256 + 4,096 norms
# + 2,048 x 128 router) = 918,761,472, final norm 2,048, lm_head 151,936 x 2,048 = 311,164,928 -> 1,229,928,448 params
# = 2,459,856,896 B. KV 48 x 2 x 4 x 128 x 2 = 98,304 B/token -> 100,663,296 B per 1,024-token sequence.
QWEN_EXPERTS = 57_982_058_496
QWEN_DENSE_READ = 2_459_856_896


@pytest.mark.parametrize("batch, approx_distinct", [
    (1, 8.0),                  # 128 x (1 - (15/16)^1) = 8: batch 1 reads exactly top-k experts
    (8, 51.61991),             # (15/16)^8 = 0.596720 -> 128 x 0.403280 = 51.62
    (64, 125.94235),           # (15/16)^64 = 0.016076 -> 128 x 0.983924 = 125.94
])
def test_moe_decode_ceiling_expected_distinct_experts(batch, approx_distinct):
    d = size(model="Qwen3-30B-A3B", tokens=1024, concurrency=batch, gpu="h100").ceilings.decode
    distinct = 128 * (1 - (1 - 8 / 128) ** batch)
    assert distinct == pytest.approx(approx_distinct, rel=1e-6)
    assert d.expected_distinct_experts_per_layer == pytest.approx(distinct, rel=1e-12)
    # weights read = 2,459,856,896 + ceil(57,982,058,496 x distinct / 128)
    # (batch 1: + 3,623,878,656 = 6,083,735,552; batch 64: + 57,049,973,925 = 59,509,830,821)
    expected = QWEN_DENSE_READ + QWEN_EXPERTS * distinct / 128
    assert d.weights_bytes_per_step_per_gpu == pytest.approx(expected, abs=1)
    assert d.kv_bytes_per_step_per_gpu == batch * 100_663_296
    # step >= (weights read + KV) / 3.35e12; batch 1: 6,184,398,848 / 3.35e12 = 1.84609 ms -> 541.69 tok/s
    assert d.memory_time_ms == pytest.approx((expected + batch * 100_663_296) / 3.35e12 * 1e3, rel=1e-9)
    assert d.bound == "memory"


def test_moe_expert_parallel_counts_tokens_of_the_whole_expert_group():
    # 8 GPUs, TP 1, EP 8 -> 8 replicas of 2 sequences; each GPU holds 16 of the 128 experts and receives the routed
    # tokens of all 8 replicas: B = 16, not 2. 128 x (1 - (15/16)^16) = 128 x 0.643926 = 82.42 distinct per layer.
    d = size(model="Qwen3-30B-A3B", tokens=1024, concurrency=16, gpus=8, ep=8, gpu="h100").ceilings.decode
    assert d.batch_per_replica == 2
    assert d.expected_distinct_experts_per_layer == pytest.approx(128 * (1 - (15 / 16) ** 16))
    # per GPU: dense 2,459,856,896 + 57,982,058,496 / 8 x 82.4225 / 128 = 2,459,856,896 + 4,666,893,429 = 7,126,750,325
    assert d.weights_bytes_per_step_per_gpu == pytest.approx(2_459_856_896 + 57_982_058_496 / 8 * 82.42251130 / 128,
                                                             abs=2)
    # without EP beyond TP the group is one replica: TP 1, EP 1, 2 sequences -> B = 2: 128 x (1 - (15/16)^2) = 15.5
    alone = size(model="Qwen3-30B-A3B", tokens=1024, concurrency=2, gpu="h100").ceilings.decode
    assert alone.expected_distinct_experts_per_layer == pytest.approx(15.5)


def test_prefill_ceiling_8k_prompt():
    p = size(model="Llama-3.1-8B", tokens=8192, gpu="h100").ceilings.prefill
    # FLOPs = 2 x 6,979,588,096 (no embedding, no lm_head) x 8,192 = 114,353,571,364,864
    #       + 2 x 525,336,576 (lm_head, last token only) = 1,050,673,152
    #       + 32 layers x 2 x 32 heads x 256 (qk + v dims) x 8,192 x 8,193 / 2 (causal) = 17,594,333,528,064
    #       = 131,948,955,566,080
    assert p.flops == 131_948_955_566_080
    # time >= 131,948,955,566,080 / 989.4e12 = 0.133363 s; at 45% of peak 0.296361 s
    assert p.time_s == pytest.approx(0.1333626, rel=1e-6)
    pe = size(model="Llama-3.1-8B", tokens=8192, gpu="h100").ceilings.prefill_estimate
    assert pe.time_s == pytest.approx(0.1333626 / 0.45, rel=1e-6) and pe.efficiency == 0.45 and pe.evidence == "estimate"
    assert p.peak_tflops_per_gpu == 989.4 and p.compute_dtype == "bf16" and p.evidence == "ceiling"
    # TP 2 halves the bound: 0.0666813 s
    assert size(model="Llama-3.1-8B", tokens=8192, gpu="h100", tp=2).ceilings.prefill.time_s == pytest.approx(
        0.1333626 / 2, rel=1e-6)


def test_ceiling_text_states_efficiencies():
    text = size(model="Llama-3.1-8B", tokens=8192, gpu="h100").to_text()
    # decode: (15,009,849,344 + 1,073,741,824) / 3.35e12 = 4.80 ms -> 208.3 tok/s
    assert "ceiling decode: <= 208.3 tok/s per sequence" in text and "step >= 4.80 ms" in text
    # the efficiency-scaled figures are estimates, on their own lines: 208.3 x 0.8 = 166.6 tok/s; 0.133 / 0.45 = 0.296 s
    assert "estimate decode at 80% of peak bandwidth / 45% of dense peak: ~166.6 tok/s per sequence" in text
    assert "ceiling prefill: 8,192-token prompt >= 0.133 s at 100% of 1 x 989.4 dense bf16 TFLOPS [ceiling]" in text
    assert "estimate prefill at 45% of dense peak: ~0.296 s [estimate]" in text
    assert text.count("[ceiling]") == 2 and "[exact]" not in text


def test_compute_bound_decode_shows_the_compute_step():
    # Llama-3.1-8B, 16 tokens, 4,096 sequences: memory (15,009,849,344 + 4,096 x 16 x 131,072) / 3.35e12 = 7.05 ms;
    # compute 4,096 x (15,009,849,344 + 32 x 2 x 32 x 256 x 16) / 989.4e12 = 62.17 ms -> compute-bound
    d = size(model="Llama-3.1-8B", tokens=16, concurrency=4096, gpu="h100")
    c = d.ceilings.decode
    assert c.bound == "compute"
    assert c.compute_time_ms == pytest.approx(4096 * (15_009_849_344 + 32 * 2 * 32 * 256 * 16) / 989.4e12 * 1e3)
    assert f"step >= {c.compute_time_ms:.2f} ms" in d.to_text()
    # at efficiency the compute side uses 45% of peak: 62.17 / 0.45 = 138.2 ms per step
    assert d.ceilings.decode_estimate.tokens_per_s_per_sequence == pytest.approx(0.45 / (c.compute_time_ms / 1e3))


# --- names as engineers type them (UAT) -------------------------------------------------------

@pytest.mark.parametrize("name, gpu_id", [
    ("NVIDIA H100 80GB HBM3", "nvidia-h100-sxm"),   # nvidia-smi --query-gpu=name on an HGX H100
    ("H100 80GB HBM3", "nvidia-h100-sxm"),
    ("H100 SXM5", "nvidia-h100-sxm"),
    ("NVIDIA H100", "nvidia-h100-sxm"),
    ("NVIDIA H100 PCIe", "nvidia-h100-pcie"),
    ("NVIDIA H100 NVL", "nvidia-h100-nvl"),
    ("H200 141GB", "nvidia-h200-sxm"),
    ("NVIDIA A100-SXM4-80GB", "nvidia-a100-80gb-sxm"),  # nvidia-smi name of an A100 SXM4 80GB
    ("NVIDIA A100-SXM4-40GB", "nvidia-a100-40gb-sxm"),
    ("NVIDIA A100 80GB PCIe", "nvidia-a100-80gb-pcie"),
    ("NVIDIA GeForce RTX 4090", "nvidia-rtx-4090"),
    ("AMD Instinct MI300X", "amd-mi300x"),
    ("NVIDIA L40S", "nvidia-l40s"),
    ("h100-80gb", "nvidia-h100-sxm"),
    ("h100_sxm", "nvidia-h100-sxm"),
])
def test_gpu_product_names_as_smi_reports_them(name, gpu_id):
    assert lookup_gpu(name).id == gpu_id


def test_gpu_unknown_name_still_lists_valid_values():
    with pytest.raises(UnknownGPUError) as info:
        lookup_gpu("NVIDIA H800")
    assert "gpu: 'NVIDIA H800'" in str(info.value) and "valid values:" in str(info.value)
