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


def test_the_page_states_one_utilization_convention_and_it_is_the_tools_default():
    # every worked example uses 0.92 (vLLM's default); the calculator calls below leave memory_utilization unset,
    # so they also check that the tool's default is the page's convention
    on_page("the utilization target is **0.92**")
    assert SizingRequest(model="Llama-3.1-8B").memory_utilization == 0.92
    assert "0.90 (vLLM" not in PAGE and "Budget 0.90" not in PAGE


def test_llama_3_1_8b_check():
    on_page("131,072 B/token", "1,073,741,824 B", "**56 sequences of 8,192 tokens**", "78,679,145,185 B = 73.28 GiB")
    r = size(model="Llama-3.1-8B", tokens=8192, gpu="h100", overhead_bytes=2 * GiB)
    assert r.kv_cache.bytes_per_token == 131_072
    assert r.kv_cache.bytes_per_sequence == 1_073_741_824
    # budget = floor(85,520,809,984 x 0.92) = 78,679,145,185 B
    assert r.per_gpu.budget_bytes == 78_679_145_185
    # room = 78,679,145,185 - 16,060,522,496 - 2,147,483,648 = 60,471,139,041 B = 56.32 GiB; / 1 GiB per sequence -> 56
    assert r.per_gpu.max_concurrency == 56


def test_the_start_up_log_example_balances():
    # vLLM PR #10511 log: 71.29 GiB usable - 14.96 weights - 1.79 non-torch - 1.26 activation peak = 53.28 ~ 53.29 GiB
    on_page("1.79 GiB outside PyTorch's allocator", "1.26 GiB activation peak = 3.05 GiB", "leaves 53.29 GiB")
    assert abs(71.29 - 14.96 - 1.79 - 1.26 - 53.29) <= 0.011
    # the weights line is the BF16 checkpoint: 16,060,522,496 B / 2^30 = 14.957 GiB
    assert round(size(model="Llama-3.1-8B", tokens=1).weights.bytes / GiB, 2) == 14.96
    # 53.29 GiB / 131,072 B per token = 436,551.7 tokens
    on_page("about 436,550 tokens")
    assert round(53.29 * GiB / 131_072, -1) == 436_550


def test_llama_3_1_70b_worked_example():
    on_page("141,107,412,992", "72,656,371,712", "327,680 B/token", "171,798,691,840 B",
            "floor(78,679,145,185.28) = 78,679,145,185 B")
    bf16 = size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4, overhead_bytes=4 * GiB)
    assert bf16.weights.bytes == 141_107_412_992
    assert bf16.kv_cache.bytes == 171_798_691_840
    # 85,520,809,984 x 0.92 = 78,679,145,185.28; the page drops the fraction as vLLM does
    assert bf16.per_gpu.budget_bytes == 78_679_145_185
    # page row BF16, TP=4: room 78,679,145,185 - 35,276,853,248 - 4 GiB = 39,107,324,641 B = 36.42 GiB;
    # 81,920 B/token/GPU; floor(39,107,324,641 / 2,684,354,560) = 14 sequences at 32,768; does not fit 16
    on_page("| 4 | 32.85 GiB | 36.42 GiB | 81,920 B | 40.00 GiB | no | 14 | 29,836 tokens |")
    assert bf16.kv_cache.bytes_per_token_per_gpu == 81_920
    assert bf16.per_gpu.max_concurrency == 14 and bf16.per_gpu.fits is False
    # The page splits all weights by 4; the tool keeps norms (2,637,824 B) whole on every rank, so its room is
    # 2,637,824 x 3/4 = 1,978,368 B smaller: floor(39,105,346,273 / 1,310,720) = 29,835 vs the page's 29,836.
    assert bf16.per_gpu.max_tokens_per_sequence == 29_835
    # FP8 weights (the page ignores the 80 x 7 per-tensor fp32 scales: 560 x 4 = 2,240 B)
    fp8 = size(model="Llama-3.1-70B", weights="fp8-tensor", tokens=32768, concurrency=16)
    assert fp8.weights.bytes == 72_656_371_712 + 2_240
    # BF16 TP=8 row: room 78,679,145,185 - 17,638,426,624 - 4 GiB = 56,745,751,265 B = 52.85 GiB;
    # 40,960 B/token/GPU; floor(56,745,751,265 / 1,342,177,280) = 42 sequences
    on_page("| 8 | 16.43 GiB | 52.85 GiB | 40,960 B | 20.00 GiB | yes | 42 | 86,587 tokens |")
    tp8 = size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=8, overhead_bytes=4 * GiB)
    assert tp8.kv_cache.bytes_per_token_per_gpu == 40_960
    assert tp8.per_gpu.fits is True and tp8.per_gpu.max_concurrency == 42
    # BF16 TP=2: room 78,679,145,185 - 70,553,706,496 - 4 GiB = 3,830,471,393 B = 3.57 GiB; no 32k sequence fits
    on_page("| 2 | 65.71 GiB | 3.57 GiB | 163,840 B | 80.00 GiB | no | 0 | 1,461 tokens |")
    assert size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=2,
                overhead_bytes=4 * GiB).per_gpu.max_concurrency == 0


