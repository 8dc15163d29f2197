"""Verdicts a reviewer can trust: claims read from tables, negation, measured maxima, sides compared,
reason codes and questions on unclear rules, setups, and why strings that name what was judged."""

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark
from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.claims import metric_of, stat_of, table_claims
from llm_inference_fundamentals.tools.audit.reading.tables import read_tables


def audit(text: str):
    return audit_benchmark(AuditRequest(text=text))


def rule(report, key):
    return next(r for r in report.rules if r.id == key)


def item(report, key):
    return next(f for f in report.items if f.id == key)


# ---------------------------------------------------------------- tables as data


def test_a_table_cell_takes_its_metric_from_the_glossary_above():
    # lmdeploy's benchmark pages define column abbreviations in a list right above the table
    text = ("- `FTL`: **F**irst **T**oken **L**atency\n- `RPS`: requests per second\n\n"
            "| model | RPS | FTL(ave)(s) | FTL(max)(s) |\n|---|---|---|---|\n| llama2-7b | 14.556 | 0.526 | 4.652 |\n")
    claims = table_claims(read_tables(parse_writeup(text).blocks)[0])
    got = {(c.metric, c.unit, c.stat, c.value) for c in claims}
    assert ("ttft", "s", "mean", 0.526) in got and ("ttft", "s", "max", 4.652) in got
    assert ("request_rate", None, None, 14.556) in got


def test_a_table_cell_takes_its_metric_from_the_heading_when_its_labels_name_none():
    text = "## Median TTFT (ms)\n\n| setup | value |\n|---|---|\n| A | 31.98 |\n"
    claims = table_claims(read_tables(parse_writeup(text).blocks)[0])
    assert [(c.metric, c.unit, c.value) for c in claims] == [("ttft", "ms", 31.98)]


def test_setting_columns_are_not_figures():
    text = "| batch | prompt_tokens | output_tokens | throughput(out tok/s) |\n|---|---|---|---|\n| 16 | 128 | 2048 | 1010.62 |\n"
    claims = table_claims(read_tables(parse_writeup(text).blocks)[0])
    assert [(c.metric, c.value) for c in claims] == [("throughput", 1010.62)]


def test_a_time_under_a_rate_like_label_is_a_latency():
    text = "| framework | 1 batch prefill 100 token | 1 batch decode |\n|---|---|---|\n| vllm | 42.4ms | 9.6ms |\n"
    metrics = {c.metric for c in table_claims(read_tables(parse_writeup(text).blocks)[0])}
    assert metrics == {"prefill_latency", "decode_latency"}


def test_statistics_are_read_in_several_spellings():
    assert [stat_of(s) for s in ("P99 TTFT", "50%(s)", "平均 TTFT", "Median ITL", "TTFT")] == ["p99", "median", "mean", "median", None]


def test_latency_given_only_as_one_value_per_setup_is_a_partial_distribution():
    text = ("We measured on 1x H100 with vLLM 0.8.5.\n\n| concurrency | TTFT (ms) | TPOT (ms) |\n|---|---|---|\n"
            "| 1 | 40 | 9.1 |\n| 8 | 55 | 10.2 |\n")
    assert item(audit(text), "latency_distributions").status == "partial"


def test_percentiles_for_one_metric_and_a_single_value_for_another_is_partial():
    text = ("| server | TTFT p50 (ms) | TTFT p99 (ms) | TPOT (ms) |\n|---|---|---|---|\n| A | 19 | 31 | 7.4 |\n")
    finding = item(audit(text), "latency_distributions")
    assert finding.status == "partial" and "tpot" in finding.why


# ---------------------------------------------------------------- claims, not keywords


def test_a_measured_maximum_is_not_a_peak_claim():
    text = ("On 8x H100 with vLLM 0.8.5 serving meta-llama/Llama-3.1-70B-Instruct we measured up to 2,200 output tok/s "
            "at concurrency 64.\n")
    assert rule(audit(text), "evidence_class").status == "ok"


def test_the_maximum_achievable_serving_throughput_is_a_measured_maximum():
    # real/batch3/e_omniserve_readme.md l.160 (SOURCES.md: mit-han-lab/omniserve README.md @5e3ee14): the serving
    # benchmark's highest measured throughput, compared across engines, is a measurement, not a theoretical ceiling
    text = ("Benchmarking setting: the criterion is maximum achievable throughput (tokens/second), input 1024 tokens, "
            "output 512 tokens.\n\n| A100 (80G) | Llama-3-8B |\n|---|---|\n| TRT-LLM-W8A8 | 2503 |\n| QServe-W4A8KV4 | 3005 |\n"
            "| Throughput Increase | 1.20x |\n\n"
            "As a result, QServe improves the maximum achievable serving throughput of Llama-3-8B by 1.2x on A100 "
            "compared to TensorRT-LLM. Remarkably, QServe on L40S can achieve even higher throughput than TensorRT-LLM on A100.\n")
    assert rule(audit(text), "evidence_class").status != "violation"
    # a bound of the hardware is still theory: derived and presented as delivered, it is a violation
    bound = ("# 8B decodes at 209 tok/s\n\nThe maximum achievable bandwidth of an H100 SXM is 3.35 TB/s and the weights "
             "are 16 GB, so it decodes at 209 tokens/s. This is the speed our service delivers.\n")
    assert rule(audit(bound), "evidence_class").status == "violation"


def test_a_peak_the_authors_observed_is_a_measurement_not_a_ceiling():
    # real/batch4/f_gptfast_readme.md l.192 (SOURCES.md: pytorch-labs/gpt-fast README.md @c9f683e): a hedged
    # note on the bandwidth seen on the authors' own GPU is not a datasheet peak presented as delivered
    text = ("| Model | Tokens/Second | Memory Bandwidth (GB/s) |\n|---|---|---|\n| Llama-2-7B | 104.9 | 1397.31 |\n\n"
            "Our runs achieve 104.9 tokens/s at batch size 1.\n\n"
            "Note: Running on an A100 80GB, albeit power-limited to 330 watts. Empirically, seems like peak bandwidth "
            "is about 1700 GB/s.\n")
    assert rule(audit(text), "evidence_class").status != "violation"
    # the same table beside a datasheet peak presented as what the reader gets stays a violation
    sheet = text.replace("Empirically, seems like peak bandwidth is about 1700 GB/s.",
                         "With peak bandwidth of 2039 GB/s this delivers 127 tokens/s.")
    assert rule(audit(sheet), "evidence_class").status == "violation"


