"""speculative_decoding: tau(alpha, k), the vLLM conversions, speed-up against batch size and drafter memory.

Every expected figure is derived by hand in the comment above its assert (the worked example of
references/speculative-decoding.md: Llama-3.1-70B BF16 on 2 x H100, Llama-3.2-1B draft, k = 4, alpha = 0.8, c = 0.05).
"""

import json

import pytest
from mcp import Client

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.errors import InputFormatError
from llm_inference_fundamentals.tools.sizing import SpeculativeRequest, speculative_decoding
from llm_inference_fundamentals.tools.sizing.speculative import acceptance_length, alpha_from, vllm_draft_acceptance

GiB = 2**30


def spec(**kw):
    return speculative_decoding(SpeculativeRequest(**kw))


def test_tokens_per_step_and_the_vllm_figures():
    # tau = (1 - 0.8^5) / 0.2 = (1 - 0.32768) / 0.2 = 3.3616; accepted 2.3616 of 4 drafts -> vLLM draft acceptance
    # rate 2.3616 / 4 = 0.5904; per-position 0.8, 0.64, 0.512, 0.4096; target work 5 / 3.3616 = 1.4874 per token
    r = spec(acceptance=0.8, draft_tokens=4)
    assert r.tokens_per_step == pytest.approx(3.3616) == r.vllm_mean_acceptance_length
    assert r.vllm_draft_acceptance_rate == pytest.approx(0.5904)
    assert r.per_position_acceptance == pytest.approx([0.8, 0.64, 0.512, 0.4096])
    assert r.rejected_drafts_per_step == pytest.approx(1.6384) and r.target_positions_per_step == 5
    assert r.target_work_per_token == pytest.approx(5 / 3.3616)
    # memory-bound speed-up S = 3.3616 / (4 x 0.05 + 1) = 2.8013
    assert r.speedup_memory_bound == pytest.approx(3.3616 / 1.2)
    assert r.evidence == "estimate" and "references/speculative-decoding.md#speed-up-model" in r.references


@pytest.mark.parametrize("alpha, k, tau", [(0.5, 5, 1.96875), (0.8, 5, 3.68928), (0.9, 1, 1.9), (0.6, 3, 2.176)])
def test_tau_matches_the_reference_table(alpha, k, tau):
    # sum_{i=0..k} alpha^i by hand: 0.5, k 5: 1 + .5 + .25 + .125 + .0625 + .03125 = 1.96875
    assert acceptance_length(alpha, k) == pytest.approx(tau)


def test_inverse_conversions():
    # the page: tau = 3.0 at k = 4 corresponds to alpha ~ 0.74 ((1 - 0.7413^5) / 0.2587 = 3.000)
    assert alpha_from(3.0, "acceptance-length", 4) == pytest.approx(0.7413, abs=1e-4)
    # vLLM's 59.04% at k = 4 is alpha 0.8 (above)
    assert alpha_from(0.5904, "vllm-draft-acceptance", 4) == pytest.approx(0.8, abs=1e-4)
    # round trip through both conventions
    for a in (0.3, 0.55, 0.9):
        assert alpha_from(vllm_draft_acceptance(a, 6), "vllm-draft-acceptance", 6) == pytest.approx(a, abs=1e-9)
    r = spec(acceptance=3.0, rate_kind="acceptance-length", draft_tokens=4)
    assert r.tokens_per_step == pytest.approx(3.0, abs=1e-9)


def test_impossible_rates_are_refused_with_the_range():
    # k = 4 allows a mean acceptance length from 1 to 5
    with pytest.raises(InputFormatError, match="outside what 4 draft tokens allow"):
        spec(acceptance=5.5, rate_kind="acceptance-length", draft_tokens=4)
    with pytest.raises(InputFormatError, match="alpha is a probability"):
        spec(acceptance=1.5, draft_tokens=4)


def test_speedup_falls_as_verification_turns_compute_bound():
    # Llama-3.1-70B BF16, TP 2 on H100, 1,024 tokens per sequence.
    # Per GPU a step reads weights (141,107,412,992 - embedding 2,101,346,304 - norms 2,637,824) / 2 + norms 2,637,824
    # = 69,504,352,256 B and KV 2 x 80 x 4 x 128 x 2 = 163,840 B/token x 1,024 = 167,772,160 B per sequence.
    # B = 1: (69,504,352,256 + 167,772,160) / 3.35e12 = 20.798 ms; 5 tokens of compute are far below it: V = 1.
    # B = 512: memory (69,504,352,256 + 512 x 167,772,160) / 3.35e12 = 46.389 ms; FLOPs per token 2 x 69,503,033,344
    # (non-embedding active params incl. lm_head) + 80 x 2 x 64 x 256 x 1,024 = 141,690,421,248; verification
    # 512 x 5 tokens x 141,690,421,248 / (2 x 989.4e12) = 183.31 ms -> V = 183.31 / 46.389 = 3.95;
    # S = 3.3616 / (0.2 + 3.95) = 0.81: a slow-down
    r = spec(acceptance=0.8, draft_tokens=4, model="Llama-3.1-70B", gpu="h100", tp=2, tokens=1024,
             concurrency=[1, 512])
    one, big = r.batches
    assert one.plain_step_ms == pytest.approx(20.798, abs=1e-3) and one.verify_cost == pytest.approx(1.0)
    assert one.speedup == pytest.approx(2.8013, abs=1e-4) and one.verify_bound == "memory"
    assert big.plain_step_ms == pytest.approx(46.389, abs=1e-3)
    assert big.verify_step_ms == pytest.approx(512 * 5 * 141_690_421_248 / (2 * 989.4e12) * 1e3, rel=1e-9)
    assert big.verify_cost == pytest.approx(3.95, abs=0.01) and big.speedup == pytest.approx(0.81, abs=0.01)
    assert big.speculative_tokens_per_s_per_sequence < big.plain_tokens_per_s_per_sequence


