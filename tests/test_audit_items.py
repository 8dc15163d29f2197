"""Contract items judged as LABELLING.md says, on short passages of real published write-ups.

Each passage is cut from a document listed in tests/data/audit/real/SOURCES.md (repository, path,
commit and licence there); the expected verdicts follow LABELLING.md and its clarifications, which a
test names where it decides the case.
"""

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark


def report(text: str):
    return audit_benchmark(AuditRequest(text=text))


def items(text: str) -> dict[str, str]:
    return {f.id: f.status for f in report(text).items}


SPEC = ("spec_draft_tokens", "spec_acceptance", "spec_verification", "spec_rejected_work")


# ---------------------------------------------------------------- speculative decoding


def test_speculation_switched_off_for_every_engine_is_not_used():
    # efeslab/Nanoflow README.md (Apache-2.0): the baselines' configuration
    text = ("# NanoFlow\n\n## Benchmarks\n\nWe evaluate on A100 80GB SXM and choose vLLM v0.5.3 as a baseline. Note that all "
            "frameworks turn off specific optimizations like quantization, speculative decoding, prefix cache, etc.. "
            "NanoFlow reaches 1.91x the throughput of vLLM.\n")
    assert {items(text)[x] for x in SPEC} == {"not_applicable"}


def test_a_feature_that_is_not_supported_is_not_used():
    # InternLM/lmdeploy docs/zh_cn/quantization/kv_quant.md @1263d5c (Apache-2.0): limits of TurboQuant
    text = ("# TurboQuant\n\n## 性能测试\n\n| 指标 | Baseline | TurboQuant |\n|---|---|---|\n| 输出吞吐 | 2186.7 tok/s | 2027.0 tok/s |\n\n"
            "## 限制\n\n- **不支持推测解码**：不支持 speculative decoding\n- K=4bit QJL4 + V=2bit MSE 的组合\n")
    assert {items(text)[x] for x in SPEC} == {"not_applicable"}


def test_a_feature_list_is_not_use_but_a_reported_speedup_is():
    # turboderp/exllamav2 README.md (MIT): a capability sentence, then a table of plain tokens/s
    text = ("# ExLlamaV2\n\nThe dynamic generator supports all inference, sampling and speculative decoding features.\n\n"
            "| Model | Mode | tokens/s |\n|---|---|---|\n| Llama2 7B | EXL2 4.0 bpw | 164 t/s |\n")
    assert items(text)["spec_draft_tokens"] == "not_applicable"
    text += "\nWith a 4-token draft model, speculative decoding gave a 1.9x speed-up at batch 1.\n"
    s = items(text)
    assert s["spec_draft_tokens"] == "declared" and s["spec_acceptance"] == "missing"


def test_a_range_of_heads_or_an_example_count_is_partial():
    # pytorch/pytorch.github.io _posts (IBM's speculator post, BSD-style): heads given as ranges and an example
    text = ("# Speculative decoding with MLP speculators\n\nThe speculator gives a 2x speedup on Llama2 13B chat. "
            "Each head predicts one more token; for example, 3 heads will predict 3 additional tokens. In practice "
            "we find 3-4 heads work well for language models and 6-8 heads for code models.\n")
    assert items(text)["spec_draft_tokens"] == "partial"


def test_acceptance_must_be_a_measured_figure():
    # Snowflake-Labs/ArcticInference docs (Apache-2.0): qualitative acceptance is no figure
    text = ("# Arctic speculator\n\nThe speculator balances model simplicity, low latency, and high acceptance rates; "
            "with vLLM v0.8.4 it cuts draft latency from ~1.47 ms/token to ~0.47 ms/token.\n")
    assert items(text)["spec_acceptance"] == "missing"


def test_an_acceptance_rate_alone_makes_rejected_work_partial():
    # LABELLING.md, batch-3 clarifications: the rejected share merely follows from the acceptance rate
    text = ("# EAGLE on one H100\n\nWith num_speculative_tokens 5 the draft reached a mean acceptance length of 3.1 "
            "tokens and a 2.1x speed-up over plain decoding.\n")
    s = items(text)
    assert (s["spec_acceptance"], s["spec_rejected_work"]) == ("declared", "partial")


def test_table_rows_of_verification_and_rejected_tokens_declare_them():
    text = ("# EAGLE-3 accounting\n\nMeasured over the concurrency-4 run with num_speculative_tokens 4; TPOT fell 2.7x.\n\n"
            "| counter | value |\n|---|---|\n| verification steps (drafts) | 41,200 |\n| acceptance rate | 59.5% |\n"
            "| rejected draft tokens | 66,740 |\n")
    s = items(text)
    assert (s["spec_verification"], s["spec_rejected_work"]) == ("declared", "declared")


def test_item_reasons_quote_the_statement_they_rest_on():
    found = {f.id: f for f in report("# Runs\n\nWe served meta-llama/Llama-3.1-8B-Instruct with vLLM 0.6.3 on 1x H100.\n").items}
    assert "'meta-llama/Llama-3.1-8B-Instruct' (l.3)" in found["model_artifact"].why
    assert "(l.3)" in found["engine_revision"].why


def test_item_reasons_quote_whole_numbers_not_the_first_digit_a_pattern_stops_at():
    # real/batch3/e_omniserve_readme.md l.250 and real/batch7/m_zhilight_benchmarks.md l.26 (SOURCES.md): quoted as
    # 'input context length is 1' and 'Prompt length: 2' before
    why = {f.id: f.why for f in report("# QServe\n\nThe input context length is 1024 tokens; output 512 tokens on one "
                                       "A100: 3,485 tok/s.\n").items}["prompt_length"]
    assert "'input context length is 1024' (l.3)" in why
    why = {f.id: f.why for f in report("# ZhiLight\n\nPrompt length: 2.8k, output 512, on one RTX 4090: TTFT 310 ms.\n").items}
    assert "'Prompt length: 2.8k' (l.3)" in why["prompt_length"]


# ---------------------------------------------------------------- engine_revision


def test_a_pinned_baseline_does_not_pin_the_system_it_is_compared_with():
    # efeslab/Nanoflow README.md (Apache-2.0): versioned baselines, unversioned NanoFlow
    text = ("# NanoFlow\n\n## Benchmarks\n\nWe evaluate on A100 80GB SXM and choose vLLM v0.5.3, Deepspeed-FastGen v0.2.3 and "
            "TensorRT-LLM v0.8.0 as baselines. NanoFlow provides 1.91x throughput boost compared to them.\n")
    found = {f.id: f for f in report(text).items}["engine_revision"]
    assert found.status == "partial" and "'NanoFlow' (l.1)" in found.why


def test_engine_names_inside_chinese_text_are_read():
    # ModelTC/lightllm docs (Apache-2.0): "lightllm" touches Chinese characters on both sides
    text = "# 服务性能评测\n\n本文中，我们使用 LLaMA-7B 模型，在80G的A800显卡上，比较了lightllm和 vLLM==0.1.2 的性能。吞吐 8.98 requests/s。\n"
    assert items(text)["engine_revision"] == "partial"


def test_commit_links_presented_as_the_versions_used_pin_each_engine():
    # mlc-ai/llm-perf-bench README.md (Apache-2.0), "Setup Details"
    text = ("# Performance\n\n| Model | MLC LLM | vLLM |\n|---|---|---|\n| Llama2-7B | 181.5 | 149.2 |\n\n## Setup Details\n\n"
            "We are using the following commits:\n"
            "- MLC LLM [commit](https://github.com/mlc-ai/mlc-llm/commits/8e94910ec7967cbe749dbf04713f96a52cccbc19) on 10/04/2023;\n"
            "- vLLM [commit](https://github.com/vllm-project/vllm/commit/acbed3ef40f015fcf64460e629813922fab90380) on 10/06/2023;\n")
    assert items(text)["engine_revision"] == "declared"


def test_a_pull_request_comparing_main_with_its_head_names_its_own_system_without_a_version():
    # LABELLING.md stack: a document's own system with no version is partial
    # SOURCES.md batch6 row h_vllm_pr3692 (vllm-project/vllm PR #3692, Apache-2.0), l.1-2, l.5, l.7-10 and l.22-25
    text = ("vllm-project/vllm · pull request #3692 · merged · Python\n# [Kernel] DBRX Triton MoE kernel H100\n\n"
            "Results from running `benchmarks/benchmark_latency.py --model=databricks/dbrx-instruct --num-iters 50 "
            "--batch-size --trust-remote-code --tp <tp> --batch-size <bs>`\n\n"
            "Main branch\n```\nTP4\nBatch size 8 (default): Avg latency: 3.383673385512084 seconds\n```\n\n"
            "This PR\n```\nTP4\nBatch size 8: Avg latency: 3.2545747229084374 seconds\n```\n")
    assert items(text)["engine_revision"] == "partial"
    # SOURCES.md batch2 row d_giex_pr2666 (kubernetes-sigs/gateway-api-inference-extension PR #2666, Apache-2.0), l.17
    text = ("**Benchmarking results**\n\nThese numbers are comparing the changes in this PR with EPP on main. "
            "**The same_url_multi_text.py takes like 14.41 seconds on main and it takes 9.06 seconds on this PR.**\n")
    assert items(text)["engine_revision"] == "partial"
    # a company's own serving system, never versioned (deepseek-ai/open-infra-index 202502OpenSourceWeek day 6, CC0-1.0)
    text = "# Statistics\n\nDeepSeek's online inference system delivered ~14.8k tokens/s output per H800 node during decoding.\n"
    assert items(text)["engine_revision"] == "partial"


def test_a_project_page_that_installs_its_own_software_names_the_engine_without_a_version():
    # After real/batch8/p_moe_infinity_readme.md and real/batch10/u_bminf_readme_zh.md: no known engine is named, the
    # numbers come from the project the page installs (LABELLING.md: own system with no version is partial)
    results = "# MoE-Infinity\n\n## Performance\n\n| System | per-token latency (s) |\n|---|---|\n| MoE-Infinity | 0.85 |\n\n"
    assert items(results + "## Installation\n\n```\npip install moe-infinity\n```\n")["engine_revision"] == "partial"
    assert items(results + "## 安装\n\n```\npip install bminf\n```\n")["engine_revision"] == "partial"
    # a results page that names no software at all was measured with something: its own code, unversioned
    # (real/batch11/x_torchao_floatx_readme.md l.52 'using the scripts in _models/llama', real/batch8/
    # q_rknn_llm_benchmark.md; labellers said partial on 7 of 13 such pages of batches 1-11)
    found = {f.id: f for f in report(results + "## Notes\n\nMeasured on 1x A5000.\n").items}["engine_revision"]
    assert found.status == "partial" and "MoE-Infinity | 0.85" in found.why and "(l.7)" in found.why
    # results from hosted model APIs name no serving software: missing (self-written blind4_arena_speed.md)
    hosted = ("# Speed board\n\nSpeed is the median output tokens per second from each model's default API provider.\n\n"
              "| model | speed (tok/s) | provider |\n|---|---|---|\n| gpt-4.1 | 96 | OpenAI |\n")
    assert items(hosted)["engine_revision"] == "missing"


def test_an_engine_named_only_in_the_usage_sections_is_named_without_a_version():
    # SOURCES.md e_glm4_inference_zh: THUDM/GLM-4 inference/README_zh.md @3df530d, l.15-36 and l.92-103 (cut):
    # the measured table names no engine, the page's own usage runs vLLM; named, not versioned -> partial
    text = ("# Inference\n\n### 相关推理测试数据\n\n+ GPU: NVIDIA H100 80GB HBM3 * 8\n\n#### GLM-4-32B-0414\n\n"
            "| 精度 | 显卡数量 | 首 Token 延迟 | Token 输出速度 |\n|---|---|---|---|\n| BF16 | 1 | 0.16s | 24.4 tokens/s |\n\n"
            "## 快速开始\n\n### 使用 vLLM 后端代码\n\n+ 构建 OpenAI 类 API 服务。\n\n"
            "```shell\nvllm serve THUDM/GLM-4-9B-0414 --tensor_parallel_size 2\n```\n")
    found = {f.id: f for f in report(text).items}["engine_revision"]
    assert found.status == "partial" and "vllm" in found.why.lower()


def test_a_kernel_library_measured_on_its_own_page_is_software_without_a_version():
    # SOURCES.md c_flashmla_readme: deepseek-ai/FlashMLA README.md @9241ae3, l.1 and l.26-35 (cut): the library's
    # own benchmark figures, no release or commit given -> partial
    text = ("# FlashMLA\n\n## Performance\n\n```bash\npython tests/test_flash_mla_dense_decoding.py\n```\n\n"
            "The dense MLA decoding kernel achieves up to 3000 GB/s in memory-bound configuration and 660 TFLOPS in "
            "computation-bound configuration on H800 SXM5 with CUDA 12.8.\n")
    assert items(text)["engine_revision"] == "partial"


def test_webllm_with_its_package_version_is_a_pinned_engine():
    # real/batch6/i_webllm_issue773.md l.17 (SOURCES.md): '@mlc-ai/web-llm version: 0.2.80', MLC's in-browser engine
    text = ("# WebLLM tokens/sec\n\n### Environment\n\n- @mlc-ai/web-llm version: 0.2.80\n- Browser: Chrome 144\n\n"
            "RTX 4090: ~46 tokens/sec generating with Llama-3.1-8B-Instruct-q4f16_1-MLC.\n")
    assert items(text)["engine_revision"] == "declared"
    assert items(text.replace("version: 0.2.80", "(latest)"))["engine_revision"] == "partial"


def test_an_engine_named_by_its_command_name_is_that_engine():
    # SOURCES.md f_fastllm_benchmark_zh: ztxz16/fastllm docs/benchmark.md @43cef01, l.1-11 (cut): 'ftllm' is
    # fastllm's command; the engine is named, with no version -> partial
    text = ("## 推理速度\n\n### ftllm benchmark\n\nPython 包安装后可以直接使用 `ftllm benchmark`：\n\n"
            "| 模型 | 显卡 | batch | 速度 |\n|---|---|---|---|\n| ChatGLM-6b-fp16 | RTX 4090 | 64 | 2919 tokens/s |\n")
    assert items(text)["engine_revision"] == "partial"


def test_a_version_heading_over_results_pins_the_only_engine_named():
    # InternLM/lmdeploy docs/zh_cn/benchmark/deepseek_v3.md (Apache-2.0): results per release and commit
    text = ("# DeepSeekV3 基准测试\n\n使用 LMDeploy 测试。\n\n### v0.7.1 + `9528a74`\n\n"
            "| max bsz | input-len | output-len | output token throughput |\n|---|---|---|---|\n| 1024 | 2048 | 1024 | 3120 |\n")
    assert items(text)["engine_revision"] == "declared"


