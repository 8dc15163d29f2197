"""When a metric rule applies and what it weighs, pinned with passages cut from real write-ups
(tests/data/audit/real/SOURCES.md names each repository, path and commit); the verdicts are the ones
tests/data/audit/LABELLING.md gives."""

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark


def rule(text: str, key: str):
    return next(r for r in audit_benchmark(AuditRequest(text=text)).rules if r.id == key)


# ---------------------------------------------------------------- evidence_class: speed-ups are figures


def test_a_speed_up_with_no_measured_setup_is_a_measurement_restated_as_a_general_property():
    # real/batch5/g_deepspeed_mii_readme.md l.36 (SOURCES.md: microsoft/DeepSpeed-MII README.md @d100a85)
    mii = ("MII now delivers up to 2.5 times higher effective throughput compared to leading systems such as vLLM. "
           "For detailed performance results please see our latest DeepSpeed-FastGen blog.\n")
    # real/batch5/g_ipexllm_readme_zh.md l.45 (SOURCES.md: intel/ipex-llm README.zh-CN.md @086a8b3)
    ipex = "- [2024/02] `ipex-llm` 现在支持 Self-Speculative Decoding，这使得在 Intel GPU 和 CPU 上为 FP16 和 BF16 推理带来 **~30% 加速** 。\n"
    for text in (mii, ipex):
        found = rule(text, "evidence_class")
        assert found.status == "unclear" and found.reason == "ambiguous"  # LABELLING.md after batch 1


def test_a_speed_up_the_authors_measured_on_named_hardware_is_a_measurement():
    # real/batch1/a_deepspeed_fp6_zh.md l.65 (SOURCES.md: microsoft/DeepSpeed blogs/deepspeed-fp6/03-05-2024/README-Chinese.md @38327e0)
    text = ("平均而言，我们的FP6 kernel在NVIDIA A100 GPU上进行矩阵乘法时，处理速度比FP16 cuBLAS基准提高了2.1倍。"
            "这一显著成就使得其在batch小于32的LLM推理任务中，性能比FP16基准高出1.69到2.65倍。\n")
    assert rule(text, "evidence_class").status == "ok"


def test_a_ratio_of_memory_is_not_a_performance_figure():
    # real/batch1/b_lmdeploy_kvquant_zh.md l.5 (SOURCES.md: InternLM/lmdeploy docs/zh_cn/quantization/kv_quant.md @1263d5c)
    text = "与 fp16 相比，int4/int8 kv 的 kv block 分别可以增加到 4 倍和 2 倍。\n"
    assert rule(text, "evidence_class").status == "not_applicable"


# ---------------------------------------------------------------- tpot_definition: one stream for the whole write-up


def test_decode_rates_of_a_write_up_measured_only_at_batch_size_1_are_single_stream():
    # real/batch3/e_hf_awq_ko.md l.115-121 (SOURCES.md: huggingface/transformers docs/source/ko/quantization/awq.md @2f42d43)
    text = ("TheBloke/Mistral-7B-OpenOrca-AWQ 모델은 퓨즈된 모듈이 있는 경우와 없는 경우 모두 `batch_size=1` 로 성능 평가되었습니다.\n\n"
            "|   배치 크기  |   프리필 길이 |   디코드 길이 |   프리필 토큰/초 |   디코드 토큰/초  |\n|---|---|---|---|---|\n"
            "|            1 |               32 |              32 |            60.0984 |           38.4537 |\n")
    # LABELLING.md (batch 1): a single-stream decode rate is a decode-rate figure, so tpot_definition applies;
    # nothing here says how it is timed
    found = rule(text, "tpot_definition")
    assert found.status == "unclear" and found.reason == "not_stated"
    # real/batch1/a_mlc_llm_perf_bench.md l.28-30 (SOURCES.md: mlc-ai/llm-perf-bench README.md @d401356), l.471 '--batch-size 1'
    mlc = ("| Model | GPU | MLC LLM (tok/sec) | Exllama V2 (tok/sec) |\n|---|---|---|---|\n| Llama2-7B | RTX 4090 | 195.1 | 175.2 |\n\n"
           "```\npython benchmark_latency.py --batch-size 1 --input-len 7 --output-len 256\n```\n")
    assert rule(mlc, "tpot_definition").status == "unclear"


def test_a_speed_up_of_generation_speed_alone_is_no_per_token_figure():
    # tests/data/audit/blind3_medusa_speedups.md (self-written): batch size 1, but only ratios of tokens per second
    text = ("- MT-Bench, greedy decoding, batch size 1\n\nSpeed-up is the ratio of generation speed (tokens per second) with Medusa "
            "to the baseline.\n\n| category | speed-up |\n|---|---|\n| coding | 2.6x |\n")
    assert rule(text, "tpot_definition").status == "not_applicable"


# ---------------------------------------------------------------- throughput_basis: single-sequence bench tools


def test_token_rates_of_a_single_sequence_bench_tool_have_an_evident_basis():
    # real/batch3/e_mnn_riscv_k3_zh.md l.13-15, l.35-36 (SOURCES.md: alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md @01a9ee8)
    mnn = ("| 模型 | pp512 | tg128 |\n|---|---|---|\n| Qwen3-0.6B | **381.24 tok/s** | **54.49 tok/s** |\n\n"
           "- pp512：一次处理 512 个输入 token\n- tg128：实际连续生成 128 个 token\n")
    # real/batch4/f_litgpt_quantize.md l.14-19 (SOURCES.md: Lightning-AI/litgpt tutorials/quantize.md @e567dbe)
    litgpt = ("```bash\nlitgpt generate tiiuae/falcon-7b \\\n  --precision 32-true \\\n  --max_new_tokens 256\n...\n"
              "Time for inference 1: 6.93 sec total, 36.96 tokens/sec.\n```\n")
    # LABELLING.md (batch 4): decode tok/s from a named single-sequence bench tool counts as single-stream, so the
    # rate counts the tokens of one sequence (per-phase for pp/tg)
    for text in (mnn, litgpt):
        assert rule(text, "throughput_basis").status == "ok"


def test_a_figure_in_a_nested_list_item_takes_its_basis_from_the_parent_item():
    # real/batch2/d_ktransformers_dsv3_zh.md l.42-47 (SOURCES.md: kvcache-ai/ktransformers doc/zh/DeepseekR1_V3_tutorial_zh.md @95009ea)
    text = ("- **本地 671B DeepSeek-Coder-V3/R1:** 仅使用 14GB 显存和 382GB 内存运行其 Q4_K_M 版本。\n"
            "  - 预填充(Prefill)速度 (tokens/s):\n"
            "    - KTransformers: 54.21 (32 核心) → 74.362 (双插槽，2×32 核心)\n"
            "    - 与 llama.cpp 在 2×32 核心下 10.31 tokens/s 相比，速度提升高达 **27.79 倍**\n"
            "  - 解码(Decode)速度 (tokens/s):\n"
            "    - KTransformers: 8.73 (32 核心) → 11.26 (双插槽， 2×32 核心)\n"
            "    - 与 llama.cpp 在 2×32 核心下 4.51 tokens/s 相比，速度提升高达 **3.03 倍**\n")
    # prefill and decode tokens are named by the parent items; only the scope is left to judge
    assert "which tokens" not in rule(text, "throughput_basis").why