def test_a_negated_peak_is_not_a_claim():
    text = ("On 1x H100 with vLLM 0.8.5 we measured 1,900 tok/s output throughput. This should not be considered the "
            "theoretical peak of the GPU.\n")
    assert rule(audit(text), "evidence_class").status == "ok"


def test_a_figure_the_text_calls_theoretical_is_labelled():
    text = ("We measured a peak transfer bandwidth of 142 GB/s with vLLM 0.8.5 on 8x H800. Given the theoretical maximum "
            "of 200 GB/s, the transfer is not the bottleneck.\n")
    assert rule(audit(text), "evidence_class").status == "ok"


def test_a_bound_the_text_names_the_maximum_possible_is_labelled_not_presented_as_measured():
    # IST-DASLab/marlin README.md @2f6d7c1 l.41-43: the 3.87x is named as the optimum of 4-bit weights, and the
    # measured kernel is said to reach it: a labelled bound beside a measurement, no datasheet figure sold as delivered
    text = ("While existing kernels achieve relatively close to the optimal 3.87x (note the 0.125 bits storage overhead of the\n"
            "group scales) speedup at batchsize 1, their performance degrades quickly as the number of inputs is increased. In\n"
            "contrast, Marlin delivers essentially ideal speedups at all batchsizes, enabling the maximum possible 3.87x speedup up\n"
            "to batchsizes around 16-32.\n")
    assert rule(audit(text), "evidence_class").status != "violation"


def test_a_derivation_from_datasheet_bandwidth_presented_as_delivered_is_a_violation():
    text = ("# Llama 3.1 8B decodes at 209 tok/s on H100\n\nAn H100 SXM has 3.35 TB/s and the BF16 weights are 16 GB, so\n\n"
            "    3,350 GB/s / 16 GB = 209 tokens/s\n\nThis is the speed our service delivers to every customer.\n")
    finding = rule(audit(text), "evidence_class")
    assert finding.status == "violation" and "line" in finding.why


def test_a_comparison_against_a_theoretical_link_maximum_is_not_a_stack_comparison():
    text = "We measured 142 GB/s of KV transfer on 8x H800, compared to the theoretical maximum of 200 GB/s of the link.\n"
    assert rule(audit(text), "stack_comparison").status == "not_applicable"


def test_differences_named_elsewhere_in_the_document_are_not_charged_to_the_compared_sides():
    # news items name FP8, MXFP4 and FlashMLA; the claim compares TurboMind with vLLM and says nothing else
    text = ("# Engine X\n\n## News\n\n- Engine X supports MXFP4 and FP8 weights.\n- FlashMLA kernels added.\n\n"
            "## Results\n\nEngine X 0.6 serves internlm2-20b at 16 RPS, about 1.8x faster than vLLM 0.6.\n")
    assert rule(audit(text), "stack_comparison").status in ("unclear", "ok")


def test_a_comparison_whose_sides_differ_in_a_second_element_is_a_violation_that_names_them():
    text = ("LMDeploy 0.6.4 runs with INT8 KV cache, while vLLM 0.6.6 uses its BF16 KV cache, both on 2x A100 80GB "
            "serving Qwen/Qwen2.5-72B-Instruct-AWQ.\n\nLMDeploy is 56% faster than vLLM for AWQ models.\n")
    finding = rule(audit(text), "stack_comparison")
    assert finding.status == "violation"
    assert "KV precision" in finding.why and "lmdeploy" in finding.why and "vllm" in finding.why


# ---------------------------------------------------------------- reason codes and questions


def test_unclear_rules_carry_a_reason_and_a_question_with_the_lines_to_read():
    text = "# Results\n\nOn 1x H100 with vLLM 0.8.5 the TTFT was 80 ms and TPOT 9 ms.\n"
    report = audit(text)
    unclear = [r for r in report.rules if r.status == "unclear"]
    assert unclear
    for r in unclear:
        assert r.reason in ("not_stated", "ambiguous")
        assert r.question and "line" in r.question
    assert {r.reason for r in report.rules if r.status != "unclear"} == {None}


# A short output length is a steady_decode violation only when the decode-rate claim is made from it (LABELLING.md),
# not when it was set for another measurement. Self-written passages; the "together" case is the self-written
# short_output_decode.md (tests/data/audit), whose 16-token outputs are the runs behind its TPOT.


def test_tables_of_short_runs_with_no_claim_built_on_them_are_unclear_not_a_violation():
    # real/batch12/y_mooncake_vllm_a10_v02.md l.6-8 (SOURCES.md, cut): every TPOT comes from 6-token outputs, but only in
    # tables (adjudicated unclear: LABELLING.md, a violation only when a headline or stated claim rests on the short rows)
    text = ("# Benchmark performance on NVIDIA A10\n\n## Varying tp (input length = 1024, qps = 2, output length =6)\n"
            "| Setting | Mean TTFT (ms) | Mean TPOT (ms) |\n|---|---|---|\n| tp = 1 | 1056.76 | 97.08 |\n| tp = 2 | 314.87 | 25.65 |\n")
    finding = rule(audit(text), "steady_decode")
    assert (finding.status, finding.reason) == ("unclear", "ambiguous") and "6-token" in finding.why
    # a sentence that builds a claim on the same short runs is the violation
    claimed = text + "\nWith tp = 2 decoding is 3.8x faster: TPOT drops from 97.08 ms to 25.65 ms.\n"
    assert rule(audit(claimed), "steady_decode").status == "violation"


def test_a_one_token_cap_for_ttft_does_not_make_the_decode_rate_a_violation():
    text = ("# Llama 3 8B on one H100\n\nWe serve Llama 3 8B with vLLM 0.6.0 on one H100 80GB.\n\n"
            "For TTFT we send 100 requests with `max_tokens` set to 1, so each request stops after its first token; "
            "median TTFT is 45 ms.\n\nDecode speed for a single user is 120 tokens/s.\n")
    finding = rule(audit(text), "steady_decode")
    assert finding.status == "unclear" and finding.reason == "not_stated"
    assert "line 5" in finding.why and finding.question