def test_navigation_links_identifiers_and_terms_are_not_engines_that_ran():
    text = ("# Results\n\n- [Llama.cpp](#llamacpp)\n\nWe ran SGLang v0.4.1 on 1x H100: TTFT 40 ms. Namespace: llm-d-pd. "
            "AIPerf's ITL is what vLLM calls TPOT.\n")
    assert items(text)["engine_revision"] == "declared"


# ---------------------------------------------------------------- kernels


def test_a_kernel_or_engine_thanked_in_the_acknowledgements_is_not_one_the_runs_used():
    # SOURCES.md f_gptfast_readme: pytorch-labs/gpt-fast README.md @c9f683e, l.88-94 and l.226-229 (cut): flash attention
    # appears only in the thanks (LABELLING.md: links and acknowledgements declare nothing)
    text = ("# Results\n\n## Benchmarks\n\nBenchmarks run on an 8xA100-80GB.\n\n| Model | Technique | Tokens/Second |\n"
            "|---|---|---|\n| Llama-2-7B | Base | 104.9 |\n\n## Acknowledgements\n\nThanks to:\n"
            "* Lightning AI for supporting pytorch and work in flash attention, int8 quantization, and LoRA fine-tuning.\n"
            "* GGML for driving forward fast, on device inference of LLMs\n* vLLM for the PagedAttention idea\n")
    s = items(text)
    # (the engine is the page's own gpt-fast code, unversioned: partial, as its labeller said; the thanked vLLM is
    # not named as the engine)
    assert s["kernels"] == "missing"
    assert s["engine_revision"] == "partial" and "vLLM" not in {f.id: f for f in report(text).items}["engine_revision"].why


def test_a_kernel_in_a_capability_sentence_is_not_a_kernel_of_the_runs():
    # turboderp/exllamav2 README.md (MIT) and SafeAILab/EAGLE README.md (Apache-2.0): feature notes
    text = ("# Performance\n\nExLlamaV2 now supports paged attention via Flash Attention 2.5.7+.\n\n"
            "| Model | tokens/s |\n|---|---|\n| Llama2 7B | 164 |\n")
    assert items(text)["kernels"] == "missing"


def test_cuda_graphs_torch_compile_and_triton_server_are_not_kernels():
    # sgl-project/sglang docs (Apache-2.0), predibase/lorax docs (Apache-2.0), triton-inference-server/tutorials (BSD-3)
    text = ("# EAGLE in Triton Inference Server\n\nEAGLE decoding in SGLang (w/ `torch.compile`): ~316 tokens/s on one H100. "
            "CUDA graphs were captured for batch sizes up to 8.\n")
    assert items(text)["kernels"] == "missing"


def test_generic_kernel_words_and_a_build_backend_are_partial():
    # kvcache-ai/ktransformers docs (Apache-2.0): own kernels named only generically
    assert items("# V0.3\n\nPrefill 255 tokens/s on 2x Xeon 6454S with our specially designed AMX kernels.\n")["kernels"] == "partial"
    # ggml-org/llama.cpp docs/development/token_generation_performance_tips.md (MIT)
    assert items("# Example\n\nThese runs used a CUDA build on 1x A6000: 8.7 tokens/second.\n")["kernels"] == "partial"


def test_a_named_execution_backend_without_a_kernel_is_partial():
    # LABELLING.md, stack: kernels partial for a backend with no kernel named ('a CUDA build'); batch6 golds
    # SOURCES.md batch6 row i_modelopt_windows_bench (NVIDIA/Model-Optimizer examples/windows/Benchmark.md, Apache-2.0), l.9-11
    text = ("### 1.1 Performance Comparison\n\nAll performance metrics are tested using the onnxruntime-genai perf benchmark "
            "with the DirectML backend.\n\n- **Configuration**: Windows OS, GPU RTX 4090, NVIDIA Model Optimizer v0.19.0.\n")
    assert items(text)["kernels"] == "partial"
    # SOURCES.md batch6 row i_webllm_issue773 (mlc-ai/web-llm issue #773, Apache-2.0), l.15-20 and l.34
    text = ("### Environment\n\n- @mlc-ai/web-llm version: 0.2.80\n- Browser: Chrome 144\n- Backend: WebGPU\n\n"
            "### Results\n\n- RTX 4090: ~46 tokens/sec\n")
    assert items(text)["kernels"] == "partial"
    # SOURCES.md batch6 row i_llamacpp_pr5322 (ggml-org/llama.cpp PR #5322, MIT), l.8-12 and l.17: a build flag
    text = ("Tested with `mistral-7b-instruct-v0.1.Q4_K_M.gguf` model with Mac M1 Max (RAM: 32Go):\n\n```bash\n"
            "$ LLAMA_VULKAN=1 make\n$ ./main -m ./models/mistral-7b-instruct-v0.1.Q4_K_M.gguf -n 128 -ngl 1\n"
            "llama_print_timings:        eval time =    1670,33 ms /    23 runs   (   72,62 ms per token,    13,77 tokens per second)\n```\n")
    assert items(text)["kernels"] == "partial"
    # SOURCES.md batch6 row i_llamacpp_pr2959 (ggml-org/llama.cpp PR #2959, MIT), l.2-10: a llama-bench 'backend' column
    text = ("# More optimizations on metal\n\nOn 30-core M2 Max:\n\n"
            "| model                        | backend  | test     |    t/s (Master)|     t/s (PR)   |   Speedup|\n"
            "|------------------------------|----------|----------|---------------:|---------------:|---------:|\n"
            "| LLaMA 7B mostly Q4_0         | Metal    | tg 32    |    62.16 ± 0.07| 62.57 ± 0.08   |   1.007  |\n")
    assert items(text)["kernels"] == "partial"


def test_a_kernel_named_for_one_engine_of_a_comparison_is_partial():
    # efeslab/Nanoflow README.md (Apache-2.0): NanoFlow's kernels, nothing for the baselines
    text = ("# NanoFlow\n\nNanoFlow integrates CUTLASS for GEMM and FlashInfer for attention.\n\n## Benchmarks\n\n"
            "On 8x A100 80GB, NanoFlow reaches 1.91x the throughput of vLLM v0.5.3.\n")
    assert items(text)["kernels"] == "partial"
    text = "# Runs\n\nOn 1x H100, SGLang 0.4 and vLLM 0.6.3 both used the FlashInfer attention backend: 40 ms TTFT.\n"
    assert items(text)["kernels"] == "declared"


def test_a_kernel_inside_a_model_name_is_not_a_kernel():
    # OpenBMB/MiniCPM README (Apache-2.0): a download table of quantized checkpoints
    text = "# Results\n\n| Model | tokens/s |\n|---|---|\n| MiniCPM-4.1-8B-Marlin | 80 |\n"
    assert items(text)["kernels"] == "missing"


# ---------------------------------------------------------------- hardware and the setups it must cover


def test_a_gpu_count_without_the_accelerator_model_is_partial():
    # SOURCES.md g_vllm_pr5046: vllm-project/vllm pull request #5046, l.7-9 (cut): '1GPU' / '4GPU' row labels, no model
    text = ("# Bump version to v0.4.3\n\n|  | Offline Request throughput (req/s)/ Token throughput (tok/s) |\n| --- | --- |\n"
            "| 1GPU, Llama 7B, v0.4.2 | 14.33/6895.75 |\n| 4GPU,  Llama 70B, v0.4.2 | 8.05/3871.86 |\n")
    assert items(text)["hardware"] == "partial"
    # SOURCES.md b_lmdeploy_dsv3_zh: InternLM/lmdeploy docs/zh_cn/benchmark/deepseekv3.md @6193d7c, l.7-12 (cut):
    # two nodes at TP16 give the count, the GPU model is never named (LABELLING.md: '8 GPUs' is partial)
    text = ("# DeepSeekV3 基准测试\n\n### v0.7.1 + `9528a74`\n\n2 节点, TP16\n\n"
            "| max bsz | input-len | output-len | per node output token thr (tok/s) |\n|---|---|---|---|\n| 1024 | 2048 | 1024 | 3120 |\n")
    assert items(text)["hardware"] == "partial"


def test_hardware_stated_for_one_section_of_results_only_is_partial():
    # efeslab/Nanoflow README.md (Apache-2.0): counts in two sections' headings, none for the third
    text = ("# NanoFlow\n\n### Online latency: Llama2-70B on 8xA100 (80GB)\n\nAt 4 req/s NanoFlow keeps normalized latency "
            "under 50 ms/token.\n\n### Feasibility: offline throughput on different models\n\nLLaMA-3-8B reaches 1,290 tokens/s "
            "per GPU with input 1024 and output 512.\n")
    found = {f.id: f for f in report(text).items}["hardware"]
    assert found.status == "partial" and "(l.9)" in found.why


def test_hardware_in_a_setup_section_or_summary_covers_every_result():
    # a setup section with figures of its own still states the stack for all results (LABELLING.md "Several setups")
    text = ("# Disaggregated prefill\n\n## Configuration\n\n- Engine: TensorRT-LLM 0.17.0, 8x H100 SXM total\n"
            "- Workload: Poisson arrivals at 12 req/s\n\n## Results\n\n| setup | goodput (req/s) | p50 TTFT |\n|---|---|---|\n"
            "| aggregated | 8.9 | 320 ms |\n")
    assert items(text)["hardware"] == "declared"
    # alibaba/rtp-llm-style report: the hardware in the opening summary, the figures in a later section
    text = ("# DSpARK backport\n\n## Scope and result\n\nBoth runtimes used two H20 GPUs; the gap is 1.66x at concurrency 1.\n\n"
            "## End-to-end performance\n\n| runtime | conc | tok/s |\n|---|---|---|\n| RTP-LLM | 1 | 28.01 |\n")
    assert items(text)["hardware"] == "declared"


def test_one_accelerator_and_count_in_the_whole_write_up_covers_every_result():
    # real/batch11/w_sglang_cutedsl_ar_fusion.md l.76-97, l.137-141 (SOURCES.md, cut): 'Hardware: 8x B300, single node'
    # under Results; a later section's prose quotes the figures. The only machine named is every result's machine.
    text = ("# AR fusion\n\n## Results\n\nModel: `nvidia/GLM-5.2-NVFP4`, hidden size 6144.\n"
            "Hardware: 8x B300, single node. Workload: 1024 input and 1024 output tokens.\n\n### TP8\n\n"
            "| batch | stock | cute-dsl + bound | speedup |\n|---|---|---|---|\n| 1 | 5.91 | 5.64 | **1.047x** |\n"
            "| 512 | 36.63 | 32.47 | **1.128x** |\n\nRange 1.021x to 1.128x. Mean 1.050x.\n\n## Where the gain comes from\n\n"
            "The fusion wins below the bound, where it is worth about 1.05x at TP8. The bound\n"
            "wins above it, where it is worth up to 1.12x.\n")
    assert items(text)["hardware"] == "declared"
    # a second accelerator model or a second count leaves the later result's machine open (or in conflict)
    for other in (text.replace("at TP8.", "at TP8 on H100."), text.replace("at TP8.", "on 4x B300.")):
        assert items(other)["hardware"] == "partial", other


def test_a_count_written_as_hardware_is_not_a_speedup_result():
    text = "# A vs B\n\n## What changed\n\nHardware: 4x H100 SXM 80GB, TP=4.\n\n## Results\n\n| engine | TTFT p50 (ms) |\n|---|---|\n| A | 310 |\n"
    assert items(text)["hardware"] == "declared"


def test_accelerators_counted_in_chinese_and_named_beside_a_singular_count():
    # deepspeedai/DeepSpeed blogs/deepspeed-fp6 (Chinese, Apache-2.0): '在2xA100-80g上'
    assert items("# FP6\n\n对LLaMA-2-70B模型在2xA100-80g上进行端到端服务性能测试，吞吐提升3.5倍。\n")["hardware"] == "declared"
    assert items("# 测试\n\n在两张A100上测试，吞吐 8.98 requests/s。\n")["hardware"] == "declared"
    # ai-dynamo/dynamo docs (Apache-2.0): 'the same single-GPU node', the accelerator in each results heading
    text = ("# Embedding cache\n\nAll configs run on the same single-GPU node.\n\n## Results — H100\n\nTTFT p50 2,369 ms.\n\n"
            "## Results — GB200\n\nTTFT p50 1,210 ms.\n")
    assert items(text)["hardware"] == "declared"


def test_the_word_gpu_inside_a_flag_or_a_model_id_is_no_hardware():
    text = "# Serving\n\nWe served it with `--gpu-memory-utilization 0.9`: 1.99 req/s. Drafts from ibm-fms/llama3-8b-accelerator.\n"
    assert items(text)["hardware"] == "missing"


def test_an_active_parameter_count_or_a_quant_name_is_no_accelerator():
    # real/batch8/q_rknn_llm_benchmark.md l.25 (airockchip/rknn-llm, Apache-2.0): '3B(A570M)' is 570M active parameters,
    # not an accelerator; 'b62q' and 'Jetson using' were read as accelerators before
    text = "# Bench\n\n| model | params | TTFT (ms) |\n|---|---|---|\n| DeepSeekOCR | 3B(A570M) | 701.21 |\n\nWe used b62q. Jetson using it.\n"
    assert items(text)["hardware"] == "missing"
    # the boards of that page name one SoC per table (LABELLING.md: a device named by model in the singular declares it),
    # and NVIDIA's B300 is an accelerator (real/batch11/w_sglang_cutedsl_ar_fusion.md l.79: 'Hardware: 8x B300, single node')
    assert items(text.replace("# Bench", "# Bench\n\n### RK3588"))["hardware"] == "declared"
    assert items("# Fusion\n\nHardware: 8x B300, single node. TTFT 40 ms.\n")["hardware"] == "declared"


# ---------------------------------------------------------------- model_artifact


