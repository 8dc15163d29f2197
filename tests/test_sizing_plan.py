"""plan_deployment and the nearest changes that fit: cases whose answer is derived by hand in the comments.

Llama-3.1-70B, FP8 weights (per-channel scales, 72,683,241,472 B; norms 2,637,824 B kept whole on every rank),
24 sequences x 32,768 tokens = 786,432 resident tokens.
"""

import json

import pytest
from mcp import Client

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.errors import UnknownGPUError
from llm_inference_fundamentals.tools.sizing import (
    PlanRequest,
    SizingRequest,
    plan_deployment,
    size_deployment,
)
from llm_inference_fundamentals.tools.sizing.deployment import memory_fit

GiB = 2**30
WORKLOAD = {"model": "Llama-3.1-70B", "weights": ["fp8"], "tokens": 32768, "concurrency": 24}


def by_kv(plan, gpu):
    return {c.kv: c for c in plan.candidates if c.gpu == gpu}


def test_four_h100_fit_with_fp8_kv_not_with_bf16_kv():
    # H100 budget floor(85,520,809,984 x 0.92) = 78,679,145,185 B. TP 4: weights/GPU (72,683,241,472 - 2,637,824) / 4
    # + 2,637,824 = 18,172,788,736 B; overheads 2,807,300,096 B (activations 785,645,568 + graphs 1 GiB + NCCL
    # 411,041,792 + context 0.5 GiB).
    # BF16 KV: 2 of 8 KV heads per GPU -> 2 x 80 x 2 x 128 x 2 = 81,920 B/token x 786,432 = 64,424,509,440 B;
    #   total 85,404,598,272 > budget: 4 x H100 does not fit, so the plan's BF16-KV H100 candidate needs 8.
    # FP8 KV: 40,960 B/token -> 32,212,254,720 B; total 53,192,343,552; margin 25,486,801,633 B (23.74 GiB): fits.
    plan = plan_deployment(PlanRequest(**WORKLOAD, gpu=["h100"]))
    h100 = by_kv(plan, "nvidia-h100-sxm")
    assert h100["fp8"].gpus == 4 and h100["fp8"].tp == 4 and h100["fp8"].margin_bytes == 25_486_801_633
    assert h100["bf16"].gpus == 8
    four_bf16 = memory_fit(SizingRequest(model="Llama-3.1-70B", weights="fp8", tokens=32768, concurrency=24,
                                         gpu="h100", tp=4))
    assert four_bf16.fits is False and four_bf16.total_bytes == 85_404_598_272


def test_smallest_h200_plan_is_two_gpus_with_fp8_kv():
    # H200 150,754,820,096 B x 0.92 -> budget 138,694,434,488 B.
    # 1 GPU, FP8 KV: weights 72,683,241,472 + KV 786,432 x 163,840 = 128,849,018,880 -> over budget.
    # 2 GPUs (TP 2), FP8 KV: weights 36,342,939,648 + KV 64,424,509,440 + overheads 3,003,645,952 (activations
    # 8,192 x 2 x (32,768 + 14,336) + 1,024 x 64,128 x 4 = 1,034,420,224; graphs 1 GiB; NCCL 358,612,992;
    # context 0.5 GiB) = 103,771,095,040 -> margin 34,923,339,448 B (32.52 GiB).
    plan = plan_deployment(PlanRequest(**WORKLOAD, gpu=["h200"]))
    best = plan.candidates[0]
    assert (best.gpu, best.gpus, best.tp, best.kv, best.weights) == ("nvidia-h200-sxm", 2, 2, "fp8", "fp8-channel")
    assert best.margin_bytes == 34_923_339_448 and best.fits is True
    # BF16 KV on H200: TP 2 holds 128.8 GB of KV per GPU (no); TP 4 holds 64.4 GB (yes)
    assert by_kv(plan, "nvidia-h200-sxm")["bf16"].gpus == 4


