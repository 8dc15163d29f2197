"""Measurement-contract items (latency_distributions, aggregation_rule, workload and state items) judged as
LABELLING.md says, on short passages cut from real published write-ups.

Each passage names its row of tests/data/audit/real/SOURCES.md (repository, path, commit, licence) and the
lines of the stored write-up it was cut from; the expected verdict is the one LABELLING.md gives.
"""

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark


def items(text: str) -> dict[str, str]:
    return {f.id: f.status for f in audit_benchmark(AuditRequest(text=text)).items}


# ---------------------------------------------------------------- latency_distributions


def test_a_single_stream_decode_rate_from_a_one_sequence_tool_is_a_partial_latency_distribution():
    # SOURCES.md l.31: ml-explore/mlx-examples PR #1069 (no commit; MIT), a_mlx_examples_pr1069.md l.7-18.
    # LABELLING.md (clarifications after batch 1): a single-stream decode rate is a latency figure; one value
    # per cell is partial.
    text = ("On an M2 Ultra (nothing else needed) the #s for Llama 3.1 70B in 16-bit precision look like:\n\n"
            " | | not wired | wired\n---  | --- | ---\nprompt (16 toks)  | 2.35 toks/sec |  27.8 toks/sec\n"
            "generation (100 toks) | 0.23 toks/sec | 4.7 toks/sec\n\nCommand ran:\n\n```bash\npython -m mlx_lm.generate "
            "--model meta-llama/Meta-Llama-3-70B-Instruct --prompt \"Write a story about Einstein\" --max-tokens 100\n```\n")
    assert items(text)["latency_distributions"] == "partial"


def test_response_times_and_latency_in_chinese_are_latency_figures_without_a_spread():
    # real/batch9/r_cllm_vs_ollama_q4km_zh.md l.15, 48 (SOURCES.md: xdongp/cLLM, MIT): '平均响应时间' (mean response time);
    # real/batch4/f_distributed_llama_readme.md l.88 (b4rtaz/distributed-llama, MIT): 'Average Token Generation Time'
    for text in ("- cLLM 平均响应时间 3.26 s，Ollama 4.28 s。\n",
                 "### Average Token Generation Time\n\n| Devices | Llama 2 7B |\n|---|---|\n| 1 x Raspberry Pi 4B 8 GB | 1312.50 ms |\n",
                 "在 RTX 4090 上，首字延迟为 0.8 秒。\n"):
        assert items(text)["latency_distributions"] == "partial", text


def test_a_news_line_whose_only_digits_are_a_date_reports_no_figure():
    # real/batch8/p_angelslim_readme_zh.md l.28 (Tencent/AngelSlim, batch 8): '[26/06/04] ... 在大幅降低延迟的同时'
    # (greatly reducing latency) names latency with no figure; the labellers: no latency figure
    text = "- [26/06/04] 我们发布了 **Stem**，一种稀疏注意力算法，在大幅降低延迟的同时实现几乎无损的生成质量。\n"
    assert items(text)["latency_distributions"] == "missing"
    assert items("- [2024-02-03] We released Stem, greatly reducing latency.\n")["latency_distributions"] == "missing"
    # a value that looks like a year and a fraction is still a value
    assert items("TTFT was 1024.5 ms.\n")["latency_distributions"] == "partial"


def test_tg128_decode_rates_are_single_stream_latency_figures():
    # SOURCES.md l.84: alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md @01a9ee8 (Apache-2.0),
    # e_mnn_riscv_k3_zh.md l.8-18: llm_bench's tg128 generates one sequence; one mean per cell, no spread.
    text = ("## 1. 性能结论\n\n测试统一使用 8 线程。prefill 使用 pp512，decode 使用 tg128。每个进程内部重复 5 次，\n"
            "最终结果取 3 个独立进程的算术平均值。\n\n| 模型 | pp512 | tg128 |\n|---|---:|---:|\n"
            "| Qwen3-0.6B | **381.24 tok/s** | **54.49 tok/s** |\n| Qwen3-1.7B | **169.29 tok/s** | **24.90 tok/s** |\n")
    assert items(text)["latency_distributions"] == "partial"


