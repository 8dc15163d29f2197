"""The worked examples of references/memory-sizing.md, recomputed with size_deployment.

Each figure the page prints is asserted to appear in the page and to equal the calculator's answer (or, where the
page rounds or simplifies, the difference is derived by hand in a comment).
"""

from pathlib import Path

import pytest

from llm_inference_fundamentals.tools.sizing import SizingRequest, size_deployment

PAGE = (Path(__file__).resolve().parent.parent / "references" / "memory-sizing.md").read_text(encoding="utf-8")
GiB = 2**30


def size(**kw):
    return size_deployment(SizingRequest(**kw))


def on_page(*figures):
    for f in figures:
        assert f in PAGE, f"references/memory-sizing.md no longer shows {f}"


def test_page_has_the_anchors_the_tool_description_cites():
    for heading in ("## KV cache per token", "## MLA", "## Sliding-window and interleaved attention",
                    "## Hybrid recurrent state", "## Per-GPU memory under parallelism",
                    "## Max concurrency and max context", "## Worked example: Llama-3.1-70B",
                    "## Worked example: DeepSeek-V3"):
        assert heading in PAGE


def test_llama_3_1_8b_check():
    on_page("131,072 B/token", "1,073,741,824 B", "**54 sequences of 8,192 tokens**")
    r = size(model="Llama-3.1-8B", tokens=8192, gpu="h100", memory_utilization=0.90, overhead_bytes=2 * GiB)
    assert r.kv_cache.bytes_per_token == 131_072
    assert r.kv_cache.bytes_per_sequence == 1_073_741_824
    # room = floor(85,520,809,984 x 0.9) - 16,060,522,496 - 2 GiB = 58,760,722,841 B; / 1 GiB per sequence -> 54
    assert r.per_gpu.max_concurrency == 54


def test_llama_3_1_70b_worked_example():
    on_page("141,107,412,992", "72,656,371,712", "327,680 B/token", "171,798,691,840 B", "76,968,728,985.6 B")
    bf16 = size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4, memory_utilization=0.90,
                overhead_bytes=4 * GiB)
    assert bf16.weights.bytes == 141_107_412_992
    assert bf16.kv_cache.bytes == 171_798_691_840
    # the page drops the fraction: floor(76,968,728,985.6) = 76,968,728,985
    assert bf16.per_gpu.budget_bytes == 76_968_728_985
    # page row BF16, TP=4: 81,920 B/token/GPU, 13 sequences at 32,768; does not fit 16
    on_page("| 4 | 32.85 GiB | 34.83 GiB | 81,920 B | 40.00 GiB | no | 13 | 28,531 tokens |")
    assert bf16.kv_cache.bytes_per_token_per_gpu == 81_920
    assert bf16.per_gpu.max_concurrency == 13 and bf16.per_gpu.fits is False
    # The page splits all weights by 4; the tool keeps norms (2,637,824 B) whole on every rank, so its room is
    # 2,637,824 x 3/4 = 1,978,368 B smaller: floor(37,394,930,073 / 1,310,720) = 28,530 vs the page's 28,531.
    assert bf16.per_gpu.max_tokens_per_sequence == 28_530
    # FP8 weights (the page ignores the 80 x 7 per-tensor fp32 scales: 560 x 4 = 2,240 B)
    fp8 = size(model="Llama-3.1-70B", weights="fp8-tensor", tokens=32768, concurrency=16)
    assert fp8.weights.bytes == 72_656_371_712 + 2_240
    # BF16 TP=8 row: 40,960 B/token/GPU, 41 sequences
    on_page("| 8 | 16.43 GiB | 51.26 GiB | 40,960 B | 20.00 GiB | yes | 41 |")
    tp8 = size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=8, memory_utilization=0.90,
               overhead_bytes=4 * GiB)
    assert tp8.kv_cache.bytes_per_token_per_gpu == 40_960
    assert tp8.per_gpu.fits is True and tp8.per_gpu.max_concurrency == 41


def test_deepseek_v3_worked_example():
    on_page("**70,272 B/token**", "**673,150,582,112 B = 626.92 GiB**", "1,342,052,838,400 B", "40,016 B/token",
            "36,842,766,336 B")
    r = size(model="DeepSeek-V3", tokens=8192, concurrency=64, gpu="h200", gpu_memory_bytes=151_397_597_184, tp=8,
             memory_utilization=0.90, overhead_bytes=4 * GiB)
    assert r.kv_cache.bytes_per_token == 70_272
    assert r.weights.bytes == 673_150_582_112
    assert size(model="DeepSeek-V3", tokens=1, weights="bf16").weights.bytes == 1_342_052_838_400
    assert size(model="DeepSeek-V3", tokens=1, kv="fp8_ds_mla").kv_cache.bytes_per_token == 40_016
    # 64 x 8,192 = 524,288 tokens x 70,272 B = 36,842,766,336 B on every GPU (MLA is not split by TP): fits
    assert r.kv_cache.bytes_per_gpu == 36_842_766_336 and r.per_gpu.fits is True
    # The page divides all weights by 8 (84,143,822,764 B/GPU) and gets 83 sequences at 8,192 tokens. The tool keeps
    # MLA down-projections (q_a, kv_a), routers and norms whole on every rank (vLLM ReplicatedLinear), so each GPU
    # holds 85,140,101,152 B; room = 136,257,837,465 - 85,140,101,152 - 4,294,967,296 = 46,822,769,017 B;
    # / 575,668,224 B per sequence = 81.3 -> 81.
    assert r.weights.bytes_per_gpu == 85_140_101_152
    assert r.per_gpu.max_concurrency == 81


@pytest.mark.parametrize("model, tokens, expected, shown", [
    ("Gemma-2-9B", 8192, 2_113_929_216, "2,113,929,216 B"),
    ("Gemma-3-1B", 32768, 145_752_064, "145,752,064 B"),
    ("gpt-oss-120b", 32768, 1_212_678_144, "1,212,678,144 B"),
])
def test_sliding_window_table(model, tokens, expected, shown):
    on_page(shown)
    assert size(model=model, tokens=tokens).kv_cache.bytes_per_sequence == expected


def test_hybrid_table_jamba():
    on_page("8,716,288 B")
    assert size(model="Jamba-v0.1", tokens=1).kv_cache.state_bytes_per_sequence == 8_716_288


def test_kv_quantization_table():
    on_page("| 163,840 |", "| 168,960 |", "| 92,160 |")
    for kv, value in (("fp8", 163_840), ("int8", 168_960), ("nvfp4", 92_160), ("int4", 92_160)):
        assert size(model="Llama-3.1-70B", tokens=1, kv=kv).kv_cache.bytes_per_token == value
