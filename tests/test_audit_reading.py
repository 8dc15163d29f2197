"""How the audit reads a write-up: scope of each block, masks, and command lines parsed exactly."""

import pytest

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark
from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.commands import parse_commands
from llm_inference_fundamentals.tools.audit.reading.document import Document


def statuses(text: str) -> dict[str, str]:
    report = audit_benchmark(AuditRequest(text=text))
    return {f.id: f.status for f in report.items + report.rules}


def flags(text: str) -> list[tuple[str | None, str, str | None, str | None]]:
    """(tool, flag, value, item) of every flag of every command in ``text``."""
    return [(c.tool, f.name, f.value, f.item) for c in parse_commands([(0, text)]) for f in c.flags]


def scopes(text: str) -> list[tuple[int, str]]:
    doc = Document(parse_writeup(text))
    return [(b.first_line, s) for b, s in zip(doc.w.blocks, doc.scopes)]


# ---------------------------------------------------------------- scope


def test_a_how_to_page_without_results_declares_nothing():
    text = ("# Benchmark\n\nPlease install the package first, then run the following command:\n\n"
            "```shell\npython3 -m sglang.bench_serving --backend sglang --num-prompts 5000 --dataset-name sharegpt\n```\n")
    s = statuses(text)
    assert s["request_count"] == "missing" and s["prompt_length"] == "missing"
    assert {s[r] for r in ("observation_point", "throughput_basis", "evidence_class")} == {"not_applicable"}


def test_quick_start_demo_request_is_not_the_measured_workload():
    text = ("# Results\n\nWe measured TTFT p50 40 ms on 1x H100.\n\n## Quick start\n\n"
            "```bash\ncurl http://localhost:8000/v1/completions -d '{\"prompt\": \"Hi\", \"max_tokens\": 7}'\n```\n")
    assert statuses(text)["output_length_requested"] == "missing"


def test_installation_pins_are_not_the_measured_engine_version():
    text = ("# Results\n\nWe measured TTFT p50 40 ms on 1x H100 with vLLM.\n\n## Installation\n\n"
            "```bash\npip install vllm==0.6.3\n```\n")
    assert statuses(text)["engine_revision"] == "partial"


def test_recommendations_and_future_work_declare_nothing():
    text = ("# Results\n\nWe measured TTFT p50 40 ms on 1x H100.\n\n"
            "We recommend disabling prefix caching in production. In future work we will evaluate EAGLE "
            "speculative decoding with 4 draft tokens.\n")
    s = statuses(text)
    assert s["prefix_cache_state"] == "missing"
    assert s["spec_draft_tokens"] == "not_applicable"


def test_news_and_feature_lists_are_background():
    text = ("# Engine X\n\n## Latest News\n\n- [2024/08] Engine X supports FlashAttention-2 and FP8 KV cache.\n\n"
            "## Performance\n\nOn 8x H100 we measured 12,000 output tokens/s.\n")
    s = statuses(text)
    assert s["kernels"] == "missing" and s["kv_format"] == "missing"
    assert s["hardware"] == "declared"


def test_a_model_zoo_or_weights_download_section_is_background():
    # real/batch7/m_powerinfer_readme.md l.136-146 and real/batch8/p_cllm_readme.md l.89-99 (SOURCES.md): the Hub ids of
    # a 'Model Weights' section are what a reader may download, not the checkpoints the figures name
    text = ("# PowerInfer\n\n## Evaluation\n\nFalcon 40B and Llama 2 70B on one RTX 4090: up to 11.69x faster than llama.cpp.\n\n"
            "## Model Weights\n\n| Base Model | GGUF |\n|---|---|\n| LLaMA(ReLU)-2-7B | PowerInfer/ReluLLaMA-7B-PowerInfer-GGUF |\n")
    def model(t):
        return {f.id: f for f in audit_benchmark(AuditRequest(text=t)).items}["model_artifact"]
    assert model(text).status == "partial" and "PowerInfer/ReluLLaMA" not in model(text).why
    assert "PowerInfer/ReluLLaMA" in model(text.replace("## Model Weights", "## Models we ran")).why