def test_a_model_name_touching_chinese_or_japanese_text_is_read_up_to_the_ascii_word():
    # SOURCES.md a_deepspeed_fp6_zh: microsoft/DeepSpeed blogs/deepspeed-fp6/03-05-2024/README-Chinese.md @38327e0, l.65
    # (cut): 'LLaMA-70b模型' has no version, its size must not be read as one (LABELLING.md: 'Llama 70B' is partial)
    text = "# DeepSpeed-FP6\n\n通过FP6量化实现的FP6内核使LLaMA-70b模型能够在单个A100 GPU上运行，性能比FP16基准高出1.69到2.65倍。\n"
    assert items(text)["model_artifact"] == "partial"
    # SOURCES.md a_deepspeed_fastgen_ja: l.150 (cut): with the version, the same glued name picks the base checkpoint
    text = "# DeepSpeed-FastGen\n\n4台の A100 GPUとLlama-2 70Bを使用したテキスト生成では、2倍高いスループット（1.36 rps）を示します。\n"
    assert items(text)["model_artifact"] == "declared"


def test_a_weights_file_of_an_on_device_runtime_names_the_checkpoint():
    # SOURCES.md f_executorch_gemma4: pytorch/executorch examples/models/gemma4/README.md @33419c0, l.176-184 (cut): each
    # row names its exported program file (LABELLING.md: a file name declares model_artifact, as '*.gguf' does)
    text = ("# Gemma 4 on ExecuTorch\n\n## Samsung S25 Performance\n\n| Model | Size | Prefill | Gen |\n|---|---|---|---|\n"
            "| E2B gemma4.pte | 4.1 GB | 166 tok/s | 6 tok/s |\n")
    assert items(text)["model_artifact"] == "declared"
    # SOURCES.md f_fastllm_benchmark_zh: ztxz16/fastllm docs/benchmark.md @43cef01, l.22-36 (cut): the .flm files the
    # benchmark loads settle the table's 'ChatGLM-6b-int4'
    text = ("## 推理速度\n\n### C++ benchmark\n\n``` sh\n./benchmark -p ~/chatglm-6b-int4.flm -f prompts/beijing.txt -b 1\n```\n\n"
            "| 模型 | 平台 | Batch | 最大推理速度(token / s) |\n|---|---|---|---|\n| ChatGLM-6b-int4 | RTX 4090 | 1 | 176 |\n")
    assert items(text)["model_artifact"] == "declared"


def test_an_official_name_with_version_and_size_picks_one_checkpoint():
    # LABELLING.md, batch-3 clarifications: no suffix names the base checkpoint; no version where several exist is partial
    # PaddlePaddle/FastDeploy plas_attention.md (Apache-2.0): 'ERNIE-4.5-21B-A3B' in the results table
    assert items("# PLAS\n\n| Model | QPS |\n|---|---|\n| ERNIE-4.5-21B-A3B | 0.101 |\n")["model_artifact"] == "declared"
    assert items("# Runs\n\nLlama 3.1 8B on 1x H100: TTFT 40 ms.\n")["model_artifact"] == "declared"
    assert items("# Runs\n\nVicuna 13B on 2x RTX 3090: 3x faster than vanilla decoding.\n")["model_artifact"] == "partial"
    assert items("# Runs\n\nA Llama 70B on 8x H100: 2,300 tok/s.\n")["model_artifact"] == "partial"


def test_the_loaded_model_and_the_prose_name_disagreeing_is_partial():
    # ml-explore/mlx-examples PR 1069 (MIT): prose 'Llama 3.1 70B', the command loads Llama 3 (batch-1 adjudication)
    text = ("# Wire models in MLX LM\n\nLlama 3.1 70B in 16-bit precision on an M2 Ultra: generation 4.7 toks/sec.\n\n"
            "Command ran:\n\n```bash\npython -m mlx_lm.generate --model meta-llama/Meta-Llama-3-70B-Instruct --prompt \"Write a story\" --max-tokens 100\n```\n")
    found = {f.id: f for f in report(text).items}
    assert found["model_artifact"].status == "partial" and "two checkpoints" in found["model_artifact"].why
    # the same command: a one-prompt offline run is a batch of one, and the prompt is given verbatim
    assert found["concurrency"].status == "declared" and found["prompt_length"].status == "declared"


def test_results_naming_only_a_family_and_size_leave_the_checkpoint_open():
    # turboderp/exllamav2 README.md (MIT): the table rows, and a checkpoint of another size elsewhere
    text = ("# ExLlamaV2\n\nIn my tests, Llama2 70B runs on one 24 GB GPU at 2.55 bpw.\n\n## Performance\n\n"
            "| Model | Mode | Size | t/s |\n|---|---|---|---|\n| Llama 7B | EXL2 4.0 bpw | 7B | 164 t/s |\n")
    assert items(text)["model_artifact"] == "partial"


def test_drafter_ids_code_paths_class_names_and_people_are_not_the_model():
    text = ("# Speculators\n\nYunfei Cheng, Yi Wang\n\nWe trained drafters for [Meta Llama3 8B](https://huggingface.co/ibm-fms/llama3-8b-accelerator). "
            "The code lives in `models/qwen_3_dspark.py` and uses LlamaForCausalLM. Speed-up: 2x.\n")
    found = {f.id: f for f in report(text).items}["model_artifact"]
    assert "accelerator" not in found.why and "dspark" not in found.why and "LlamaFor" not in found.why and "'Yi'" not in found.why


def test_clients_times_rounds_is_the_request_count():
    # kvcache-ai/Mooncake docs (Apache-2.0): SGLang's multiturn benchmark, 20 clients x 10 rounds
    text = ("# HiCache\n\nTTFT fell 40% in round 5.\n\n```bash\npython3 benchmark/hicache/bench_multiturn.py \\\n"
            "    --model-path $MODEL_PATH --output-length 16 --request-length 2048 --num-clients 20 --num-rounds 10 --max-parallel 4\n```\n")
    found = {f.id: f for f in report(text).items}
    assert found["request_count"].status == "declared" and "200 requests" in found["request_count"].why
    assert found["prompt_length"].status == "declared" and found["output_length_requested"].status == "declared"


# ---------------------------------------------------------------- launch_command


def test_a_launch_command_for_one_of_the_engines_compared_is_partial():
    # kvcache-ai/ktransformers docs (Apache-2.0): 'our local_chat test command' for KTransformers, nothing for llama.cpp
    text = ("# DeepSeek-V3 locally\n\n## Results\n\n| engine | prefill (tokens/s) | decode (tokens/s) |\n|---|---|---|\n"
            "| KTransformers | 255.26 | 13.69 |\n| llama.cpp | 10.31 | 4.51 |\n\n## Reproduce\n\n"
            "```bash\npython -m ktransformers.local_chat --model_path deepseek-ai/DeepSeek-V3 --gguf_path ./q4km --cpu_infer 65\n```\n")
    found = {f.id: f for f in report(text).items}["launch_command"]
    assert found.status == "partial" and "llama.cpp" in found.why


def test_a_command_given_with_one_section_of_results_does_not_cover_the_others():
    # sgl-project/sglang docs (Apache-2.0): highlights for four rows, commands under the two SGLang rows only
    text = ("# Speculative decoding\n\n## Performance highlights\n\n- Official EAGLE code: ~200 tokens/s\n\n"
            "## EAGLE decoding in SGLang\n\nEAGLE in SGLang: ~156 tokens/s on one H100.\n\n"
            "```bash\npython3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf --speculative-algorithm EAGLE\n```\n")
    found = {f.id: f for f in report(text).items}["launch_command"]
    assert found.status == "partial" and "(l.5)" in found.why
    # a section that only holds the commands applies to every result, as a setup or reproduction section does
    text = text.replace("EAGLE in SGLang: ~156 tokens/s on one H100.\n\n", "")
    assert items(text)["launch_command"] == "declared"


def test_engine_settings_or_a_runner_script_make_launch_command_partial():
    # deepspeedai/DeepSpeed fastgen blog (Japanese, Apache-2.0): tensor parallelism in a figure caption
    assert items("# FastGen\n\n図2: 4台のA100-80GB GPUでのテンソル並列を使用したLlama 2 70Bのスループット 2.3倍。\n")["launch_command"] == "partial"
    # deepseek-ai/FlashMLA README.md (MIT): the benchmark is a test script whose settings are not shown
    text = "# FlashMLA\n\n## Performance\n\n```bash\npython tests/test_flash_mla_dense_decoding.py\n```\n\nUp to 660 TFLOPS on H800 SXM5.\n"
    assert items(text)["launch_command"] == "partial"
    # a replica count is deployment size, not a launch setting
    assert items("# Load test\n\nvLLM 0.8.2, 2 replicas, each on 1x H100: p95 E2E 8.9 s.\n")["launch_command"] == "missing"


def test_a_runner_script_named_in_prose_as_the_source_of_the_numbers_is_partial():
    # real/batch9/s_quanto_bench_generation.md l.5 and real/batch10/u_bminf_readme_zh.md l.107: the script is named, its
    # arguments are not in the text (LABELLING.md, batch-1 adjudication: at most partial)
    figures = "\n\n| model | latency per token (ms) |\n|---|---|\n| Llama-3.1-8B on 1x A10 | 21 |\n"
    text = "# Generation benchmark\n\n- `latency.py` evaluates the latency per generated token." + figures
    assert items(text)["launch_command"] == "partial"
    text = "# 运行性能\n\n下表汇报了我们运行编码器的速度。用户可以在本机运行``benchmark/encoder.py``来测试本机运行速度。" + figures
    assert items(text)["launch_command"] == "partial"
    # a timing utility the authors wrote is no runner of the reported runs (real/batch1/a_redrafter_mlx.md l.54)
    text = ("# Profiling\n\nTo measure the execution time of each function, we developed the utility "
            "`recurrent_drafting/mlx/time_mlx.py`." + figures)
    assert items(text)["launch_command"] == "missing"


def test_a_benchmark_script_given_only_as_a_link_tied_to_the_numbers_is_partial():
    # SOURCES.md g_deepspeed_fastgen_2401: deepspeedai/DeepSpeed blogs/deepspeed-fastgen/2024-01-19/README.md @fd40516,
    # l.32 (cut): the runner is linked, its settings are not in the text (LABELLING.md: a linked script is at most partial)
    text = ("# DeepSpeed-FastGen\n\nWe see 2.4x higher throughput than vLLM. The benchmark results can be seen in "
            "[Performance Evaluation](#performance-optimizations) and the benchmark code is available at "
            "[DeepSpeedExamples](https://github.com/deepspeedai/DeepSpeedExamples/tree/master/benchmarks/inference/mii).\n")
    assert items(text)["launch_command"] == "partial"
    # SOURCES.md e_chinese_alpaca2_readme_zh: ymcui/Chinese-LLaMA-Alpaca-2 README.md @406cbc3, l.329 (cut): speeds
    # measured with the linked speculative-sampling script
    text = ("# 投机采样加速效果评测\n\n以下是使用[投机采样脚本](scripts/inference/speculative_sample.py)在1*A40-48G上"
            "解码测得的平均速度（速度以ms/token计）。\n\n| 模型 | 速度 |\n|---|---|\n| Alpaca-2-7B | 49.3 ms/token |\n")
    assert items(text)["launch_command"] == "partial"
    # SOURCES.md e_flexllmgen_readme: FMInference/FlexLLMGen README.md @004ffef, l.172-186 (cut): 'How to reproduce'
    text = ("# FlexLLMGen\n\n## Performance Results\n\n| System | OPT-30B |\n|---|---|\n| FlexLLMGen | 7.32 token/s |\n\n"
            "How to [reproduce](benchmark/flexllmgen).\n")
    assert items(text)["launch_command"] == "partial"


def test_a_setting_offered_as_a_capability_or_an_example_is_not_a_setting_of_the_runs():
    # SOURCES.md g_ipexllm_readme_zh: intel/ipex-llm README.zh-CN.md @086a8b3, l.32 (cut): pipeline parallelism announced
    # as supported; SOURCES.md f_fastllm_readme_zh: ztxz16/fastllm README.md @bc846cc, l.362: '--dtype int4' given as an
    # example (LABELLING.md: feature descriptions and how-to declare nothing)
    text = ("# ipex-llm\n\nDecode 42 tokens/s on one Arc A770.\n\n"
            "- [2024/06] 增加了对[流水线并行推理](python/llm/example/GPU/Pipeline-Parallel-Inference)的全面支持，"
            "使得用两块或更多 Intel GPU（如 Arc）上运行 LLM 变得更容易。\n\n"
            "如果使用量化加载模型（如`--dtype int4`），那么每次读取模型时会在线量化，读取速度较慢。\n")
    assert items(text)["launch_command"] == "missing"


def test_a_linked_guide_or_an_accuracy_script_is_not_the_runner_of_the_runs():
    # SOURCES.md g_ipexllm_readme_zh: intel/ipex-llm README.zh-CN.md @086a8b3, l.166-169: a benchmarking guide offered to
    # the reader (a page, not a script) and the perplexity script of an accuracy table
    text = ("# ipex-llm\n\nDecode 42 tokens/s on one Arc A770.\n\n"
            "如果需要自己进行 `ipex-llm` 性能基准测试，可参考[基准测试指南](docs/mddocs/Quickstart/benchmark_quickstart.md)。\n\n"
            "## 模型准确率\n部分模型的 **Perplexity** 结果如下所示（使用 Wikitext 数据集和"
            "[此处](https://github.com/intel-analytics/ipex-llm/tree/main/python/llm/dev/benchmark/perplexity)的脚本进行测试)。\n")
    assert items(text)["launch_command"] == "missing"


def test_a_link_to_a_benchmark_tool_or_an_image_is_not_a_runner_script():
    # SOURCES.md e_hf_awq_ko: huggingface/transformers docs/source/ko/quantization/awq.md, l.141: the measuring library
    # is a benchmark client, not the launch; SOURCES.md b_lmdeploy_readme_news: InternLM/lmdeploy README.md @1263d5c,
    # l.111: an image file name declares nothing (LABELLING.md, batch-1 clarifications)
    text = ("# AWQ\n\n속도와 처리량은 [optimum-benchmark](https://github.com/huggingface/optimum-benchmark)라이브러리를 사용하여 "
            "테스트 되었습니다. 처리량 38.0 tokens/s.\n\n"
            "![v0 1 0-benchmark](https://github.com/InternLM/lmdeploy/assets/4560679/8e455cf1-a792-4fa8-91a2-75df96a2a5ba)\n")
    assert items(text)["launch_command"] == "missing"

# ---------------------------------------------------------------- tokenizer, weight and KV formats