def test_a_chinese_sentence_wrapped_after_a_comma_is_one_sentence():
    # real/batch3/e_mnn_riscv_k3_zh.md l.310-311 (SOURCES.md: alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md @01a9ee8):
    # the second line's figure is the decode rate the first line names
    text = ("测试统一使用 8 线程，decode 使用 tg128。\n\n"
            "针对大矩阵将 decode worker 从 6 增加到 8 的实验结果为 21.95～21.99 tok/s，\n低于 6-worker control 的 22.30～22.37 tok/s。\n")
    assert rule(text, "throughput_basis").status == "ok"


def test_a_speed_up_claimed_beside_how_to_steps_is_still_a_throughput_claim():
    # real/batch3/e_tinychat_readme.md l.80-84, 321, 433, 485 (SOURCES.md: mit-han-lab/llm-awq tinychat/README.md @b6ef42c):
    # a news item inside the Usage section of a write-up that also reports measured latencies
    text = ("| Model | FP16 latency (ms) | INT4 latency (ms) |\n|---|---|---|\n| LLaMA-3-8B | 17.07 | 6.39 |\n\n## Usage\n\n### Support Visual Language Models (VILA-1.5, VILA, LLaVA, NVILA)\n\n"
            "5. TinyChat support NVILA now! We adopt W8A8 SmoothQuant for VisionTower and W4A16 quantization for LLM, achieving "
            "1.3x -3.3x speedup for prefiling satge and nearly 1.5x higher throughput. You can use the commands below to prepare "
            "the your model and try four basic tasks of NVILA-video model.\n\n```bash\npython nvila_demo.py --model-path $MODEL\n```\n")
    # LABELLING.md (batch 1): a speed-up with no metric is throughput_basis unclear (not_stated)
    found = rule(text, "throughput_basis")
    assert found.status == "unclear" and found.reason == "not_stated"


# ---------------------------------------------------------------- cache_hit_labeling: reuse without a prefix cache named


def test_a_workload_stated_as_reuse_labels_its_cache_hits():
    # real/batch5/g_lmcache_measuring.txt l.77-78 (SOURCES.md: LMCache/LMCache docs/source/examples/measuring_improvements.rst @54641ca)
    lmcache = ("Here we show the improvements in Time To First Token (TTFT) using LMCache. We perform this\n"
               "on a context length of 16384 tokens and reuse the same context for 10 requests.\n")
    # real/batch1/b_dynamo_embedding_cache.md l.10 (SOURCES.md: ai-dynamo/dynamo docs/benchmarks/embedding_cache.md @39a3fef)
    dynamo = ("This page reports the performance impact of Dynamo's multimodal frontend-decoding and embedding cache on a "
              "repeated-image workload, measured against a vanilla `vllm serve` baseline: TTFT p50 1,200 ms vs 2,100 ms.\n")
    # real/batch1/a_llmd_pd_multitier.md l.31-33 (SOURCES.md: llm-d/llm-d guides/pd-disaggregation/benchmark-results/... @3cfabd6)
    llmd = ("`guide_pd-disaggregation_1.yaml` sends 5,400 random requests at 45 QPS over a\n120-second window. Mean TTFT was 812 ms. "
            "Random prompts intentionally provide little reusable prefix state.\n")
    for text in (lmcache, dynamo, llmd):
        assert rule(text, "cache_hit_labeling").status == "ok"  # LABELLING.md: ok when cached results are labelled


def test_suffix_decoding_draws_on_earlier_outputs_so_its_cache_state_must_be_stated():
    # real/batch4/f_vllmascend_suffix_decoding.md l.5 (SOURCES.md: vllm-project/vllm-ascend docs/source/tutorials/features/suffix_speculative_decoding.md @92616f3)
    text = ("Suffix Decoding is an optimization technique for speculative decoding based on pattern matching. It simultaneously "
            "retrieves repetitive sequences from both the prompt and the generated content.\n\n"
            "| Dataset | Base TPOT(ms) | Suffix TPOT(ms) |\n|---|---|---|\n| GSM8K | 42.1 | 26.3 |\n")
    # LABELLING.md (second labelling of batch 2): speculation that drafts from earlier requests falls under cache_hit_labeling
    found = rule(text, "cache_hit_labeling")
    assert found.status == "unclear" and found.reason == "not_stated"


# ---------------------------------------------------------------- observation_point: latency figures only


def test_throughput_from_a_named_benchmark_has_no_observation_point_to_judge():
    # real/batch5/g_vllm_pr7117.md l.8-20 (SOURCES.md: vllm-project/vllm pull request #7117, a PR thread with no commit)
    pr = ("On H100:\n\n```python\npython benchmarks/benchmark_throughput.py --input-len 256 --output-len 256 --model meta-llama/Meta-Llama-3-8B\n```\n\n"
          "Main branch (3 trials):\n\n```text\nThroughput: 24.32 requests/s, 12453.04 tokens/s\nThroughput: 24.11 requests/s, 12342.76 tokens/s\n```\n")
    # real/batch4/f_fastllm_benchmark_zh.md l.26-36 (SOURCES.md: ztxz16/fastllm docs/benchmark.md @43cef01)
    fastllm = ("``` sh\n./benchmark -p ~/chatglm-6b-int4.flm -f ../example/benchmark/prompts/beijing.txt -b 1\n```\n\n"
               "|              模型 | Data精度 | 平台               | Batch    | 最大推理速度(token / s) |\n|---|---|---|---|---|\n"
               "| ChatGLM-6b-int4  | float32 |  RTX 4090          |         1 |                  176 |\n"
               "| ChatGLM-6b-fp16  | float32 |  RTX 4090          |        64 |                 2919 |\n")
    # LABELLING.md: observation_point applies to latency figures (TTFT, TPOT, ITL, E2E, ms/token)
    for text in (pr, fastllm):
        assert rule(text, "observation_point").status == "not_applicable"
    # a latency figure from the same kind of run keeps the rule
    assert rule(pr + "\nMean TTFT was 45 ms.\n", "observation_point").status == "ok"


# ---------------------------------------------------------------- stack_comparison: results set side by side