def test_candidates_match_size_deployment_and_are_labelled():
    plan = plan_deployment(PlanRequest(**WORKLOAD, gpu=["h100", "h200"]))
    for c in plan.candidates:
        report = size_deployment(SizingRequest(model="Llama-3.1-70B", weights="fp8", kv=c.kv, tokens=32768,
                                               concurrency=24, gpu=c.gpu, gpus=c.gpus, tp=c.tp, pp=c.pp, ep=c.ep))
        assert report.per_gpu.free_bytes == c.margin_bytes and report.per_gpu.fits is True
        assert c.decode_tokens_per_s_per_sequence == report.ceilings.decode.tokens_per_s_per_sequence
        assert c.memory_evidence == "estimate" and c.ceiling_evidence == "ceiling"
    # fewest GPUs first: 2 x H200 before 4 x H100
    assert [c.gpus for c in plan.candidates] == sorted(c.gpus for c in plan.candidates)


def test_cost_ranking_uses_the_given_prices():
    # 2 x H200 at $3.80 = $7.60/hour; 4 x H100 at $2.50 = $10.00; at $1.50 the four H100 cost $6.00 and rank first
    dear = plan_deployment(PlanRequest(**WORKLOAD, kv=["fp8"], gpu=["h100", "h200"],
                                       gpu_cost={"h100": 2.5, "H200 SXM": 3.8}))
    assert dear.rank_by == "cost" and [(c.gpu, c.cost_per_hour) for c in dear.candidates] == [
        ("nvidia-h200-sxm", 7.6), ("nvidia-h100-sxm", 10.0)]
    cheap = plan_deployment(PlanRequest(**WORKLOAD, kv=["fp8"], gpu=["h100", "h200"],
                                        gpu_cost={"h100": 1.5, "h200": 3.8}))
    assert cheap.candidates[0].gpu == "nvidia-h100-sxm" and cheap.candidates[0].cost_per_hour == 6.0
    assert cheap.candidates[0].price_basis == "given"


def test_listed_prices_name_their_source_and_date():
    plan = plan_deployment(PlanRequest(**WORKLOAD, kv=["fp8"], gpu=["h100"], listed_prices=True))
    c = plan.candidates[0]
    # the cheapest listed H100 SXM offer: RunPod Secure Cloud $3.99/GPU-hour read 2026-11-09 -> 4 x 3.99 = 15.96
    assert c.cost_per_hour == pytest.approx(15.96) and "RunPod" in c.price_basis and "2026-11-09" in c.price_basis


def test_decode_target_rules_out_four_h100_but_not_eight():
    # 4 x H100, FP8 KV: a step reads weights (72,683,241,472 - embedding 2,101,346,304 - norms 2,637,824) / 4
    # + norms 2,637,824 = 17,647,452,160 B and KV 32,212,254,720 B per GPU -> 49,859,706,880 / 3.35e12 = 14.88 ms
    # -> at most 67.2 tok/s per sequence: a 70 tok/s floor is ruled out. 8 GPUs halve both reads (KV 1 head per
    # GPU): about 25 GB per step -> about 7.5 ms -> about 133 tok/s: not ruled out.
    plan = plan_deployment(PlanRequest(**WORKLOAD, kv=["fp8"], gpu=["h100"], min_decode_tokens_per_s=70))
    c = plan.candidates[0]
    assert c.gpus == 8 and c.tp == 8 and c.targets[0].possible is True and c.targets[0].ceiling > 120
    four = size_deployment(SizingRequest(model="Llama-3.1-70B", weights="fp8", kv="fp8", tokens=32768, concurrency=24,
                                         gpu="h100", tp=4))
    assert four.per_gpu.fits is True and four.ceilings.decode.tokens_per_s_per_sequence == pytest.approx(67.19, abs=0.01)
    # every fitting 4-GPU layout (and the 8-GPU pipeline layouts, whose stages run one after another) is ruled out
    assert int(plan.searched.split(" fitting layouts ruled out")[0].split(", ")[-1]) >= 1


