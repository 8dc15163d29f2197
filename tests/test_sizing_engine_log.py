"""Engine start-up logs as input: real vLLM and SGLang excerpts (tests/data/engine_logs, each with its source URL
and deployment in fixtures.json), capacity without a model, and the prediction reconciled with the log."""

import json
from pathlib import Path

import pytest
from mcp import Client

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.errors import InputFormatError
from llm_inference_fundamentals.tools.sizing import SizingQuery, SizingRequest, size_deployment, size_query
from llm_inference_fundamentals.tools.sizing.engine_capacity import EngineLogReport
from llm_inference_fundamentals.tools.sizing.engine_log import MAX_LOG_CHARS, parse_engine_log

GiB = 2**30
LOGS = Path(__file__).resolve().parent / "data" / "engine_logs"
FIXTURES = json.loads((LOGS / "fixtures.json").read_text())["fixtures"]
FIELDS = {"weights_gib": "weights_bytes", "total_gpu_gib": "total_gpu_bytes", "non_torch_gib": "non_torch_bytes",
          "kv_cache_gib": "kv_cache_bytes", "activation_peak_gib": "activation_peak_bytes",
          "cuda_graph_gib": "cuda_graph_bytes", "budget_gib": "budget_bytes"}


def log(name):
    return (LOGS / name).read_text()


def test_fixtures_are_real_and_cover_both_engines_and_many_versions():
    assert len(FIXTURES) >= 10
    assert {f["engine"] for f in FIXTURES.values()} == {"vllm", "sglang"}
    assert len({f["version"] for f in FIXTURES.values()}) >= 10
    for name, f in FIXTURES.items():
        assert (LOGS / name).is_file() and f["source"].startswith("https://github.com/"), name
        assert f["config"] and f["expected"], name


@pytest.mark.parametrize("name", sorted(FIXTURES))
def test_every_real_log_parses_to_the_figures_read_by_hand(name):
    expected = FIXTURES[name]["expected"]
    facts = parse_engine_log(log(name))
    assert facts.engine == FIXTURES[name]["engine"] and facts.evidence == "measurement"
    for key, value in expected.items():
        if key in FIELDS:
            # the log prints GiB with two (or four) decimals: the parsed bytes are that figure x 2^30
            assert getattr(facts, FIELDS[key]) == round(value * GiB), (name, key)
        else:
            assert getattr(facts, key) == value, (name, key)
    for item in facts.items:
        assert 1 <= item.line <= len(log(name).splitlines())


def test_logged_items_add_up_to_the_budget_hand_checked():
    # vLLM 0.8 on a 23.58 GiB RTX 3090 at 0.99: 21.21 + 0.20 + 0.37 + 1.57 = 23.35 GiB, the budget it prints
    facts = parse_engine_log(log("vllm-0.8.3-moe-wna16-rtx3090.log"))
    parts = facts.weights_bytes + facts.non_torch_bytes + facts.activation_peak_bytes + facts.kv_cache_bytes
    assert facts.budget_bytes == round(23.35 * GiB) and abs(parts - facts.budget_bytes) <= 2  # bytes of rounding
    # Llama-3.2-11B-Vision: 19.86 + 0.16 + 36.63 + 14.65 = 71.30 against 71.29 printed (rounding of four figures)
    v = parse_engine_log(log("vllm-0.7.0-llama32-11b-vision-h100.log"))
    assert abs(v.weights_bytes + v.non_torch_bytes + v.activation_peak_bytes + v.kv_cache_bytes - v.budget_bytes) \
        <= 0.02 * GiB


def test_kv_bytes_per_token_from_real_logs_match_the_formula():
    # Qwen3-14B: 2 (K,V) x 40 layers x 8 KV heads x 128 x 2 B = 163,840 B/token; 42,656 tokens x 163,840 =
    # 6,988,759,040 B = 6.509 GiB, printed 6.51; 42,656 / 32,768 = 1.302, printed 1.30x
    q = parse_engine_log(log("vllm-0.10-v1-qwen3-14b.log"))
    assert abs(q.kv_cache_bytes / q.kv_pool_tokens - 163_840) <= 0.005 * GiB / q.kv_pool_tokens
    assert round(q.kv_pool_tokens / q.max_model_len, 2) == q.max_concurrency_logged
    # Llama-3.1-8B, 131,072 B/token: 1,952 blocks x 16 = 31,232 tokens x 131,072 = 4,093,640,704 B = 3.8125 GiB,
    # printed 3.81
    llama = parse_engine_log(log("vllm-0.6.4-llama31-8b-rtx3090-20k.log"))
    assert llama.kv_pool_tokens * 131_072 == 4_093_640_704 and abs(4_093_640_704 - llama.kv_cache_bytes) <= 0.005 * GiB