def test_sentencepiece_listed_as_a_dependency_does_not_identify_the_tokenizer():
    # real/batch9/s_exllama_readme.md l.21, real/batch4/f_gptfast_readme.md l.7, real/batch8/p_duoattention_readme.md
    # l.40 (SOURCES.md): the package in a requirements list; labellers said missing on all of them
    text = "# ExLlama\n\n## Dependencies\n\n* `torch`\n* `sentencepiece`\n\n## Results\n\nLlama 7B on one RTX 4090: 164 t/s.\n"
    assert items(text)["tokenizer"] == "missing"
    # the tokenizer itself named as SentencePiece still identifies it
    assert items(text.replace("164 t/s.", "164 t/s; token counts use the model's SentencePiece tokenizer."))["tokenizer"] == "declared"


def test_a_tokenizer_built_in_code_is_not_identified():
    # OpenBMB/MiniCPM README (Apache-2.0) how-to code; llm-compressor's calibration call
    text = "# Results\n\nTTFT 40 ms on 1x H100.\n\n```python\ntokenizer = AutoTokenizer.from_pretrained(path)\noneshot(model, tokenizer=model_id)\n```\n"
    assert items(text)["tokenizer"] == "missing"
    # a named tokenizer in prose (self-written set, 'Llama 3.1 tokenizer, after the chat template')
    assert items("# Runs\n\nPrompt tokens: mean 3,940 (Llama 3.1 tokenizer). TTFT p50 90 ms on 1x H100.\n")["tokenizer"] == "declared"


def test_a_bare_integer_width_or_bit_count_is_partial():
    # mlc-ai/mlc-llm issue 2004 (Apache-2.0): 'int4' names no scheme (LABELLING.md batch-4); '16-bit precision'
    assert items("# MLC vs vLLM\n\nI compared mlc vs vllm @Qwen7B int4 on 3090: decode 12 ms/token.\n")["weight_format"] == "partial"
    assert items("# Wired\n\nLlama 3.1 70B in 16-bit precision on an M2 Ultra: 4.7 toks/sec.\n")["weight_format"] == "partial"
    assert items("# AWQ\n\nQwen2.5-72B-Instruct-AWQ (4-bit AWQ) on 2x A100: 1,873 tok/s.\n")["weight_format"] == "declared"
    # a model name ending in a bit width ('qwen-7b-int4', ztxz16/fastllm docs/benchmark.md) is as open as a bare 'int4'
    assert items("# Speed\n\n| model | tok/s |\n|---|---|\n| qwen-7b-int4 | 41 |\n\nMeasured on one RTX 4090.\n")["weight_format"] == "partial"


def test_a_setup_whose_weights_are_only_a_bit_width_leaves_the_format_partial():
    # SOURCES.md e_glm4_inference_zh: THUDM/GLM-4 inference/README_zh.md @3df530d, l.56-66 (cut): BF16 rows, then
    # INT4 rows with no scheme (LABELLING.md "Several setups" and batch-4: a bare int4 is partial)
    text = ("# Inference\n\n#### GLM-4V-9B\n\n| 精度 | 显卡数量 | 首 Token 延迟 | Token 输出速度 |\n|---|---|---|---|\n"
            "| BF16 | 1 | 0.1s | 33.4 tokens/s |\n\n| 精度 | 显卡数量 | 首 Token 延迟 | Token 输出速度 |\n|---|---|---|---|\n"
            "| INT4 | 1 | 0.1s | 28.7 tokens/s |\n")
    assert items(text)["weight_format"] == "partial"
    # SOURCES.md f_gptfast_readme: pytorch-labs/gpt-fast README.md @c9f683e, l.103-104 and l.212-213 (cut): a GPTQ
    # how-to does not give the scheme of the speculative run's 'int4'
    text = ("# gpt-fast\n\n## Benchmarks\n\n### Speculative Sampling\n"
            "Verifier: Llama-70B (int4), Draft: Llama-7B (int4): 48.4 tok/s\n\n### GPTQ\n"
            "We have a pure pytorch implementation of GPTQ that you can use to quantize a model.\n")
    assert items(text)["weight_format"] == "partial"


def test_bit_widths_written_run_together_or_as_bits_per_weight_are_open_too():
    # real/batch9/r_ikllama_pr94_graph_cache.md l.18-21 (SOURCES.md): Q4_0 rows beside a '2-bpw TriLM' row whose
    # scheme is open; real/batch6/i_zerollama_multiuser_zh.md: '4bit模型' beside q8_0 runs
    text = ("| model | test | t/s (main) | t/s (PR) |\n|---|---|---|---|\n| llama 8B Q4_0 | tg128 | 123.55 | 125.60 |\n"
            "| llama 2-bpw TriLM | tg128 | 1570.51 | 1754.54 |\n\nMeasured on one RTX 4080.\n")
    assert items(text)["weight_format"] == "partial"
    assert items(text.replace("2-bpw", "Q2_K"))["weight_format"] == "declared"
    # a width beside the engine whose format it is ('exllamav2 4.0bpw' is EXL2) is not open
    tweet = "Just got 180 tok/s on Llama-3-8B on a single 4090 with exllamav2 4.0bpw, batch 1.\n"
    assert items(tweet)["weight_format"] == "declared"


def test_a_bit_width_stated_with_its_scheme_or_in_a_placeholder_row_is_not_open():
    # SOURCES.md e_tinychat_readme: mit-han-lab/llm-awq tinychat/README.md, l.72 (cut): 'INT4 ... applies AWQ' on one line
    text = ("# TinyChat\n\nThe FP16 baseline decodes at 52 tokens/s; the INT4 implementation applies AWQ and decodes at "
            "165 tokens/s on RTX 4090.\n")
    assert items(text)["weight_format"] == "declared"
    # SOURCES.md f_torchao_inference: pytorch/ao docs inference page, l.80-85 (cut): a TODO row reports nothing
    text = ("# Inference\n\n#### NVIDIA H100\n\n| weight | activation | decode toks/s |\n|---|---|---|\n"
            "| bfloat16 | bfloat16 | 6612 |\n| int4 | float8_rowwise | TODO(https://github.com/pytorch/ao/issues/3550) |\n")
    assert items(text)["weight_format"] == "declared"


def test_quantization_named_as_a_feature_or_in_the_training_flow_is_no_weight_format():
    # SOURCES.md g_deepspeed_fastgen_2401: deepspeedai/DeepSpeed blogs/deepspeed-fastgen/2024-01-19/README.md @fd40516,
    # l.178-184 (cut): a roadmap item; SOURCES.md e_modelopt_dflash: NVIDIA/Model-Optimizer
    # examples/speculative_decoding/doc/dflash.md @9048d13, l.379-381: export supports quantized checkpoints, not yet
    # measured, and the training flow's quantize call (LABELLING.md: feature descriptions and plans declare nothing)
    text = ("# DeepSpeed-FastGen\n\nWe see 2.4x higher throughput than vLLM on A100.\n\n"
            "The following items are on our roadmap and we plan to engage with our community:\n\n"
            "* Performance improvements\n* Quantization support\n\n"
            "- **FP8 / NVFP4 quantization**: Export pipeline supports quantized checkpoints via `hf_ptq.py`. AR impact of "
            "quantization not yet measured.\n  The flow: train (bf16) → `mtq.quantize(model, quant_cfg)` → `export_hf_checkpoint.py`.\n")
    assert items(text)["weight_format"] == "missing"
    # a vague quantization stated for the runs stays partial (LABELLING.md: 'quantized' without the scheme)
    assert items("# Results\n\nWe served a quantized Llama 3.1 8B on one A100: 120 tok/s.\n")["weight_format"] == "partial"


def test_a_kv_cache_width_a_tied_flag_or_the_k_cache_alone_leave_the_kv_format_partial():
    # real/batch9/r_ikllama_pr205_mla_pp.md l.19 ('Q8_0 for K-cache'), real/batch10/v_jetstream_pt_summary.md l.67
    # ('--quantize_kv_cache=$quantize'), FlexLLMGen README ('KV cache compressed to 4 bits'); labellers: partial
    for said in ("DeepSeek-Lite, using Q8_0 for K-cache.", "`python run.py --quantize_weights=$q --quantize_kv_cache=$q`",
                 "With the KV cache compressed to 4 bits, OPT-175B runs on one T4."):
        assert items(f"# Bench\n\nOne RTX 4080, 41 tok/s decode. {said}\n")["kv_format"] == "partial", said
    assert items("# Bench\n\nOne RTX 4080, 41 tok/s decode.\n")["kv_format"] == "missing"


def test_formats_of_the_kv_cache_are_not_the_weights():
    # InternLM/lmdeploy kv_quant.md (Apache-2.0): the 'kv type' column of the efficiency table
    text = ("# KV quantization\n\n| model | kv type | RPS |\n|---|---|---|\n| llama2-chat-7b | fp16 | 14.98 |\n"
            "| - | int8 | 19.01 |\n")
    s = items(text)
    assert (s["kv_format"], s["weight_format"]) == ("declared", "missing")
    # an organisation named KVCache-ai is not a KV cache
    text = "# V0.3\n\nWeights: [DeepSeek-R1-FP8](https://huggingface.co/KVCache-ai/DeepSeek-R1-GGML-FP8-Hybrid), 286 tokens/s prefill.\n"
    assert items(text)["kv_format"] == "missing"


def test_advice_and_drafter_names_declare_no_format():
    # SafeAILab/EAGLE README.md (Apache-2.0): advice about another target, and a drafter's checkpoint name
    text = ("# EAGLE\n\nEAGLE-3 is 5.6x faster than vanilla decoding (13B).\n\n*Note:* When Qwen2 is the target model, please use "
            "bf16 precision instead of fp16.\n\n| Base | EAGLE weights |\n|---|---|\n| gpt-oss-120b | lmsys/EAGLE3-gpt-oss-120b-bf16 |\n")
    assert items(text)["weight_format"] == "missing"


def test_a_sentence_that_only_mentions_the_kv_cache_does_not_make_a_format_the_kv_format():
    # llm-d/llm-d.github.io kvcache-wins blog (Apache-2.0), sizing appendix: FP8 is the model's, not the cache's
    text = ("# Sizing\n\nThroughput 8,730 output tokens/s on 8x H100.\n\nConsider the KV-cache for the DeepSeek R1 model "
            "running with FP8 on 8x NVIDIA H200 GPUs with 365 GB VRAM dedicated to the KV-cache.\n")
    assert items(text)["kv_format"] == "missing"
    # mit-han-lab/omniserve README.md (Apache-2.0): a weight scheme beside 'KV cache quantization' is no KV dtype
    text = "# QServe\n\nMax throughput 1,841 tok/s on 1x A100.\n\n* SmoothQuant is evaluated with per-tensor static KV cache quantization.\n"
    assert items(text)["kv_format"] == "partial"
    # a dtype in a sentence about KV quantization stays the KV format (lmdeploy kv_quant.md wording)
    assert items("# KV\n\nRPS 19.01 on 1x A100 with KV cache quantization to int8.\n")["kv_format"] == "declared"


def test_the_precision_of_the_arithmetic_is_not_a_weight_format():
    # deepseek-ai/FlashMLA README.md (MIT): a kernel 'performing the matrix multiplication in bfloat16'
    text = ("# FlashMLA\n\nThe decoding kernel (which uses an FP8 KV cache while performing the matrix multiplication "
            "in bfloat16) achieves 410 TFLOPS on H800 SXM5.\n")
    s = items(text)
    assert (s["weight_format"], s["kv_format"]) == ("missing", "declared")


# ---------------------------------------------------------------- sampling


def test_draft_tree_top_k_and_a_feature_list_are_not_sampling():
    # sgl-project/sglang docs/backend/speculative_decoding.md (Apache-2.0): EAGLE's tree branching flag
    text = ("# EAGLE\n\nThroughput 244 token/s on 1x H100.\n\n```bash\npython3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf "
            "--speculative-algorithm EAGLE --speculative-eagle-topk 8 --speculative-num-draft-tokens 64\n```\n")
    assert items(text)["sampling"] == "missing"
    # SafeAILab/EAGLE README.md (Apache-2.0): a to-do list item says what the code supports
    assert items("# EAGLE\n\nEAGLE is 3x faster on 1x A100.\n\n- [x] Support non-greedy inference.\n")["sampling"] == "missing"
    # a value stays a declaration even in a sentence with 'compatible' in it (self-written engine_shootout_fair.md)
    text = "# Runs\n\nClient: vllm bench serve against each OpenAI-compatible endpoint, temperature 0. 3,000 tok/s on 1x H100.\n"
    assert items(text)["sampling"] == "declared"


def test_a_weight_format_stated_for_some_results_only_is_partial():
    # SafeAILab/EAGLE README.md (Apache-2.0): 'at fp16 precision' sits under the demo, in its own
    # section; the gpt-fast speed-up above it states no precision
    text = ("# EAGLE\n\n## Speed\n\n- achieving **2x** speedup on gpt-fast.\n\n## EAGLE-3\n\n"
            "- **3x** faster than vanilla decoding (13B).\n\n_Inference is conducted on 2x RTX 3090 GPUs at fp16 precision "
            "using the Vicuna 13B model._\n")
    assert items(text)["weight_format"] == "partial"
    # stated once in a setup section, it covers every result
    text = ("# EAGLE\n\n## Setup\n\nAll runs use fp16 weights on 2x RTX 3090.\n\n## Speed\n\n- **2x** speedup on gpt-fast.\n\n"
            "## EAGLE-3\n\n- **3x** faster than vanilla decoding (13B).\n")
    assert items(text)["weight_format"] == "declared"


# ---------------------------------------------------------------- aggregation


def test_how_runs_were_combined_is_read_in_several_wordings():
    # alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md (Apache-2.0): 5 repeats, mean of 3 processes
    text = ("# MNN K3\n\n## 1. 性能结论\n\n测试统一使用 8 线程。prefill 使用 pp512，decode 使用 tg128。每个进程内部重复 5 次，\n"
            "最终结果取 3 个独立进程的算术平均值。decode 12.3 tok/s。\n")
    assert items(text)["aggregation_rule"] == "declared"
    # llm-d/llm-d pd-disaggregation multi-tier results (Apache-2.0)
    text = "# P/D\n\n- One measured run per arm. Treat small differences as directional.\n- TTFT p50 0.4 s on 8x H200.\n"
    assert items(text)["aggregation_rule"] == "declared"


def test_a_ratio_in_times_is_not_a_repetition_count():
    # sgl-project/sglang benchmark/benchmark_vllm_060/README.md (Apache-2.0)
    text = ("# SGLang vs vLLM\n\nIn short, the Median TTFT of vLLM is **3 times** that of SGLang, and the Median ITL is "
            "**10 times** that of SGLang, on 1x H100.\n")
    assert items(text)["aggregation_rule"] == "missing"