def test_request_rate_becomes_concurrency_by_littles_law():
    # ceil(2 req/s x (500 output tokens / 25 tok/s + 2 s TTFT)) = ceil(2 x 22) = 44 sequences
    plan = plan_deployment(PlanRequest(model="Llama-3.1-8B", prompt_tokens=1500, output_tokens=500, request_rate=2,
                                       min_decode_tokens_per_s=25, max_ttft_s=2, gpu=["h100"], weights=["bf16"]))
    assert plan.concurrency == 44 and plan.tokens_per_sequence == 2000 and "Little's law" in plan.concurrency_basis


def test_plan_never_upcasts_a_quantized_checkpoint():
    # DeepSeek-V3 ships FP8 (8.0 bits + block scales): bf16 is not a candidate format
    plan = plan_deployment(PlanRequest(model="DeepSeek-V3", tokens=8192, concurrency=8, gpu=["h200"], max_gpus=16))
    assert plan.candidates and all(c.weights != "bf16" for c in plan.candidates)
    assert "bf16" not in plan.searched.split(" x KV")[0]


def test_nothing_fits_says_how_close_it_came():
    # DeepSeek-V3 weights alone are 626.92 GiB; 4 x L4 budgets 4 x 20.69 GiB: no count is worth trying
    plan = plan_deployment(PlanRequest(model="DeepSeek-V3", tokens=8192, concurrency=8, gpu=["l4"], max_gpus=4))
    assert plan.candidates == []
    assert plan.not_fitting[0].startswith("nvidia-l4: nothing fits up to 4 GPUs; the smallest weights + KV tried")
    # Llama-3.1-8B on 1 x L4 at 5 x 8,192 tokens: weights 14.96 GiB + KV 5 x 1 GiB = 19.96 GiB is under the 20.69 GiB
    # budget, so the GPU is evaluated; the overheads (graphs, context, activations) push it over by a stated amount
    near = plan_deployment(PlanRequest(model="Llama-3.1-8B", tokens=8192, concurrency=5, gpu=["l4"], max_gpus=1,
                                       weights=["bf16"], kv=["bf16"]))
    assert near.candidates == [] and "closest 1 x nvidia-l4 (TP 1, PP 1, weights bf16, KV bf16)" in near.not_fitting[0]


def test_plan_rejects_unknown_gpus_and_missing_workload():
    with pytest.raises(UnknownGPUError):
        plan_deployment(PlanRequest(**WORKLOAD, gpu=["h900"]))
    with pytest.raises(ValueError, match="exactly one of concurrency, request_rate"):
        PlanRequest(model="Llama-3.1-8B", tokens=100)
    with pytest.raises(ValueError, match="needs output_tokens and min_decode_tokens_per_s"):
        PlanRequest(model="Llama-3.1-8B", tokens=100, request_rate=3)


# --- DOES NOT FIT names the nearest change ------------------------------------------------------------


def test_does_not_fit_names_the_nearest_changes_that_fit():
    # Llama-3.1-70B BF16, TP 4 on H100, 16 x 32,768 tokens: margin -2,356,659,487 B (tests/test_sizing_sweep.py).
    # kv=fp8 halves KV to 21,474,836,480 B -> margin +19,118,176,993 B.
    # tp=8: weights 17,640,734,720 + KV 21,474,836,480 + overheads 2,682,912,768 (activations 8,192 x 2 x (32,768
    # + 3,584) + 1,024 x 16,032 x 4 = 661,258,240; graphs 1 GiB; NCCL 411,041,792; context 0.5 GiB)
    # = 41,798,483,968 -> margin 36,880,661,217 B.
    r = size_deployment(SizingRequest(model="Llama-3.1-70B", tokens=32768, concurrency=16, gpu="h100", tp=4))
    assert r.per_gpu.fits is False
    found = {n.change: n for n in r.nearest_fits}
    assert found["kv=fp8"].margin_bytes == 19_118_176_993
    assert found["tp=8, gpus=8"].margin_bytes == 36_880_661_217
    assert r.nearest_fits[0].change == "kv=fp8"  # the nearest: a runtime flag, no new hardware
    assert all(n.margin_bytes >= 0 and n.evidence == "estimate" for n in r.nearest_fits)
    assert "nearest changes that fit: kv=fp8 (margin 17.81 GiB)" in r.to_text()