def test_section_headings_set_the_scope_of_their_blocks():
    text = ("# Title\n\nWe measured 40 ms.\n\n## Installation\n\npip it.\n\n### From source\n\nbuild it.\n\n"
            "## Benchmark setup\n\nWe used 8x H100.\n\n## References\n\nA paper.\n")
    assert scopes(text) == [(1, "run"), (3, "run"), (5, "howto"), (7, "howto"), (9, "howto"), (11, "howto"),
                            (13, "run"), (15, "run"), (17, "links"), (19, "links")]


def test_a_section_headed_only_inference_is_how_to_run_the_model():
    # OpenBMB/MiniCPM README (Apache-2.0): '### 模型推理' and SafeAILab/EAGLE README.md (Apache-2.0): '## Inference'
    text = ("# Model\n\n## 效率评测\n\nOn 1x RTX 4090 decoding is 3x faster.\n\n### 模型推理\n\n#### vLLM\n\n"
            "```bash\nvllm serve openbmb/MiniCPM4.1-8B --max-num-seqs 64 --temperature 0.7\n```\n\n## Inference\n\nRun it.\n\n"
            "## 推理效率\n\nTable.\n")
    assert [s for _, s in scopes(text)] == ["run", "run", "run", "howto", "howto", "howto", "howto", "howto", "run", "run"]
    # a topic before a colon is not a bare 'Inference' heading (pytorch.github.io speculative-decoding blog)
    assert scopes("# T\n\nWe measured 2x.\n\n## Speculative decoding: Inference\n\nWe run TGIS.\n")[-1] == (7, "run")


def test_chinese_using_in_a_heading_is_not_a_usage_section():
    # microsoft/DeepSpeed fp6 Chinese blog (Apache-2.0): '3. 使用FP6服务LLMs' is "serving LLMs with FP6", a results section;
    # THUDM GLM-4 inference README (Apache-2.0): '使用 vLLM 后端代码' is how-to code
    text = "# FP6\n\n# 3. 使用FP6服务LLMs\n\n吞吐量提升1.5倍。\n\n### 使用 vLLM 后端代码\n\nRun it.\n\n## 使用指南\n\nRun it.\n"
    assert [s for _, s in scopes(text)] == ["run", "run", "run", "howto", "howto", "howto", "howto"]


def test_a_deployment_heading_under_a_results_section_is_the_measured_setup():
    # thu-pacman/chitu README_zh (Apache-2.0, batch 7): '## 性能数据' > '### 在 A800(40GB) 集群上部署 DeepSeek-R1-671B' >
    # '#### 多机环境下 Chitu 与 vLLM 的对比' holds the measured tables; a bare '## 部署' section is still a guide
    text = ("# Chitu\n\n## 性能数据\n\n### 在 A800(40GB) 集群上部署 DeepSeek-R1-671B\n\n#### 多机环境下 Chitu 与 vLLM 的对比\n\n"
            "|bs|tok/s|\n|---|---|\n|1|29.8 token/s|\n\n## 部署\n\nRun it.\n\n## 测试与部署\n\n### 服务部署\n\nRun it.\n")
    assert [s for _, s in scopes(text)] == ["run", "run", "run", "run", "run", "howto", "howto", "run", "howto", "howto"]
    # "Max RAM Usage" is a measured figure's heading, not a usage guide (janhq blog, batch 7)
    assert scopes("# T\n\nWe measured 40 ms.\n\n## Max RAM Usage\n\n9 GB.\n")[-1] == (7, "run")