def test_on_average_without_saying_over_what_is_partial():
    # mit-han-lab/omniserve README.md (Apache-2.0)
    text = ("# LServe\n\nOn Llama-3-8B, LServe achieves 1.5x average speedup over vLLM. For Llama-2-7B, LServe runs more "
            "than 2.0x faster than baselines on average.\n")
    assert items(text)["aggregation_rule"] == "partial"


# ---------------------------------------------------------------- latency distributions


def test_a_rich_text_printout_reads_its_row_labels_between_box_bars():
    # triton-inference-server/tutorials Feature_Guide/Speculative_Decoding/vLLM/README.md (BSD-3-Clause): a GenAI-Perf table, cut to three statistics
    text = ("# Spec decode\n\nWe ran genai-perf at concurrency 1 on 1x H100. The results:\n\n```\n"
            "                                    NVIDIA GenAI-Perf | LLM Metrics\n"
            "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┓\n"
            "┃                         Statistic ┃      avg ┃      p99 ┃      p90 ┃\n"
            "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━┩\n"
            "│              Request Latency (ms) │ 7,510.69 │ 8,409.31 │ 8,193.07 │\n"
            "│ Output Token Throughput (per sec) │    43.27 │      N/A │      N/A │\n```\n")
    assert items(text)["latency_distributions"] == "declared"


def test_end_to_end_as_a_scope_of_work_is_no_latency_figure():
    # NVIDIA/Model-Optimizer examples/speculative_decoding/doc/dflash.md (Apache-2.0): 'E2E pipeline' beside throughput-only results
    text = ("# DFlash\n\nAcceptance length 3.9 and 1,210 TPS on 1x B200.\n\n- **Online training**: E2E pipeline "
            "(train -> export -> eval) on sample-1K and sample-10K.\n")
    assert items(text)["latency_distributions"] == "missing"


# ---------------------------------------------------------------- concurrency


def test_single_batch_decoding_and_a_chinese_batch_size_of_one_declare_the_concurrency():
    # SOURCES.md batch6 row h_teal_readme (FasterDecoding/TEAL README.md, MIT), l.1 and l.6
    text = ("# Training-Free Acivation Sparsity in Large Language Models\n\nTEAL induces up to 40-50% model-wide activation "
            "sparsity in modern LLMs with minimal degradation, resulting in an up to 1.53-1.8x speedup in single-batch decoding.\n")
    assert items(text)["concurrency"] == "declared"
    # SOURCES.md batch6 row i_autogptq_readme_zh (AutoGPTQ README_zh.md, MIT), l.40-41 and l.45-47
    text = ("### 推理速度\n> 以下结果通过这个脚本生成，文本输入的 batch size 为1，解码策略为 beam search 并且强制模型生成512个 token，"
            "速度的计量单位为 tokens/s（越大越好）。\n\n| model | GPU | num_beams | fp16 | gptq-int4 |\n|---|---|---|---|---|\n"
            "| llama-7b | 1xA100-40G | 1 | 18.87 | 25.53 |\n")
    assert items(text)["concurrency"] == "declared"


def test_a_batch_size_written_as_one_word_or_a_single_sequence_declares_the_concurrency():
    # real/batch11/x_torchao_floatx_readme.md l.52 ('batchsize=1'), real/batch8/o_ktransformers_ascend_dsr1_zh.md l.3
    # ('Batchsize=4'), real/batch11/x_calm_readme.md l.78 ('for a single sequence') (SOURCES.md)
    for said in ("measured in a latency optimized way (batchsize=1)", "Batchsize=4 on one Atlas 800I A2 node",
                 "auto-regressive prediction for a single sequence"):
        text = f"# Speed\n\nLlama-3-8B fp6 on one A100, {said}: 108 tokens/s.\n"
        assert items(text)["concurrency"] == "declared", said


def test_operations_running_sequentially_are_no_load_level():
    # apple/ml-recurrent-drafter recurrent_drafting/mlx/experiments/README.md (Apache-2.0): MLX lazy evaluation, not request load
    text = ("# ReDrafter on MLX\n\nReDrafter speeds up generation 1.37x on an M1 Max.\n\nThe code may appear to be executing "
            "tensor operations sequentially, but these operations might not run until the result is printed.\n")
    assert items(text)["concurrency"] == "missing"
    assert items("# Runs\n\nThe 50 prompts were sent sequentially; TTFT p50 90 ms on 1x H100.\n")["concurrency"] == "declared"


def test_a_batch_of_queries_from_an_online_client_is_partial():
    # skypilot-org/skypilot examples/benchmark/serving/README.md (Apache-2.0); LABELLING.md batch-2: not said to be in flight together
    text = ("# Sky Benchmark\n\nEach step will correspond to completion of a batch of 5 queries, configured in `benchmark.py`. "
            "Average time per query 2.1 s on 1x A100.\n")
    assert items(text)["concurrency"] == "partial"


def test_clients_and_requests_counted_in_chinese():
    # microsoft/DeepSpeed blogs/deepspeed-fp6/03-05-2024/README-Chinese.md (Apache-2.0), under '# 3. 使用FP6服务LLMs'
    text = ("# DeepSpeed-FP6\n\n# 3. 使用FP6服务LLMs\n\n图1：在DeepSpeed-MII中，使用128个请求和32个客户端，对LLaMA-2-70B模型在2xA100-80g上"
            "进行端到端服务性能测试，吞吐量提升1.5倍。\n")
    s = items(text)
    assert (s["concurrency"], s["request_count"]) == ("declared", "declared")


# ---------------------------------------------------------------- prompt and output lengths


def test_prefill_and_decode_length_columns_declare_the_lengths():
    # huggingface/transformers docs/source/ko/quantization/awq.md (Apache-2.0): Korean column headers
    text = ("# AWQ\n\n|   배치 크기  |   프리필 길이 |   디코드 길이 |   프리필 토큰/초 |   디코드 토큰/초  |\n"
            "|---:|---:|---:|---:|---:|\n|            1 |               32 |              32 |            60.0984 |           38.4537 |\n")
    s = items(text)
    assert (s["prompt_length"], s["output_length_requested"]) == ("declared", "declared")
    # casper-hansen/AutoAWQ README.md (MIT): the English headers
    text = ("# AutoAWQ\n\n| Model | Batch Size | Prefill Length | Decode Length | Prefill tokens/s | Decode tokens/s |\n"
            "|---|---:|---:|---:|---:|---:|\n| Vicuna 7B | 1 | 64 | 64 | 639.65 | 198.848 |\n")
    assert items(text)["prompt_length"] == "declared"


def test_chinese_output_token_length_and_a_forced_generation_length_declare_the_output_length():
    # SOURCES.md batch6 row h_sglang_issue32790_zh (sgl-project/sglang issue #32790, Apache-2.0), l.8-15
    text = ("设备：8 * H20 (140GB)\n模型：GLM-5.2-FP8\n\n压测标准：\n输入token长度：2048\n输出token长度：512\n"
            "（压测数据为随机输入）\n标准：TTFT(p99)<4s；TPOT(P99)<160ms\n")
    assert items(text)["output_length_requested"] == "declared"
    # SOURCES.md batch6 row i_autogptq_readme_zh (AutoGPTQ README_zh.md, MIT), l.40-48: a forced length fixes the
    # requested and completed lengths and how generation stops (LABELLING.md, batch-3 clarifications)
    text = ("### 推理速度\n> 以下结果通过这个脚本生成，文本输入的 batch size 为1，解码策略为 beam search 并且强制模型生成512个 token，"
            "速度的计量单位为 tokens/s（越大越好）。\n\n| model | GPU | num_beams | fp16 | gptq-int4 |\n|---|---|---|---|---|\n"
            "| llama-7b | 1xA100-40G | 1 | 18.87 | 25.53 |\n")
    s = items(text)
    assert (s["output_length_requested"], s["output_length_completed"], s["stopping"]) == ("declared", "declared", "declared")


def test_a_public_dataset_with_its_prompt_count_declares_the_prompts():
    # ModelTC/lightllm docs/CN/source/server/benchmark.rst (Apache-2.0): ShareGPT file and --num-prompts; LABELLING.md prompt_length
    text = ("# 服务性能评测\n\n```\n$ python benchmark_serving.py --tokenizer /path/llama-7b --dataset "
            "/path/ShareGPT_V3_unfiltered_cleaned_split.json --num-prompts 2000 --request-rate 200\n```\n\n"
            "Throughput: 20.5 requests/s on 1x A100.\n")
    assert items(text)["prompt_length"] == "declared"
    # the dataset alone stays partial; a model named after a poem form is no dataset
    assert items("# Run\n\nWe used ShareGPT prompts; 20.5 requests/s on 1x A100.\n")["prompt_length"] == "partial"
    assert items("# Arena\n\n| 3 | claude-sonnet-4 | 1398 tok/s |\n|---|---|---|\n\n500 requests.\n")["prompt_length"] == "missing"


# ---------------------------------------------------------------- distinct prefixes


def test_a_dataset_with_the_prefix_cache_off_leaves_the_prompts_open():
    # sgl-project/sglang benchmark/benchmark_vllm_060/README.md (Apache-2.0): ShareGPT prompts, radix cache off
    text = ("# SGLang vs vLLM\n\nMedian TTFT 28 ms on 1x H100.\n\n```\npython -m sglang.launch_server --model-path "
            "meta-llama/Llama-3.1-8B-Instruct --disable-radix-cache\npython3 -m sglang.bench_serving --backend sglang "
            "--dataset-name sharegpt --num-prompts 1200 --request-rate 4\n```\n")
    assert items(text)["distinct_prefixes"] == "partial"
    # random-token prompts share no prefix (LABELLING.md distinct_prefixes)
    text = ("# Runs\n\nMedian TTFT 28 ms on 1x H100.\n\n```\nvllm bench serve --model m --dataset-name random "
            "--random-input-len 1024 --num-prompts 100\n```\n")
    assert items(text)["distinct_prefixes"] == "declared"


def test_stated_repeats_settle_the_prefixes_and_a_graph_replay_is_no_trace():
    # alibaba/rtp-llm docs/benchmark/qwen3_dspark_vllm_analysis.md (Apache-2.0): the prompts are stated to repeat
    text = "# DSpARK\n\nTTFT 111 ms on 1x H20. Workload: two production-shaped prompts repeated, 16 requests per run.\n"
    assert items(text)["distinct_prefixes"] == "declared"
    # vllm-project/vllm benchmarks/SP_ASYNCTP_BENCHMARK_REPORT.md (Apache-2.0): CUDA-graph replay, not a traffic replay
    text = "# SP\n\nTTFT p50 180 ms on 8x H100; graph replay overhead outweighs kernel launch savings.\n"
    assert items(text)["distinct_prefixes"] == "missing"


def test_a_korean_prefill_rate_column_is_a_prefill_figure():
    # huggingface/transformers docs/source/ko/quantization/awq.md (Apache-2.0): prefill tokens/s reported, prompts undescribed
    text = ("# AWQ\n\n|   배치 크기  |   프리필 길이 |   디코드 길이 |   프리필 토큰/초 |   디코드 토큰/초  |\n"
            "|---:|---:|---:|---:|---:|\n|            1 |               32 |              32 |            60.0984 |           38.4537 |\n")
    assert items(text)["distinct_prefixes"] == "missing"


# ---------------------------------------------------------------- prefix-cache state


def test_cache_aware_routing_is_partial_and_measured_zero_reuse_is_a_state():
    # kserve/website blog/2026-04-21-production-grade-llm-inference-kserve-llm-d-vllm.md (Apache-2.0): a router feature, not the cache's state
    text = ("# KServe\n\nWe saw a 3x reduction in time to first token (TTFT) after enabling prefix-cache aware routing, "
            "serving Llama 3.1 70B on 4 MI300X GPUs.\n")
    assert items(text)["prefix_cache_state"] == "partial"
    # alibaba/rtp-llm docs/benchmark/qwen3_dspark_vllm_analysis.md (Apache-2.0)
    text = "# DSpARK\n\nTTFT 111 ms on 1x H20.\n\nThe benchmark intentionally measured zero reuse.\n"
    assert items(text)["prefix_cache_state"] == "declared"


def test_a_new_in_version_list_is_release_notes():
    # turboderp/exllamav2 README.md (MIT): '## New in v0.1.0+:' lists features, not the measured runs' settings
    text = ("# ExLlamaV2\n\n## New in v0.1.0+:\n\n- New generator with dynamic batching, smart prompt caching, K/V cache "
            "deduplication and simplified API\n\n## Performance\n\n| Model | 4090 |\n|---|---|\n| Llama 7B | 195 t/s |\n")
    assert items(text)["prefix_cache_state"] == "missing"


# ---------------------------------------------------------------- warm-up and speculative verification


def test_graphs_compiled_or_captured_ahead_of_time_without_timing_are_a_partial_warm_up():
    # real/batch8/q_optimum_neuron_inf2_llama2.md l.30 ('All models are compiled'), real/batch8/q_dstack_h100_mi300x.md
    # l.154 ('--max-seq-len-to-capture 16384'); LABELLING.md after batch 8: ahead-of-time graphs are partial
    for said in ("All models are compiled with a maximum sequence length of 2048.",
                 "`vllm serve meta-llama/Llama-3.1-405B-FP8 --max-seq-len-to-capture 16384`"):
        text = f"# Latency\n\n{said}\n\nLlama-2-7B on one inf2.xlarge: TTFT 0.3 s, 28 tok/s.\n"
        assert items(text)["warmup"] == "partial", said


def test_a_bare_use_of_cuda_graphs_or_an_unsized_warm_up_is_partial():
    # predibase/lorax docs/guides/cuda_graphs.md (Apache-2.0): graphs on vs off, nothing about when capture happened
    text = ("# CUDA graphs\n\n## Benchmarks\n\ngpt2-medium, 1x A100, time to generate 100 tokens:\n\n- baseline: 1.044 s\n"
            "- cuda graph: 0.422 s\n")
    assert items(text)["warmup"] == "partial"
    # kvcache-ai/ktransformers doc/zh/DeepseekR1_V3_tutorial_zh.md (Apache-2.0): 'tested after sufficient warm-up'
    assert items("# V0.2\n\n我们在充分预热后测试。decode 14.0 tokens/s，单卡 4090D。\n")["warmup"] == "partial"


def test_a_described_verification_without_figures_is_partial():
    # snowflakedb/ArcticInference docs/arctic-speculator.rst (Apache-2.0)
    text = ("# Arctic Speculator\n\nArctic Speculator speeds up decoding 4x on 1x H100 with speculative decoding. It relies on "
            "vLLM's existing scorer and verifier components, which ensure correctness by verifying the proposed tokens using "
            "the main LLM.\n")
    assert items(text)["spec_verification"] == "partial"