def test_a_ratio_of_latency_alone_is_a_partial_latency_distribution():
    # SOURCES.md l.29: microsoft/DeepSpeed blogs/deepspeed-fp6/03-05-2024/README-Chinese.md @38327e0 (Apache-2.0),
    # a_deepspeed_fp6_zh.md l.72. LABELLING.md (after batch 2): a ratio of latency is a latency figure; its
    # statistic is not named, so the distribution is partial, not missing.
    text = ("## 3. 使用FP6服务LLMs\n\n我们在两个A100 GPU-80G上评估了LLaMA-2-70b模型使用FP6量化的服务性能，实现了1.5倍的推理延迟减少"
            "和3.5倍的推理吞吐量增加，与FP16基线相比。\n")
    assert items(text)["latency_distributions"] == "partial"


def test_latency_sensitive_traffic_is_no_latency_figure():
    # SOURCES.md l.43: vllm-project/production-stack tutorials/25-v100-legacy-gpu-deployment.md @a6c01db (Apache-2.0),
    # d_prodstack_v100.md l.197-207: per-GPU throughput only; 'latency-sensitive' names a kind of request, not a time.
    # LABELLING.md latency_distributions: missing when no per-request latency is reported (throughput only).
    text = ("## Step 4: Benchmark Reference Numbers\n\nThe following throughput numbers are from real runs on our V100 SXM2 "
            "16GB nodes.\n\n| Model | TP | Approx. throughput |\n| --- | --- | --- |\n| `Qwen2.5-7B-Instruct` | 2 | ~155 tok/s/GPU |\n\n"
            "For interactive serving, plan for roughly **8–16 concurrent requests per deployment** before latency-sensitive "
            "(interactive SLO) requests start to degrade.\n")
    assert items(text)["latency_distributions"] == "missing"


# ---------------------------------------------------------------- aggregation_rule


def test_a_mean_latency_column_without_percentiles_is_a_partial_aggregation_rule():
    # SOURCES.md l.14: kvcache-ai/Mooncake docs/source/performance/vllm/vllm-v1-pd-performance.md @3b5a594
    # (Apache-2.0), b_mooncake_vllm_pd.md l.27-31. LABELLING.md: partial for "averaged" without over what.
    text = ("## Benchmark Result\n\n**Detailed Performance Data:**\n\n"
            "| Prompt Length | Mean TTFT (ms) | KV Size | Actual Transfer Time (ms) |\n|---|---|---|---|\n"
            "| 128 tokens  | 46.09 | 20 MB | 0.54 |\n| 256 tokens  | 48.04 | 38 MB | 0.61 |\n")
    assert items(text)["aggregation_rule"] == "partial"


def test_an_average_in_a_tool_printout_or_legend_is_a_partial_aggregation_rule():
    # SOURCES.md l.66: ModelTC/lightllm docs/CN/source/server/benchmark.rst @f9ae402 (Apache-2.0),
    # c_lightllm_benchmark_zh.txt l.39-44: the benchmark's printout names averages, not what they average.
    printout = ("## 性能测试\n\n```\ntotal tokens: 494250\nTotal time: 111.37 s\nThroughput: 8.98 requests/s\n"
                "Average latency: 43.52 s\nAverage latency per token: 0.15 s\n```\n")
    assert items(printout)["aggregation_rule"] == "partial"
    # SOURCES.md l.47: skypilot-org/skypilot examples/benchmark/serving/README.md @1144e96 (Apache-2.0),
    # d_skypilot_sky_bench.md l.21-28: the results legend.
    legend = ("## Results\n\n```bash\nLegend:\n- #QUERIES: Number of queries sent in the benchmark.\n"
              "- SEC/QUERY, $/QUERY: Average time and cost per query.\n\nRESOURCES  #QUERIES  SEC/QUERY  $/QUERY\n"
              "1x T4:1    50        0.9921     0.000145\n1x L4:1    50        0.8377     0.000187\n```\n")
    assert items(legend)["aggregation_rule"] == "partial"


def test_a_mean_beside_percentiles_leaves_the_aggregation_rule_missing():
    # SOURCES.md l.12: ai-dynamo/dynamo docs/benchmarks/embedding_cache.md @39a3fef (Apache-2.0),
    # b_dynamo_embedding_cache.md l.28-31. LABELLING.md: missing when aggregation is only implied by the
    # reported percentiles; a mean among them does not make it partial.
    text = ("## Results — H100\n\n| Config | RPS | ITL (ms) | TTFT avg (ms) | TTFT p50 | TTFT p90 | TTFT p99 |\n"
            "|---|---:|---:|---:|---:|---:|---:|\n| `vllm-serve` | 0.719 | 21.28 | 18173.07 | 18829.99 | 26991.82 | 48589.22 |\n")
    assert items(text)["aggregation_rule"] == "missing"


