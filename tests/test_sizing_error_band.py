"""The error band on fit verdicts: ratios of logged to estimated overheads over published vLLM profiles."""

import pytest

from llm_inference_fundamentals.tools.sizing import SizingRequest, size_deployment
from llm_inference_fundamentals.tools.sizing.error_band import item_bands

GiB = 2**30


def test_item_bands_are_the_hand_computed_ratios():
    bands = item_bands()
    # activation estimate, Llama-3.1-8B on H100 at 8,192 batched tokens: 8,192 x 2 B x (4 x 4,096 + 14,336) +
    # 1,024 rows x 128,256 x 4 B = 503,316,480 + 525,336,576 = 1,028,653,056 B; logged 1.26 GiB -> 1.315.
    # At TP 2 the widest projection is 7,168 and the logits 64,128 wide: 385,875,968 + 262,668,288 = 648,544,256 B;
    # logged 1.26 GiB -> 2.086 (the largest activation ratio)
    lo, hi, _ = bands["activation"]
    assert lo == 1.0 and hi == pytest.approx(1.26 * GiB / 648_544_256)
    # non-torch: estimate 0.5 GiB context (+ 358,612,992 B NCCL at TP 2); logged 0.07 GiB (Gemma-3-4B) -> 0.14;
    # 3.58 GiB at TP 2 -> 3.58 GiB / 895,483,904 B = 4.293
    lo, hi, _ = bands["non_torch"]
    assert lo == pytest.approx(0.14) and hi == pytest.approx(3.58 * GiB / 895_483_904)
    # CUDA graphs: 0.17 GiB (vLLM 0.21 estimate) and about 1.21 GiB (Llama 4 Maverick) against a flat 1 GiB
    lo, hi, sources = bands["cuda_graphs"]
    assert (lo, hi) == pytest.approx((0.17, 1.21)) and all(s.startswith("https://github.com/") for s in sources)


def test_fit_verdict_carries_the_band():
    # Llama-3.1-70B BF16, TP 4 on H100, 16 x 32,768 tokens, FP8 KV: overheads 2,807,300,096 B estimated
    # (activation 785,645,568; graphs 1 GiB; NCCL 411,041,792; context 0.5 GiB). High end: activation x 2.086 +
    # graphs x 1.21 + (NCCL + context) x 4.293; low end: activation x 1 + graphs x 0.17 + (NCCL + context) x 0.14
    r = size_deployment(SizingRequest(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4, kv="fp8"))
    g = r.per_gpu
    bands = item_bands()
    act, graphs, nonTorch = 785_645_568, 1_073_741_824, 411_041_792 + 536_870_912
    high = act * bands["activation"][1] + graphs * bands["cuda_graphs"][1] + nonTorch * bands["non_torch"][1]
    low = act * 1.0 + graphs * 0.17 + nonTorch * 0.14
    assert g.overhead_bytes == act + graphs + nonTorch
    assert g.overhead_high_bytes == round(high) and g.overhead_low_bytes == pytest.approx(low, abs=1)
    assert g.margin_low_bytes == g.free_bytes - (g.overhead_high_bytes - g.overhead_bytes)
    assert g.fit_verdict == "fits" and "error band" in r.to_text()


def test_verdict_wording_when_the_band_straddles_zero():
    # memory_utilization 0.95 leaves the BF16-KV case with 0.19 GiB at the estimate: fits only at the estimate
    r = size_deployment(SizingRequest(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4,
                                      memory_utilization=0.95))
    assert 0 < r.per_gpu.free_bytes < GiB and r.per_gpu.margin_low_bytes < 0
    assert r.per_gpu.fit_verdict == "fits at the estimate, not at the high end of the overheads"


def test_a_given_overhead_has_no_band():
    r = size_deployment(SizingRequest(model="Llama-3.1-8B", tokens=1024, gpu="h100", overhead_bytes=4 * GiB))
    assert r.per_gpu.overhead_low_bytes is None and r.per_gpu.fit_verdict is None


def test_memory_sizing_page_example_is_what_the_tool_says():
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "references" / "memory-sizing.md").read_text()
    section = page.split("## Accuracy and error band", 1)[1].split("\n## ", 1)[0]
    r = size_deployment(SizingRequest(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4, kv="fp8"))
    g = r.per_gpu
    for figure in (g.overhead_bytes, g.overhead_low_bytes, g.overhead_high_bytes, g.free_bytes, g.margin_low_bytes,
                   g.margin_high_bytes):
        assert f"{figure / GiB:.2f} GiB" in section or f"{figure / GiB:.2f} to" in section, figure / GiB
    tight = size_deployment(SizingRequest(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4,
                                          memory_utilization=0.95))
    assert f"{tight.per_gpu.free_bytes / GiB:.2f} GiB of margin" in section