def test_a_patch_measured_against_the_code_it_changes_is_a_single_variable_comparison():
    # real/batch4/f_habana_vllmfork_pr233.md l.5-15 (SOURCES.md: HabanaAI/vllm-fork pull request #233, a PR thread with no commit)
    habana = ("When by default, the performance with below command:\n`VLLM_SKIP_WARMUP=true python benchmark_throughput.py "
              "--model /local_dataset_2/pytorch/Qwen2-7B-Instruct/ --device hpu --input-len 1000 --output-len 500 --num-prompts 200`\n"
              "is:\n`Throughput: 1.34 requests/s, 2015.75 tokens/s`\n\n"
              "After applying this patch, the performance boosts to:\n`Throughput: 2.67 requests/s, 4003.20 tokens/s`\n")
    # real/batch5/g_vllm_pr7117.md l.8-28 (SOURCES.md: vllm-project/vllm pull request #7117, a PR thread with no commit)
    vllm = ("On H100:\n\n```python\npython benchmarks/benchmark_throughput.py --input-len 256 --output-len 256\n```\n\n"
            "Main branch (3 trials):\n\n```text\nThroughput: 24.32 requests/s, 12453.04 tokens/s\n```\n\n"
            "This PR (3 trials):\n\n```text\nThroughput: 24.52 requests/s, 12555.73 tokens/s\n```\n")
    # LABELLING.md: ok for a single-variable comparison, where only one element visibly differs
    for text in (habana, vllm):
        assert rule(text, "stack_comparison").status == "ok"


def test_a_table_of_one_setting_off_and_on_is_a_single_variable_comparison():
    # real/batch1/a_mlx_examples_pr1069.md l.6-17 (SOURCES.md: ml-explore/mlx-examples pull request #1069, a PR thread with no commit)
    text = ("On an M2 Ultra (nothing else needed) the #s for Llama 3.1 70B in 16-bit precision look like:\n\n"
            " | | not wired | wired\n---  | --- | ---\nprompt (16 toks)  | 2.35 toks/sec |  27.8 toks/sec\n"
            "generation (100 toks) | 0.23 toks/sec | 4.7 toks/sec\n")
    assert rule(text, "stack_comparison").status == "ok"
    # a table of two setups with no comparison drawn stays not a comparison (LABELLING.md after batch 2)
    rows = "| model | tok/s |\n|---|---|\n| Llama-3-8B | 27.8 |\n| Llama-3-70B | 2.35 |\n"
    assert rule(rows, "stack_comparison").status == "not_applicable"


def test_a_table_listing_one_setup_per_row_is_not_a_comparison_even_with_a_setup_header():
    # real/batch13/j_premai_llama2_engines.md l.10-18 (SOURCES.md: premAI-io/benchmarks, MIT): an 'Engine' column, one
    # row per engine and precision, no comparative sentence; both labellers: not_applicable (LABELLING.md after batch 2)
    engines = ("**Performance Metrics:** (unit: Tokens / second)\n\n| Engine | float32 | float16 |\n|---|---|---|\n"
               "| [candle](/bench_candle/) | - | 36.78 ± 2.17 |\n| [vllm](/bench_vllm/) | 90.78 ± 1.60 | 90.54 ± 2.22 |\n"
               "| [ctranslate](/bench_ctranslate/) | 35.23 ± 4.01 | 55.72 ± 16.66 |\n")
    assert rule(engines, "stack_comparison").status == "not_applicable"
    # framed as a comparison: a baseline row, or engines side by side as columns (real/batch1/a_mlc_llm_perf_bench.md
    # l.26-31, mlc-ai/llm-perf-bench, Apache-2.0: '| Model | GPU | MLC LLM (tok/sec) | Exllama V2 (tok/sec) | ...')
    baseline = engines.replace("[candle](/bench_candle/)", "Baseline (HF)")
    columns = ("| Model | GPU | MLC LLM (tok/sec) | Exllama V2 (tok/sec) | Llama.cpp (tok/sec) |\n|---|---|---|---|---|\n"
               "| Llama2-7B | RTX 3090 Ti | **186.7** | 161.67 | 144.93 |\n")
    # ... or rows with and without one thing (tests/data/audit/goodput_slo.md: 'aggregated (TP8)' / 'disaggregated 2P1D')
    toggled = ("| setup | goodput (req/s) |\n|---|---|\n| aggregated (TP8) | 8.9 |\n| disaggregated 2P1D | 11.4 |\n")
    for text in (baseline, columns, toggled):
        assert rule(text, "stack_comparison").status != "not_applicable", text


def test_chinese_gains_over_a_version_or_in_percent_are_comparisons():
    # real/batch10/u_bminf_readme_zh.md l.39 (OpenBMB/BMInf, Apache-2.0): '较现有PyTorch版本仍有较大性能提升' (a large gain
    # over the current PyTorch version); real/batch5/g_ipexllm_readme_zh.md l.45: '~30% 加速' (a 30% speed-up)
    for text in ("BMInf 在 V100 上解码速度达到 20 tokens/s，较现有PyTorch版本仍有较大性能提升。\n",
                 "ipex-llm 现在支持 Self-Speculative Decoding，在 Intel GPU 上为 FP16 推理带来 **~30% 加速** 。\n"):
        assert rule(text, "stack_comparison").status == "unclear", text


# ---------------------------------------------------------------- capacity_vs_workload: a context capacity stated


def test_a_context_capacity_kept_apart_from_the_measured_load_is_ok():
    measured = "\n\n| model | decode tok/s |\n|---|---|\n| A | 25.4 |\n"
    # real/batch2/c_rtpllm_dspark_vs_vllm.md l.31 (SOURCES.md: alibaba/rtp-llm docs/benchmark/qwen3_dspark_vllm_analysis.md @2228f42)
    rtp = "| Setting | RTP-LLM | vLLM |\n|---|---|---|\n| Context limit | 20,480 | 20,480 |\n"
    # real/batch4/f_executorch_gemma4.md l.50 (SOURCES.md: pytorch/executorch examples/models/gemma4/README.md @33419c0)
    et = "Default export includes all modalities (audio + vision + text). Default context length: 1024 tokens (`--max_seq_len`).\n"
    # real/batch2/c_minicpm_readme_zh.md l.431 (SOURCES.md: OpenBMB/MiniCPM README.md @c741205)
    minicpm = "Minicpm4.1 原生支持 65,536 tokens 的上下文长度。\n"
    # real/batch2/c_exllamav2_readme.md l.185 (SOURCES.md: turboderp/exllamav2 README.md @b9c025b)
    exl = "none of them uses GQA which effectively limits the context size to 2048.\n"
    # LABELLING.md: capacity_vs_workload applies when a capacity figure (configured max context) appears; ok when kept apart
    for text in (rtp, et, minicpm, exl):
        assert rule(text + measured, "capacity_vs_workload").status == "ok"


def test_context_lengths_a_benchmark_ran_and_a_feature_without_a_figure_are_no_capacity():
    # real/batch2/c_fastdeploy_plas_zh.md l.47 (SOURCES.md: PaddlePaddle/FastDeploy docs/zh/features/plas_attention.md @0008fbe): the evaluated lengths are workload
    assert rule("我们在 LongBenchV2 和 Ruler（上下文长度分别为 32K、64K 和 128K）上评估了全注意力和稀疏注意力的精度。\n",
                "capacity_vs_workload").status == "not_applicable"
    # real/batch4/f_vllmascend_issue4395_zh.md l.29 (SOURCES.md: vllm-project/vllm-ascend issue #4395): no figure
    assert rule("同时vllm支持更长上下文，更多外围能力如multi content。\n", "capacity_vs_workload").status == "not_applicable"