# --- no model: the pool answers capacity questions --------------------------------------------------------------


def test_sequences_at_t_tokens_from_the_pool_alone():
    # 1,381 blocks of 16 tokens; a 512-token sequence takes ceil(512 / 16) = 32 blocks -> floor(1,381 / 32) = 43;
    # at 2,048 tokens 128 blocks -> 10 whole sequences (the log's 10.79x is the same pool at max_model_len)
    r = size_query(SizingQuery(engine_log=log("vllm-0.7.1-v1-llama31-70b-w8a8.log"), tokens=512))
    assert isinstance(r, EngineLogReport) and (r.kv_pool_tokens, r.max_concurrency) == (22_096, 43)
    assert r.evidence == "estimate" and r.log.evidence == "measurement"
    sweep = size_query(SizingQuery(engine_log=log("vllm-0.7.1-v1-llama31-70b-w8a8.log"), tokens=[512, 2048]))
    assert [x.max_concurrency for x in sweep.reports] == [43, 10]


def test_the_issue_question_four_and_a_half_x_is_not_four_users():
    # "Maximum concurrency for 131,072 tokens per request: 4.5x": pool = 4.5 x 131,072 = 589,824 tokens; sequences of
    # 4,096 resident tokens take 256 blocks of 16 -> 36,864 blocks / 256 = 144 sequences, not 4
    r = size_query(SizingQuery(engine_log="Maximum concurrency for 131,072 tokens per request: 4.50x", tokens=4096))
    assert r.kv_pool_tokens == 589_824 and r.max_concurrency == 144
    assert "not a cap on users" in r.to_text()


def test_hybrid_model_logs_use_the_group_aware_concurrency_line():
    # Kimi-Linear (MLA + linear attention): 75,840 tokens but 2.48x at 120,000 (75,840 / 120,000 = 0.63x): the
    # figures disagree, so the answer scales the concurrency line: floor(2.48 x 120,000 / 4,096) = floor(72.66) = 72
    r = size_query(SizingQuery(engine_log=log("vllm-0.11-v1-kimi-linear-tp2.log"), tokens=4096))
    assert r.max_concurrency == 72 and "disagree" in r.caveats[0]
    # vLLM 0.24 logs tokens = concurrency x max_model_len (567,978 / 131,072 = 4.33): consistent, no such caveat
    ok = size_query(SizingQuery(engine_log=log("vllm-0.24.0-qwen36-35b-a3b-nvfp4-rtx5090.log"), tokens=131072))
    assert ok.max_concurrency == 4 and not any("disagree" in c for c in ok.caveats)


def test_sglang_pool_uses_one_token_pages():
    # max_total_num_tokens 2,086,558 at context_len 256,000: floor(2,086,558 / 256,000) = 8 (pages of 1 token)
    r = size_query(SizingQuery(engine_log=log("sglang-2026-max-total-num-tokens.log")))
    assert r.tokens == 256_000 and r.max_concurrency == 8 and r.log.block_size == 1


def test_without_a_model_only_tokens_can_vary():
    with pytest.raises(InputFormatError, match="only tokens can be a list"):
        size_query(SizingQuery(engine_log=log("vllm-0.7.3-v1-token-count.log"), tokens=100, kv=["bf16", "fp8"]))


# --- with a model: reconcile item by item -----------------------------------------------------------------------


def by_item(report):
    return {i.item: i for i in report.engine_log.items}


def test_reconcile_llama_3_1_8b_on_rtx3090():
    # the prediction takes the log's GPU memory (23.58 GiB) and utilization (0.90)
    r = size_query(SizingQuery(engine_log=log("vllm-0.6.4-llama31-8b-rtx3090-20k.log"), model="Llama-3.1-8B",
                               tokens=20000))
    assert r.per_gpu.memory_bytes == round(23.58 * GiB) and r.per_gpu.memory_utilization == 0.90
    assert len(r.engine_log.inputs_from_log) == 2
    items = by_item(r)
    # weights: predicted 16,060,522,496 B; logged 14.9888 GiB = 16,094,... B; the difference is the rotary cos/sin
    # cache vLLM keeps beside the weights: 131,072 positions x 128 dims x 2 B = 33,554,432 B (0.03125 GiB), within the
    # log's 4-decimal rounding (+/- 0.00005 GiB = 53,687 B)
    w = items["weights_per_gpu"]
    assert w.predicted == 16_060_522_496 and abs(w.difference - 33_554_432) < 53_687
    # logged KV per token: 3.81 GiB / 31,232 tokens = 130,986 B against 131,072 B (the GiB figure is rounded)
    assert items["kv_bytes_per_token_per_gpu"].predicted == 131_072
    assert abs(items["kv_bytes_per_token_per_gpu"].logged - 131_072) < 0.005 * GiB / 31_232
    assert "kv_pool_tokens" in items and "non_torch" in items and "kv_cache_memory" in items
    text = r.to_text()
    assert "engine log (vllm) vs prediction" in text and "[logged: measurement; predicted: estimate]" in text