# ---------------------------------------------------------------- concurrency


def test_an_offline_run_with_no_batch_size_is_a_partial_concurrency():
    # SOURCES.md l.122: vllm-project/vllm PR #5046 (no commit; Apache-2.0), g_vllm_pr5046.md l.8-10: the mode
    # ('Offline' vs 'Online') is named, the batch size or rate is not. LABELLING.md: partial for a vague load.
    text = ("Result from @KuntaiDu\n\n| | Offline Request throughput (req/s)/ Token throughput (tok/s) | Online Request "
            "throughput (req/s)/ Input token throughput (tok/s)/ Output token throughput (tok/s) |\n| --- | --- | --- |\n"
            "| 1GPU, Llama 7B, v0.4.2 | 14.33/6895.75 | 12.29/3024.07/2396.00 |\n")
    assert items(text)["concurrency"] == "partial"


def test_request_rates_named_without_their_values_are_a_partial_concurrency():
    # SOURCES.md l.60: efeslab/Nanoflow README.md @d6b381e (Apache-2.0), c_nanoflow_readme.md l.58-59: the rates
    # are only in the figure (images declare nothing, LABELLING.md clarifications after batch 1).
    text = ("### Online latency: Llama2-70B on 8xA100 (80GB)\nWe test the normalized latency (which is the end-to-end request "
            "latency divided by number of output tokens) with the three real-world traces and set different request rate "
            "(incoming requests per second).\n\n![online](./figures/online-latency.png)\n")
    assert items(text)["concurrency"] == "partial"


def test_concurrent_requests_from_many_clients_is_a_partial_concurrency():
    # SOURCES.md l.117: microsoft/DeepSpeed blogs/deepspeed-fastgen/2024-01-19/README.md @fd40516 (Apache-2.0),
    # g_deepspeed_fastgen_2401.md l.32: load described, levels never listed.
    text = ("# DeepSpeed-FastGen: performance updates\n\nWe drastically reduced the scheduling overhead of Dynamic SplitFuse. "
            "As a result, we see higher throughput and lower latency, particularly when handling concurrent requests from "
            "many clients. FastGen reaches 2.1x the throughput of vLLM on Llama-2 70B.\n")
    assert items(text)["concurrency"] == "partial"


# ---------------------------------------------------------------- distinct_prefixes


def test_prefix_cache_aware_routing_leaves_prefix_sharing_partial():
    # SOURCES.md l.46: kserve/website blog/2026-04-21-production-grade-llm-inference-kserve-llm-d-vllm.md @05b83a6
    # (Apache-2.0), d_kserve_tesla_blog.md l.43: a TTFT gain that rests on reused prefixes, none quantified.
    # LABELLING.md distinct_prefixes: partial when nothing says whether prefixes repeat.
    text = ("On one deployment, we observed a **3x improvement in output tokens/s** and a **2x reduction in time to first "
            "token (TTFT)** after enabling prefix-cache aware routing. These numbers were measured when serving Llama 3.1 "
            "70B model on 4 MI300X AMD GPUs with the configuration: `tensor-parallel-size=4`.\n")
    assert items(text)["distinct_prefixes"] == "partial"
    # SOURCES.md l.51: kubernetes-sigs/gateway-api-inference-extension PR #2666 (no commit; Apache-2.0),
    # d_giex_pr2666.md l.7, l.16
    text = ("Prefixing the text with image/video URL in prefix cache scorer, leads to better performance i.e. higher "
            "throughput and lower response latency.\n\n**Benchmarking results**\n\nBy adding url as a prefix, the "
            "throughput/TTFT seem to improve like of the order of 40%.\n")
    assert items(text)["distinct_prefixes"] == "partial"