def test_code_offered_to_the_reader_stays_the_readers_and_training_is_no_run():
    # SafeAILab/EAGLE README.md (Apache-2.0): '## Evaluation' tells the reader how to test speed; '## Train' trains a drafter
    text = ("# EAGLE\n\nEAGLE is 3x faster (13B) on 2x RTX 3090.\n\n## Evaluation\n\nYou can test the speed of EAGLE on MT-bench "
            "using the following command.\n\n```bash\npython -m eagle.evaluation.gen_ea_answer --ea-model-path m --base-model-path b\n```\n\n"
            "Log in first.\n\n```bash\npython -m eagle.evaluation.gen_ea_answer_qwen3 --ea-model-path q --base-model-path Qwen/Qwen3-4B\n```\n\n"
            "## Train\n\n```bash\ndeepspeed main.py --deepspeed_config ds_config.json\n```\n")
    assert [s for _, s in scopes(text)] == ["run", "run", "run", "run", "howto", "run", "howto", "background", "background"]
    # the authors' own command after a reader's one stays a run
    text = ("# R\n\n5 ms.\n\n## Setup\n\nYou can install it:\n\n```bash\nvllm serve m --port 1\n```\n\n"
            "We ran the benchmark with:\n\n```bash\nvllm serve m --max-num-seqs 64\n```\n")
    assert scopes(text)[-1] == (15, "run")


def test_a_background_paragraph_still_declares_through_its_sentences_about_the_runs():
    text = ("# Post\n\nWe measured 40 ms TTFT.\n\n## Introduction\n\nvLLM is a fast engine. In this post we benchmarked "
            "Llama 3.1 8B Instruct on 1x H100.\n")
    assert statuses(text)["hardware"] == "declared"


def test_a_caption_written_in_html_is_prose_and_its_methods_sentence_speaks_of_the_runs():
    # FasterDecoding/REST README.md: the results are an image; the setup is in an <em> caption under it, in the passive
    text = ("# REST\n\n## Introduction\n\nREST is a retrieval-based speculative decoding method.\n\n"
            "<div align=\"center\">\n  <img src=\"assets/rest_results.png\" width=\"85%\">\n  <br>\n"
            "  <em>Speed on HumanEval and MT-Bench with standard autoregressive generation and REST. All the experiments "
            "are conducted on a single NVIDIA A6000 GPU and 96 CPU cores with a batch size of 1.</em>\n</div>\n")
    kinds = [b.kind for b in parse_writeup(text).blocks]
    assert kinds[-1] == "paragraph"
    got = statuses(text)
    assert got["hardware"] == "declared" and got["concurrency"] == "declared"
    # markup alone (an image in a layout div) and an HTML table stay html
    assert parse_writeup("<p align=\"center\"><img src=\"a.png\"></p>\n").blocks[0].kind == "html"
    assert parse_writeup("<table><tr><td>TTFT</td><td>41 ms and a few more words here</td></tr></table>\n").blocks[0].kind == "html"


def test_sampling_set_in_a_sentence_is_declared():
    text = "# Run\n\nWe measured 41 tok/s on 1x H100. The temperature is set to 0.8 and the top-p to 0.95.\n"
    assert statuses(text)["sampling"] == "declared"


def test_sampling_values_are_quoted_whole():
    # s_mimo_readme.md (batch 9) was quoted as 'temperature=0' for "temperature=0.6": a different setting
    text = "# Run\n\nWe measured 41 tok/s on 1x H100 with temperature=0.6, top_p=0.95 and top_k=40.\n"
    why = next(f.why for f in audit_benchmark(AuditRequest(text=text)).items if f.id == "sampling")
    assert "'temperature=0.6'" in why and "'top_p=0.95'" in why


def test_escaped_markdown_reads_as_written():
    text = "We measured TPOT p50 9 ms with 512-token outputs (`\\-\\-ignore\\_eos`).\n"
    assert statuses(text)["stopping"] == "declared"


# ---------------------------------------------------------------- commands (real command lines from published docs)


def test_argparse_prefixes_and_underscores_name_the_full_flag():
    # sgl-project/sglang benchmark/blog_v0_2/README.md and benchmark/benchmark_vllm_060/README.md
    got = flags("python3 -m sglang.bench_serving --backend sglang --dataset-name random --num-prompts 4000 "
                "--random-input 1024 --random-output 1024 --output-file offline.jsonl\n"
                "python -m vllm.entrypoints.openai.api_server --model meta-llama/Llama-3.1-70B-Instruct "
                "--disable-log-requests --num-scheduler-steps 10 --tensor 4 --max_model_len 4096\n")
    assert ("sglang-bench-serving", "--random-input-len", "1024", "prompt_length") in got
    assert ("sglang-bench-serving", "--random-output-len", "1024", "output_length_requested") in got
    assert ("vllm-serve", "--tensor-parallel-size", "4", "gpu_count") in got
    assert ("vllm-serve", "--max-model-len", "4096", "capacity") in got
    assert ("vllm-serve", "--disable-log-requests", "true", "setting") in got  # a switch takes no value