def test_a_short_length_set_in_a_prefill_sentence_is_not_the_decode_runs_length():
    text = ("# Llama 3 8B on one H100\n\nPrefill latency is measured with 2,000-token prompts and max_tokens=8.\n\n"
            "| metric | value |\n|---|---|\n| TTFT (ms) | 140 |\n| decode (tok/s, one user) | 120 |\n")
    assert rule(audit(text), "steady_decode").status == "unclear"


def test_short_outputs_stated_for_the_decode_runs_stay_a_violation():
    text = ("Each of the 50 requests used a 200-token prompt and generated 16 tokens (`max_new_tokens=16`,\n"
            "greedy). Requests were sent one by one.\n\n"
            "Result: TPOT averaged 6.1 ms/token, i.e. about 164 tokens/s of sustained decode per user.\n")
    assert rule(audit(text), "steady_decode").status == "violation"


def test_borderline_output_lengths_are_ambiguous_not_unstated():
    text = "On 1x H100 with vLLM 0.8.5, TPOT p50 was 9 ms with 48-token outputs (ignore_eos).\n"
    finding = rule(audit(text), "steady_decode")
    assert finding.status == "unclear" and finding.reason == "ambiguous"


# ---------------------------------------------------------------- setups


def test_two_setups_are_listed_and_are_not_an_inconsistency():
    text = ("# Results\n\n### Llama 3.1 8B Instruct 1 x A100 80G\n\n| rate | TTFT (ms) |\n|---|---|\n| 4 | 31 |\n\n"
            "### Llama 3.1 70B Instruct 4 x A100 80G\n\n| rate | TTFT (ms) |\n|---|---|\n| 4 | 54 |\n")
    report = audit(text)
    assert [s.label for s in report.setups] == ["Llama 3.1 8B Instruct on 1 x A100 80G", "Llama 3.1 70B Instruct on 4 x A100 80G"]
    assert report.inconsistencies == []
    assert item(report, "hardware").status == "declared"


def test_two_counts_for_the_same_setup_are_an_inconsistency():
    text = "We ran Llama 3.1 70B on 4x A100.\n\nAll results below come from 8 A100 GPUs.\n"
    assert audit(text).inconsistencies


# ---------------------------------------------------------------- why strings


def test_violation_why_strings_name_the_figure_and_the_line():
    text = "TPOT averaged 6.1 ms/token over 50 requests that generated 16 tokens each on an RTX 4090.\n"
    finding = rule(audit(text), "steady_decode")
    assert finding.status == "violation" and "16-token" in finding.why and "line 1" in finding.why


# ---------------------------------------------------------------- comparisons traced to rows
# Shaped on real/batch1/b_dynamo_embedding_cache.md (SOURCES.md: ai-dynamo/dynamo docs/benchmarks/embedding_cache.md
# @39a3fef, l.18-22 configuration table, l.38-41 "Δ vs vllm-serve", l.61 "The embedding cache cuts median TTFT by -87.4%").

_CONFIGS = ("# Prefix-aware routing results\n\nWe ran `Qwen/Qwen2.5-7B-Instruct` on 1x H100 80GB, 500 prompts of 2,000 tokens, "
            "256 output tokens, concurrency 32.\n\n"
            "| Config | Router | Prefix cache |\n|---|---|---|\n| `base` | round-robin | off |\n"
            "| `pa` | prefix-aware | off |\n| `pa-pc` | prefix-aware | on |\n\n"
            "## Results\n\n**Δ vs `base`:**\n\n| Config | TTFT p50 | Throughput |\n|---|---|---|\n"
            "| `pa` | −20.5% | +4.1% |\n| `pa-pc` | −61.3% | +18.2% |\n\n")


def test_a_figure_credited_to_one_setting_is_traced_to_rows_that_differ_in_two():
    # the -61.3% is pa-pc against base: router and prefix cache both changed
    report = audit(_CONFIGS + "The prefix cache cuts median TTFT by −61.3%.\n")
    found = rule(report, "stack_comparison")
    assert found.status == "violation"
    assert "-61.3%" in found.why.replace("−", "-") and "pa-pc" in found.why and "Router" in found.why
    assert {e.line for e in found.evidence} == {20, 7, 9}  # the sentence and the two configuration rows


def test_a_figure_credited_to_the_configuration_itself_is_no_mix_up():
    report = audit(_CONFIGS + "`pa-pc` cuts median TTFT by −61.3% against `base`.\n")
    assert rule(report, "stack_comparison").status != "violation"
    report = audit(_CONFIGS + "Routing and the prefix cache together cut median TTFT by −61.3%.\n")
    assert rule(report, "stack_comparison").status != "violation"


def test_two_values_joined_by_vs_are_traced_to_their_rows():
    text = ("Setup: `meta-llama/Llama-3.1-8B-Instruct`, 1x H100, vLLM 0.8.5, 256 prompts of 256 tokens, 128 output tokens.\n\n"
            "| Config | Chunked prefill | CUDA graph | TTFT (ms) |\n|---|---|---|---|\n| a | off | on | 888.29 |\n"
            "| b | off | off | 830.13 |\n| c | on | off | 778.84 |\n\n"
            "Chunked prefill gives 778ms vs 888ms TTFT.\n")
    found = rule(audit(text), "stack_comparison")
    assert found.status == "violation" and "CUDA graph" in found.why
    # the single-setting pair (c against b) is fine
    ok = rule(audit(text.replace("778ms vs 888ms", "778ms vs 830ms")), "stack_comparison")
    assert ok.status != "violation"


def test_chinese_and_japanese_comparisons_are_comparisons():
    # ja: real/batch1/a_deepspeed_fastgen_ja.md l.30 (SOURCES.md: microsoft/DeepSpeed blogs/deepspeed-fastgen/japanese @38327e0);
    # zh: 相比 as in real/batch2/c_fastdeploy_plas_zh.md l.9 (PaddlePaddle/FastDeploy docs/zh/features/plas_attention.md).
    zh = ("# 测试\n\n在 1 张 A100 80GB 上运行 `Qwen/Qwen2.5-7B-Instruct`，vLLM 0.6.3，输入 1,000 tokens，输出 256 tokens。"
          "这次实验只改了一个参数：`--enable-chunked-prefill`，其余配置完全相同。\n\n"
          "开启后 p99 TPOT 从 131 ms 降到 63 ms。\n")
    assert rule(audit(zh), "stack_comparison").status == "ok"
    ja = "DeepSpeed-FastGenはvLLMと比較して最大2.3倍の実効スループットを実現します。\n"
    found = rule(audit(ja), "stack_comparison")
    assert found.status == "unclear" and "deepspeed" in found.why and "vllm" in found.why