def test_a_cache_hit_rate_beside_ttft_leaves_prefix_sharing_partial():
    # SOURCES.md l.35: llm-d/llm-d guides/pd-disaggregation/PD_DISAGGREGATION_TEST_RESULTS.md @e9d1f91 (Apache-2.0),
    # a_llmd_doks_pd_results.md l.27-40: prompts repeat somewhat ('similar request patterns'), how much is open.
    text = ("### Performance Metrics\n\n#### Prefill Performance\n- **Time to First Token**: ~0.3s\n\n#### KV Cache Transfer\n"
            "- **Transfer Latency**: <5ms between prefill and decode pods\n- **Cache Hit Rate**: 85% for similar request patterns\n")
    assert items(text)["distinct_prefixes"] == "partial"


def test_a_dataset_named_in_chinese_leaves_prefix_sharing_partial():
    # SOURCES.md l.67: PaddlePaddle/FastDeploy docs/zh/features/plas_attention.md @0008fbe (Apache-2.0),
    # c_fastdeploy_plas_zh.md l.130 (the TTFT column follows at l.138)
    text = ("### 性能\n\n我们从 InfiniteBench 中选择了一个子集 (longbook_sum_eng) 作为性能评估数据集。\n\n"
            "| | QPS | Time to First token(s) |\n|---|---|---|\n| PLAS | 0.25 | 9.8 |\n")
    assert items(text)["distinct_prefixes"] == "partial"


# ---------------------------------------------------------------- prefix_cache_state


def test_kv_reuse_across_requests_without_each_runs_cache_state_is_partial():
    # LABELLING.md (after adjudicating batch 1): when the cache itself is benchmarked, declared needs the cache state
    # at the start of each compared run; reuse alone is partial.
    # SOURCES.md l.116: LMCache/LMCache docs/source/examples/measuring_improvements.rst @54641ca (Apache-2.0),
    # g_lmcache_measuring.txt l.76-78
    lmcache = ("Performance metrics\n\nHere we show the improvements in Time To First Token (TTFT) using LMCache. We perform "
               "this on a context length of 16384 tokens and reuse the same context for 10 requests.\n")
    assert items(lmcache)["prefix_cache_state"] == "partial"
    # SOURCES.md l.77: mit-han-lab/llm-awq tinychat/README.md @b6ef42c (MIT), e_tinychat_readme.md l.219-223
    tinychat = ("In TinyChat 2.0, we introduce chunk-prefilling optimization for multi-round dialogues. For multi-turn inputs, "
                "TinyChat will reuse the KV Cache from previous conversations without recomputing them.\n\n#### RTX 4090 Results\n\n"
                "| History | TTFT (ms) |\n|---|---|\n| 1024 | 41 |\n")
    assert items(tinychat)["prefix_cache_state"] == "partial"


def test_a_cache_flag_on_one_engine_leaves_the_other_engines_cache_state_partial():
    # After tests/data/audit/real/batch7/m_zhilight_benchmarks.md l.47-50: '--disable-radix-cache' on the SGLang side
    # only; the vLLM runs it is compared with say nothing of their prefix cache.
    def page(vllm_flags: str) -> str:
        return ("# Results\n\nMiniCPM-2B on 1x L40, 3.7k-token prompts: vLLM 1,210 tok/s, SGLang 1,380 tok/s.\n\n"
                f"- vLLM args: `python -m vllm.entrypoints.openai.api_server --model m --max-num-seqs 100{vllm_flags}`\n"
                "- SGLang args: `python -m sglang.launch_server --model-path m --log-requests --disable-radix-cache`\n")
    assert items(page(""))["prefix_cache_state"] == "partial"
    assert items(page(" --no-enable-prefix-caching"))["prefix_cache_state"] == "declared"


# ---------------------------------------------------------------- flag glossaries


def test_a_flag_glossary_states_no_sampling_setting():
    # SOURCES.md l.100: ztxz16/fastllm docs/benchmark.md @43cef01 (Apache-2.0), f_fastllm_benchmark_zh.md l.1-18: a list
    # that explains the bench tool's flags says what '--temperature' does, not what the measured runs used
    # (LABELLING.md: sampling is declared for the runs' temperature / top-p / top-k / greedy; defaults are not declarations).
    text = ("## 推理速度\n\n可以使用benchmark程序进行测速\n\n常用参数：\n\n- `--input_tokens`：构造 benchmark 输入的 token 长度。\n"
            "- `--temperature`：生成温度，设置为 `0` 或负数时使用 greedy decoding。\n\n"
            "| 模型 | 速度 |\n|---|---|\n| chatglm-6b-int4 | 40.5 tokens/s |\n")
    assert items(text)["sampling"] == "missing"
    assert items(text.replace("常用参数：", "我们使用 `--temperature 0`（greedy decoding）测试："))["sampling"] == "declared"