@pytest.mark.parametrize("tp, kv, row", [
    # FP8 weights 72,656,371,712 B split by TP (the page ignores the tool's 2,240 B of per-tensor scales):
    # room = 78,679,145,185 - weights/TP - 4,294,967,296; seqs = floor(room / (32,768 x KV B/token/GPU));
    # context = floor(room / (16 x KV B/token/GPU))
    (2, "bf16", "| 2 | 33.83 GiB | 35.44 GiB | BF16 | 80.00 GiB | no | 7 | 14,517 |"),   # room 38,055,992,033 B
    (2, "fp8", "| 2 | 33.83 GiB | 35.44 GiB | FP8 | 40.00 GiB | no | 14 | 29,034 |"),
    (4, "bf16", "| 4 | 16.92 GiB | 52.36 GiB | BF16 | 40.00 GiB | yes | 20 | 42,892 |"),  # room 56,220,084,961 B
    (4, "fp8", "| 4 | 16.92 GiB | 52.36 GiB | FP8 | 20.00 GiB | yes | 41 | 85,785 |"),
    (8, "bf16", "| 8 | 8.46 GiB | 60.82 GiB | BF16 | 20.00 GiB | yes | 48 | 99,643 |"),   # room 65,302,131,425 B
])
def test_llama_3_1_70b_fp8_weight_rows(tp, kv, row):
    on_page(row)
    cells = [c.strip() for c in row.strip("|").split("|")]
    fits, seqs, context = cells[5] == "yes", int(cells[6]), cells[7]
    r = size(model="Llama-3.1-70B", weights="fp8-tensor", kv=kv, tokens=32768, concurrency=16, gpu="h100", tp=tp,
             overhead_bytes=4 * GiB)
    assert r.per_gpu.max_concurrency == seqs and r.per_gpu.fits is fits
    assert f"{r.weights.bytes_per_gpu / GiB:.2f} GiB" == cells[1]
    # the tool keeps norms whole on every rank and counts the scales: its context is 1-4 tokens below the page's
    page_context = int(context.replace(",", ""))
    assert page_context - 4 <= r.per_gpu.max_tokens_per_sequence <= page_context


def test_deepseek_v3_worked_example():
    on_page("**70,272 B/token**", "**673,150,582,112 B = 626.92 GiB**", "1,342,052,838,400 B", "40,016 B/token",
            "36,842,766,336 B", "143,771 MiB = 150,754,820,096 B = 140.40 GiB", "**46.80 GiB** per GPU",
            "**715,158 tokens**")
    # the H200 as nvidia-smi reports it (the catalog's figure), not aiconfigurator's 151,397,597,184 B
    r = size(model="DeepSeek-V3", tokens=8192, concurrency=64, gpu="h200", tp=8, overhead_bytes=4 * GiB)
    assert r.per_gpu.budget_bytes == 138_694_434_488  # floor(150,754,820,096 x 0.92)
    assert r.kv_cache.bytes_per_token == 70_272
    assert r.weights.bytes == 673_150_582_112
    assert size(model="DeepSeek-V3", tokens=1, weights="bf16").weights.bytes == 1_342_052_838_400
    assert size(model="DeepSeek-V3", tokens=1, kv="fp8_ds_mla").kv_cache.bytes_per_token == 40_016
    # 64 x 8,192 = 524,288 tokens x 70,272 B = 36,842,766,336 B on every GPU (MLA is not split by TP): fits
    assert r.kv_cache.bytes_per_gpu == 36_842_766_336 and r.per_gpu.fits is True
    # The page divides all weights by 8 (84,143,822,764 B/GPU): room 138,694,434,488 - 84,143,822,764 - 4 GiB =
    # 50,255,644,428 B; / 575,668,224 B per sequence = 87.3 -> 87 at 8,192 tokens; / 70,272 B = 715,158 tokens.
    on_page("floor(50,255,644,428 / 575,668,224) = 87")
    assert 50_255_644_428 // 575_668_224 == 87 and 50_255_644_428 // 70_272 == 715_158
    # The tool keeps MLA down-projections (q_a, kv_a), routers and norms whole on every rank (vLLM
    # ReplicatedLinear), so each GPU holds 85,140,101,152 B; room = 138,694,434,488 - 85,140,101,152 -
    # 4,294,967,296 = 49,259,366,040 B; / 575,668,224 B per sequence = 85.6 -> 85.
    assert r.weights.bytes_per_gpu == 85_140_101_152
    assert r.per_gpu.max_concurrency == 85
    # 8 x H100 cannot hold the weights: 626.92 GiB > 8 x 78,679,145,185 B = 586.21 GiB of budget
    on_page("626.92 GiB of weights exceeds 8 x 73.28 = 586.21 GiB")
    assert 673_150_582_112 > 8 * 78_679_145_185


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