# ---------------------------------------------------------------- throughput basis from the table's labels


def test_a_table_rate_takes_its_tokens_from_the_row_label():
    # real/batch1/a_mlx_examples_pr1069.md l.7-12 (SOURCES.md: ml-explore/mlx-examples PR #1069): the rows say which
    # tokens each rate counts (prompt vs generation), the columns only the setting compared
    text = ("On an M2 Ultra the #s for Llama 3.1 70B in 16-bit precision look like:\n\n"
            " | | not wired | wired\n---  | --- | ---\nprompt (16 toks)  | 2.35 toks/sec |  27.8 toks/sec\n"
            "generation (100 toks) | 0.23 toks/sec | 4.7 toks/sec\n")
    found = rule(audit(text), "throughput_basis")
    assert "which tokens" not in found.why
    # without the row labels the tokens are open
    bare = text.replace("prompt (16 toks)", "run A").replace("generation (100 toks)", "run B")
    assert "which tokens" in rule(audit(bare), "throughput_basis").why


def test_chinese_row_labels_name_input_output_and_request_throughput():
    # real/batch1/b_lmdeploy_kvquant_zh.md l.58-64 (SOURCES.md: InternLM/lmdeploy docs/zh_cn/quantization/kv_quant.md):
    # 输入吞吐 / 输出吞吐 / 请求吞吐 are input, output and request throughput of the run; a request rate (RPS) in prose
    # counts the run's requests
    text = ("4. 推理高效，在 llama2-7b 上加入 int8/int4 kv 量化，RPS 相较于 fp16 分别提升近 30% 和 40%\n\n"
            "在 H200 上使用 Qwen3-30B-A3B-Base 模型、ShareGPT 数据集进行测试：\n\n"
            "| 指标 | Baseline (quant_policy=0) | TurboQuant (quant_policy=42) | 变化 |\n|---|---|---|---|\n"
            "| 输入吞吐 | 2368.8 tok/s | 2195.8 tok/s | -7.3% |\n| 输出吞吐 | 2186.7 tok/s | 2027.0 tok/s | -7.3% |\n"
            "| 请求吞吐 | 10.74 req/s | 9.96 req/s | -7.3% |\n")
    assert rule(audit(text), "throughput_basis").status == "ok"


# ---------------------------------------------------------------- single-stream decode rates are per-token figures


def test_a_per_request_decode_rate_needs_its_timing_defined():
    # real/batch1/a_llmd_doks_pd_results.md l.33-35 (SOURCES.md: llm-d/llm-d guides/pd-disaggregation/
    # PD_DISAGGREGATION_TEST_RESULTS.md): LABELLING.md, a single-stream decode rate is a decode-rate figure and
    # tpot_definition applies; nothing says how it was timed
    text = ("#### Decode Performance\n- **Tokens per Second**: ~45 tokens/s per request\n"
            "- **Concurrent Decoding**: Up to 8 parallel sequences\n")
    found = rule(audit(text), "tpot_definition")
    assert found.status == "unclear" and found.reason == "not_stated" and "45 tokens/s per request" in found.why
    # a decode speed with no batch stated is not a per-token latency
    assert rule(audit(text.replace(" per request", "")), "tpot_definition").status == "not_applicable"


def test_a_decode_rate_printed_by_a_single_sequence_tool_is_defined_by_it():
    # real/batch1/a_mlx_examples_pr1069.md l.9-17 (SOURCES.md: ml-explore/mlx-examples PR #1069): the generation
    # toks/sec come from mlx_lm.generate, one sequence, whose own timing fixes the definition
    text = ("On an M2 Ultra the #s for Llama 3.1 70B in 16-bit precision look like:\n\n"
            " | | not wired | wired\n---  | --- | ---\nprompt (16 toks)  | 2.35 toks/sec |  27.8 toks/sec\n"
            "generation (100 toks) | 0.23 toks/sec | 4.7 toks/sec\n\nCommand ran:\n\n```bash\npython -m mlx_lm.generate "
            "--model meta-llama/Meta-Llama-3-70B-Instruct --prompt \"Write a story about Einstein\" --max-tokens 100\n```\n")
    assert rule(audit(text), "tpot_definition").status == "ok"


# ---------------------------------------------------------------- measurements restated as general properties


def test_a_measurement_restated_as_state_of_the_art_is_ambiguous_evidence():
    # real/batch3/e_tinychat_readme.md l.79-84, 215 (SOURCES.md: mit-han-lab/llm-awq tinychat/README.md @b6ef42c):
    # LABELLING.md, a measurement restated as a general property is unclear (ambiguous), never a violation
    table = ("We benchmarked the per-token generation latency on an RTX 4090.\n\n| Model | FP16 latency (ms) | INT4 latency (ms) |\n"
             "|---|---|---|\n| LLaMA-3-8B | 17.07 | 6.39 |\n\n")
    found = rule(audit(table + "Our approach outperforms all existing projects, achieving state-of-the-art speed.\n"), "evidence_class")
    assert found.status == "unclear" and found.reason == "ambiguous" and "line 7" in found.why
    assert rule(audit(table), "evidence_class").status == "ok"
    # a negated generalisation is not a claim
    assert rule(audit(table + "This does not mean it outperforms all other projects.\n"), "evidence_class").status == "ok"


def test_advice_for_any_model_size_generalises_the_measured_rows():
    # real/batch2/d_prodstack_v100.md l.207 (SOURCES.md: vllm-project/production-stack tutorials/25-v100-legacy-gpu-deployment.md)
    text = ("| Model | GPUs | Output tok/s |\n|---|---|---|\n| Qwen2.5-7B | 2x V100 | 310 |\n\n"
            "For interactive serving, regardless of model size, plan for roughly 8-16 concurrent requests per deployment.\n")
    assert rule(audit(text), "evidence_class").status == "unclear"