# ---------------------------------------------------------------- prompt_length


def test_prompts_from_unnamed_datasets_are_a_partial_prompt_length():
    # SOURCES.md l.119: hao-ai-lab/LookaheadDecoding README.md @08fb2d8 (Apache-2.0), g_lookahead_readme.md l.88-90.
    # LABELLING.md prompt_length: partial for 'a chat dataset'; datasets neither named nor measured are no more.
    text = ("### Experimental Results\n\nOur study shows lookahead decoding substantially reduces latency, ranging from 1.5x "
            "to 2.3x on different datasets on a single GPU. See the figure below.\n")
    assert items(text)["prompt_length"] == "partial"


# ---------------------------------------------------------------- spec_draft_tokens


def test_a_draft_named_without_tokens_per_step_is_a_partial_spec_draft_tokens():
    # LABELLING.md spec_draft_tokens: the draft method/model and k; the draft alone is partial.
    # SOURCES.md l.96: pytorch-labs/gpt-fast README.md @c9f683e (BSD-3-Clause), f_gptfast_readme.md l.88, l.103-104
    gptfast = ("## Benchmarks\nBenchmarks run on an 8xA100-80GB. Note that all benchmarks are run at *batch size=1*.\n\n"
               "### Speculative Sampling\n[Verifier: Llama-70B (int4), Draft: Llama-7B (int4)](./scripts/speculate_70B_int4.sh): "
               "48.4 tok/s\n")
    assert items(gptfast)["spec_draft_tokens"] == "partial"
    # SOURCES.md l.79: ymcui/Chinese-LLaMA-Alpaca-2 README.md @406cbc3 (Apache-2.0), e_chinese_alpaca2_readme_zh.md l.327-333
    alpaca = ("### 投机采样加速效果评测\n\n通过投机采样方法并借助Chinese-LLaMA-2-1.3B，可以加速7B的LLaMA模型的推理速度。\n\n"
              "| 草稿模型 | 草稿模型速度 | 目标模型 | 目标模型速度 | 投机采样速度（加速比） |\n| :--- | :---: | :--- | :---: | :---: |\n"
              "| Chinese-LLaMA-2-1.3B |  7.6 | Chinese-LLaMA-2-7B |  49.3 | 36.0（1.37x） |\n")
    assert items(alpaca)["spec_draft_tokens"] == "partial"


def test_a_speculation_method_without_its_draft_size_is_a_partial_spec_draft_tokens():
    # SOURCES.md l.119: hao-ai-lab/LookaheadDecoding README.md @08fb2d8 (Apache-2.0), g_lookahead_readme.md l.88-90
    lookahead = ("### Experimental Results\n\nOur study shows lookahead decoding substantially reduces latency, ranging from "
                 "1.5x to 2.3x on different datasets on a single GPU.\n")
    assert items(lookahead)["spec_draft_tokens"] == "partial"
    # SOURCES.md l.120: intel/ipex-llm README.zh-CN.md @086a8b3 (Apache-2.0), g_ipexllm_readme_zh.md l.45
    ipex = ("## 最新更新\n\n- [2024/02] `ipex-llm` 现在支持 *Self-Speculative Decoding*，这使得在 Intel GPU 和 CPU 上为 FP16 和 "
            "BF16 推理带来 **~30% 加速** 。\n")
    assert items(ipex)["spec_draft_tokens"] == "partial"


# ---------------------------------------------------------------- output_length_completed and stopping