# ---------------------------------------------------------------- hardware


def test_a_personal_device_named_without_a_count_is_one_device():
    # LABELLING.md (batches 2 and 4): a computer named by model in the singular declares hardware
    # (real/batch7/m_mlx_examples_issue1029.md l.5, real/batch9/r_mnn_metal_prefill_zh.md l.75, real/batch8/p_moe_infinity_readme.md l.36)
    for said in ("on my M3-Max 64GB", "on an RTX-4080", "on Apple M4, 16GB, Metal 4", "Single GPU A5000 (24GB Memory)"):
        assert items(f"# Results\n\nLlama-3.1-8B Q4_0 with llama.cpp b3000 {said}: 41 tok/s.\n")["hardware"] == "declared", said
    # a datacenter GPU named bare, a node of them, or desktop cards in the plural stay partial
    for said in ("measured on H200", "on an H100 node", "on RTX 4090 cards"):
        assert items(f"# Results\n\nLlama-3.1-8B with vLLM 0.6.3 {said}: 41 tok/s.\n")["hardware"] == "partial", said


def test_a_model_then_gpu_in_the_singular_is_one_accelerator():
    # microsoft/BitNet gpu/README.md (MIT): 'Tested on NVIDIA A100 40GB GPU'
    text = "# BitNet kernel\n\nTested on NVIDIA A100 40GB GPU, our W2A8 kernel runs at 13.32 us vs 18.32 us for BF16.\n"
    assert items(text)["hardware"] == "declared"
    assert items("# Runs\n\nTested on NVIDIA A100 40GB GPUs: 13.32 us.\n")["hardware"] == "partial"


def test_gpu_in_prose_about_how_gpus_work_is_no_hardware_statement():
    # PaddlePaddle/FastDeploy docs/zh/features/plas_attention.md (Apache-2.0): the GPU as a concept
    text = ("# PLAS\n\n简单地对每个查询 token 进行单独处理是可行的，但这会导致计算粒度过细，无法充分利用张量核，从而显著降低 GPU 的计算效率。"
            "TTFT 降低 30%。\n")
    assert items(text)["hardware"] == "missing"
    assert items("# Runs\n\nTTFT 40 ms on a GPU server.\n")["hardware"] == "partial"


# ---------------------------------------------------------------- engine revision


def test_a_nightly_with_a_lower_bound_pins_no_version():
    # NVIDIA/Model-Optimizer examples/speculative_decoding/doc/dflash.md (Apache-2.0)
    text = "# DFlash\n\nvLLM nightly (v0.19.1+), H100, MT-Bench 80 prompts, 1024 max tokens: 3.1x speedup.\n"
    assert items(text)["engine_revision"] == "partial"
    # a branch with its commit is pinned (self-written blind3_slack_h200.txt)
    assert items("# H200\n\nquick numbers (llama-3.3-70b fp8, vllm main @ 3f2a1c9): 2,100 tok/s on 8x H200\n")["engine_revision"] == "declared"


def test_mnn_is_an_engine_named_without_its_version():
    # alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md (Apache-2.0)
    text = "# MNN K3\n\n使用 MNN 的 llm_bench 测试：decode 22.42 tok/s，单进程。\n"
    assert items(text)["engine_revision"] == "partial"


# ---------------------------------------------------------------- kernels


def test_a_kernel_the_model_was_trained_with_or_could_be_combined_with_is_not_the_runs():
    # huggingface/transformers docs/source/ko/quantization/awq.md (Apache-2.0): FlashAttention-2 'can be combined'
    # (할 수 있습니다) and 'cannot be combined with fused modules'; the fused modules are what the runs used
    text = ("# AWQ\n\n## 퓨즈된 모듈\n\n추론을 더욱 가속화하기 위해 AWQ 양자화와 FlashAttention-2 를 결합 할 수 있습니다.\n\n"
            "퓨즈된 모듈은 FlashAttention-2와 같은 다른 최적화 기술과 결합할 수 없습니다.\n\n| 배치 크기 | 디코드 토큰/초 |\n|---:|---:|\n| 1 | 38.45 |\n")
    assert items(text)["kernels"] == "partial"
    # ymcui/Chinese-LLaMA-Alpaca-2 README (Apache-2.0): the models were trained with FlashAttention-2
    text = "# Alpaca-2\n\n## 速度\n\n- 本项目的所有模型均使用了FlashAttention-2技术进行训练。\n- 解码速度 25 ms/token，1*A40-48G。\n"
    assert items(text)["kernels"] == "missing"


def test_a_fixed_generation_length_is_the_completed_length_and_the_stop_rule():
    # alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md (Apache-2.0): 'tg128: actually generates 128 tokens in a row'
    text = "# MNN K3\n\n- pp512：一次处理 512 个输入 token\n- tg128：实际连续生成 128 个 token\n\ndecode 22.42 tok/s，单进程。\n"
    s = items(text)
    assert (s["output_length_completed"], s["stopping"]) == ("declared", "declared")


def test_max_tokens_in_the_spellings_of_real_write_ups_is_the_requested_length():
    # real/batch7/n_ninehills_bench_readme.md l.66, real/batch8/o_kubeai_prefix_hash_70b.md l.5,
    # real/batch4/f_vllmascend_suffix_decoding.md l.120, real/batch10/v_torchair_reduce_overhead_zh.md l.103
    for said in ("Max Tokens: 200.", "Set max_tokens to 10.", "max_out_len = 4000", "输出max_new_tokens是1024"):
        text = f"# Results\n\nLlama-3.1-8B on 1x A100 with vLLM: 31 ms TPOT. {said}\n"
        assert items(text)["output_length_requested"] == "declared", said
    # a maximum context length is not an output length
    text = "# Results\n\nLlama-3.1-8B on 1x A100 with vLLM: 31 ms TPOT. Max context: 8192 tokens.\n"
    assert items(text)["output_length_requested"] == "missing"


def test_request_counts_and_completed_lengths_in_tool_printouts_and_tables_are_declared():
    # a genai-perf summary row, a k6 summary line, a settings table row (real/batch2/d_triton_specdec_vllm.md l.157,
    # real/batch8/o_kubeai_prefix_hash_70b.md l.119, real/batch9/t_doks_eagle3_vllm_bench.md l.155)
    for said in ("Request Count (count) │ 4.00 │", "http_reqs......................: 7341 73.808399/s", "| Prompts per Rate | 300 |"):
        text = f"# Results\n\nLlama-3.1-8B on 1x A100 with vLLM 0.6.3: TTFT p50 41 ms.\n\n```\n{said}\n```\n"
        assert items(text)["request_count"] == "declared", said
    # completed lengths: an OpenVINO GenAI printout, an mlx_lm summary, a Chinese table row
    # (real/batch10/v_ovgenai_vlm_bench.md l.131, real/batch1/a_mlx_examples_pr1069.md l.12, real/batch9/r_cllm_vs_ollama_q4km_zh.md l.51)
    head = "# Results\n\nLlama-3.1-8B on 1x A100 with vLLM 0.6.3: 41 tok/s.\n\n"
    for text in (head + "```\nOutput token size: 20\n```\n",
                 head + "| step | speed |\n|---|---|\n| generation (100 toks) | 4.7 toks/sec |\n",
                 head + "| 指标 | cLLM |\n|---|---|\n| 平均生成 tokens | 50.00 |\n"):
        assert items(text)["output_length_completed"] == "declared", text


def test_an_output_sequence_length_equals_value_is_the_requested_length():
    # FMInference/FlexLLMGen README.md (Apache-2.0)
    text = "# FlexLLMGen\n\nThroughput 7.32 token/s on 1x T4 (16GB). The output sequence length = 32.\n"
    assert items(text)["output_length_requested"] == "declared"


def test_lengths_written_with_hyphens_in_korean_or_as_llama_bench_rows_are_stated():
    # real/batch11/w_vllm_decode_e2e_kv_rfc.md l.156 ('random 1024-in/128-out'), real/batch11/x_devfloor_llama4_serving_ko.md
    # l.106 ('입력 512 토큰'), real/batch6/i_llamacpp_pr2959.md l.13 ('pp 512' rows)
    head = "# Bench\n\nLlama-3.1-8B on one H100 with vLLM 0.6.3: TTFT p50 41 ms.\n\n"
    for said in ("Serving comparison: random 1024-in/128-out, 32 req/s.", "입력 512 토큰, 출력 128 토큰.",
                 "| test | t/s |\n|---|---|\n| pp 512 | 1201.3 |"):
        found = items(head + said + "\n")
        assert found["prompt_length"] == "declared", said
    assert items(head + "입력 512 토큰, 출력 128 토큰.\n")["output_length_requested"] == "declared"


def test_output_lengths_in_more_spellings_of_real_write_ups_are_the_requested_length():
    # real/batch7/m_zhilight_benchmarks.md l.27, real/batch8/q_ryzenai_llm_overview.txt l.226,
    # real/batch11/w_sglang_session_hicache_latency.md l.35, real/batch8/q_optimum_neuron_guidellm_guide.md l.125
    head = "# Results\n\nLlama-3.1-8B on 1x A100 with vLLM 0.6.3: 31 ms TPOT.\n\n"
    for said in ("- Output token length: 750", "All speedups use an output sequence length (OSL) of 64.",
                 "```\npython bench.py --initial-tokens 1024 --output-tokens 128\n```",
                 '```\nguidellm --data "prompt_tokens=15900,generated_tokens=450"\n```'):
        assert items(head + said + "\n")["output_length_requested"] == "declared", said
    # a 'New_tokens' column (real/batch8/q_rknn_llm_benchmark.md l.9) and a llama-bench 'TG 128' column
    # (real/batch11/w_ikllama_pr375_warmup.md l.104) give the length each row asked for
    for table in ("| Model | Seqlen | New_tokens | TTFT(ms) | Tokens/s |\n|---|---|---|---|---|\n| Qwen2 0.5B | 128 | 64 | 143 | 42.6 |\n",
                  "| N_KV | PP 512 t/s | TG 128 t/s |\n|---|---|---|\n| 0 | 1201.3 | 88.4 |\n"):
        assert items(head + table)["output_length_requested"] == "declared", table


def test_evalscope_perf_flags_and_its_total_requests_row_declare_the_workload():
    # real/batch8/q_selfllm_gptoss_evalscope_zh.md l.72-75 and l.209 (SOURCES.md): evalscope perf's --number is the
    # requests sent and --parallel the workers (modelscope/evalscope docs, stress_test/parameters.md)
    head = "# gpt-oss-20b on one H20\n\nvLLM 0.10.1 serves the model; TTFT p50 0.21 s, 1,850 tok/s.\n\n"
    command = "```bash\nevalscope perf --parallel 1 10 --number 5 20 --model gpt-oss-20b --max-tokens 1024\n```\n"
    found = items(head + command)
    assert (found["request_count"], found["concurrency"], found["output_length_requested"]) == ("declared",) * 3
    printout = "```\n| Number of concurrency | 5 |\n| Total requests | 100 |\n| Succeed requests | 100 |\n```\n"
    assert items(head + printout)["request_count"] == "declared"
    assert items(head)["request_count"] == "missing"


def test_an_offline_runner_is_the_launch_command_and_a_usage_benchmark_script_is_partial():
    # alibaba/MNN docs/perf/riscv_k3_ime2_asymmetric_w4b64.md (Apache-2.0): llm_bench loads and runs the model itself
    text = ("# MNN K3\n\n## 1. 性能结论\n\nprefill 512 tokens: 54.49 tok/s.\n\n## 2.3 通用测试命令\n\n```bash\n./llm_bench \\\n"
            "  -m <MNN_CONFIG> \\\n  -p 512 -n 0 -rep 5 -t 8 \\\n  -load false -fa 1 -kv false\n```\n")
    assert items(text)["launch_command"] == "declared"
    # mit-han-lab/llm-awq tinychat/README.md (MIT): a benchmark script offered under 'Usage', not tied to the results
    text = ("# TinyChat\n\n## Speed\n\nINT4 Llama-2-7B decodes at 194 tokens/s on RTX 4090.\n\n## Usage\n\n"
            "5. (Optional) Run the benchmark script to get TTFT and decoding throughput:\n\n```bash\ncd tinychat\n"
            "python benchmark.py --flash \\\n    --context_length 16 32 64\n```\n")
    assert items(text)["launch_command"] == "partial"


def test_tensor_dtypes_and_the_training_precision_are_not_the_served_weights():
    # microsoft/onnxruntime-genai docs/paged_attention_batching.md (MIT): the logits' dtype
    text = "# Batching\n\n4,109 tok/s at batch 32 on 1x H200.\n\n- Wrap the fp32 logits tensor once instead of per row.\n"
    assert items(text)["weight_format"] == "missing"
    # NVIDIA/Model-Optimizer examples/speculative_decoding/doc/dflash.md (Apache-2.0): the drafter's training flow
    text = "# DFlash\n\n3.1x speedup on 1x H100.\n\nThe flow: train (bf16) -> export_hf_checkpoint.py -> eval.\n"
    assert items(text)["weight_format"] == "missing"


def test_production_traffic_and_a_named_dataset_are_vague_prompt_lengths():
    # pytorch/pytorch.github.io _posts/2024-05-02-hitchhikers-guide-speculative-decoding.md (see SOURCES.md for its licence)
    text = "# Speculative decoding\n\nWe deployed the solution in an internal production environment: ITL 2x lower on 8x GPUs.\n"
    assert items(text)["prompt_length"] == "partial"
    # FlagOpen/FlagPerf inference/benchmarks/llama2_7b_mmlu/README.md (Apache-2.0): MMLU, no count of prompts
    assert items("# Llama2_7b_MMLU\n\n推理数据集: MMLU，5-shot。吞吐量 120 tokens/s，1x A100。\n")["prompt_length"] == "partial"


def test_capacity_planning_advice_is_not_the_measured_concurrency():
    # vllm-project/production-stack tutorials/25-v100-legacy-gpu-deployment.md (Apache-2.0): planning advice
    text = ("# V100\n\nQwen2.5-7B on 2x V100: 410 output tok/s per GPU.\n\nFor interactive serving, regardless of model size, "
            "plan for roughly 8-16 concurrent requests per deployment before latency degrades.\n")
    assert items(text)["concurrency"] == "missing"