def test_a_generation_printout_with_its_total_time_is_a_single_stream_decode_rate():
    # real/batch4/f_litgpt_quantize.md l.14-19 (SOURCES.md: Lightning-AI/litgpt tutorials/quantize.md @e567dbe):
    # "6.93 sec total" is the time of the run, not total tokens; the rate is litgpt generate's generated tokens / time
    text = ("```bash\nlitgpt generate tiiuae/falcon-7b \\\n  --precision 32-true \\\n  --max_new_tokens 256\n...\n"
            "Time for inference 1: 6.93 sec total, 36.96 tokens/sec.\n```\n")
    # LABELLING.md (batch 4): decode tok/s from a named single-sequence tool is single-stream; a requested output of 64 or
    # more counts as the stated output (batch 1 adjudication); the tool fixes the definition
    assert rule(text, "steady_decode").status == "ok"
    assert rule(text, "tpot_definition").status == "ok"


def test_a_latency_ratio_measured_by_named_clients_has_its_observation_point():
    # real/batch1/a_deepspeed_fp6_zh.md l.72, l.85 (SOURCES.md: microsoft/DeepSpeed blogs/deepspeed-fp6/03-05-2024/README-Chinese.md @38327e0)
    zh = ("我们在两个A100 GPU-80G上评估了LLaMA-2-70b模型使用FP6量化的服务性能，实现了1.5倍的推理延迟减少和3.5倍的推理吞吐量增加，与FP16基线相比。\n\n"
          "图1：在DeepSpeed-MII中，使用128个请求和32个客户端，对LLaMA-2-70B模型在2xA100-80g上进行端到端服务性能测试。\n")
    # LABELLING.md (batch 2): a ratio of latency is a latency figure; observation_point is ok when the measuring client is named
    assert rule(zh, "observation_point").status == "ok"
    assert rule(zh.split("\n\n")[0] + "\n", "observation_point").status == "unclear"


def test_an_in_process_tool_named_for_the_figures_is_their_observation_point():
    # real/batch3/e_hf_awq_ko.md l.115-121, l.141 (SOURCES.md: huggingface/transformers docs/source/ko/quantization/awq.md @2f42d43)
    text = ("모델은 `batch_size=1` 로 성능 평가되었습니다.\n\n"
            "|   배치 크기  |   프리필 길이 |   디코드 길이 |   프리필 토큰/초 |   디코드 토큰/초  |\n|---|---|---|---|---|\n"
            "|            1 |               32 |              32 |            60.0984 |           38.4537 |\n\n"
            "퓨즈된 모듈 및 퓨즈되지 않은 모듈의 속도와 처리량은 [optimum-benchmark](https://github.com/huggingface/optimum-benchmark)"
            "라이브러리를 사용하여 테스트 되었습니다.\n")
    # LABELLING.md (batch 1, offline runs): latency figures taken in-process, ok when the tool or script is named
    assert rule(text, "observation_point").status == "ok"


def test_a_per_token_rate_from_a_benchmark_that_defines_it_has_its_definition():
    # real/batch3/e_mnn_riscv_k3_zh.md l.13-15, l.35-36 (SOURCES.md: alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md @01a9ee8)
    mnn = ("| 模型 | pp512 | tg128 |\n|---|---|---|\n| Qwen3-0.6B | **381.24 tok/s** | **54.49 tok/s** |\n\n"
           "- pp512：一次处理 512 个输入 token\n- tg128：实际连续生成 128 个 token\n")
    # real/batch4/f_vllmascend_suffix_decoding.md l.18, l.151 (SOURCES.md: vllm-project/vllm-ascend .../suffix_speculative_decoding.md @92616f3)
    ascend = ("The benchmarking tool used in this tutorial is AISBench, which supports performance testing for all the datasets.\n\n"
              "| Dataset | Avg Output | Base TPOT(ms) | Suffix TPOT(ms) |\n|---|---|---|---|\n| GSM8K | 231 | 42.1 | 26.3 |\n")
    # LABELLING.md: tpot_definition is ok when the measuring tool fixes the definition
    for text in (mnn, ascend):
        assert rule(text, "tpot_definition").status == "ok"


def test_input_and_output_lengths_in_the_sentence_do_not_say_which_tokens_a_rate_counts():
    # real/batch2/c_nanoflow_readme.md l.67 (SOURCES.md: efeslab/Nanoflow README.md @d6b381e)
    text = ("We evaluate the offline throughput of NanoFlow (tokens per second per GPU) on these LLMs with constant length of "
            "input 1024 and output 512: 1,212 tokens per second per GPU for LLaMA-2-70B.\n")
    # LABELLING.md: unclear when a bare tokens/s leaves the basis (input, output or total tokens) open
    assert rule(text, "throughput_basis").status == "unclear"
    assert rule(text.replace("(tokens per second per GPU)", "(output tokens per second per GPU)"), "throughput_basis").status == "ok"


def test_throughput_alone_has_no_observation_point_to_judge_even_with_no_tool_named():
    # real/batch2/c_exllamav2_readme.md l.58-67 (SOURCES.md row 63: turboderp/exllamav2 README.md @b9c025b)
    exllama = ("## Performance\n\nSome quick tests to compare performance with ExLlama V1. There may be more performance "
               "optimizations in the future,\nand speeds will vary across GPUs, with slow CPUs still being a potential bottleneck:\n\n"
               "| Model      | Mode         | Size  | grpsz | act | 3090Ti  | 4090        |\n"
               "|------------|--------------|-------|-------|-----|---------|-------------|\n"
               "| Llama      | GPTQ         | 7B    | 128   | no  | 181 t/s | **205** t/s |\n"
               "| Llama      | GPTQ         | 13B   | 128   | no  | 110 t/s | **114** t/s |\n"
               "| Llama      | GPTQ         | 33B   | 128   | yes | 44 t/s  | **48** t/s  |\n")
    # LABELLING.md: observation_point applies to latency figures; generation rates with no stream count are throughput
    assert rule(exllama, "observation_point").status == "not_applicable"
    # real/batch3/e_tinychat_readme.md l.75-86 (SOURCES.md row 77: mit-han-lab/llm-awq tinychat/README.md @b6ef42c):
    # a per-token latency in ms with nothing saying where it was timed
    tinychat = ("### Decoding Speed\n\nWe benchmarked the per-token generation latency for the decoding stage in the following tables.\n\n"
                "#### RTX 4090 Results\n\n| Model       | FP16 latency (ms) | INT4 latency (ms) | Speedup |\n"
                "| ----------- |:-----------------:|:-----------------:|:-------:|\n"
                "| LLaMA-3-8B  | 17.07             | 6.39              | 2.69x   |\n"
                "| LLaMA-2-7B  | 15.50             | 5.28              | 2.94x   |\n")
    found = rule(tinychat, "observation_point")
    assert found.status == "unclear" and found.reason == "not_stated"