def test_a_fixed_generation_in_the_benchmark_method_declares_completed_length_and_stopping():
    # LABELLING.md (after the second labelling of batch 3): a fixed generation length stated for the benchmark that
    # produced the numbers declares the completed length and stopping too.
    # SOURCES.md l.115: InternLM/lmdeploy docs/en/quantization/w4a16.md @5dcbdc7 (Apache-2.0), g_lmdeploy_w4a16_en.md l.119
    lmdeploy = ("## Inference Performance\n\nWe benchmarked the Llama-2-7B-chat and Llama-2-13B-chat models with 4-bit "
                "quantization on NVIDIA GeForce RTX 4090. And we measure the token generation throughput (tokens/s) by setting "
                "a single prompt token and generating 512 tokens. All the results are measured for single batch inference.\n\n"
                "| model | llm-awq | mlc-llm | turbomind |\n|---|---|---|---|\n| Llama-2-7B-chat | 112.9 | 159.4 | 206.4 |\n")
    s = items(lmdeploy)
    assert s["output_length_completed"] == "declared" and s["stopping"] == "declared"
    # SOURCES.md l.97: EricLBuehler/mistral.rs releases/v0.9.0/report.md @69eebd7 (MIT), f_mistralrs_v090_cpu.md l.53-55
    mistralrs = ("## Method\n\n- Workloads: prompt lengths and decode depths of 128, 512, 2048, 4096, 8192; 256 generated tokens "
                 "per decode depth; 1 warmup, 2-3 measured iterations.\n\n| Model | Decode mean |\n|---|---:|\n| qwen3-4b | 21.3 t/s |\n")
    assert items(mistralrs)["stopping"] == "declared"


def test_time_to_generate_n_tokens_is_a_partial_completed_length():
    # SOURCES.md l.45: predibase/lorax docs/guides/cuda_graphs.md @a7394ba (Apache-2.0), d_lorax_cuda_graphs.md l.31-33.
    # LABELLING.md (after the second labelling of batch 2): 'time to generate N tokens' declares the requested length
    # only; the completed one is not reported or forced.
    text = "## Benchmarks\n\ngpt2-medium, 1x A100, time to generate 100 tokens:\n\nno adapter:\n\n- baseline: 1.739 s\n"
    s = items(text)
    assert s["output_length_requested"] == "declared" and s["output_length_completed"] == "partial"


# ---------------------------------------------------------------- warmup


def test_torch_compile_is_no_warmup_procedure():
    # LABELLING.md warmup: declared for the procedure or the graph-capture state; torch.compile states neither.
    # SOURCES.md l.98: pytorch/ao docs/source/workflows/inference.md @a4ee1fb (BSD-3-Clause), f_torchao_inference.md l.214-216
    torchao = ("### Int8DynamicActivationIntxWeightConfig Quantization\nThe benchmarks below were run on an M1 Mac Pro, with 8 "
               "perf cores, and 2 efficiency cores, and 32GB of RAM.  In all cases, torch.compile was used.\n\n"
               "| Model | tokens/s |\n|---|---|\n| Llama-3.1-8B | 16.9 |\n")
    assert items(torchao)["warmup"] == "missing"
    # SOURCES.md l.10: sgl-project/sglang docs/backend/speculative_decoding.md @1b1acd1 (Apache-2.0),
    # b_sglang_eagle_doc.md l.12-36: a bare CUDA-graph setting (--cuda-graph-max-bs) stays partial
    # (LABELLING.md, after batch 2); torch.compile does not raise it to declared.
    sglang = ("## Performance Highlights\n\n- EAGLE Decoding in SGLang (w/ `torch.compile`): ~316 tokens/s\n\n"
              "### EAGLE Decoding with `torch.compile`\n\n```bash\npython3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf "
              "--speculative-algo EAGLE --enable-torch-compile --cuda-graph-max-bs 2\n```\n")
    assert items(sglang)["warmup"] == "partial"


# ---------------------------------------------------------------- how-to sections


def test_a_chinese_how_to_start_section_states_no_setting_of_the_runs():
    # SOURCES.md l.29: microsoft/DeepSpeed blogs/deepspeed-fp6/03-05-2024/README-Chinese.md @38327e0 (Apache-2.0),
    # a_deepspeed_fp6_zh.md l.72, l.91-99: '如何开始' (how to start) holds the quick start, like an English 'How to run'
    # section; its max_new_tokens=128 is not the measured runs' output length (LABELLING.md: how-to code declares nothing).
    text = ("# 3. 使用FP6服务LLMs\n\n我们在两个A100 GPU-80G上评估了LLaMA-2-70b模型使用FP6量化的服务性能，实现了3.5倍的推理吞吐量增加。\n\n"
            "# 4. 如何开始 <a name=\"how-to-start\"></a>\n\nDeepSpeed-FP6的量化和推理体验简单方便。这里我们以LLaMa-2-70B模型为例：\n"
            "```python\nimport mii\npipe = mii.pipeline(\"NousResearch/Llama-2-70b-hf\", quantization_mode='wf6af16')\n"
            "response = pipe([\"DeepSpeed is\", \"Seattle is\"], max_new_tokens=128)\nprint(response)\n```\n")
    assert items(text)["output_length_requested"] == "missing"


