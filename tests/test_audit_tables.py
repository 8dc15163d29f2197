"""Tables as data: every table form the audit reads, and what a cell's labels make of its figure.

Snippets are cut from real published write-ups (tests/data/audit/real/SOURCES.md names repository,
path, commit and licence of each): LMDeploy's KV-quantization page, FastDeploy's PLAS page (HTML
table with rowspan), the awsome-inference NIM results (a sweep table), the Triton speculative
decoding tutorial (genai-perf's box-drawn summary), llama.cpp's llama-bench printout.
"""

import pytest

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark
from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
from llm_inference_fundamentals.tools.audit.reading.cells import label, phrases
from llm_inference_fundamentals.tools.audit.reading.tables import cell_meaning, labelled_cells, read_tables


def tables(text: str):
    w = parse_writeup(text)
    return read_tables(w.blocks, lines=w.lines)


def items(text: str) -> dict[str, str]:
    report = audit_benchmark(AuditRequest(text=text))
    return {f.id: f.status for f in report.items}


# InternLM/lmdeploy docs/zh_cn/quantization/kv_quant.md @1263d5c (Apache-2.0), trimmed
KVQUANT = """## 推理效率

| model             | kv type | test settings                            | RPS   | v.s. kv fp16 |
| ----------------- | ------- | ---------------------------------------- | ----- | ------------ |
| llama2-chat-7b    | fp16    | tp1 / ratio 0.8 / bs 256 / prompts 10000 | 14.98 | 1.0          |
| -                 | int8    | tp1 / ratio 0.8 / bs 256 / prompts 10000 | 19.01 | 1.27         |
"""

# PaddlePaddle/FastDeploy docs/zh/features/plas_attention.md @0008fbe (Apache-2.0), styles dropped, two rows kept
PLAS = """### 性能

我们从 InfiniteBench 中选择了一个子集 (longbook_sum_eng) 作为性能评估数据集。

<table>
    <tr>
        <td></td>
        <td></td>
        <td><strong>QPS</strong></td>
        <td><strong>Time to First token(s)</strong></td>
        <td><strong>Mean Input<br>Length</strong></td>
        <td><strong>Mean Output Length</strong></td>
    </tr>
    <tr>
        <td rowspan="2">
            <strong>ERNIE-4.5-21B-A3B</strong>
        </td>
        <td><strong>FullAttention</strong></td>
        <td>0.101</td>
        <td>8.082</td>
        <td>113182.32</td>
        <td>627.76</td>
    </tr>
    <tr>
        <td><strong>SparseAttention</strong></td>
        <td>0.150(+48%)</td>
        <td>5.466(-48%)</td>
        <td>113182.32</td>
        <td>590.23</td>
    </tr>
</table>
"""

# triton-inference-server/tutorials Feature_Guide/Speculative_Decoding/vLLM/README.md @e848952 (BSD-3-Clause), two rows
GENAI_PERF = """Measured on a single node with one GPU - RTX 5880.

```
                                    NVIDIA GenAI-Perf | LLM Metrics
┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┳━━━━━━━━━━┓
┃                         Statistic ┃      avg ┃      min ┃      max ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━╇━━━━━━━━━━┩
│              Request Latency (ms) │ 7,510.69 │ 6,534.94 │ 8,433.33 │
│   Output Sequence Length (tokens) │   325.00 │   324.00 │   326.00 │
│             Request Count (count) │     4.00 │      N/A │      N/A │
└───────────────────────────────────┴──────────┴──────────┴──────────┘
```
"""


def test_pipe_table_cells_keep_their_line_and_heading():
    (t,) = tables(KVQUANT)
    assert [c.text for c in t.header] == ["model", "kv type", "test settings", "RPS", "v.s. kv fp16"]
    assert t.rows[1][1].text == "int8" and t.rows[1][1].line == 6 and t.heading == "推理效率"
    assert cell_meaning(t, 0, 3) == ("RPS", "llama2-chat-7b", "推理效率")


def test_html_table_spreads_rowspan_and_joins_broken_headers():
    (t,) = tables(PLAS)
    assert t.kind == "html" and "InfiniteBench" in t.caption
    assert t.header[4].text == "Mean Input Length"  # '<br>' inside the header cell is a space
    # the model cell spans both rows: the second row is still about ERNIE-4.5-21B-A3B
    assert [r[0].text for r in t.rows] == ["ERNIE-4.5-21B-A3B", "ERNIE-4.5-21B-A3B"]
    assert [r[1].text for r in t.rows] == ["FullAttention", "SparseAttention"]
    assert t.rows[1][3].text == "5.466(-48%)"


def test_box_drawn_console_table_reads_header_above_the_inner_rule():
    (t,) = tables(GENAI_PERF)
    assert t.kind == "box" and [c.text for c in t.header] == ["Statistic", "avg", "min", "max"]
    assert t.rows[1][0].text == "Output Sequence Length (tokens)" and t.rows[1][1].text == "325.00"