def test_token_rates_of_a_write_up_that_never_runs_two_streams_at_once_have_an_evident_scope():
    # real/batch4/f_executorch_gemma4.md l.176-187 (SOURCES.md: pytorch/executorch examples/models/gemma4/README.md @33419c0):
    # one phone, one request at a time; the columns name the tokens (Prefill, Gen) and nothing batches or runs concurrently
    table = ("## Samsung S25 Performance\n\n| Model | Size | Load | Prefill | Gen | TTFT |\n|---|---|---|---|---|---|\n"
             "| E2B gemma4.pte | 4.1 GB | 705ms | 166 tok/s | 6 tok/s | 4.50s |\n| E4B gemma4.pte | 6.1 GB | 1.30s | 91 tok/s | 4 tok/s | 7.50s |\n")
    assert rule(table, "throughput_basis").status == "ok"
    # the same table in a write-up that also serves several users at once: per user or aggregate is open again
    assert rule(table + "\nWe also ran it with 4 concurrent users.\n", "throughput_basis").status == "unclear"


def test_rules_read_figures_in_background_sections_even_after_the_items_read_the_run_view():
    # real/batch6/h_deepseek_inference_overview.md l.60-76 (SOURCES.md: deepseek-ai/open-infra-index @3122a25): the service
    # statistics sit under a design section; the items do not credit them, but the rules judge the figures they state
    text = ("# Inference system overview\n\n## System Design Principles\n\nExpert parallelism spreads the load.\n\n"
            "### Statistics of the Online Service\n\n- The average output speed was 20-22 tokens per second.\n"
            "- Each H800 node delivers ~73.7k tokens/s input during prefilling or ~14.8k tokens/s output during decoding.\n")
    report = audit_benchmark(AuditRequest(text=text))
    rules = {r.id: r.status for r in report.rules}
    assert rules["throughput_basis"] != "not_applicable" and rules["evidence_class"] != "not_applicable"
    assert {f.id: f.status for f in report.items}["output_length_requested"] == "missing"


def test_a_short_length_beside_a_longer_stated_one_is_no_steady_decode_violation():
    # real/batch7/n_qwen_trtllm_hackathon_zh.md (SOURCES.md: Tlntin/Qwen-TensorRT-LLM README.md @940e2f6): the benchmark
    # states max_new_tokens=100 (l.484); a quiz answer at the end runs a gpt2 demo with --max_output_len=8 (l.634)
    text = ("# Qwen on TRT-LLM\n\n- 测试时：beam=batch=1，max_new_tokens=100\n- 生成加速比最高 5.56 倍\n\n## Bonus\n\n"
            "```\npython3 run.py --max_output_len=8\n```\n")
    finding = rule(text, "steady_decode")
    assert finding.status == "unclear" and finding.reason == "ambiguous" and "100" in finding.why
    # every stated length short: still a violation (self-written short_output_decode.md)
    short = "# Decode speed\n\nWe sent 200 requests with max_tokens 8 and measured a median TPOT of 9 ms.\n"
    assert rule(short, "steady_decode").status == "violation"


def test_the_chinese_maximum_new_length_is_a_requested_output_length():
    text = "# Run\n\n- 最大输入长度：1024， 最大新增长度：1024，num-prompts=100\n- 生成速度 41 tokens/s\n"
    report = audit_benchmark(AuditRequest(text=text))
    assert {f.id: f.status for f in report.items}["output_length_requested"] == "declared"


def test_a_goodput_flag_is_the_slo_given_to_the_client_not_a_goodput_figure():
    # real/batch8/o_dynamo_kv_router_ab.md l.516-530 (SOURCES.md: ai-dynamo/dynamo): an AIPerf command in a YAML manifest
    # passes the thresholds; the page reports no goodput
    text = ("# KV router A/B\n\nWe measured TTFT p50 of 412 ms with AIPerf.\n\n```yaml\nargs:\n  - |\n    aiperf profile \\\n"
            "      --goodput \\\"time_to_first_token:5000 inter_token_latency:100\\\"\n```\n")
    assert rule(text, "goodput_slo").status == "not_applicable"
    # a goodput the page reports, with the flag that set its thresholds: ok
    reported = text + "\nGoodput was 4.1 req/s.\n"
    assert rule(reported, "goodput_slo").status == "ok"


def test_a_per_token_decoding_latency_and_a_text_generation_speed_up_are_decode_rate_figures():
    # real/batch8/p_duoattention_readme.md l.22 (SOURCES.md: mit-han-lab/duo-attention README.md @279229a)
    text = "# DuoAttention\n\nDuoAttention reduces per-token decoding latency by up to 2.13x on Llama-3-8B.\n"
    assert rule(text, "steady_decode").status == "unclear" and rule(text, "tpot_definition").status == "unclear"
    # a speed-up of text generation is a ratio of generation speed (LABELLING.md after batch 2)
    text = "# Quest\n\nQuest achieves a 2.2x speedup in text generation with a 32k context.\n"
    assert rule(text, "steady_decode").status == "unclear"


def test_per_token_latency_in_other_spellings_is_a_tpot_figure_without_its_definition():
    # the wordings of real write-ups: real/batch2/c_fastdeploy_plas_zh.md l.139 ("Ouput", sic),
    # real/batch8/p_moe_infinity_readme.md l.36, real/batch9/s_quanto_bench_generation.md l.5,
    # real/batch8/o_kubeai_prefix_hash_70b.md l.9, real/batch10/u_llama2c_readme.md, real/batch7/m_fastllm_issue55_zh.md l.9
    for label in ("Time per Ouput Token(ms)", "per-token-latency (seconds)", "latency per generated token (ms)",
                  "time_per_token (s)", "seconds per token", "单token耗时 (ms)"):
        text = f"# Results\n\n| model | {label} |\n|---|---|\n| Llama-2-7B on 1x A100 | 0.021 |\n"
        assert rule(text, "tpot_definition").status == "unclear", label
    # a rate of tokens per second is not a time per token
    text = "# Results\n\n| model | tokens per second |\n|---|---|\n| Llama-2-7B on 8x A100, 64 users | 3100 |\n"
    assert rule(text, "tpot_definition").status == "not_applicable"