# ---------------------------------------------------------------- capacity kept apart from the workload


def test_a_kv_capacity_stated_beside_the_measured_load_is_kept_apart():
    # real/batch1/a_llmd_kvcache_wins.md l.296-299 (SOURCES.md: llm-d/llm-d.github.io blog/2025-09-24_kvcache-wins-you-can-see)
    text = ("* **Model**: `Qwen/Qwen-32B`.\n* **Hardware**: A cluster of **8** vLLM pods, each running on **2 NVIDIA H100 "
            "GPUs** (16 total).\n  * Each instance holds a 307,328-tokens KV-cache.\n\n"
            "With 150 concurrent users the P90 TTFT was 0.54 s.\n")
    found = rule(audit(text), "capacity_vs_workload")
    assert found.status == "ok" and "307,328" in found.why


def test_a_capacity_figure_read_as_served_load_is_still_a_violation():
    text = ("The KV cache holds 307,328 tokens, so the server can serve 150 concurrent users at full 2k context.\n"
            "We measured P90 TTFT of 0.54 s with vLLM 0.8.5 on 2x H100.\n")
    assert rule(audit(text), "capacity_vs_workload").status == "violation"


def test_a_per_node_output_token_thr_column_is_aggregate_throughput_not_a_decode_rate():
    # real/batch1/b_lmdeploy_dsv3_zh.md l.9-13 (SOURCES.md: InternLM/lmdeploy docs/zh_cn/benchmark/deepseekv3.md): "thr"
    # shortens throughput; LABELLING.md, aggregate whole-run throughput alone is not a decode-rate figure
    text = ("2 节点, TP16\n\n| max bsz | prompt no | input-len | output-len | per node input token thr (tok/s) | "
            "per node output token thr (tok/s) |\n|---|---|---|---|---|---|\n| 1024 | 10000 | 2048 | 1024 | 1744.75 | 871.78 |\n")
    assert rule(audit(text), "steady_decode").status == "not_applicable"


# ---------------------------------------------------------------- before/after one change


def test_a_gain_measured_after_enabling_one_feature_on_one_deployment_is_single_variable():
    # real/batch2/d_kserve_tesla_blog.md l.43 (SOURCES.md: kserve/website blog/2026-04-21-production-grade-llm-inference-...)
    text = ("On one deployment, we observed a 3x improvement in output tokens/s and a 2x reduction in time to first token "
            "(TTFT) after enabling prefix-cache aware routing. These numbers were measured when serving Llama 3.1 70B model "
            "on 4 MI300X AMD GPUs with the configuration: `tensor-parallel-size=4`.\n")
    found = rule(audit(text), "stack_comparison")
    assert found.status == "ok" and "line 1" in found.why


def test_a_pull_request_measured_against_main_is_one_change():
    # real/batch2/d_giex_pr2666.md l.17 (SOURCES.md: kubernetes-sigs/gateway-api-inference-extension PR #2666)
    text = ("By adding url as a prefix, the throughput/TTFT seem to improve like of the order of 40%. These numbers are "
            "comparing the changes in this PR with EPP on main. The same_url_multi_text.py takes like 14.41 seconds on main "
            "and it takes 9.06 seconds on this PR.\n")
    assert rule(audit(text), "stack_comparison").status == "ok"
    # two engines compared are no PR against main
    other = "vLLM 0.8.5 is 40% faster than SGLang 0.4.1 on one H100 (TTFT 120 ms vs 168 ms).\n"
    assert rule(audit(other), "stack_comparison").status != "ok"


def test_every_framework_set_up_alike_is_a_single_variable_engine_comparison():
    # real/batch2/c_nanoflow_readme.md l.11, 49 (SOURCES.md: efeslab/Nanoflow README.md)
    text = ("NanoFlow achieves up to 1.91x throughput boost compared to TensorRT-LLM.\n\n"
            "We evaluate on A100 80GB SXM and choose vLLM v0.5.3, Deepspeed-FastGen v0.2.3, and TensorRT-LLM v0.8.0 as "
            "baselines. Note that all frameworks turn off specific optimizations like quantization, speculative decoding, "
            "prefix cache, etc.\n")
    assert rule(audit(text), "stack_comparison").status == "ok"
    assert rule(audit(text.split("\n\n")[0] + "\n"), "stack_comparison").status != "ok"


def test_a_bare_latency_column_under_a_decoding_speed_heading_is_a_per_token_decode_latency():
    # real/batch3/e_tinychat_readme.md l.75-84 (SOURCES.md: mit-han-lab/llm-awq tinychat/README.md @b6ef42c): the
    # table takes its metric from the heading above it (issue 10 item 3)
    text = ("### Decoding Speed\n\nWe benchmarked the per-token generation latency for the decoding stage in the following "
            "tables.\n\n#### RTX 4090 Results\n\n| Model | FP16 latency (ms) | INT4 latency (ms) | Speedup |\n|---|---|---|---|\n"
            "| LLaMA-3-8B | 17.07 | 6.39 | 2.69x |\n")
    claims = table_claims(read_tables(parse_writeup(text).blocks)[0])
    assert [(c.metric, c.value) for c in claims if c.unit == "ms"] == [("decode_latency", 17.07), ("decode_latency", 6.39)]
    assert rule(audit(text), "steady_decode").status == "unclear"  # a decode figure with no output length
    # under a neutral heading the same column stays a plain latency
    plain = text.replace("### Decoding Speed", "### Results").replace("per-token generation latency for the decoding stage",
                                                                       "latency")
    assert {c.metric for c in table_claims(read_tables(parse_writeup(plain).blocks)[0]) if c.unit == "ms"} == {"e2e"}


# ---------------------------------------------------------------- a format comparison whose baseline ran elsewhere


def test_a_format_gain_whose_baseline_ran_on_another_engine_is_a_violation():
    # real/batch3/e_tinychat_readme.md l.37, 72 (SOURCES.md: mit-han-lab/llm-awq tinychat/README.md @b6ef42c)
    text = ("The following examples showcase that TinyChat's W4A16 generation is up to 2.7x faster on RTX 4090, compared "
            "to the FP16 baselines.\n\n## Benchmarks\n\nWe benchmark TinyChat on NVIDIA RTX 4090.\n\nWe use the default "
            "implementation from Huggingface for the FP16 baseline. The INT4 implementation applies AWQ and utilizes our "
            "fast W4A16 GPU kernel.\n")
    found = rule(audit(text), "stack_comparison")
    assert found.status == "violation"
    assert "FP16" in found.why and "Huggingface" in found.why and "line 1" in found.why and "line 7" in found.why