def test_pipe_table_printed_in_a_code_block_is_a_table():
    # llama-bench's own markdown output, as pasted in llama.cpp discussions
    text = ("```\n| model | size | backend | ngl | test | t/s |\n| --- | ---: | --- | --: | ---: | ---: |\n"
            "| llama 7B Q4_0 | 3.56 GiB | CUDA | 99 | tg128 | 137.58 ± 0.25 |\n```\n")
    (t,) = tables(text)
    assert t.kind == "pipe-in-code" and t.rows[0][5].text == "137.58 ± 0.25"


def test_restructuredtext_grid_and_simple_tables():
    text = ("Results\n=======\n\n+------------+-------+\n| Model      | tok/s |\n+============+=======+\n"
            "| Llama-2-7B | 1,234 |\n+------------+-------+\n\n"
            "=======  =========\nEngine   TTFT (ms)\n=======  =========\nvLLM     45.1\nSGLang   40.2\n=======  =========\n")
    grid, simple = tables(text)
    assert (grid.kind, [c.text for c in grid.header], grid.rows[0][1].text, grid.rows[0][1].line) == ("rst-grid", ["Model", "tok/s"], "1,234", 7)
    assert (simple.kind, simple.header[1].text, [r[0].text for r in simple.rows]) == ("rst-simple", "TTFT (ms)", ["vLLM", "SGLang"])
    assert grid.headings == ["Results"]


def test_labelled_cells_reads_columns_rows_and_the_statistic_across():
    (t,) = tables(GENAI_PERF)
    found = [(cell.text, name, other) for _, _, cell, name, other in labelled_cells(t, label("output_length_requested"))]
    # the 'Output Sequence Length' row, each value with the statistic of its column
    assert found[:2] == [("325.00", "Output Sequence Length (tokens)", "avg"), ("324.00", "Output Sequence Length (tokens)", "min")]
    assert not list(labelled_cells(t, label("prompt_length")))


def test_tables_read_with_one_label_share_what_it_matched_and_find_the_same_cells():
    text = ("| Metric | Mean | P99 |\n|---|---|---|\n| TTFT (ms) | 120 | 300 |\n| Output tokens | 128 | 128 |\n\n"
            "| Metric | Mean | P99 |\n|---|---|---|\n| Output tokens | 256 | 256 |\n| Concurrency | 8 | 8 |\n")
    found = lambda t, **kw: [(r, c, cell.text, name, other) for r, c, cell, name, other in
                             labelled_cells(t, label("output_length_requested"), **kw)]
    seen: dict[str, bool] = {}
    shared = [found(t, seen=seen) for t in tables(text)]
    assert shared == [found(t) for t in tables(text)]
    assert [cells[0][2] for cells in shared] == ["128", "256"]
    assert seen["Output tokens "] is True and seen["Metric "] is False  # each label text searched once for both tables


@pytest.mark.parametrize("header,item,reads", [
    ("Input Length", "prompt_length", True),
    ("input tokens/s", "prompt_length", False),  # a throughput, not a length
    ("Output Length", "output_length_requested", True),
    ("Mean Output Length", "output_length_completed", True),
    ("Output token throughput (tok/s)", "output_length_requested", False),
    ("# Requests", "request_count", True),
    ("Failed requests", "request_count", False),
    ("Concurrency", "concurrency", True),
    ("批大小", "concurrency", True),
])
def test_header_labels_name_their_setting(header, item, reads):
    assert bool(label(item).search(header)) is reads


@pytest.mark.parametrize("sentence,item", [
    # deepspeedai/DeepSpeed blogs/deepspeed-fp6/03-05-2024/README-Chinese.md @38327e0 (Apache-2.0)
    ("图1：在DeepSpeed-MII中，使用128个请求和32个客户端，对LLaMA-2-70B模型进行端到端服务性能测试。", "request_count"),
    ("图1：在DeepSpeed-MII中，使用128个请求和32个客户端，对LLaMA-2-70B模型进行端到端服务性能测试。", "concurrency"),
    # InternLM/lmdeploy docs/zh_cn/quantization/kv_quant.md @1263d5c
    ("**测试配置**：GPU: H200, 数据集: ShareGPT, 并发: 64, 请求数: 5000", "request_count"),
    ("**测试配置**：GPU: H200, 数据集: ShareGPT, 并发: 64, 请求数: 5000", "concurrency"),
    # deepspeedai/DeepSpeed blogs/deepspeed-fastgen/japanese/README.md @38327e0 (Apache-2.0)
    ("我々は複数のクライアント（1から32まで）を同時に起動し、サーバーにリクエスト（合計512）を送信します。", "request_count"),
    ("我々は複数のクライアント（1から32まで）を同時に起動し、サーバーにリクエスト（合計512）を送信します。", "concurrency"),
    # hpcaitech/ColossalAI legacy inference README (Apache-2.0)
    ("the consistent model configuration of 7 billion parameters, 1024 input length, and 128 output length", "prompt_length"),
    ("the consistent model configuration of 7 billion parameters, 1024 input length, and 128 output length", "output_length_requested"),
])
def test_prose_phrases_state_settings_in_several_languages(sentence, item):
    assert phrases(item).search(sentence)