def test_what_a_model_or_kv_pool_can_hold_is_a_capacity_figure_kept_apart_from_the_load():
    # real/batch8/p_duoattention_readme.md l.156, real/batch9/s_orion_readme_ja.md l.47, real/batch7/n_codegeex2_readme_ja.md l.20
    for text in ("# DuoAttention\n\nIt supports a context length of up to 3.3 million tokens on a single A100. "
                 "Prefill of a 320K context took 18.9 s.\n",
                 "# Orion\n\n最大で320,000トークンまでサポート可能です。\n\nBase-Int4 の推論速度は 30 tokens/s です。\n",
                 "# CodeGeeX2\n\n最大 8192 シーケンス長をサポートします。推論速度は 94 token/秒 です。\n"):
        assert rule(text, "capacity_vs_workload").status == "ok", text
    # the engine's start-up log quoted in a code block reports a capacity; a --max-model-len flag alone does not
    logged = ("# kvcached\n\nTTFT p50 was 412 ms at 8 concurrent requests.\n\n```\nINFO GPU KV cache size: 52,960 tokens\n"
              "INFO Maximum concurrency for 16,384 tokens per request: 3.23x\n```\n")
    assert rule(logged, "capacity_vs_workload").status == "ok"
    flag = "# Run\n\nTTFT p50 was 412 ms.\n\n```\nvllm serve meta-llama/Llama-3.1-8B --max-model-len 8192\n```\n"
    assert rule(flag, "capacity_vs_workload").status == "not_applicable"


def test_a_token_rate_takes_what_it_counts_from_the_test_column_of_its_row():
    # real/batch9/r_ikllama_pr27_gemma2.md l.19-24 (SOURCES.md: ikawrakow/ik_llama.cpp): llama-bench's 'test' column says
    # pp512 (prompt tokens) or tg128 (generated tokens); the header's bare 't/s' takes its basis from those rows
    text = ("# Gemma2\n\n| backend | test | t/s (llama.cpp) | t/s (PR) | Speedup |\n|---|---|---|---|---|\n"
            "| CUDA | tg128 | 239.20 ± 0.27 | 244.47 ± 0.42 | 1.022 |\n| CUDA | pp512 | 18413.90 ± 566 | 18824.91 ± 480 | 1.022 |\n")
    assert rule(text, "throughput_basis").status == "ok"
    # a bare t/s with nothing in its row or header to say which tokens stays open
    bare = "# Speed\n\n| engine | t/s |\n|---|---|\n| A | 239.2 |\n| B | 244.5 |\n\nMeasured with 4 concurrent users.\n"
    assert rule(bare, "throughput_basis").status == "unclear"


def test_llama_cpp_test_names_and_a_per_user_unit_state_the_basis():
    # real/batch7/m_mistralrs_issue903.md l.9 ('TG (256) T/s'); real/batch8/q_ttmetal_tt_transformers_perf.md l.17 ('t/s/u')
    assert rule("# Metal\n\n| engine | TG (256) T/s |\n|---|---|\n| mistral.rs | 28.1 |\n", "throughput_basis").status == "ok"
    assert rule("# TT\n\n| model | Speed (t/s/u) |\n|---|---|\n| Llama 3.1 8B | 23.5 |\n\nBatch 32 users.\n",
                "throughput_basis").status == "ok"


def test_a_comparison_with_no_engine_named_has_no_stated_shared_setup():
    # LABELLING.md after batch 2: 'only one element differs' needs the shared setup of both sides stated.
    # real/batch8/p_duoattention_readme.md l.22: method vs full attention, one GPU named, no engine
    text = ("# DuoAttention\n\nDuoAttention reduces decoding latency by up to 2.13x compared to full attention "
            "on Llama-3-8B with one A100.\n")
    assert rule(text, "stack_comparison").status == "unclear"
    # the same with the one engine both sides ran on named: a setting varied inside one stack
    named = text.replace("with one A100", "with one A100, both sides on vLLM 0.6.3")
    assert rule(named, "stack_comparison").status == "ok"


def test_kv_pools_and_context_windows_in_more_words_are_capacity_figures_kept_apart_from_the_load():
    # real/batch9/t_doks_eagle3_vllm_bench.md l.9, real/batch8/q_dstack_h100_mi300x.md l.65,
    # real/batch7/n_deepseek_v2_readme.md l.58, real/batch10/u_asiai_ollama_vs_lmstudio_ja.md l.37, real/batch7/l_litertlm_readme.md l.39
    for said in ("KV pool sizes were 53.15 GiB and 50.09 GiB.", "MI300X has 51% more memory for the KV cache.",
                 "MLA reduces the KV cache by 93.3%.", "フルコンテキストウィンドウ（262Kトークン）用にKVキャッシュを事前割り当てします。",
                 "Context size 4096."):
        text = f"# Results\n\nTTFT p50 was 412 ms at 8 concurrent requests of 1,024 prompt tokens. {said}\n"
        assert rule(text, "capacity_vs_workload").status == "ok", said


def test_tools_and_timers_that_time_their_own_runs_fix_the_observation_point():
    # real/batch6/i_llamacpp_pr5322.md l.14, real/batch8/q_selfllm_gptoss_evalscope_zh.md l.58, real/batch10/u_asiai_turboquant.md
    # l.22, real/batch9/t_kvcached_offload_vs_kvcached.md l.26, real/batch10/v_torchair_llama_zh.md l.93, real/batch8/p_duoattention_readme.md l.190
    for said in ("```\nllama_print_timings: eval time = 912.00 ms / 31 runs (29.4 ms per token)\n```\n",
                 "Measured with `evalscope perf` against the server.\n", "These are real benchmarks measured with asiai 1.4.0.\n",
                 "TTFT = time to first SSE chunk.\n", "```python\ntorch.npu.synchronize()\nstart = time.time()\n```\n",
                 "Run `bash scripts/run_efficiency.sh` to reproduce.\n"):
        text = "# Results\n\nLlama-2-7B on 1x A100, one request at a time: TTFT 41 ms, TPOT 29 ms.\n\n" + said
        assert rule(text, "observation_point").status == "ok", said


def test_steady_decode_reads_the_requested_length_as_the_output_length_item_does():
    # real/batch7/n_ninehills_bench_readme.md l.66: 'Max Tokens: 200' backs the TPS@1 decode figure
    text = "# Bench\n\nLlama-2-7B on 1x A100, batch size 1: TPS@1 41 tok/s decode. Max Tokens: 200.\n"
    assert rule(text, "steady_decode").status == "ok"
    # a short cap beside a longer one: which one the decode runs used is not said
    text = "# Bench\n\nTPOT 12 ms over the runs, which set max_tokens=256 for chat and max_tokens=16 for the short-answer set.\n"
    finding = rule(text, "steady_decode")
    assert (finding.status, finding.reason) == ("unclear", "ambiguous") and "256" in finding.why