# ---------------------------------------------------------------- request_count


def test_repetitions_of_a_single_sequence_benchmark_declare_the_request_count():
    # SOURCES.md l.84: alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md @01a9ee8 (Apache-2.0),
    # e_mnn_riscv_k3_zh.md l.10-11, l.34-42: 5 repetitions per process, 3 fresh processes per scenario.
    # LABELLING.md request_count: declared for the number of requests; a count derived from flags is declared.
    text = ("## 1. 性能结论\n\n测试统一使用 8 线程。prefill 使用 pp512，decode 使用 tg128。每个进程内部重复 5 次，\n"
            "最终结果取 3 个独立进程的算术平均值。\n\n| 模型 | pp512 | tg128 |\n|---|---:|---:|\n| Qwen3-0.6B | 381.24 tok/s | 54.49 tok/s |\n")
    assert items(text)["request_count"] == "declared"


def test_fixed_generation_lengths_and_eos_switched_off_declare_the_completed_length():
    # LABELLING.md (batch 3): a fixed generation length stated for the benchmark declares completed length and stopping;
    # outputs forced past EOS run to the requested length.
    cases = [
        # real/batch7/n_llmfoundry_inference_bench.md l.86 (mosaicml/llm-foundry, Apache-2.0)
        "We measured 30 tok/s on 1x A100 80GB with a fixed output length (64).\n",
        # real/batch11/w_sglang_cutedsl_ar_fusion.md l.79-80 (sgl-project/sglang, Apache-2.0)
        "Hardware: 8x B300. Workload: 1024 input and 1024 output tokens, every request the same length. TTFT 40 ms.\n",
        # real/batch9/r_mistralrs_v093_report.md l.69 (EricLBuehler/mistral.rs, MIT)
        "Output throughput 40 tok/s on 1x H100 with `--max-tokens 512`, EOS ignored.\n",
        # real/batch14/ab_dynatree_papers_readme_zh.md l.225 (cny123222/DynaTree, MIT)
        "在 1x A100 上测得 93 t/s，max_new_tokens=1000。所有 benchmark 都禁用 EOS token，确保生成指定数量的 tokens。\n",
    ]
    for text in cases:
        assert items(text)["output_length_completed"] == "declared", text
    # a cap on generated tokens is a requested length, not a completed one (aa_cllm_concurrency_report_zh.md l.352)
    assert items("实测 40 tokens/s。\n\n- **最大生成token数**: 50\n")["output_length_completed"] != "declared"


def test_a_warm_up_excluded_from_the_metrics_accounts_for_the_dropped_sample():
    # real/batch14/ab_ttmetal_specdec_3b.md l.10 and ab_ttmetal_specdec_8b.md l.128 (SliferSkyd/tt-metal, Apache-2.0):
    # which sample was dropped and why (LABELLING.md exclusions: declared)
    for text in ("## Test Configuration\n\n- Prompts: 10 diverse prompts (9 used for metrics, excluding warmup)\n\nAverage TTFT 121 ms.\n",
                 "All metrics exclude warmup prompt. Average TTFT 121 ms.\n"):
        assert items(text)["exclusions"] == "declared", text


def test_a_ratio_of_latency_is_no_latency_value():
    # LABELLING.md (batches 7-9): "a ratio of latency ... is not a per-request latency value: latency_distributions stays
    # missing when nothing else is reported". real/batch14/ab_kvzip_readme.md l.18 (snu-mllab/KVzip, MIT) and
    # real/batch9/t_lmcache_cohere_coreweave.md l.56 (LMCache blog, MIT)
    for text in ("KVzip compresses the KV cache by 3-4x and gives a 2× decrease in decoding latency on 1x A100.\n",
                 "Results on 8x H100: 22–32% lower TTFT and 41% higher decoding throughput with LMCache.\n"):
        assert items(text)["latency_distributions"] == "missing", text
    # a value beside the ratio is one (partial: no distribution)
    assert items("On 1x A100, TTFT drops from 820 ms to 410 ms, a 2x reduction.\n")["latency_distributions"] == "partial"