def test_parallel_drafting_costs_one_pass():
    # one MTP / Medusa pass at c = 0.1: S = 3.3616 / (0.1 + 1) = 3.056 (serial would be 3.3616 / 1.4 = 2.401)
    assert spec(acceptance=0.8, draft_tokens=4, draft_cost=0.1, drafting="parallel").speedup_memory_bound == \
        pytest.approx(3.3616 / 1.1)


def test_draft_model_memory():
    # Llama-3.2-1B at TP 2: 16 layers x 2 (K,V) x 4 KV heads per GPU x 64 x 2 B = 16,384 B/token per GPU (10% of the
    # 70B's 163,840); at 1,024 tokens x 8 sequences = 134,217,728 B. Weights 2,471,628,800 B split: about 1.15 GiB.
    r = spec(acceptance=0.8, draft_tokens=4, model="Llama-3.1-70B", gpu="h100", tp=2, tokens=1024, concurrency=[8],
             draft_model="Llama-3.2-1B")
    m = r.memory
    assert m.kv_bytes_per_token_per_gpu == 16_384 and m.kv_bytes_per_gpu == 134_217_728
    assert 1.1 * GiB < m.weights_bytes_per_gpu < 1.2 * GiB
    assert m.margin_with_drafter_bytes == m.target_margin_bytes - m.added_bytes_per_gpu


def test_mtp_layers_add_one_mla_layer_of_kv():
    # DeepSeek-V3 MTP: one more MLA layer: (512 + 64) x 2 B = 1,152 B/token (71,424 - 70,272 on the reference page)
    r = spec(acceptance=0.8, draft_tokens=1, model="DeepSeek-V3", gpu="h200", tp=8, tokens=8192, concurrency=[16],
             mtp_layers=1, drafting="parallel")
    assert r.memory.kv_bytes_per_token_per_gpu == 1_152 and r.memory.drafter == "1 MTP layer(s)"
    # its weights: a MoE layer (256 experts) at FP8 split 8 ways plus eh_proj: over 1 GiB per GPU
    assert r.memory.weights_bytes_per_gpu > GiB


def test_model_without_gpu_is_refused():
    with pytest.raises(InputFormatError, match="both the target model and gpu"):
        spec(acceptance=0.8, draft_tokens=4, model="Llama-3.1-8B")


@pytest.mark.anyio
async def test_cli_spec_json_is_the_mcp_structured_output(capsys):
    assert main(["spec", "--acceptance", "0.7", "--draft-tokens", "4", "Llama-3.1-8B", "--gpu", "h100",
                 "--concurrency", "1,64", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    # tau(0.7, 4) = 1 + .7 + .49 + .343 + .2401 = 2.7731
    assert cli["tokens_per_step"] == pytest.approx(2.7731)
    async with Client(build_server(), raise_exceptions=True) as client:
        tool = next(t for t in (await client.list_tools()).tools if t.name == "speculative_decoding")
        result = await client.call_tool("speculative_decoding", {"acceptance": 0.7, "draft_tokens": 4,
                                                                 "model": "Llama-3.1-8B", "gpu": "h100",
                                                                 "concurrency": [1, 64]})
    assert result.structured_content == cli and tool.output_schema["type"] == "object"
    assert len(tool.description) <= 1200


def test_reference_page_quotes_what_the_tool_computes():
    from pathlib import Path

    page = (Path(__file__).resolve().parent.parent / "references" / "speculative-decoding.md").read_text()
    r = spec(acceptance=0.8, draft_tokens=4, model="Llama-3.1-70B", gpu="h100", tp=2, tokens=1024,
             concurrency=[64, 128, 512])
    b64, b128, b512 = r.batches
    assert b64.verify_cost == pytest.approx(1.0)
    assert f"V = {b128.verify_cost:.2f} at 128 (S = {b128.speedup:.2f})" in page
    assert f"V = {b512.verify_cost:.2f} at 512 (S = {b512.speedup:.2f})" in page