def test_line_continuations_and_pasted_backslash_space_join_one_command():
    # sgl-project/sglang benchmark/attention_backend/NVIDIA_H200.md pastes continuations as "\ " mid-line
    got = flags("python3 -m sglang.launch_server \\ --speculative-num-steps 3 \\ --speculative-eagle-topk 1 \\\n"
                "  --speculative-num-draft-tokens 4 --tp 8 --speculative-algo EAGLE --model-path deepseek-ai/DeepSeek-V3\n")
    assert ("sglang-server", "--speculative-num-draft-tokens", "4", "speculative") in got
    assert ("sglang-server", "--speculative-algorithm", "EAGLE", "speculative") in got
    assert ("sglang-server", "--model-path", "deepseek-ai/DeepSeek-V3", "model_artifact") in got


def test_docker_run_reads_image_env_and_entrypoint_args():
    cmds = parse_commands([(0, "MODEL=meta-llama/Llama-3.1-8B-Instruct\n"
                               "docker run --gpus all -p 8000:8000 -e VLLM_ATTENTION_BACKEND=FLASHINFER \\\n"
                               "  vllm/vllm-openai:v0.8.5 --model $MODEL --kv-cache-dtype fp8\n")])
    assert len(cmds) == 1 and cmds[0].tool == "vllm-serve" and cmds[0].image == "vllm/vllm-openai:v0.8.5"
    got = {(f.name, f.value) for f in cmds[0].flags}
    assert ("--model", "meta-llama/Llama-3.1-8B-Instruct") in got  # the variable is resolved
    assert ("--kv-cache-dtype", "fp8") in got and ("VLLM_ATTENTION_BACKEND", "FLASHINFER") in got


def test_an_unresolved_variable_states_nothing():
    # the TGI quick start: --model-id $model with model never set in the text
    cmds = parse_commands([(0, "docker run --gpus all --shm-size 1g -p 8080:80 -v $volume:/data "
                               "ghcr.io/huggingface/text-generation-inference:3.0.1 --model-id $model --quantize awq\n")])
    assert cmds[0].tool == "tgi-launcher"
    assert cmds[0].values("model_artifact") == []
    assert [f.value for f in cmds[0].values("weight_format")] == ["awq"]