def test_steady_decode_reads_every_spelling_the_output_length_item_reads():
    # real/batch6/i_autogptq_readme_zh.md l.41 ('强制模型生成512个 token'), real/batch10/v_dashinfer_cpu_perf.md
    # ('Output length: 128'), real/batch8/q_rknn_llm_benchmark.md l.9 (a 'New_tokens' column): long enough outputs
    for text in ("# 推理速度\n\n文本输入的 batch size 为1，强制模型生成512个 token，速度单位为 tokens/s。\n\n"
                 "| model | GPU | fp16 | gptq-int4 |\n|---|---|---|---|\n| llama-7b | 1xA100-40G | 18.87 | 25.53 |\n",
                 "# CPU\n\nOne sequence on a Xeon, Output length: 128. Decode 14.2 tokens/s per sequence.\n",
                 "# RK3588\n\n| Model | Seqlen | New_tokens | TTFT(ms) | Decode tokens/s |\n|---|---|---|---|---|\n"
                 "| Qwen2 0.5B | 128 | 64 | 143 | 42.6 |\n"):
        assert rule(text, "steady_decode").status == "ok", text
    # a cap over lengths that vary ("capped at the reference response, at most 2,048") is not the output length
    text = ("# Eval\n\nShareGPT requests, the output length capped at the length of the reference response (at most 2,048). "
            "TPOT p50 14.2 ms at one user.\n")
    assert rule(text, "steady_decode").status == "unclear"


def test_a_per_token_figure_defined_in_other_words_or_printed_by_its_tool_has_its_definition():
    # real/batch10/u_ngkore_vllm_bench.md l.23, real/batch2/c_nanoflow_readme.md l.59, real/batch6/i_webllm_issue773.md l.45,
    # real/batch3/e_tinychat_readme.md l.77, real/batch6/i_llamacpp_pr5322.md l.17
    for said in ("TPOT is the average time to generate each subsequent token.",
                 "Normalized latency is the end-to-end request latency divided by number of output tokens.",
                 "Tokens/sec measured during steady-state generation.",
                 "We report the per-token generation latency for the decoding stage.",
                 "\n```\nllama_print_timings: eval time = 1670,33 ms / 23 runs (72,62 ms per token)\n```\n"):
        text = f"# Results\n\nLlama-2-7B on 1x A100, one request at a time: TPOT 29 ms, 34 tok/s decode. {said}\n"
        assert rule(text, "tpot_definition").status == "ok", said


def test_token_rates_written_with_hyphens_or_in_japanese_are_rate_figures():
    # real/batch9/s_orion_readme_ja.md l.215 ('推論速度（トークン/秒）'), real/batch2/d_awsome_nim_results.md ('Token-per-second')
    for unit in ("推論速度（トークン/秒）", "Token-per-second"):
        text = f"# Results\n\n| model | {unit} |\n|---|---|\n| Orion-14B on 1x A100, 8 users | 31 |\n"
        assert rule(text, "throughput_basis").status != "not_applicable", unit


def test_reuse_is_plausible_in_multi_turn_workloads_and_labelled_when_prompts_avoid_the_cache():
    # real/batch9/t_doks_eagle3_vllm_bench.md l.154, real/batch7/l_jetson_genai_benchmarking.md l.132
    for said in ("The dataset is custom multi-turn conversations.", "A warm-up run is made to populate vLLM's internal caches."):
        text = f"# Results\n\nLlama-3.1-8B with vLLM 0.6.3 on 1x H100: TTFT p50 41 ms. {said}\n"
        finding = rule(text, "cache_hit_labeling")
        assert (finding.status, finding.reason) == ("unclear", "not_stated"), said
    # real/batch7/n_ninehills_bench_readme.md l.65: the prompts carry random characters to avoid the cache
    text = "# Results\n\nTTFT p50 41 ms on 1x H100. Prompts carry some random characters to avoid cache.\n"
    assert rule(text, "cache_hit_labeling").status == "ok"
    assert rule("# Results\n\nTTFT p50 41 ms on 1x H100.\n", "cache_hit_labeling").status == "not_applicable"


def test_a_heading_read_again_gets_the_scope_it_got_the_first_time():
    from llm_inference_fundamentals.tools.audit.reading.scope import _heading_scope

    for heading in ("## Results", "Benchmark setup", "Future work", "Installation", "References", "How it works", "## Results"):
        assert _heading_scope(heading) == _heading_scope.__wrapped__(heading)
    assert _heading_scope("Benchmark setup") == "run" and _heading_scope("Installation") == "howto"


def test_a_datasheet_peak_the_text_doubts_can_be_reached_is_labelled_as_a_bound():
    # real/batch11/x_calm_readme.md l.105 (zeux/calm README, MIT): the only blind wrong violation of batch 11
    text = ("# calm\n\n| model | tok/s |\n|---|---|\n| Llama2 7B fp8 | 158 |\n\nRTX 4090 has a peak bandwidth of ~1008 GB/s, "
            "however it's unclear if a peak higher than ~950 GB/s is attainable in practice.\n")
    assert rule(text, "evidence_class").status != "violation"


def test_a_bare_token_rate_of_one_local_generation_is_its_generation_speed():
    # real/batch7/m_candle_issue1939.md l.5-6 (SOURCES.md: huggingface/candle issue #1939): one RTX 2080, one
    # generation, the headline rate with no tokens named; the labeller: "generated tokens per second of one generation"
    text = ("On the cuda backend, performance is roughly comparable with llama.cpp, that's what I get on my RTX 2080.\n"
            "- Candle: 69.4 token/s.\n- Llama.cpp: 73.2 token/s.\n\nBoth generate 100 tokens from the same prompt.\n")
    # LABELLING.md throughput_basis: ok when the basis is stated or evident
    assert rule(text, "throughput_basis").status == "ok"
    # several streams, or a rate spread over several GPUs, leave the tokens open again
    for other in (text + "\nWe also ran 8 concurrent requests.\n", text.replace("my RTX 2080", "8x H100"),
                  text.replace("token/s", "tokens/s per GPU")):
        assert rule(other, "throughput_basis").status == "unclear", other
    # and so does a write-up that never says it generates anything (a prompt-processing rate is a token rate too)
    assert rule(text.replace("Both generate 100 tokens from the same prompt.", "Same prompt."),
                "throughput_basis").status == "unclear"


def test_the_decode_rate_of_one_local_generation_is_a_single_stream_latency_figure():
    # real/batch7/m_candle_issue1939.md l.4-6 and l.14-15 (SOURCES.md: huggingface/candle issue #1939): one RTX 2080, one
    # generation of -n 100; LABELLING.md: a single-stream decode rate (stated or evident) brings in tpot_definition and
    # is a latency figure for observation_point; the labeller: "single-prompt decode rates from example CLIs"
    text = ("On the cuda backend, performance is roughly comparable with llama.cpp, that's what I get on my RTX 2080.\n"
            "- Candle: 69.4 token/s.\n\n```\ntarget/release/examples/quantized --model mistral-7b-v0.1.Q4_K_S.gguf -n 100\n\n"
            "  99 tokens generated: 69.43 token/s\n```\n")
    assert rule(text, "tpot_definition").status == "unclear"
    assert rule(text, "observation_point").status != "not_applicable"
    # a batch or several users in flight: no longer one stream's speed, so not a per-token latency
    assert rule(text + "\nWe also ran 8 concurrent requests.\n", "tpot_definition").status == "not_applicable"