def test_reconcile_sglang_qwen3_235b_kv_per_token():
    # Qwen3-235B-A22B, TP 4: 4 KV heads -> 1 per GPU; 94 layers x 2 (K,V) x 1 x 128 x 2 B = 48,128 B per token per GPU.
    # SGLang: (8.23 + 8.23) GiB / 367,404 tokens = 48,101 B (each GiB figure rounded: +/- 0.01 GiB over the pool =
    # +/- 29 B per token)
    r = size_query(SizingQuery(engine_log=log("sglang-0.4.9-qwen3-235b-fp8-tp4.log"), model="Qwen3-235B-A22B",
                               weights="fp8-block", tokens=4096, gpu="h100", tp=4))
    kv = by_item(r)["kv_bytes_per_token_per_gpu"]
    assert kv.predicted == 48_128 and abs(kv.logged - 48_128) <= 29 and abs(kv.relative) < 0.001


def test_reconcile_shows_the_gap_on_an_early_v1_log():
    # W8A8 Llama-3.1-70B at 0.98 on an 80 GB card: logged pool 22,096 tokens (1,381 blocks); the prediction's weights
    # differ by 0.03 GiB (67.7229 vs 67.69) and its overheads leave more KV room than the engine found
    r = size_query(SizingQuery(engine_log=log("vllm-0.7.1-v1-llama31-70b-w8a8.log"), model="Llama-3.1-70B",
                               weights="int8", tokens=2048, gpu="h100", memory_utilization=0.98))
    items = by_item(r)
    assert items["kv_pool_tokens"].logged == 22_096 and items["kv_pool_tokens"].predicted % 16 == 0
    assert items["max_concurrency_at_max_model_len"].logged == 10.79
    assert r.engine_log.inputs_from_log == []  # the log states neither total memory nor utilization


def test_reconcile_is_the_plain_report_plus_the_comparison():
    plain = size_deployment(SizingRequest(model="Llama-3.1-8B", tokens=8192,
                                          gpu="h100", gpu_memory_bytes=round(79.22 * GiB), memory_utilization=0.9))
    both = size_query(SizingQuery(engine_log=log("vllm-0.6.5-llama3-8b-h100.log"), model="Llama-3.1-8B",
                                  tokens=8192, gpu="h100"))
    assert both.model_dump(exclude={"engine_log"}) == plain.model_dump(exclude={"engine_log"})
    assert {i.item for i in both.engine_log.items} >= {"weights_per_gpu", "non_torch", "activation_peak",
                                                       "runtime_overheads", "kv_cache_memory"}


# --- bad input and interfaces ------------------------------------------------------------------------------------


def test_unrecognised_and_oversized_logs_are_refused():
    with pytest.raises(InputFormatError, match="engine_log: no vLLM or SGLang start-up line recognised"):
        parse_engine_log("hello\nworld")
    with pytest.raises(InputFormatError, match="over the"):
        parse_engine_log("x" * (MAX_LOG_CHARS + 1))
    with pytest.raises(InputFormatError, match="not both"):
        size_query(SizingQuery(engine_log="GPU KV cache size: 10 tokens", engine_log_path="x.log", tokens=1))


@pytest.mark.anyio
async def test_cli_engine_log_json_is_the_mcp_structured_output(capsys):
    path = LOGS / "vllm-0.10-v1-qwen3-14b.log"
    assert main(["size", "--engine-log", str(path), "--tokens", "4096", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    # 42,656 tokens = 2,666 blocks; 4,096 tokens take 256 -> floor(2,666 / 256) = 10 sequences
    assert cli["kv_pool_tokens"] == 42_656 and cli["max_concurrency"] == 10
    async with Client(build_server(), raise_exceptions=True) as client:
        result = await client.call_tool("size_deployment", {"engine_log": path.read_text(), "tokens": 4096})
    assert result.structured_content == cli