def test_a_baseline_engine_and_our_kernel_in_one_sentence_is_a_violation():
    # real/batch3/e_bitnet_gpu_kernel.md l.93 (SOURCES.md: microsoft/BitNet gpu/README.md)
    text = ("Compared to a similarly-sized BF16 model (Gemma-2-2B using vLLM), BitNet-b1.58-2B with our kernel achieves "
            "consistent speedups across workloads:\n\n| Input Length | Output Length | BF16 Latency (ms) | W2A8 Latency (ms) |"
            "\n|---|---|---|---|\n| 64 | 16 | 187.64 | 57.40 |\n")
    assert rule(audit(text), "stack_comparison").status == "violation"


def test_our_kernel_inside_the_same_engine_is_no_engine_difference():
    text = ("Compared to the BF16 model served using vLLM, the same model with our W4A16 kernel in vLLM achieves a 2.1x "
            "speedup at batch 1 on one H100.\n")
    assert rule(audit(text), "stack_comparison").status != "violation"
    # a gain credited to the whole system, not one element, is not this mix-up
    text = ("We use the default implementation from Huggingface for the FP16 baseline. The INT4 implementation uses our "
            "own engine.\n\nOur engine is 2.7x faster than the FP16 baseline.\n")
    assert rule(audit(text), "stack_comparison").status != "violation"


# ---------------------------------------------------------------- a trend credited to one setting


_TP_ROWS = ("The following throughput numbers are from real runs on our V100 SXM2 16GB nodes.\n\n"
            "| Model | TP | Approx. throughput | Notes |\n| --- | --- | --- | --- |\n"
            "| `Qwen2.5-0.5B-Instruct` | 1 | ~435 tok/s/GPU | Single V100, fits easily. |\n"
            "| `Qwen2.5-7B-Instruct` | 2 | ~155 tok/s/GPU | NVLink pair. |\n"
            "| `Qwen2.5-14B-Instruct` | 4 | ~56 tok/s/GPU | Full NVLink mesh. |\n\n"
            "Per-GPU throughput drops as the tensor-parallel degree grows because all-reduce communication overhead "
            "increases with the size of the TP group.\n")


def test_a_trend_credited_to_tp_while_the_model_changes_on_every_row_is_a_violation():
    # real/batch2/d_prodstack_v100.md l.199-205 (SOURCES.md: vllm-project/production-stack
    # tutorials/25-v100-legacy-gpu-deployment.md); LABELLING.md after batch 2: a gain attributed to TP while the
    # model also changed is a violation
    found = rule(audit(_TP_ROWS), "stack_comparison")
    assert found.status == "violation" and "tensor parallelism" in found.why and "Qwen2.5-7B-Instruct" in found.why
    assert {e.line for e in found.evidence} == {9, 3}  # the sentence and the header of the table


def test_a_tp_sweep_within_each_model_is_single_variable():
    sweep = _TP_ROWS.replace("| `Qwen2.5-7B-Instruct` | 2 |", "| `Qwen2.5-0.5B-Instruct` | 2 |").replace(
        "| `Qwen2.5-14B-Instruct` | 4 |", "| `Qwen2.5-0.5B-Instruct` | 4 |")
    assert rule(audit(sweep), "stack_comparison").status != "violation"


def test_prefix_cache_listed_among_optimizations_turned_off_labels_the_cache_state():
    # real/batch2/c_nanoflow_readme.md l.49 (SOURCES.md: efeslab/Nanoflow README.md); LABELLING.md: a stated
    # cache-off state makes cache_hit_labeling ok
    text = ("We evaluate multi-turn traces (ShareGPT) on A100 80GB SXM with vLLM v0.5.3 as the baseline, reaching 1,200 "
            "output tokens/s. Note that all frameworks turn off specific optimizations like quantization, speculative "
            "decoding, prefix cache, etc.\n")
    assert rule(audit(text), "cache_hit_labeling").status == "ok"
    assert rule(audit(text.replace("turn off", "keep")), "cache_hit_labeling").status != "ok"


# ---------------------------------------------------------------- the script or bench binary that measured


def test_a_named_script_that_produced_the_times_fixes_the_observation_point():
    # real/batch2/d_giex_pr2666.md l.17 (SOURCES.md: kubernetes-sigs/gateway-api-inference-extension PR #2666):
    # LABELLING.md, a client-side load script that sends the requests is an observation point
    text = ("By adding url as a prefix, the throughput/TTFT seem to improve like of the order of 40%. The "
            "same_url_multi_text.py takes like 14.41 seconds on main and it takes 9.06 seconds on this PR.\n")
    assert rule(audit(text), "observation_point").status == "ok"
    assert rule(audit(text.replace("The same_url_multi_text.py takes", "It takes")), "observation_point").status == "unclear"


def test_an_in_process_bench_binary_named_for_the_runs_fixes_the_observation_point():
    # real/batch3/e_mnn_riscv_k3_zh.md l.15, 42, 52 (SOURCES.md: alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md):
    # LABELLING.md, offline in-process figures are ok when the tool is named
    text = ("| 模型 | prefill | decode |\n|---|---|---|\n| Qwen3-0.6B | 381.24 tok/s | 54.49 tok/s |\n\n"
            "- 测试统一使用 8 线程\n- MNN 使用 `llm_bench`\n")
    assert rule(audit(text), "observation_point").status == "ok"


def test_a_requested_output_length_stated_in_words_backs_steady_decode():
    # real/batch2/c_colossal_legacy_inference.md l.119-123 (SOURCES.md: hpcaitech/ColossalAI legacy inference README);
    # LABELLING.md: a requested output length of 64 or more counts as the stated output for steady_decode
    text = ("Experiments were conducted using multiple batch sizes under the consistent model configuration of `7 billion(7b)` "
            "parameters, `1024` input length, and 128 output length.\n\n| batch size | 8 | 16 |\n|---|---|---|\n"
            "| token latency (ms) | 38.2 | 41.5 |\n")
    found = rule(audit(text), "steady_decode")
    assert found.status == "ok" and "128" in found.why
    short = rule(audit(text.replace("128 output length", "48 output length")), "steady_decode")
    assert short.status == "unclear"