def test_fitting_deployment_has_no_suggestions():
    assert size_deployment(SizingRequest(model="Llama-3.1-8B", tokens=1024, gpu="h100")).nearest_fits == []


# --- interfaces -----------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_cli_plan_json_is_the_mcp_structured_output(capsys):
    args = ["plan", "Llama-3.1-70B", "--tokens", "32768", "--concurrency", "24", "--weights", "fp8", "--gpu",
            "h100,h200", "--gpu-cost", "h100=2.5,h200=3.8", "--json"]
    assert main(args) == 0
    cli = json.loads(capsys.readouterr().out)
    async with Client(build_server(), raise_exceptions=True) as client:
        tool = next(t for t in (await client.list_tools()).tools if t.name == "plan_deployment")
        result = await client.call_tool("plan_deployment", {
            "model": "Llama-3.1-70B", "tokens": 32768, "concurrency": 24, "weights": ["fp8"], "gpu": ["h100", "h200"],
            "gpu_cost": {"h100": 2.5, "h200": 3.8}})
    assert result.structured_content == cli
    assert tool.annotations.read_only_hint is True and tool.output_schema["type"] == "object"
    first = cli["candidates"][0]
    assert {"gpu", "gpus", "tp", "pp", "ep", "weights", "kv", "fits", "margin_bytes", "cost_per_hour"} <= set(first)


def test_cli_plan_text_and_bad_costs(capsys):
    assert main(["plan", "Llama-3.1-70B", "--tokens", "32768", "--concurrency", "24", "--weights", "fp8", "--gpu",
                 "h200"]) == 0
    out = capsys.readouterr().out
    assert "nvidia-h200-sxm" in out and "ceilings at 100% of peak" in out and "lif size Llama-3.1-70B" in out
    assert main(["plan", "Llama-3.1-8B", "--tokens", "10", "--concurrency", "1", "--gpu-cost", "h100"]) == 1
    assert "--gpu-cost: 'h100' is not GPU=USD" in capsys.readouterr().err


@pytest.mark.parametrize("model", ["Llama-3.1-70B", "DeepSeek-V3", "gpt-oss-120b", "Jamba-v0.1", "Gemma-3-27B",
                                   "Qwen3-30B-A3B", "Llama-4-Scout"])
def test_memory_fit_agrees_with_size_deployment(model):
    # the plan's fast path must give the report's own verdict, margin and capacity on every layout it tries
    for gpu, tp, pp, kv in [("h100", 1, 1, "auto"), ("h200", 2, 2, "fp8"), ("b200", 8, 1, "fp8"), ("l40s", 2, 1, "auto")]:
        request = SizingRequest(model=model, tokens=8192, concurrency=32, gpu=gpu, tp=tp, pp=pp, kv=kv)
        try:
            report = size_deployment(request)
        except ValueError:
            continue  # a TP the model does not divide
        fit = memory_fit(request)
        g = report.per_gpu
        assert (fit.fits, fit.margin_bytes, fit.total_bytes, fit.budget_bytes, fit.max_concurrency) == (
            g.fits, g.free_bytes, g.total_bytes, g.budget_bytes, g.max_concurrency)


def test_candidates_carry_the_error_band_and_robust_fits_rank_first():
    # 2 x H200: BF16 weights + FP8 KV fit with 0.66 GiB at the estimate but not at the high end of the overheads;
    # FP8 weights + FP8 KV keep 32.52 GiB (34,923,339,448 B, hand-derived above): at equal size the robust one ranks
    # first although BF16 weights are more precise
    plan = plan_deployment(PlanRequest(model="Llama-3.1-70B", tokens=32768, concurrency=24, gpu=["h200"],
                                       weights=["bf16", "fp8"], kv=["fp8"]))
    first, second = plan.candidates[:2]
    assert (first.weights, first.gpus, first.fit_verdict) == ("fp8-channel", 2, "fits")
    assert (second.weights, second.gpus) == ("bf16", 2) and second.margin_low_bytes < 0 < second.margin_bytes
    assert second.fit_verdict == "fits at the estimate, not at the high end of the overheads"