def test_a_family_released_once_is_named_by_its_size():
    # FMInference/FlexLLMGen README.md (Apache-2.0): OPT has one checkpoint per size
    text = ("# FlexLLMGen\n\n## Generation Throughput (token/s)\n\n| System | OPT-6.7B | OPT-30B |\n| --- | --- | --- |\n"
            "| FlexLLMGen | 25.26 | 7.32 |\n\nAll runs on 1x T4 (16GB).\n")
    assert items(text)["model_artifact"] == "declared"
    # 'opt' alone is no model ('--opt-in', 'opt for')
    assert items("# Runs\n\nWe opt for 2x A100; throughput 25 tok/s.\n")["model_artifact"] == "missing"


# ---------------------------------------------------------------- request count


def test_users_times_turns_is_a_request_count_and_a_limit_is_not():
    # ai-dynamo/dynamo docs/benchmarks/embedding_cache.md (Apache-2.0): 30 users x 8 turns = 240
    text = "# Embedding cache\n\n**Workload:** sliding-window dataset (30 users × 8 turns, window = 5). p50 TTFT 2369 ms on 1x H100.\n"
    assert items(text)["request_count"] == "declared"
    # kvcache-ai/ktransformers doc/zh/DeepseekR1_V3_tutorial_zh.md (Apache-2.0): the engine handles at most 4 requests
    text = "# V0.3\n\n`--max_batch_size 4` 引擎单次运行最多处理 4 个请求。decode 14.0 tokens/s。\n"
    assert items(text)["request_count"] == "missing"


def test_a_threshold_or_maximum_load_is_partial():
    # pytorch/pytorch.github.io _posts/2024-05-02-hitchhikers-guide-speculative-decoding.md: an observation past a threshold
    text = ("# Speculative decoding\n\nITL is 2x lower on 8x A100. We begin to observe throughput reduction beyond a batch "
            "size of 64, which happens rarely in practice.\n")
    assert items(text)["concurrency"] == "partial"
    # llm-d/llm-d guides/pd-disaggregation/PD_DISAGGREGATION_TEST_RESULTS.md (Apache-2.0): a maximum, not the levels run
    text = "# P/D results\n\n- **TTFT**: ~0.3s on 2x H100\n- **Concurrent Decoding**: Up to 8 parallel sequences\n"
    assert items(text)["concurrency"] == "partial"


# ---------------------------------------------------------------- exclusions


def test_a_success_or_fail_count_column_accounts_for_every_sample():
    # alibaba/rtp-llm docs/benchmark/qwen3_dspark_vllm_analysis.md (Apache-2.0): 'Success 16/16' per run
    text = ("# DSpARK\n\n| Runtime | Concurrency | Success | Throughput (output tok/s) | p50 |\n|---|---:|---:|---:|---:|\n"
            "| RTP-LLM K=7 | 1 | 16/16 | 28.01 | 4.163 s |\n| vLLM K=7 | 1 | 16/16 | 46.60 | 2.759 s |\n")
    assert items(text)["exclusions"] == "declared"
    # vllm-project/production-stack tutorials/25-v100-legacy-gpu-deployment.md (Apache-2.0): a troubleshooting table
    text = ("# V100\n\n410 output tok/s on 2x V100.\n\n| Symptom / Error | Root Cause | Fix |\n|---|---|---|\n"
            "| CUDA error | Using the latest image (v0.9+), which dropped CC < 8.0 kernels. | Pin v0.8.5. |\n")
    assert items(text)["exclusions"] == "missing"


def test_a_draft_length_the_authors_set_counts_even_when_introduced_as_an_example():
    # triton-inference-server/tutorials Feature_Guide/Speculative_Decoding/vLLM/README.md (BSD-3-Clause)
    text = ("# Spec decode with vLLM\n\nWe ran EAGLE on 1x H100: 43.27 output tokens/s.\n\n### Create Model Repository\n\n"
            "Please modify the model.json to suit your needs. For example, we are setting `num_speculative_tokens` to 5 "
            "for eagle_model.\n")
    assert items(text)["spec_draft_tokens"] == "declared"
    # an example value alone stays an example
    text = "# Spec decode\n\nWe ran EAGLE on 1x H100: 43.27 output tokens/s. Tune the draft, e.g. num_speculative_tokens=4.\n"
    assert items(text)["spec_draft_tokens"] == "partial"


# ---------------------------------------------------------------- hardware: CPUs, machine types, devices


def test_a_cpu_named_with_its_core_count_declares_hardware():
    # real/batch4/f_mistralrs_v090_cpu.md l.124-126 (SOURCES.md: EricLBuehler/mistral.rs releases/v0.9.0/report.md
    # @69eebd7); LABELLING.md (after batch 3): a CPU named by generation and core count is declared
    text = ("## Results\n\nDecode on Qwen/Qwen3-4B Q4_K at 31.2 tok/s.\n\n"
            "Hosts: AWS c7i.8xlarge (Xeon Platinum 8488C, 16 physical cores, avx512f/amx_int8).\n")
    assert items(text)["hardware"] == "declared"
    no_count = "## Results\n\nDecode on Qwen/Qwen3-4B Q4_K at 31.2 tok/s on a Xeon Platinum 8488C.\n"
    assert items(no_count)["hardware"] == "partial"


def test_a_phone_named_by_model_declares_hardware():
    # real/batch4/f_executorch_gemma4.md l.176 (SOURCES.md: pytorch/executorch examples/models/gemma4/README.md
    # @33419c0); LABELLING.md (after batch 4): a phone or computer named by model in the singular is declared
    text = ("## Samsung S25 Performance\n\n| Model | Prefill | Gen | TTFT |\n|---|---|---|---|\n"
            "| E2B | 410 tok/s | 21 tok/s | 0.9 s |\n")
    assert items(text)["hardware"] == "declared"


def test_beside_a_named_gpu_the_cpu_core_count_does_not_declare_the_accelerators():
    # real/batch2/d_ktransformers_dsv3_zh.md l.54-66 (SOURCES.md: kvcache-ai/ktransformers @95009ea): a hybrid
    # CPU/GPU run is declared by its GPUs' count, not by the CPU's cores
    text = ("## Results\n\nDecode 13.69 tokens/s.\n\n- CPU: Intel Xeon Gold 6454S, 32 cores per socket, 2 sockets\n"
            "- GPUs: 4090D 24G\n")
    assert items(text)["hardware"] == "partial"


def test_an_on_device_runtime_named_without_a_version_is_a_partial_engine_revision():
    # real/batch4/f_executorch_gemma4.md (SOURCES.md: pytorch/executorch @33419c0): the results are ExecuTorch's,
    # and no version, commit or build is given
    text = ("# Gemma 4 on ExecuTorch\n\n## Samsung S25 Performance\n\n| Model | Prefill | Gen |\n|---|---|---|\n"
            "| E2B | 410 tok/s | 21 tok/s |\n\nMeasured with the ExecuTorch runner on the phone's CPU.\n")
    assert items(text)["engine_revision"] == "partial"
    pinned = text.replace("the ExecuTorch runner", "the ExecuTorch v1.2.0 runner")
    assert items(pinned)["engine_revision"] == "declared"


def test_an_engine_named_after_a_model_family_is_not_a_model():
    # real/batch4/f_mistralrs_v090_cpu.md l.3-4 and l.104-113 (SOURCES.md: EricLBuehler/mistral.rs @69eebd7): the
    # results compare mistral.rs with llama.cpp; every model is named by its Hub id in the artifacts table
    text = ("# mistral.rs v0.9.0 vs llama.cpp on CPU\n\nDecode is 1.08x llama.cpp on Qwen/Qwen3-4B.\n\n"
            "| Model | mistral.rs tok/s | llama.cpp tok/s |\n|---|---|---|\n| Qwen/Qwen3-4B | 31.2 | 28.9 |\n")
    report_ = report(text)
    finding = next(f for f in report_.items if f.id == "model_artifact")
    assert finding.status == "declared", finding.why
    assert "llama.cpp" not in finding.why and "mistral.rs" not in finding.why


def test_runs_counted_without_how_they_were_combined_are_a_partial_aggregation_rule():
    # real/batch5/g_vllm_pr7117.md l.14 ('Main branch (3 trials)'), real/batch7/n_jan_trtllm_blog.md l.60 ('5 batches of
    # 10 runs each'), real/batch11/w_ikllama_pr375_warmup.md l.64 ('a single measurement'), real/batch8/
    # o_llmd_sglang_qwen3_32b.md l.22 ('Summary across the full ladder')
    for said in ("Main branch (3 trials): 1,021 tok/s; this PR (3 trials): 1,036 tok/s.",
                 "We ran 5 batches of 10 runs each, per inference engine: 51.6 tok/s.",
                 "sweep-bench takes a single measurement per point: 88.4 t/s at N_KV 0.",
                 "Summary across the full ladder (rates 3 → 60): 1,850 tok/s output throughput."):
        assert items(f"# Results\n\nLlama-3.1-8B on one H100. {said}\n")["aggregation_rule"] == "partial", said
    assert items("# Results\n\nLlama-3.1-8B on one H100: 1,021 tok/s.\n")["aggregation_rule"] == "missing"


def test_a_mean_speed_up_or_maximum_speed_without_what_it_is_over_is_a_partial_aggregation_rule():
    # real/batch4/f_mistralrs_v090_cpu.md l.19 (SOURCES.md: EricLBuehler/mistral.rs @69eebd7) and
    # real/batch4/f_fastllm_benchmark_zh.md l.32 (ztxz16/fastllm docs/benchmark.md @43cef01); LABELLING.md: partial
    # for an average without over what
    mean = ("## Results\n\nOn Qwen/Qwen3-4B the mean speedup across context lengths is 1.08x llama.cpp for decode "
            "(31.2 vs 28.9 tok/s at 512).\n")
    assert items(mean)["aggregation_rule"] == "partial"
    maximum = "## 测试结果\n\n| 模型 | 最大推理速度 |\n|---|---|\n| ChatGLM-6b-int4 | 153 token/s |\n"
    assert items(maximum)["aggregation_rule"] == "partial"
    stated = mean.replace("the mean speedup across context lengths is", "the median of 3 runs gives a speedup of")
    assert items(stated)["aggregation_rule"] == "declared"


def test_a_page_whose_figures_are_printouts_in_its_code_blocks_is_a_measured_run():
    # real/batch4/f_litgpt_quantize.md l.5-20 (SOURCES.md: Lightning-AI/litgpt tutorials/quantize.md): no figure in
    # prose, but each command is followed by what it printed ("47.66 tokens/sec"); litgpt generate's flags are read
    text = ("# Quantize the model\n\n**All the examples below were run on an A100 40GB GPU with CUDA 12.1.**\n\n"
            "## Baseline\n\n```bash\nlitgpt generate tiiuae/falcon-7b \\\n  --precision bf16-true \\\n  --max_new_tokens 256\n"
            "...\nTime for inference 1: 5.37 sec total, 47.66 tokens/sec.\nMemory used: 14.50 GB\n```\n")
    found = items(text)
    assert (found["model_artifact"], found["output_length_requested"], found["hardware"]) == ("declared", "declared", "declared")
    assert found["weight_format"] == "declared"  # --precision bf16-true
    # the same page without the printout reports nothing: it is a how-to
    howto = text.replace("...\nTime for inference 1: 5.37 sec total, 47.66 tokens/sec.\nMemory used: 14.50 GB\n", "")
    howto = howto.replace("**All the examples below were run on an A100 40GB GPU with CUDA 12.1.**", "You can run:")
    assert items(howto)["model_artifact"] == "missing"


def test_engine_settings_stated_without_a_command_make_the_launch_command_partial():
    # LABELLING.md after batch 3: engine settings without a command are partial. real/batch9/r_mnn_metal_prefill_zh.md l.75
    # ('4 线程'), real/batch9/s_emergingai_llmperf_readme.md l.57 ('tensor parallel size = 1'), real/batch7/
    # m_mlx_examples_issue1029.md l.13 ('Flash attention enabled'), real/batch9/r_ikllama_disc18_cpu_vs_gpu.md (ngl, threads)
    for text in ("# MNN\n\n测试环境：Apple M3，4 线程。Qwen3-4B prefill 速度 512 tok/s。\n",
                 "# LLMPerf\n\nWith tensor parallel size = 1 on one A100, vLLM processed 1.6x more requests.\n",
                 "# MLX vs llama.cpp\n\nFlash attention enabled. Token generation speed 41.2 tok/s on an M2 Ultra.\n",
                 "# CPU vs GPU\n\n| model | ngl | threads | test | t/s |\n|---|---|---|---|---|\n| TriLM 99M | 0 | 16 | tg128 | 512.3 |\n"):
        assert items(text)["launch_command"] == "partial", text


def test_graph_capture_compile_mode_and_expert_parallel_degree_are_engine_settings():
    # real/batch11/w_sglang_dwdp_rocm.md l.79-80 ('graph capture disabled'), real/batch11/x_torchao_sparsity_readme.md l.17
    # (torch.compile="max_autotune"), real/batch8/q_ttmetal_tt_transformers_perf.md ('(DP=4)' rows): settings, no command
    for text in ("# DWDP\n\nConfiguration: DeepSeek-R1 MXFP4, 8 GPUs, graph capture disabled, concurrency 128.\n\n"
                 "| backend | TTFT (ms) |\n|---|---|\n| DEP | 2210 |\n",
                 "# sparsity\n\nsam ViT-h on an NVIDIA-A100-80GB, batch_size=32, `torch.compile=\"max_autotune\"`: 1.16x faster.\n",
                 "# perf\n\n| model | device | t/s/u |\n|---|---|---|\n| Llama-3.1-8B | N300 (DP=4) | 25.1 |\n"):
        assert items(text)["launch_command"] == "partial", text
    # the prefix-cache state is an item of its own (prefix_cache_state), like the dtype: no engine setting here
    assert items("# Cache\n\nPrefix caching is disabled. Llama-3.1-8B on one H100: TTFT 41 ms.\n")["launch_command"] == "missing"


def test_a_compute_backend_named_for_the_runs_makes_kernels_partial():
    # backends are partial (batches 1, 6, 7 adjudications): real/batch7/m_mistralrs_issue903.md l.18 ('--features metal'),
    # real/batch9/s_chinese_llama_alpaca3_readme_zh.md l.272 ('Apple M3 Max（Metal）'), real/batch9/s_exllama_readme.md l.58
    for text in ("# Metal\n\n```\ncargo run --release --features metal -- bench\n```\n\nTG 128: 28.1 tok/s on an M3 Max.\n",
                 "# 速度\n\n| 设备 | TG (ms/token) |\n|---|---|\n| Apple M3 Max（Metal） | 21.3 |\n",
                 "# ExLlama\n\nThe CUDA extension is compiled at runtime. 33B: 41 tokens/s on one RTX 4090.\n"):
        assert items(text)["kernels"] == "partial", text