def test_token_rates_of_one_stream_at_a_time_count_that_streams_tokens():
    # real/batch4/f_gptfast_readme.md l.88 (SOURCES.md: pytorch-labs/gpt-fast README.md @c9f683e); LABELLING.md
    # after batch 4: at concurrency 1 a tokens/s figure is the stream's generated tokens (TPS = 1000 / TPOT)
    text = ("## Benchmarks\nBenchmarks run on an 8xA100-80GB. Note that all benchmarks are run at *batch size=1*, making "
            "the reported tokens/s numbers equivalent to \"tokens/s/user\".\n\n| Model | Technique | Tokens/Second |\n"
            "|---|---|---|\n| Llama-2-7B | Base | 104.9 |\n| Llama-2-7B | int8 | 155.58 |\n")
    assert rule(audit(text), "throughput_basis").status == "ok"
    # a list of concurrencies is not one stream: the same table then leaves the tokens counted open
    sweep = text.replace("all benchmarks are run at *batch size=1*, making the reported tokens/s numbers equivalent "
                         "to \"tokens/s/user\"", "runs are at concurrency 1, 8 and 32")
    assert rule(audit(sweep), "throughput_basis").status == "unclear"



# ---------------------------------------------------------------- tutorial prose is not a claim about the runs
# Passages cut from real/batch6/i_zerollama_multiuser_zh.md (SOURCES.md batch6: noooop/zerollama
# tutorial/advance/0x03/README.md @804a12a0532a20db94814da2dea72d18aefec076); line numbers are the stored file's.

# l.214-215: a further-reading link whose cited title is "DistServe: ... for Goodput-optimized ... Serving"
_DISTSERVE = ("- 搞复杂一点，将预填充和解码安排在不同的显卡上，再也不用为平衡预填充和解码的延迟设计一个批次大小，"
              "甚至可以单独控制预填充和解码占的显卡数量。\n"
              "  - 更多细节参考 [DistServe: Disaggregating Prefill and Decoding for Goodput-optimized Large Language Model "
              "Serving](https://arxiv.org/abs/2401.09670)\n")


def test_a_cited_title_that_names_goodput_reports_no_goodput():
    # LABELLING.md goodput_slo applies "when goodput or SLO attainment is reported": a paper title reports nothing
    assert rule(audit(_DISTSERVE), "goodput_slo").status == "not_applicable"


def test_goodput_reported_beside_a_cited_title_still_needs_its_slo():
    # the same link, plus a goodput figure with no thresholds (LABELLING.md goodput_slo: violation)
    text = _DISTSERVE + "\nWe measured a goodput of 3.2 req/s on one RTX 4090.\n"
    assert rule(audit(text), "goodput_slo").status == "violation"


# l.13: the GPU's datasheet bandwidth and compute and its FLOP:byte ratio, as background for the roofline argument
_SPEC = "- 以 NVIDIA GeForce RTX 4090 为例，1008 GB/s 显存带宽和 83 TFLOPS，Flop:byte = 82:1，算力非常充足。\n"


def test_a_gpus_flop_to_byte_ratio_is_not_a_result_derived_from_its_peak():
    # LABELLING.md evidence_class: ok when ceilings are labelled; the figures are given as the card's own spec
    # ("以 ... 4090 为例"), and "Flop:byte = 82:1" describes the hardware, it derives no delivered performance
    assert rule(audit(_SPEC), "evidence_class").status == "ok"


def test_first_come_first_serve_is_not_a_claim_of_delivered_performance():
    # l.13 with l.68-71: a cited paper's scheduler compared with "first-come-first-serve (FCFS)"; the "serve"
    # in the policy's name says nothing about what the GPU delivers, so the spec figures above stay a spec
    # (LABELLING.md: when in doubt between violation and unclear, choose unclear; nothing here is a violation)
    text = (_SPEC + "\n7. 预测请求输出长度\n- 如果能预测请求输出长度，系统就能玩出更多花样\n"
            "- [Efficient Interactive LLM Serving with Proxy Model-based Sequence Length Prediction]"
            "(https://arxiv.org/abs/2404.08509) 介绍了一种通过预测请求输出长度，speculative shortest-job-first (SSJF) "
            "投机短作业有限调度的方法\n对比 先到先服务 first-come-first-serve (FCFS)，提升2.2–3.6×吞吐量\n")
    assert rule(audit(text), "evidence_class").status != "violation"


def test_a_peak_figure_is_only_presented_as_delivered_by_a_claim_made_beside_it():
    # The derivation of tests/data/audit/theoretical_peak.md (bandwidth / weight bytes), then sections about
    # other things; the claim word ('reaches') is about a CI pass rate four blocks away, not about the peak.
    # Found on real/batch6/i_zerollama_multiuser_zh.md (noooop/zerollama @804a12a), where 'serve' in a
    # scheduling policy 58 lines from a spec-sheet figure turned it into a violation.
    derivation = (
        "# Llama 3.1 8B decode speed\n\n"
        "Decode is memory-bound: an H100 SXM has 3.35 TB/s of HBM3 bandwidth and the model weighs 16 GB, so\n\n"
        "    3,350 GB/s / 16 GB = 209 tokens/s\n\n"
    )
    apart = derivation + "## Scheduling\n\nRequests are queued in arrival order.\n\n## CI\n\nThe nightly job reaches a 99% pass rate.\n"
    beside = derivation + "This is the speed you get for a single user, and what our service delivers to every customer.\n"
    assert rule(audit(apart), "evidence_class").status == "unclear"
    finding = rule(audit(beside), "evidence_class")
    assert finding.status == "violation"
    assert "3.35 TB/s" in finding.why and "(line 3)" in finding.why


# ---------------------------------------------------------------- other providers as the compared side
# "Other providers" make a stack_comparison violation only as the comparison's other side (their results measured or
# compared, or named beside the comparison), not in a remark elsewhere. Apart: a self-written passage; together: the
# self-written blind4_arena_speed.md (tests/data/audit), whose board times each model on its default API provider.