@pytest.mark.parametrize("line, tool, expected", [
    # ai-dynamo/aiperf and triton genai-perf docs
    ("genai-perf profile -m meta-llama/Llama-3.1-8B-Instruct --synthetic-input-tokens-mean 550 --output-tokens-mean 150 "
     "--concurrency 10 --extra-inputs ignore_eos:true --streaming", "genai-perf",
     {("--synthetic-input-tokens-mean", "550", "prompt_length"), ("--concurrency", "10", "concurrency"),
      ("--extra-inputs", "ignore_eos:true", "extra_inputs")}),
    ("aiperf profile --model Qwen/Qwen3-0.6B --url localhost:8000 --endpoint-type chat --streaming --concurrency 10 "
     "--request-count 100 --isl 1000 --osl 500 --warmup-request-count 5", "aiperf",
     {("--isl", "1000", "prompt_length"), ("--osl", "500", "output_length_requested"), ("--request-count", "100", "request_count"),
      ("--warmup-request-count", "5", "warmup")}),
    ("guidellm benchmark --target http://localhost:8000 --rate-type sweep --max-seconds 30 "
     "--data \"prompt_tokens=256,output_tokens=128\"", "guidellm",
     {("--rate-type", "sweep", "concurrency"), ("--data", "prompt_tokens=256,output_tokens=128", "guidellm_data")}),
    ("python token_benchmark_ray.py --model meta-llama/Llama-2-7b-chat-hf --mean-input-tokens 550 --stddev-input-tokens 150 "
     "--mean-output-tokens 150 --max-num-completed-requests 2 --num-concurrent-requests 1 --llm-api openai", "llmperf",
     {("--mean-input-tokens", "550", "prompt_length"), ("--num-concurrent-requests", "1", "concurrency"),
      ("--max-num-completed-requests", "2", "request_count")}),
    ("trtllm-bench --model meta-llama/Llama-3.1-8B throughput --dataset /tmp/synthetic.txt --concurrency 64 --num_requests 3000",
     "trtllm-bench", {("--concurrency", "64", "concurrency"), ("--num_requests", "3000", "request_count"),
                      ("--model", "meta-llama/Llama-3.1-8B", "model_artifact")}),
    ("text-generation-benchmark --tokenizer-name meta-llama/Llama-3.1-8B-Instruct --batch-size 1 --batch-size 8 "
     "--sequence-length 512 --decode-length 128 --runs 10 --warmups 2", "tgi-benchmark",
     {("--sequence-length", "512", "prompt_length"), ("--decode-length", "128", "output_length_requested"),
      ("--warmups", "2", "warmup")}),
    ("vllm bench serve --model meta-llama/Llama-3.1-8B-Instruct --dataset-name random --random-input-len 1024 "
     "--random-output-len 512 --ignore-eos --num-prompts 1000 --max-concurrency 32 --goodput ttft:500 tpot:50", "vllm-bench-serve",
     {("--ignore-eos", "true", "ignore_eos"), ("--goodput", "ttft:500 tpot:50", "goodput"), ("--max-concurrency", "32", "concurrency")}),
    ("trtllm-serve meta-llama/Llama-3.1-70B-Instruct --tp_size 4 --max_batch_size 256", "trtllm-serve",
     {("(model)", "meta-llama/Llama-3.1-70B-Instruct", "model_artifact"), ("--tp_size", "4", "gpu_count")}),
])
def test_each_tool_maps_its_flags_to_contract_items(line, tool, expected):
    got = flags(line)
    assert {g[0] for g in got} == {tool}
    assert expected <= {(name, value, item) for _, name, value, item in got}


def test_comments_and_prompts_are_not_commands():
    cmds = parse_commands([(0, "# vllm serve org/model -tp 8\n$ vllm serve org/model -tp 2\n")])
    assert len(cmds) == 1 and cmds[0].values("gpu_count")[0].value == "2"


# ---------------------------------------------------------------- real pages (tests/data/audit/dev/SOURCES.md)

DEV = __import__("pathlib").Path(__file__).parent / "data" / "audit" / "dev"


def test_a_real_how_to_page_declares_nothing():
    # lmdeploy docs/en/benchmark/benchmark.md: install steps and benchmark commands, no result
    s = statuses((DEV / "lmdeploy_benchmark_howto.md").read_text())
    assert {v for k, v in s.items() if not k.startswith("spec_") and k != "distinct_prefixes"} <= {"missing", "not_applicable"}


def test_a_real_results_page_reads_its_tables_through_the_glossary():
    # lmdeploy docs/en/benchmark/a100_fp16.md: 'FTL: First Token Latency' defined above the tables,
    # 'A100-80G(x8)' in the first line, 'throughput(out tok/s)' columns
    s = statuses((DEV / "lmdeploy_a100_fp16.md").read_text())
    assert s["hardware"] == "declared" and s["distinct_prefixes"] == "missing"
    assert s["latency_distributions"] == "partial" and s["throughput_basis"] == "ok"
    assert s["steady_decode"] == "not_applicable"  # whole-run throughput is not a decode rate


def test_an_rst_overline_title_is_the_title_words_only():
    # reStructuredText titles with an over-line (as in c_arctic_speculator.txt, SOURCES.md batch 2):
    # markdown reads "=====\nTitle\n=====" as one setext heading whose text includes the over-line.
    writeup = parse_writeup(".. _label:\n\n=================\nArctic Speculator\n=================\n\nText.\n")
    assert writeup.title == "Arctic Speculator"
    assert writeup.blocks[-1].text.strip() == "Text." and writeup.blocks[-1].section == "Arctic Speculator"