def test_query_tokens_are_not_a_request_count():
    # PaddlePaddle/FastDeploy plas_attention.md: '128 query tokens' select key blocks (a kernel detail)
    assert not phrases("request_count").search("我们取连续 128 个查询标记选择的关键块的并集")


def test_results_table_declares_the_workload_it_reports():
    text = "# KV quantization\n\nMeasured with LMDeploy's profile_throughput.py.\n\n" + KVQUANT
    s = items(text)
    assert s["request_count"] == "declared" and s["concurrency"] == "declared"


def test_measured_output_lengths_are_completed_lengths():
    text = "# Speculative decoding on one RTX 5880\n\nWe ran genai-perf against the server:\n\n" + GENAI_PERF.split("\n", 2)[2]
    s = items(text)
    assert s["output_length_completed"] == "declared"
    assert s["request_count"] == "declared"  # 'Request Count (count)' row
    text = "# Runs\n\nWe measured TTFT 40 ms on 1x H100.\n\n| Input Length | Output Length | TTFT (ms) |\n|---|---|---|\n| 1024 | 128 | 40 |\n"
    s = items(text)
    # a length column is what was asked for (LABELLING.md, batch-3 clarifications), not what came back
    assert (s["prompt_length"], s["output_length_requested"], s["output_length_completed"]) == ("declared", "declared", "missing")


def test_a_metric_in_a_later_text_column_labels_the_figures_under_numeric_headers():
    # aws-samples/awsome-inference 2.projects/nims-inference/benchmark/README.md (MIT): the metric sits in the
    # 'Concurrency' column, the figures under the concurrency levels 1, 2, 4
    text = ("#### Llama3-8B-Instruct\n\n| Model | Dtype | GPUs | Concurrency | 1 | 2 | 4 |\n| :-: | :-: | :-: | :-: | :-: | :-: | :-: |\n"
            "| meta/llama3-8b-instruct | fp16 | 1xA10 | Token-per-second | 33.59 | 67.88 | 132.63 |\n"
            "| | | | Time-to-first-token(sec) | 0.1 | 0.11 | 0.18 |\n")
    t = tables(text)[0]
    _, row_text, _ = cell_meaning(t, 1, 4)
    assert "Time-to-first-token" in row_text
    # one TTFT value per level, no statistic: a latency figure without a distribution (LABELLING.md: partial)
    assert items(text)["latency_distributions"] == "partial"


def test_a_tables_labels_are_read_with_their_glossary_definitions():
    from llm_inference_fundamentals.tools.audit.reading.tables import _gloss

    (t,) = tables("| Metric | OSL | Mean |\n|---|---|---|\n| TTFT | 128 | 20 |\n|  | 1 | 2 |\n")
    t.glossary["osl"] = "output sequence length"
    heads, rows = t.glossed
    assert heads == [h.text + " " + _gloss(t, h.text) for h in t.header]
    assert heads[1] == "OSL output sequence length" and rows[0] == "TTFT "
    assert rows == [(r[0].text if r else "") + " " + _gloss(t, r[0].text if r else "") for r in t.rows]


def test_the_tables_of_a_block_are_those_read_from_it_in_order():
    from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup
    from llm_inference_fundamentals.tools.audit.reading.document import Document

    doc = Document(parse_writeup("Intro.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nText.\n\n```\n| x | y |\n|---|---|\n| 3 | 4 |\n```\n"))
    for i in range(len(doc.w.blocks)):
        assert doc.tables_at(i) == [t for t in doc.tables if t.block == i]
    assert [len(doc.tables_at(i)) for i in range(len(doc.w.blocks))] == [0, 1, 0, 1]


def test_a_bare_table_under_a_unit_caption_reports_token_rates_with_their_spread():
    # real/batch13/j_premai_llama2_engines.md l.10-16 (SOURCES.md: premAI-io/benchmarks, MIT): the metric and unit sit only
    # in the caption '(unit: Tokens / second)', the cells carry a spread ('36.78 ± 2.17'); both labellers read token rates
    from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark

    text = ("**Performance Metrics:** (unit: Tokens / second)\n\n| Engine | float32 | float16 |\n|---|---|---|\n"
            "| [candle](/bench_candle/) | - | 36.78 ± 2.17 |\n| [vllm](/bench_vllm/) | 90.78 ± 1.60 | 90.54 ± 2.22 |\n")
    rules = {f.id: f for f in audit_benchmark(AuditRequest(text=text)).rules}
    assert rules["throughput_basis"].status == "unclear" and "36.78" in rules["throughput_basis"].why
    assert rules["evidence_class"].status == "ok"