def test_other_providers_named_in_an_unrelated_remark_do_not_make_a_comparison_violation():
    text = ("# Llama 3.1 8B on our endpoint\n\nOur endpoint is 1.5x faster than vLLM on the same H100 80GB with "
            "Llama 3.1 8B (FP8) and 64 concurrent requests.\n\n## Pricing\n\nUnlike other providers, we charge per "
            "output token only.\n")
    finding = rule(audit(text), "stack_comparison")
    assert finding.status == "unclear" and finding.reason == "ambiguous"
    assert "line 7" in finding.why and finding.question


def test_other_providers_whose_results_are_compared_stay_a_comparison_violation():
    text = ("# Arena Speed Board, week 47\n\nAlongside Elo we now show how fast each model feels. **Speed** is the median "
            "output tokens per second we\nobserved while streaming battle responses from each model's default API provider, "
            "timed at our US-East\nclient from the first streamed token to the last.\n\n"
            "| rank | model | speed (tok/s) | provider |\n|---|---|---|---|\n| 1 | gemini-2.5-pro | 148 | Google |\n"
            "| 5 | llama-4-maverick | 412 | Groq |\n\n"
            "Llama 4 Maverick on Groq is the fastest model on the board by a wide margin.\n")
    assert rule(audit(text), "stack_comparison").status == "violation"


# ---------------------------------------------------------------- the new side's own changes
# A product credited with a gain over a named engine also changes quantization or kernels only when the write-up says
# its own system brings them (beside the claim, of our system, or in a section explaining its speed), not when a
# quantized model is mentioned apart. Apart: a self-written passage; together: the self-written marketing_post.md
# (tests/data/audit), whose 'Why it's fast' list names fused kernels and quantization.


def test_quantization_mentioned_apart_from_the_new_side_is_not_its_change():
    text = ("# Llama 3.1 8B on our server\n\nOur server is 1.5x faster than vLLM on one H100 80GB with Llama 3.1 8B, "
            "64 concurrent requests of 1,000/500 tokens.\n\n## About the model\n\nLlama 3.1 8B was trained by Meta; "
            "community quantized versions exist on the Hub.\n")
    finding = rule(audit(text), "stack_comparison")
    assert finding.status == "unclear" and finding.reason == "ambiguous"
    assert "line 7" in finding.why and finding.question


def test_kernels_and_quantization_in_the_new_systems_feature_list_stay_a_violation():
    text = ("# Introducing TurboServe: 3x faster than vLLM, up to 12,000 tokens/s\n\n"
            "We are thrilled to announce TurboServe, the fastest inference engine for open models.\n"
            "On the latest NVIDIA hardware, TurboServe serves Llama 70B at up to 12,000 tokens per second,\n"
            "three times the throughput of vLLM.\n\n## Why it's fast\n\n- Hand-tuned fused kernels\n- Smart batching\n"
            "- Cutting-edge quantization\n")
    finding = rule(audit(text), "stack_comparison")
    assert finding.status == "violation" and "quantization" in finding.why


# ---------------------------------------------------------------- a projected headline
# The headline's figure is a projection presented as delivered only when the projection is the write-up's own results
# (a table of its configurations, beside the headline, or our figures), not others' simulated results cited apart.
# Apart: a self-written passage; together: the self-written blind4_press_release.md (tests/data/audit), whose
# configuration table gives the headline's method as 'Projected from single-chip kernel timings'.


def test_simulated_results_of_others_cited_apart_do_not_make_the_headline_projected():
    text = ("# Llama 3.1 70B at 2,400 tokens/s on 8x H100\n\nWe measured Llama 3.1 70B (FP8) with vLLM 0.6.3 on 8x H100 "
            "80GB SXM, 64 concurrent requests of 1,000 input and 500 output tokens, sent with vLLM's benchmark_serving.py. "
            "Output throughput was 2,400 tokens/s.\n\n## Related work\n\nEarlier studies reported results simulated with "
            "an analytical model of the A100, which this post does not use.\n")
    finding = rule(audit(text), "evidence_class")
    assert finding.status == "unclear" and finding.reason == "ambiguous"
    assert "line 7" in finding.why and finding.question


def test_a_headline_whose_configuration_table_says_projected_stays_a_violation():
    text = ("# Cerulean AI Cloud launches Llama 3.1 405B endpoint at 1,000 tokens per second per user\n\n"
            "Cerulean AI today announced general availability of its Llama 3.1 405B Instruct endpoint.\n\n---\n\n"
            "**Test configurations**\n\n| | Footnote 1 |\n|---|---|\n| Hardware | 8x Cerulean C2 accelerator |\n"
            "| Method | Projected from single-chip kernel timings scaled to 8 chips |\n")
    assert rule(audit(text), "evidence_class").status == "violation"


# ---------------------------------------------------------------- why strings name the claim judged


def test_each_text_violation_quotes_the_claim_and_the_fact_with_their_lines():
    # one write-up per violation path that used to give a fixed sentence; the figures below are the ones a reader
    # must see named in the reason
    cases = {
        "capacity_vs_workload": ("# Llama 3.1 8B on one L4\n\nvLLM reports GPU KV cache size: 120,000 tokens, so the server "
                                 "can serve 60 concurrent users at 2k context.\n", ["120,000", "60 concurrent users", "line 3"]),
        "goodput_slo": ("# Disaggregated serving: 2.3x goodput\n\nWe measured goodput on 8x H100 with DeepSeek-R1.\n",
                        ["goodput", "line 1"]),
        "tpot_definition": ("# Decode latency\n\nTPOT = end-to-end latency / output tokens. Median TPOT was 14 ms with vllm 0.6.3 on "
                            "one H100.\n", ["TPOT = end-to-end latency / output tokens", "line 3"]),
        "steady_decode": ("# Decode speed\n\nWe sent 200 requests with max_tokens 8 and measured a median TPOT of 9 ms.\n",
                          ["TPOT of 9 ms", "8 tokens", "line 3"]),
    }
    for key, (text, named) in cases.items():
        finding = rule(audit(text), key)
        assert finding.status == "violation", (key, finding.status, finding.why)
        for words in named:
            assert words in finding.why, (key, words, finding.why)