def test_a_table_spans_the_lines_the_gfm_table_rule_gives_it():
    # GFM tables as markdown-it reads them: a table may interrupt a paragraph, a row with fewer cells is still a
    # row, and a block quote or a blank line ends the table. (Only each table's extent is kept, not its cells.)
    text = ("Results:\n| engine | tok/s |\n|---|---:|\n| vLLM | 1,200 |\n| SGLang |\n> quoted\n\n"
            "| a | b |\n| - | - |\n| 1 | 2 |\n\nAfter.\n")
    blocks = [(b.kind, b.first_line, b.last_line) for b in parse_writeup(text).blocks]
    assert blocks == [("paragraph", 1, 1), ("table", 2, 5), ("quote", 6, 6), ("table", 8, 10), ("paragraph", 12, 12)]


def test_an_excerpt_is_cut_at_whole_words_and_marked_where_cut():
    text = ("Speculative decoding cuts the per-token decode latency (from ~1.47 ms/token to ~0.47 ms/token) "
            "relative to vLLM v0.8.4 on one H100.\n")
    doc = Document(parse_writeup(text))
    i = next(k for k, p in enumerate(doc.plains) if "relative" in p)
    at = doc.plains[i].index("relative")
    quote = doc.excerpt(i, at, at + len("relative"), before=30, after=12)
    assert quote.startswith("...") and quote.endswith("...")
    inner = quote.strip(".")
    assert inner.split()[0] in text.split() and inner.split()[-1] in text.split()  # no half words
    assert "relative to" in quote
    a, b = doc.bounds(i, at, at + 1)
    whole = doc.excerpt(i, at, at + 1, before=500, after=500, limit=1000)
    assert whole == " ".join(doc.plains[i][a:b].split())  # the whole sentence: nothing cut, nothing marked
    assert doc.excerpt(i, at, at + 1, before=500, after=500, limit=60).endswith("...")  # cut by length: marked


def test_the_table_outline_rule_finds_the_tables_the_stock_rule_finds():
    # reading.blocks keeps only each table's extent; a paragraph's check whether a table starts below it (the
    # silent call) goes straight to the stock rule. Tables interrupting paragraphs, in lists, in quotes, cut short.
    from markdown_it import MarkdownIt

    from llm_inference_fundamentals.tools.audit.reading.blocks import _parser

    text = ("Intro line\n| a | b |\n|---|---|\n| 1 | 2 |\nnot a row\n\n- item\n  | x | y |\n  | - | - |\n  | 3 | 4 |\n\n"
            "> | q | r |\n> |---|---|\n> | 5 | 6 |\n\nText | with | bars\n|---|\n\n| only | header |\n| --- | --- |\n")
    stock = MarkdownIt("commonmark").enable("table").disable("inline")
    spans = lambda tokens: [(t.type, t.map) for t in tokens if t.type in ("table_open", "table_close", "paragraph_open")]
    assert spans(_parser().parse(text)) == spans(stock.parse(text))
    assert sum(t.type == "table_open" for t in _parser().parse(text)) == 4


def test_a_vs_pair_traces_to_the_two_rows_its_figures_name_in_one_column():
    from llm_inference_fundamentals.tools.audit.reading.tables import read_tables
    from llm_inference_fundamentals.tools.audit.rules.trace import _numeric_columns, _vs_rows

    w = parse_writeup("| engine | tok/s | ms |\n|---|---|---|\n| A | 1,200 | 30 |\n| B | 800 | 30 |\n")
    numeric = _numeric_columns(read_tables(w.blocks, lines=w.lines))
    assert _vs_rows(numeric, "1,200", "800")[1:] == ("a", "b")
    assert _vs_rows(numeric, "1200", "30") is None  # 30 names two rows of its column: no pair
    assert _vs_rows(numeric, "30", "800") is None   # 30 is in two rows: which one is meant is not said