def test_bare_token_rates_of_a_speculative_decoding_comparison_stay_throughput():
    # real/batch1/b_sglang_eagle_doc.md l.9-14 (SOURCES.md: sgl-project/sglang docs): LABELLING.md after batch 3, bare
    # tok/s in a speculative-decoding comparison with no concurrency stated is a throughput figure
    text = ("# Speculative Decoding\n\n### Performance Highlights\n\n- Standard SGLang Decoding: ~156 tokens/s\n"
            "- EAGLE Decoding in SGLang: ~297 tokens/s\n\nAll benchmarks below were run on a single H100.\n")
    assert rule(text, "tpot_definition").status == "not_applicable"
    assert rule(text, "observation_point").status == "not_applicable"
    # real/batch13/k_llamaswap_snakegame.md l.5-13, 114-120 (SOURCES.md: mostlygeek/llama-swap, MIT): one local 3090,
    # setups that differ by a draft model; both labellers read the bare tok/s as throughput
    swap = ("# Optimizing Code Generation with llama-swap\n\nThe benchmark writes a snake game. The experiments were done "
            "using a 3090 and a P40.\n\n- 3090-only: Just the main model on the 3090\n- 3090-with-draft: the main and draft "
            "models on the 3090\n\n**Results (tokens/second)**\n\n| model | python |\n|---|---|\n| 3090-only | 34.03 |\n"
            "| 3090-with-draft | 106.65 |\n")
    assert rule(swap, "tpot_definition").status == "not_applicable"


def test_ollama_verbose_eval_rate_is_a_decode_rate_the_tool_defines():
    # tests/data/audit/blind_llamacpp_laptop.md (self-written, re-adjudicated 2026-12-02): `ollama run --verbose`
    # prints eval count, eval duration and eval rate = count / duration, one prompt at a time
    text = ("# Llama 3.1 8B on my laptop\n\nI ran `ollama run llama3.1:8b-instruct-q4_K_M --verbose` five times and read "
            "the `eval rate` lines.\n\n    eval count:           402 token(s)\n    eval duration:        5.62s\n"
            "    eval rate:            71.53 tokens/s\n")
    assert rule(text, "tpot_definition").status == "ok"
    # the printout alone, with the command not quoted, names the same definition
    printout = ("# Laptop\n\nOne prompt at a time on my M3 Max, 402 tokens generated.\n\n    eval count:           402 token(s)\n"
                "    eval duration:        5.62s\n    eval rate:            71.53 tokens/s\n")
    assert rule(printout, "tpot_definition").status == "ok"


def test_sweep_bench_s_pp_and_s_tg_columns_name_the_tokens_they_count():
    # real/batch12/z_ikllama_pr410_cpu_fa.md l.26-29 (SOURCES.md: ikawrakow/ik_llama.cpp PR 410, MIT): llama-sweep-bench's
    # S_PP is prompt tokens per second and S_TG generated tokens per second; the labellers: 'column names evident'
    text = ("Main branch, DeepSeek-Lite on a Ryzen-7950X CPU:\n\n"
            "|    PP |     TG |   N_KV |   T_PP s | S_PP t/s |   T_TG s | S_TG t/s |\n"
            "|-------|--------|--------|----------|----------|----------|----------|\n"
            "|  1024 |    256 |      0 |    1.488 |   688.02 |    7.112 |    35.99 |\n"
            "|  1024 |    256 |   1024 |    1.674 |   611.73 |    7.361 |    34.78 |\n")
    assert rule(text, "throughput_basis").status == "ok"


def test_engines_that_share_an_accelerator_are_no_confounded_comparison():
    # real/batch13/k_dstack_h200_mi300x_deepseek.md l.11, 79-88 (dstackai/dstack blog, MPL-2.0): the engines differ
    # between the GPUs, but SGLang ran on both, so like-for-like pairs exist; both labellers: unclear, not a violation
    text = ("# DeepSeek R1 inference performance: MI300X vs. H200\n\nWe ran 8x NVIDIA H200 and 8x AMD MI300X.\n\n"
            "* TensorRT-LLM outperformed both vLLM and SGLang, achieving the highest online throughput of 4176 tokens/s on H200.\n"
            "* In offline scenarios, H200 achieved the highest overall throughput of 6311 tokens/s with SGLang.\n"
            "* MI300X with vLLM achieved the highest overall throughput of 4574 tokens/s in online scenarios.\n"
            "* SGLang on MI300X reached 5100 tokens/s.\n")
    assert rule(text, "stack_comparison").status == "unclear"
    # sides that share nothing stay confounded: the gain credited to the engine while the GPUs differ
    apart = ("# vLLM vs SGLang\n\nvLLM on 8x H100 reached 4000 tokens/s; SGLang on 8x A100 reached 3000 tokens/s. "
             "vLLM is 1.3x faster than SGLang.\n")
    assert rule(apart, "stack_comparison").status == "violation"


def test_a_setting_explained_as_the_most_that_fits_is_a_capacity_figure():
    # real/batch13/k_llamaswap_snakegame.md l.58 and k_llamaswap_specdec.md l.104 (SOURCES.md: mostlygeek/llama-swap,
    # MIT): a context size set as the most the VRAM holds is a capacity, kept apart from the measured prompts (both
    # labellers: ok); a bare flag stays not_applicable (LABELLING.md)
    comment = ("We ran the snake-game prompts at 34 tok/s.\n\n```yaml\ncmd: >\n  llama-server --model m.gguf\n"
               "  # --ctx-size 28500 max that can fit on 3090 after draft model\n  --ctx-size 28500\n```\n")
    prose = "Chat runs at about 30 tokens/second with --ctx-size 80000 - the maximum context size that can fit in the remaining VRAM.\n"
    for text in (comment, prose):
        assert rule(text, "capacity_vs_workload").status == "ok", text
    assert rule("We ran the snake-game prompts at 34 tok/s.\n\n```\nllama-server --ctx-size 28500\n```\n",
                "capacity_vs_workload").status == "not_applicable"


def test_at_the_same_time_in_chinese_prose_is_no_concurrency():
    # real/batch14/aa_mnn_ios_readme_zh.md l.41, 68 (alibaba/MNN, Apache-2.0): '同时修改 ... 的模型路径' is "and also edit the
    # model path"; the page runs one on-device generation, so its decode rate is one stream's (both labellers: ok)
    text = ("## 测试结果\n\n- iPhone 11 : pefill 52.00 tok/s, decode 16.23 tok/s\n\n"
            "备注：如测试其他模型，可以替换模型文件夹；同时修改 LLMInferenceEngineWrapper.m +38 的模型路径。\n")
    assert rule(text, "throughput_basis").status == "ok"
    # serving at the same time ('同时处理 8 个请求') still puts several streams in flight
    assert rule(text + "\n服务端同时处理 8 个请求。\n", "throughput_basis").status == "unclear"
