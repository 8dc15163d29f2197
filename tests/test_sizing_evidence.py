"""Evidence labels, headroom, formulas and the per-GPU weight share, as SKILL.md defines the classes.

Every expected figure is derived by hand in the comment above its assert.
"""

import pytest

from llm_inference_fundamentals.tools.sizing import SizingRequest, size_deployment

GiB = 2**30


def size(**kw):
    return size_deployment(SizingRequest(**kw))


def _evidence_values(node):
    """Every 'evidence' value that is a class label (the report's top-level note is a sentence)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "evidence" and isinstance(value, str) and " " not in value:
                yield value
            else:
                yield from _evidence_values(value)
    elif isinstance(node, list):
        for item in node:
            yield from _evidence_values(item)


@pytest.mark.parametrize("model", ["Llama-3.1-70B", "DeepSeek-V3", "gpt-oss-20b", "Jamba-v0.1", "Gemma-3-27B"])
def test_every_figure_is_a_measurement_estimate_or_ceiling(model):
    r = size(model=model, tokens=4096, concurrency=4, gpu="h200", tp=2 if model != "Jamba-v0.1" else 1)
    labels = set(_evidence_values(r.model_dump(mode="json")))
    assert labels <= {"measurement", "estimate", "ceiling"} and {"estimate", "ceiling"} <= labels
    text = r.to_text()
    assert "[exact]" not in text
    # exact arithmetic on a config is an Estimate whose arithmetic is exact: said once, in the output
    assert text.count("Estimates whose arithmetic is exact") == 1
    assert r.weights.evidence == r.kv_cache.evidence == r.per_gpu.evidence == "estimate"
    assert r.kv_cache.exact_arithmetic is True


def test_gguf_mix_weights_are_estimates_with_approximate_arithmetic():
    # Q4_K_M is a mix (some tensors at Q6_K): the layout is approximate, the label is still estimate
    r = size(model="Llama-3.1-8B", weights="q4_k_m", tokens=1024)
    assert r.weights.evidence == "estimate" and r.weights.exact_arithmetic is False
    assert "[estimate, approximate layout]" in r.to_text()


def test_checkpoint_bytes_are_a_measurement_in_the_text():
    # the catalog anchor for Llama-3.1-8B is the safetensors index total_size, 16,060,522,496 B
    text = size(model="Llama-3.1-8B", tokens=1024).to_text()
    assert "checkpoint as stored: 16,060,522,496 B [measurement]" in text


def test_efficiency_scaled_speeds_are_estimates_on_their_own_lines():
    r = size(model="Llama-3.1-8B", tokens=1024, gpu="h100")
    c = r.ceilings
    assert c.decode.evidence == c.prefill.evidence == "ceiling"
    assert c.decode_estimate.evidence == c.prefill_estimate.evidence == "estimate"
    # decode ceiling (15,009,849,344 + 134,217,728) / 3.35e12 = 4.520617 ms -> 221.21 tok/s; at 80% -> 176.97
    assert c.decode_estimate.tokens_per_s_per_sequence == pytest.approx(c.decode.tokens_per_s_per_sequence * 0.8)
    lines = r.to_text().splitlines()
    ceiling_line = next(line for line in lines if line.startswith("ceiling decode"))
    assert "80%" not in ceiling_line and ceiling_line.endswith("[ceiling]")
    assert any(line.startswith("estimate decode at 80% of peak bandwidth") and line.endswith("[estimate]")
               for line in lines)


def test_headroom_is_outside_the_total_with_its_reason():
    r = size(model="Llama-3.1-8B", tokens=8192, gpu="h100")
    g = r.per_gpu
    # H100 85,520,809,984 B x 0.92 = 78,679,145,185.28 -> budget 78,679,145,185; headroom 6,841,664,799
    assert g.budget_bytes == 78_679_145_185 and g.headroom_bytes == 6_841_664_799
    # total = weights + KV + the overheads inside the budget, nothing else
    assert g.total_bytes == g.weights_bytes + g.kv_bytes + g.overhead_bytes
    assert r.overhead_bytes == sum(o.bytes for o in r.overheads if o.inside_budget)
    text = r.to_text()
    lines = text.splitlines()
    total_at = next(i for i, line in enumerate(lines) if line.startswith("total per GPU"))
    headroom_at = next(i for i, line in enumerate(lines) if line.startswith("not in the total"))
    assert headroom_at > total_at and "6.37 GiB" in lines[headroom_at]  # 6,841,664,799 / 2^30 = 6.37
    assert "fragmentation and other processes" in lines[headroom_at]
    assert not any(line.startswith("allocator_headroom") for line in lines[:total_at])


def test_formulas_are_in_the_text_output_with_the_numbers():
    text = size(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4).to_text()
    assert "formulas:" in text
    # 2 (K,V) x 8 KV heads x 256 B per 128-dim bf16 head vector = 4,096 B per layer; x 80 layers x 32,768 tokens
    # = 10,737,418,240 B per sequence; x 16 = 171,798,691,840 B
    assert "2 (K,V) x 8 KV heads x 256 B per 128-dim head vector" in text
    assert "80 x 4,096 x 32,768 = 10,737,418,240 B" in text
    assert "10,737,418,240 x 16 sequences = 171,798,691,840 B" in text
    assert "each GPU keeps max(1, 8 // TP 4) = 2 KV head(s)" in text
    assert "budget = 79.65 GiB x 0.92" in text  # 85,520,809,984 B / 2^30 = 79.65 GiB
    assert "decode ceiling: step >=" in text and "prefill ceiling: FLOPs =" in text


def test_deepseek_v3_weights_per_gpu_name_the_replicated_tensors():
    # FP8 128x128 blocks, TP 8. Pro rata 673,150,582,112 / 8 = 84,143,822,764 B (78.37 GiB).
    # Kept whole on every rank (extra per GPU = bytes x 7/8):
    #   q_a_proj 1,536 x 7,168 + 12 x 56 blocks x 4 B = 11,012,736 B; kv_a_proj_with_mqa 576 x 7,168 + 5 x 56 x 4
    #   = 4,129,888 B; x 61 layers = 923,700,064 B -> 808,237,556 B
    #   routers 256 x 7,168 x 2 B + bias 256 x 2 B = 3,670,528 B x 58 MoE layers = 212,890,624 B -> 186,279,296 B
    #   norms (2 x 7,168 + 1,536 + 512) x 2 B x 61 + final 7,168 x 2 = 2,013,184 B -> 1,761,536 B
    # sum 996,278,388 B -> per GPU 85,140,101,152 B (79.29 GiB)
    w = size(model="DeepSeek-V3", tokens=8192, concurrency=64, gpu="h200", tp=8).weights
    assert w.pro_rata_bytes_per_gpu == 84_143_822_764
    assert w.bytes_per_gpu == 85_140_101_152
    by_reason = {d.reason: d for d in w.not_pro_rata}
    attention = by_reason["replicated whole on every TP rank (attention)"]
    assert attention.bytes_per_gpu == 808_237_556
    assert attention.tensors == ["self_attn.kv_a_proj_with_mqa", "self_attn.q_a_proj"]
    assert by_reason["replicated whole on every TP rank (router)"].bytes_per_gpu == 186_279_296
    assert by_reason["replicated whole on every TP rank (norm)"].bytes_per_gpu == 1_761_536
    assert sum(d.bytes_per_gpu for d in w.not_pro_rata) == w.bytes_per_gpu - w.pro_rata_bytes_per_gpu
    text = size(model="DeepSeek-V3", tokens=8192, concurrency=64, gpu="h200", tp=8).to_text()
    assert "per GPU 79.29 GiB vs pro rata 626.92 GiB / 8 = 78.37 GiB" in text
    assert "+0.75 GiB replicated whole on every TP rank (attention): self_attn.kv_a_proj_with_mqa" in text


def test_kv_heads_replicated_past_tp_explain_the_share():
    # Llama-3.1-8B, 8 KV heads, TP 16 is refused (32 heads / 16 = 2 ok, 8 KV heads: 16 % 8 == 0 ok) -> each rank
    # keeps 1 of 8 KV heads, i.e. 1/8 of k_proj and v_proj instead of 1/16: k,v 2 x 1,024 x 4,096 x 2 B = 16,777,216
    # B per layer; extra per GPU = 16,777,216 x (1/8 - 1/16) = 1,048,576 B per layer x 32 = 33,554,432 B
    w = size(model="Llama-3.1-8B", tokens=16, gpu="h100", tp=16).weights
    kv = next(d for d in w.not_pro_rata if d.reason.startswith("KV projections replicated"))
    assert kv.bytes_per_gpu == 33_554_432
    assert kv.tensors == ["self_attn.k_proj", "self_attn.v_proj"]


def test_single_gpu_weights_are_pro_rata():
    w = size(model="Llama-3.1-8B", tokens=16).weights
    assert w.bytes_per_gpu == w.pro_rata_bytes_per_gpu == 16_060_522_496 and w.not_pro_rata == []