def test_a_prefill_figure_in_other_words_than_ttft_makes_distinct_prefixes_apply():
    # real/batch7/m_candle_issue1939.md l.14, real/batch7/l_litertlm_readme.md l.49, real/batch8/p_duoattention_readme.md l.200
    for text in ("# Candle\n\n```\n19 prompt tokens processed: 74.91 token/s\n99 tokens generated: 69.43 token/s\n```\n",
                 "# LiteRT-LM\n\n| Device | Prefill (tokens/sec) | Decode (tokens/sec) |\n|---|---|---|\n| Pixel 8 | 1876 | 52 |\n",
                 "# DuoAttention\n\nThe pre-filling latency of a 320K context drops from 18.9 s to 9.2 s on one A100.\n"):
        assert items(text)["distinct_prefixes"] == "missing", text
    assert items("# Decode\n\nDecode speed 52 tokens/s on a Pixel 8.\n")["distinct_prefixes"] == "not_applicable"


def test_llama_cpp_prompt_processing_columns_are_prefill_figures():
    # real/batch11/w_ikllama_pr375_warmup.md l.104 (SOURCES.md): sweep-bench's S_PP / T_PP columns; llama-bench's pp512
    for table in ("| N_KV | T_PP s | S_PP t/s | S_TG t/s |\n|---|---|---|---|\n| 0 | 0.41 | 1201.3 | 88.4 |\n",
                  "| model | test | t/s |\n|---|---|---|\n| llama 8B Q4_0 | pp512 | 1201.3 |\n"):
        assert items("# Sweep\n\nOne RTX 4090.\n\n" + table)["distinct_prefixes"] == "missing", table
    assert items("# Sweep\n\nOne RTX 4090.\n\n| test | t/s |\n|---|---|\n| tg128 | 88.4 |\n")["distinct_prefixes"] == "not_applicable"


def test_what_was_left_out_in_the_words_and_printouts_of_real_write_ups_is_declared():
    # real/batch4/f_mistralrs_v090_cpu.md l.71, real/batch9/t_kvcached_offload_vs_kvcached.md l.90,
    # real/batch8/o_kubeai_prefix_hash_70b.md l.114, real/batch8/q_optimum_neuron_guidellm_guide.md l.264,
    # real/batch7/l_jetson_genai_benchmarking.md l.145, real/batch6/h_deepseek_inference_overview.md l.78
    for said in ("Contended runs were discarded and rerun.", "There were zero client errors in all runs.",
                 "`http_req_failed................: 0.00%  0 out of 7341`", "Request Failed: 0/11.",
                 "Ignore the results from this run: it warms the engine up.", "The statistics include all user requests.",
                 # real/batch11/w_vllm_pcp_tp_topk.md l.20, real/batch11/w_sglang_cutedsl_ar_fusion.md l.155 and l.164
                 "Each arm: one excluded warmup and one measured request.", "3 discarded warmup passes, then 20 timed.",
                 "Greedy decoding, no invalid outputs."):
        text = f"# Results\n\nLlama-3.1-8B with vLLM 0.6.3 on 1x H100: TTFT p50 41 ms. {said}\n"
        assert items(text)["exclusions"] == "declared", said
    # a run that failed to start is not a statement about the samples
    assert items("# Results\n\nTTFT p50 41 ms on 1x H100. The first attempt failed to start.\n")["exclusions"] == "missing"


def test_an_input_length_per_row_in_chinese_and_a_llama_cpp_prompt_eval_line_declare_the_prompt_length():
    # real/batch4/f_vllmascend_issue4395_zh.md l.12-23: '2k输入' per row; llama.cpp's timing printout counts the prompt
    text = "# 性能\n\n| 模型 | 场景 | TPOT |\n|---|---|---|\n| qwen3-32b | 单机8卡 2k输入 | 35 ms |\n"
    assert items(text)["prompt_length"] == "declared"
    text = ("# Run on 1x A100\n\n```\nllama_print_timings: prompt eval time =  2113.50 ms /  1975 tokens (1.07 ms per token)\n"
            "llama_print_timings:        eval time =   912.00 ms /    31 runs\n```\n")
    assert items(text)["prompt_length"] == "declared"


def test_a_duration_or_a_number_of_runs_without_their_requests_is_a_partial_request_count():
    # real/batch9/s_emergingai_llmperf_readme.md l.30, real/batch8/p_angelslim_readme_zh.md l.507,
    # real/batch9/t_doks_kv_routing_baseline.md l.21, real/batch10/u_asiai_turboquant.md l.37
    for said in ("Injection Time: 15 min per experiment.", "每格为 3×120s 窗口。", "300s per level at a target of 10 RPS.",
                 "Stable (std dev 0.04 tok/s across 3 runs)."):
        text = f"# Results\n\nLlama-3.1-8B with vLLM 0.6.3 on 1x H100: 41 tok/s. {said}\n"
        assert items(text)["request_count"] == "partial", said
    # with the count stated it is declared
    text = "# Results\n\nLlama-3.1-8B with vLLM 0.6.3 on 1x H100: 41 tok/s.\n\nWe sent 500 requests in all, 300s per level.\n"
    assert items(text)["request_count"] == "declared"


def test_a_request_count_beside_a_rate_is_a_count_and_requests_per_second_is_not():
    assert items("# Run\n\nvLLM 0.6.3 on 1x H100: 41 tok/s over 500 requests.\n")["request_count"] == "declared"
    assert items("# Run\n\nvLLM 0.6.3 on 1x H100 served 500 requests/s.\n")["request_count"] == "missing"


def test_kernels_described_by_what_they_do_are_partial_and_named_implementations_declared():
    # real/batch6/h_teal_readme.md l.32, real/batch6/h_vllm_pr3692.md l.2, real/batch7/m_powerinfer_readme.md l.50,
    # real/batch7/n_llmfoundry_inference_bench.md l.45, real/batch10/u_asiai_ollama_vs_lmstudio_ja.md l.43
    for said in ("We improve existing sparse kernels.", "The PR adds a Triton MoE kernel tuned for H100.",
                 "It uses neuron-aware sparse operators.", "We use the torch implementation of attention.",
                 "MLXのネイティブMetal最適化が効いています。"):
        text = f"# Results\n\nLlama-2-7B on 1x A100: 41 tok/s. {said}\n"
        assert items(text)["kernels"] == "partial", said
    # PyTorch SDPA by its function name and FlashAttention in katakana name the attention implementation
    for said in ("Attention runs through PyTorch scaled_dot_product_attention.", "フラッシュアテンションを使用。"):
        assert items(f"# Results\n\nLlama-2-7B on 1x A100: 41 tok/s. {said}\n")["kernels"] == "declared", said
    # the operating-system kernel is not a compute kernel
    assert items("# Results\n\nLlama-2-7B on 1x A100: 41 tok/s. Linux kernel 6.8.\n")["kernels"] == "missing"


def test_chinese_n_way_concurrency_is_declared_and_a_batch_cap_or_an_arrival_law_without_rate_is_partial():
    # real/batch8/o_ktransformers_readme_zh.md l.77 ('8 路并发'), real/batch4/f_fastllm_readme_zh.md l.15 ('单并发')
    for said in ("8 路并发下总吞吐 40 tokens/s。", "单并发速度可达 20 tokens/s。"):
        assert items(f"# 性能\n\nDeepSeek-R1 Q4_K_M 在 1x RTX 4090 上：{said}\n")["concurrency"] == "declared", said
    # real/batch1/b_lmdeploy_dsv3_zh.md ('max bsz' per row), real/batch9/s_emergingai_llmperf_readme.md l.29 (Poisson, no rate)
    for said in ("| model | max bsz | tok/s |\n|---|---|---|\n| DeepSeek-V3 | 1024 | 2100 |\n",
                 "Request Injection: Poisson Distribution. Output throughput 2100 tok/s.\n"):
        assert items(f"# Results\n\nDeepSeek-V3 on 8x H200 with vLLM 0.6.3.\n\n{said}")["concurrency"] == "partial", said


def test_prefill_figures_in_other_words_make_the_prompt_content_matter():
    # real/batch3/e_omniserve_readme.md l.314, real/batch1/a_mlx_examples_pr1069.md l.11,
    # real/batch10/v_torchair_reduce_overhead_zh.md ('全量(ms)'), real/batch10/u_bminf_readme_zh.md l.109 ('编码速度')
    for said in ("LServe accelerates LLM prefilling by up to 2.9x.", "Prompt: 120.5 tokens-per-sec",
                 "| 模型 | 全量(ms) |\n|---|---|\n| llama2-7b | 212 |", "| 平台 | 编码速度 (tokens/s) |\n|---|---|\n| CPU | 38 |"):
        text = f"# Results\n\nLlama-2-7B on 1x A100.\n\n{said}\n"
        assert items(text)["distinct_prefixes"] == "missing", said
    # '全量' for full-parameter training is not a prefill figure (real/batch3/e_chinese_alpaca2_readme_zh.md)
    assert items("# 训练\n\n我们进行了全量参数训练。TTFT 无。\n")["distinct_prefixes"] == "not_applicable"


def test_one_accelerator_labelled_in_more_ways_and_multi_node_setups_declare_hardware():
    # real/batch6/i_webllm_issue773.md l.33, real/batch7/l_evalscope_vs_vllm_bench_zh.md l.64,
    # real/batch8/q_selfllm_gptoss_evalscope_zh.md l.62, real/batch8/o_ktransformers_ascend_dsr1_zh.md l.13
    for said in ("GPU 1: RTX 4050", "硬件：A100 80G", "显卡: H20-96GB * 1", "NPU：Atlas 300I A2"):
        assert items(f"# Results\n\n{said}\n\nLlama-3.1-8B with vLLM 0.6.3: 41 tok/s.\n")["hardware"] == "declared", said
    # real/batch6/h_sglang_dsv3_h200.md l.4-5: two configurations listed, 8 and 2x8 GPUs: two setups, no inconsistency
    text = ("# DeepSeek V3 on H200\n\n- Single-node 8xH200 (BF16/FP8)\n- Multi-node 2x8xH200 (BF16/FP8)\n\n"
            "## DeepSeek V3 on 8xH200 (single-node)\n\nTTFT p50 41 ms.\n\n## DeepSeek V3 on 2x8xH200 (multi-node)\n\nTTFT p50 38 ms.\n")
    assert items(text)["hardware"] == "declared"
    # two counts for the same run in running prose still disagree (self-written inconsistent_gpu.md)
    text = "# Run\n\nServed on 4x A100 80GB: 2,900 tok/s.\n\nThe model ran with tensor parallelism across 8 A100 GPUs.\n"
    assert items(text)["hardware"] == "partial"


def test_gpt_oss_named_with_its_size_is_one_checkpoint():
    # openai publishes gpt-oss-20b and gpt-oss-120b, one checkpoint each (no base or instruct split)
    assert items("# Results\n\ngpt-oss-20b with vLLM 0.10.1 on 1x H100: 41 tok/s.\n")["model_artifact"] == "declared"
    assert items("# Results\n\ngpt-oss with vLLM 0.10.1 on 1x H100: 41 tok/s.\n")["model_artifact"] == "partial"


def test_a_llama_bench_settings_header_makes_launch_command_partial_wherever_the_table_starts():
    # the '| ngl | threads |' header was read only at the very start of the scanned text (its alternative lacked
    # multi-line mode; found in the speed review): a llama-bench printout under another line names the same settings
    text = ("# Results\n\nLlama-2-7B Q4_0 on an RTX-4080 with llama.cpp b3000: 131 t/s.\n\n```\nbuild: 1a2b3c4 (3000)\n"
            "| model | size | backend | ngl | threads | test | t/s |\n| --- | --- | --- | --- | --- | --- | --- |\n"
            "| llama 7B Q4_0 | 3.56 GiB | CUDA | 100 | 8 | tg128 | 131.2 |\n```\n")
    assert items(text)["launch_command"] == "partial"


def test_a_price_per_million_tokens_is_not_a_hub_id():
    # real/batch11/x_devfloor_llama4_serving_ko.md l.41 (SOURCES.md): "$0.28~$0.35/1M tokens" was quoted as the exact
    # checkpoint; a Hub owner is a name, not a number
    text = ("Llama 4 Scout on Trainium2 costs $0.28~$0.35/1M tokens vs $0.85 on H100; p50 TTFT 120 ms.\n")
    found = [f for f in report(text).items if f.id == "model_artifact"][0]
    assert found.status == "partial" and "0.35/1M" not in found.why
    assert items(text.replace("Llama 4 Scout", "meta-llama/Llama-4-Scout-17B-16E"))["model_artifact"] == "declared"


def test_a_tool_named_after_a_model_family_is_no_model():
    # real/batch7/n_ninehills_bench_readme.md l.58, 110 (ninehills/llm-inference-benchmark, MIT): the Hub ids name every
    # measured variant; 'llama-cpp' in the results is the engine, not a vaguely named model (labellers: declared)
    text = ("# Backend Benchmark\n\n| Backend | Model | tok/s |\n|---|---|---|\n| vllm | 01-ai/Yi-6B-Chat | 40.1 |\n"
            "| llama-cpp | TheBloke/Yi-6B-GGUF | 30.2 |\n\nWe ran llama-bench and llama-server on 1x A100.\n")
    assert items(text)["model_artifact"] == "declared"


def test_a_compute_backend_named_with_its_version_or_as_the_runtime_makes_kernels_partial():
    # LABELLING.md (batches 7-9): a compute backend named for the runs makes kernels partial.
    # real/batch11/x_llama_cu_awq_readme.md l.3 ('Pure Cuda inference'), real/batch14/ab_dynatree_papers_readme_zh.md
    # ('NVIDIA GPU with CUDA'), the ROCm build of a TGI image (real/batch13/k_dstack_mi300x_inference.md)
    for text in ("Pure Cuda inference: 40 tok/s on 1x RTX 4090.\n",
                 "We ran TGI with the ROCm 6.1 build on 1x MI250: TTFT 80 ms.\n",
                 "Requirements: GPU: NVIDIA GPU with CUDA 12.1. We measured 93 t/s on 1x RTX 4090.\n"):
        assert items(text)["kernels"] == "partial", text
