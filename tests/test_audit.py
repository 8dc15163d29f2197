"""The benchmark-contract audit: write-ups, manifests and result files in, item-by-item findings out."""

import json
import time
from pathlib import Path

import pytest
from mcp import Client

from audit_agreement import agreement, labelled_cases
from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark, audit_template
from llm_inference_fundamentals.tools.audit import ITEM_GROUPS, RULE_IDS
from llm_inference_fundamentals.tools.errors import InputFormatError
from llm_inference_fundamentals.tools.audit import BenchmarkManifest, manifest_json_schema
from llm_inference_fundamentals.tools.audit.reading.blocks import parse_writeup

DATA = Path(__file__).parent / "data" / "audit"
STRUCTURED = DATA / "structured"
SCHEMA_FILE = Path(__file__).parents[1] / "tools" / "data" / "benchmark-manifest.schema.json"


def audit_text(text: str, **kw):
    return audit_benchmark(AuditRequest(text=text, **kw))


def status(report, key):
    return {f.id: f for f in report.items + report.rules}[key]


# ---------------------------------------------------------------- labelled set


def test_labelled_set_has_at_least_14_writeups_with_every_id_labelled():
    cases = labelled_cases()
    assert len(cases) >= 14
    for _, gold in cases:
        data = json.loads(gold.read_text())
        assert set(data["items"]) == set(ITEM_GROUPS), gold.name
        assert set(data["rules"]) == set(RULE_IDS), gold.name


def test_overall_agreement_with_hand_labels_is_at_least_0_95():
    table, misses = agreement()
    agree = sum(a for a, _ in table.values())
    total = sum(b for _, b in table.values())
    assert agree / total >= 0.95, misses


# ---------------------------------------------------------------- judgement conventions


def test_vague_declarations_are_partial():
    r = audit_text("# Llama 70B on the latest vLLM\n\nPrompts were about 1k tokens.\n")
    assert status(r, "model_artifact").status == "partial"
    assert status(r, "engine_revision").status == "partial"
    assert status(r, "prompt_length").status == "partial"


def test_values_in_a_launch_command_code_block_count_with_line_numbers():
    text = "# Run\n\nServer:\n\n```\nvllm serve org-x/Llama-3.1-8B-Instruct --tensor-parallel-size 2 --kv-cache-dtype fp8\n```\n"
    r = audit_text(text)
    for key in ("launch_command", "model_artifact", "kv_format"):
        f = status(r, key)
        assert f.status == "declared"
        assert f.evidence[0].line == 6  # the command sits on line 6 of the input
        assert "vllm serve" in f.evidence[0].text


def test_missing_items_name_the_sections_searched():
    r = audit_text("# Title\n\n## Setup\n\nWe ran it.\n\n## Results\n\nIt was fast: 100 tok/s.\n")
    f = status(r, "tokenizer")
    assert f.status == "missing" and f.evidence == []
    assert any(s.startswith("Setup") for s in f.sections_searched)
    assert "Results" in f.why


def test_speculative_items_are_not_applicable_without_speculation():
    r = audit_text("Llama 3.1 8B on 1x H100 with vLLM 0.8.5, TTFT p50 40 ms, p99 90 ms. No speculative decoding.\n")
    assert {f.status for f in r.items if f.group == "speculative"} == {"not_applicable"}


def test_distinct_prefixes_is_not_applicable_without_a_ttft_or_prefill_figure():
    r = audit_text("Decode on 1x H100: TPOT 9 ms with 512-token outputs.\n")
    assert status(r, "distinct_prefixes").status == "not_applicable"
    r = audit_text("On 1x H100, TTFT p50 was 80 ms over the ShareGPT dataset.\n")
    assert status(r, "distinct_prefixes").status == "partial"


def test_warm_cache_speedup_in_the_title_without_cache_hit_label_is_a_violation():
    r = audit_benchmark(AuditRequest(path=str(DATA / "prefix_cache_blog.md")))
    f = status(r, "cache_hit_labeling")
    assert f.status == "violation" and f.evidence[0].line == 1


def test_sixteen_token_outputs_cannot_support_a_decode_rate():
    r = audit_text("TPOT averaged 6.1 ms/token over 50 requests that generated 16 tokens each on an RTX 4090.\n")
    assert status(r, "steady_decode").status == "violation"


def test_stack_comparison_flags_engine_comparison_with_different_weight_formats():
    r = audit_benchmark(AuditRequest(path=str(DATA / "quantized_comparison.md")))
    f = status(r, "stack_comparison")
    assert f.status == "violation" and "weight format" in f.why


def test_single_variable_ab_is_ok_and_nothing_compared_is_not_applicable():
    assert status(audit_benchmark(AuditRequest(path=str(DATA / "single_variable_ab.md"))), "stack_comparison").status == "ok"
    assert status(audit_benchmark(AuditRequest(path=str(DATA / "terse_table.md"))), "stack_comparison").status == "not_applicable"


def test_theoretical_figure_presented_as_measured_violates_evidence_class():
    r = audit_benchmark(AuditRequest(path=str(DATA / "theoretical_peak.md")))
    assert status(r, "evidence_class").status == "violation"


def test_capacity_read_as_served_load_is_a_violation_but_a_flag_alone_is_not_applicable():
    assert status(audit_benchmark(AuditRequest(path=str(DATA / "capacity_misread.md"))), "capacity_vs_workload").status == "violation"
    assert status(audit_benchmark(AuditRequest(path=str(DATA / "vllm_launch_codeblock.md"))), "capacity_vs_workload").status == "not_applicable"


def test_a_table_column_of_capacities_is_a_capacity_figure_kept_apart_from_the_workload():
    # real/batch7/l_litertlm_readme.md l.39-47 and real/batch11/w_sglang_session_hicache_latency.md l.45 (SOURCES.md):
    # a 'Context size' column and a 'GPU / CPU capacity (tokens)' row, the measured workload stated apart
    text = ("# LiteRT-LM\n\nModel | Quantization | Context size\n:--- | :---: | :---:\nGemma3-1B | 4-bit per-channel | 4096\n\n"
            "The benchmark is measured with 1024 tokens prefill and 256 tokens decode: 2,585 tok/s prefill on a Galaxy S24.\n")
    found = status(audit_text(text), "capacity_vs_workload")
    assert found.status == "ok" and "'Context size: 4096' (line 5)" in found.why
    text = ("# HiCache\n\n| metric | off | on |\n|---|---|---|\n| TTFT p50 (ms) | 412 | 198 |\n"
            "| GPU / CPU capacity (tokens) | 32,768 / 52,429 | 32,768 / 52,480 |\n\n16 concurrent conversations, 96 requests.\n")
    assert status(audit_text(text), "capacity_vs_workload").status == "ok"
    # a column of what ran ('input length') is workload, not capacity
    assert status(audit_text(text.replace("GPU / CPU capacity (tokens)", "input length")), "capacity_vs_workload").status \
        == "not_applicable"


def test_two_different_gpu_counts_are_reported():
    r = audit_benchmark(AuditRequest(path=str(DATA / "inconsistent_gpu.md")))
    assert len(r.inconsistencies) == 1
    c = r.inconsistencies[0]
    assert "4" in c.what and "8" in c.what
    assert [e.line for e in c.evidence] == [3, 8]  # "4x A100" on line 3, "8 A100 GPUs" on line 8
    assert status(r, "hardware").status == "partial"


def test_parse_writeup_keeps_line_maps_for_tables_and_code():
    w = parse_writeup("# T\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncmd --x 1\n```\n")
    kinds = [(b.kind, b.first_line, b.last_line) for b in w.blocks]
    assert kinds == [("heading", 1, 1), ("table", 3, 5), ("code", 7, 9)]


# ---------------------------------------------------------------- template


def test_unfilled_template_declares_nothing():
    # Every value of the template is a placeholder: audited as it is, it must declare nothing and claim
    # nothing. distinct_prefixes is not_applicable by the contract (no TTFT figure is reported yet).
    r = audit_text(audit_template())
    assert {f.id: f.status for f in r.items if f.status != "missing"} == {"distinct_prefixes": "not_applicable"}
    assert {x.status for x in r.rules} == {"not_applicable"}
    assert r.title is None  # the headline is a placeholder too


def test_cli_template_round_trip_is_all_missing(capsys, tmp_path):
    # lif audit --template > r.md; lif audit r.md
    code, out, _ = run(capsys, "audit", "--template")
    report = tmp_path / "r.md"
    report.write_text(out)
    code, out, _ = run(capsys, "audit", str(report), "--json")
    items = {f["id"]: f["status"] for f in json.loads(out)["items"]}
    assert code == 0 and set(items.values()) == {"missing", "not_applicable"}
    assert [k for k, v in items.items() if v == "not_applicable"] == ["distinct_prefixes"]


def test_filled_template_satisfies_every_contract_item_and_breaks_no_rule():
    # tests/data/audit/template/filled.md is the template with every placeholder replaced by a real value.
    r = audit_benchmark(AuditRequest(path=str(DATA / "template" / "filled.md")))
    assert {f.id for f in r.items if f.status != "declared"} == set()
    assert {r_.status for r_ in r.rules} <= {"ok", "not_applicable"}


@pytest.mark.parametrize("line", [
    "- Model: `<Hub id>`",
    "- Engine: TBD",
    "- Engine: vLLM <version>",
    "Hardware: TODO",
    "- KV cache: XXX",
    "- Weight format: [fill in]",
    "| setup | hardware |\n|---|---|\n| A |  |",
])
def test_placeholders_are_never_declarations(line):
    r = audit_text("# Run\n\nWe measured TTFT p50 80 ms.\n\n" + line + "\n")
    statuses = {f.id: f.status for f in r.items}
    assert statuses["model_artifact"] == "missing"
    assert statuses["kv_format"] == "missing" and statuses["weight_format"] == "missing"
    assert statuses["hardware"] == "missing"
    assert statuses["engine_revision"] in ("missing", "partial")  # "vLLM <version>" names the engine, not its version


def test_html_comments_and_link_targets_are_not_read():
    text = ("# Results\n\nWe measured TTFT p50 80 ms with [our engine](https://github.com/x/y/releases/tag/v0.6.3).\n\n"
            "<!-- draft: ran on 8x H100 with vLLM 0.6.3 -->\n")
    statuses = {f.id: f.status for f in audit_text(text).items}
    assert statuses["hardware"] == "missing"
    assert statuses["engine_revision"] != "declared"


# ---------------------------------------------------------------- manifests


def test_manifest_schema_file_is_in_sync():
    assert json.loads(SCHEMA_FILE.read_text()) == manifest_json_schema()


def test_full_yaml_manifest_declares_every_item():
    r = audit_benchmark(AuditRequest(path=str(STRUCTURED / "manifest_full.yaml")))
    assert r.format == "manifest"
    not_declared = {f.id: f.status for f in r.items if f.status != "declared"}
    assert not_declared == {k: "not_applicable" for k, g in ITEM_GROUPS.items() if g == "speculative"}
    assert {x.status for x in r.rules} <= {"ok", "not_applicable"}
    model = status(r, "model_artifact")
    assert model.evidence[0].line == 4  # 'model_artifact:' is line 4 of the YAML file


def test_sparse_manifest_gets_partials_and_violations():
    r = audit_benchmark(AuditRequest(path=str(STRUCTURED / "manifest_sparse.json")))
    assert status(r, "model_artifact").status == "partial"       # "Llama 70B"
    assert status(r, "engine_revision").status == "partial"      # "latest"
    assert status(r, "prompt_length").status == "partial"        # "about 1k"
    assert status(r, "hardware").status == "partial"             # TP 8 on 4 GPUs
    assert status(r, "stack_comparison").status == "violation"   # engine + hardware + weight format
    assert status(r, "goodput_slo").status == "violation"        # goodput without SLO
    assert status(r, "tpot_definition").status == "unclear"
    assert r.inconsistencies


def test_manifest_unknown_key_is_an_error_naming_the_field():
    with pytest.raises(InputFormatError, match=r"stack\.engine_version: Extra inputs are not permitted"):
        audit_text('{"stack": {"engine_version": "0.8.5"}}')


def test_manifest_wrong_type_is_an_error_naming_the_field():
    with pytest.raises(InputFormatError, match=r"stack\.hardware\.count"):
        audit_text("stack:\n  hardware:\n    accelerator: H100\n    count: -2\n", format="manifest")


def test_malformed_yaml_names_the_line(tmp_path):
    bad = tmp_path / "m.yaml"
    bad.write_text("stack:\n  model_artifact: [unclosed\n")
    with pytest.raises(InputFormatError, match="YAML"):
        audit_benchmark(AuditRequest(path=str(bad)))


def test_manifest_model_accepts_a_minimal_document():
    assert BenchmarkManifest.model_validate({}).manifest_version == "1"


# ---------------------------------------------------------------- result files


def test_vllm_result_file_configuration_counts_as_declarations():
    r = audit_benchmark(AuditRequest(path=str(STRUCTURED / "vllm_result.json")))
    assert r.format == "result"
    for key in ("model_artifact", "tokenizer", "request_count", "concurrency", "latency_distributions", "output_length_completed"):
        assert status(r, key).status == "declared", key
    assert status(r, "engine_revision").status == "partial"  # backend "vllm" without a version
    # 25,600 output tokens / 200 completed requests = 128 tokens per request -> steady decode ok
    assert status(r, "steady_decode").status == "ok"
    assert status(r, "model_artifact").evidence[0].line == 1


def test_jsonl_records_are_read_as_a_result_file():
    rows = "\n".join(json.dumps({"prompt_tokens": 100, "output_tokens": 20, "ttft_ms": 50}) for _ in range(5))
    r = audit_text(rows)
    assert r.format == "result"
    assert status(r, "request_count").status == "declared"


# ---------------------------------------------------------------- bad input


def test_binary_file_is_a_clear_error(tmp_path):
    f = tmp_path / "x.md"
    f.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    with pytest.raises(InputFormatError, match="binary"):
        audit_benchmark(AuditRequest(path=str(f)))


def test_empty_inputs_are_clear_errors(tmp_path):
    f = tmp_path / "e.md"
    f.write_text("  \n")
    with pytest.raises(InputFormatError, match="empty"):
        audit_benchmark(AuditRequest(path=str(f)))
    with pytest.raises(ValueError, match="empty"):
        AuditRequest(text="   ")
    with pytest.raises(ValueError, match="exactly one"):
        AuditRequest()


def test_oversized_text_is_rejected_and_a_large_writeup_is_audited():
    with pytest.raises(ValueError, match="text"):
        AuditRequest(text="x" * 1_000_001)
    para = "We measured TTFT p50 80 ms on 8x H100 with vLLM 0.8.5 and 1,000 requests at concurrency 32.\n\n"
    big = para * (900_000 // len(para))
    start = time.perf_counter()
    r = audit_text(big)
    assert status(r, "hardware").status == "declared"
    assert time.perf_counter() - start < 60  # a sanity bound, not a benchmark


@pytest.mark.parametrize("text", [
    "x" * 990_000,                                   # one megabyte-long word
    "1" * 990_000,                                   # one megabyte-long number
    " " * 500_000 + "1",                             # a long blank run
    "vllm serve llama 8 tokens at 16 concurrent " * 22_000,  # thousands of matches on one line
])
def test_pathological_single_line_inputs_finish(text):
    # Before: quadratic line/sentence look-ups and backtracking over long runs made these take minutes.
    start = time.perf_counter()
    r = audit_text(text)
    assert len(r.items) == len(ITEM_GROUPS)
    assert time.perf_counter() - start < 60  # a sanity bound, not a benchmark


def test_crlf_and_unicode_line_separators_keep_evidence_lines():
    # markdown-it breaks lines only at \r\n, \r and \n; str.splitlines() also breaks at \x0c, \x85 and \u2028,
    # which used to shift every later block (line 5 was read as another line and the finding was lost).
    for text in ["# T\r\n\r\npara\r\n\r\nRan on 8x H100 with vLLM 0.6.3.\r\n",
                 "# T\u2028x\n\npara\x0cmore\x85z\n\nRan on 8x H100 with vLLM 0.6.3.\n",
                 "# T\r\rpara\r\rRan on 8x H100 with vLLM 0.6.3.\r"]:
        ev = status(audit_text(text), "hardware").evidence
        assert [(e.line, e.text) for e in ev] == [(5, "Ran on 8x H100 with vLLM 0.6.3.")], repr(text)


def test_every_evidence_quote_is_on_its_cited_line():
    import re

    for source, _ in labelled_cases():
        lines = re.split(r"\r\n|\r|\n", source.read_bytes().decode("utf-8"))
        r = audit_benchmark(AuditRequest(path=str(source)))
        for f in r.items + r.rules:
            for e in f.evidence:
                assert e.text.strip(".")[:40] in lines[e.line - 1], (source.name, f.id, e.line, e.text)


def test_nvidia_prefix_is_not_a_gpu_count():
    # "NVIDIA H100" once read as "a H100" (count 1) and then clashed with --tensor-parallel-size 2.
    r = audit_text("GPU 0-1: NVIDIA H100 80GB HBM3\n\n```\nvllm serve Qwen/Qwen2.5-32B-Instruct --tensor-parallel-size 2\n```\n")
    assert status(r, "hardware").status == "declared"
    assert r.inconsistencies == []


def test_capacity_flag_read_as_served_load_in_prose_is_a_violation():
    text = ("We run vLLM 0.9.2 on 8x H100. Since the server is configured with `--max-model-len 131072` and\n"
            "`--max-num-seqs 50`, each node serves 50 concurrent users with full 128k-token contexts.\n")
    r = audit_text(text)
    assert status(r, "capacity_vs_workload").status == "violation"
    assert status(r, "concurrency").status == "missing"      # a capacity claim is not the workload
    assert status(r, "prompt_length").status == "missing"
    flag_only = audit_text("We run vLLM 0.9.2 on 8x H100 with `--max-model-len 131072`; TTFT p50 was 90 ms, p99 300 ms.\n")
    assert status(flag_only, "capacity_vs_workload").status == "not_applicable"


def test_same_format_written_two_ways_is_not_a_stack_change():
    text = ("# SGLang vs vLLM on one FP8 checkpoint\n\nThe only variable is the engine. Weights are FP8 (W8A8); the KV cache\n"
            "is BF16 on both. vLLM 0.9.0 and SGLang 0.4.6 on 4x H100, TTFT p50 300 ms vs 290 ms, p99 700 vs 650 ms.\n")
    r = audit_text(text)
    assert status(r, "kv_format").status == "declared"     # "KV cache\nis BF16" across a soft line wrap
    assert status(r, "stack_comparison").status == "ok"


def test_binary_after_the_first_kilobytes_is_a_clear_error(tmp_path):
    f = tmp_path / "late.md"
    f.write_bytes(b"# ok\n" + b"a" * 9000 + b"\x00")
    with pytest.raises(InputFormatError, match="binary"):
        audit_benchmark(AuditRequest(path=str(f)))


def test_missing_file_is_a_clear_error():
    with pytest.raises(InputFormatError, match="does not exist"):
        audit_benchmark(AuditRequest(path="/nonexistent/writeup.md"))


def test_non_utf8_file_is_a_clear_error(tmp_path):
    f = tmp_path / "l1.txt"
    f.write_bytes("Durchsatz mit Gr\xf6\xdfe".encode("latin-1"))
    with pytest.raises(InputFormatError, match="UTF-8"):
        audit_benchmark(AuditRequest(path=str(f)))


# ---------------------------------------------------------------- front ends


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.anyio
async def test_cli_json_is_exactly_the_mcp_structured_output(capsys):
    path = str(DATA / "meticulous_appendix.md")
    code, out, _ = run(capsys, "audit", path, "--json")
    assert code == 0
    async with Client(build_server(allow_dirs=[DATA]), raise_exceptions=True) as client:
        result = await client.call_tool("audit_benchmark", {"path": path})
    assert json.loads(out) == result.structured_content


@pytest.mark.anyio
async def test_mcp_bad_input_is_a_tool_error():
    async with Client(build_server()) as client:
        result = await client.call_tool("audit_benchmark", {"text": '{"stack": {"nope": 1}}'})
    assert result.is_error
    assert "stack.nope" in result.content[0].text


def test_cli_default_output_is_a_checklist(capsys):
    code, out, _ = run(capsys, "audit", str(DATA / "terse_table.md"))
    assert code == 0
    assert "model_artifact" in out and "[~]" in out and "metric rules" in out


def test_cli_template_and_schema(capsys):
    code, out, _ = run(capsys, "audit", "--template")
    assert code == 0 and out == audit_template()
    code, out, _ = run(capsys, "audit", "--manifest-schema")
    assert code == 0 and json.loads(out) == manifest_json_schema()


def test_cli_reads_stdin(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("Llama 70B on 8x H100\n"))
    code, out, _ = run(capsys, "audit", "-", "--json")
    assert code == 0 and json.loads(out)["format"] == "markdown"


def test_cli_bad_file_is_one_line_on_stderr(capsys, tmp_path):
    f = tmp_path / "b.md"
    f.write_bytes(b"\x00\x01\x02")
    code, out, err = run(capsys, "audit", str(f))
    assert code == 1 and out == ""
    assert err.startswith("InputFormatError:") and len(err.strip().splitlines()) == 1


def test_latest_engine_is_partial_even_when_another_engine_is_pinned():
    report = audit_text("We compared the latest vLLM with SGLang 0.4.1 on 8x H100.\n")
    finding = next(i for i in report.items if i.id == "engine_revision")
    assert finding.status == "partial"
    assert "vLLM" in finding.why and finding.evidence[0].line == 1


def test_each_engine_pinned_is_declared():
    report = audit_text("We compared vLLM 0.6.3 and SGLang 0.4.1 on 8x H100.\n")
    assert next(i for i in report.items if i.id == "engine_revision").status == "declared"


def test_bf16_and_fp8_read_as_two_weight_formats_in_a_comparison():
    report = audit_text("vLLM 0.6.3 with FP8 weights beat SGLang 0.4.1 with BF16 weights on one H100.\n")
    rule = next(r for r in report.rules if r.id == "stack_comparison")
    assert rule.status == "violation" and "bf16" in rule.why and "bfp16" not in rule.why


# ---------------------------------------------------------------- blind round 3 behaviours


def test_json_config_in_a_code_block_declares_its_keys():
    text = ('# Nightly run\n\n```json\n{"tokenizer": "meta-llama/Llama-3.1-8B-Instruct", "num_prompts": 1000,\n'
            ' "max_concurrency": 32, "temperature": 0.0, "warmup_requests": 10,\n'
            ' "server_args": ["--dtype", "bfloat16", "--kv-cache-dtype", "fp8"]}\n```\n')
    report = audit_text(text)
    for key in ("tokenizer", "request_count", "concurrency", "sampling", "warmup", "launch_command", "kv_format"):
        assert status(report, key).status == "declared", key
    assert status(report, "kv_format").evidence[0].line == 6  # heading, blank, fence, then the third config line


def test_ignore_eos_set_to_false_does_not_count_as_forced_outputs():
    report = audit_text('```json\n{"max_tokens": 256, "ignore_eos": false}\n```\n\nTPOT p50 31 ms.\n')
    assert status(report, "output_length_completed").status == "missing"
    # LABELLING.md (clarification after adjudicating batch 1): a requested length of 64 or more counts as the stated
    # output for steady_decode unless completed lengths are reported shorter; a short cap still fails it
    assert status(report, "steady_decode").status == "ok"
    short = audit_text('```json\n{"max_tokens": 16, "ignore_eos": false}\n```\n\nTPOT p50 31 ms.\n')
    assert status(short, "steady_decode").status == "violation"


def test_twenty_token_answers_said_in_prose_violate_steady_decode():
    report = audit_text("The question asks for a passphrase; `max_tokens` is 20. Decode speed: 142 tok/s (output tokens, single request).\n")
    assert status(report, "output_length_requested").status == "declared"
    assert status(report, "steady_decode").status == "violation"


def test_forced_length_with_a_completed_mean_states_the_requested_length():
    text = "Each request generates exactly its reference length (EOS is ignored); mean output 237 tokens. TPOT p99 61 ms.\n"
    report = audit_text(text)
    assert status(report, "stopping").status == "declared"
    assert status(report, "output_length_requested").status == "declared"


def test_up_to_quoting_the_best_measured_row_is_not_a_peak_claim():
    table = "| setup | gain |\n|---|---|\n| A | 1.94x |\n| B | 2.29x |\n\n"
    # 2.29 rounds to the 2.3 quoted: the best measured row, not a ceiling
    assert status(audit_text(table + "Our scheduler delivers up to 2.3x more goodput (req/s).\n"), "evidence_class").status == "ok"
    # 5x appears nowhere in the measurements: a peak presented as delivered
    assert status(audit_text(table + "Our scheduler delivers up to 5x more goodput (req/s).\n"), "evidence_class").status == "violation"


def test_observed_peak_load_is_not_a_theoretical_peak():
    report = audit_text("Server-side TTFT p99 was 14.1 s (Prometheus). Peak load was 96 running sequences per replica.\n")
    assert status(report, "evidence_class").status == "ok"
    assert status(report, "concurrency").status == "declared"


def test_a_stated_single_change_is_a_comparison_even_without_vs():
    text = ("On one H100 with vLLM 0.6.4, goodput at 8 req/s was 4.10 req/s. Switching only `--kv-cache-dtype fp8` "
            "(everything else unchanged) lifted goodput to 4.55 req/s under TTFT <= 1.5 s.\n")
    assert status(audit_text(text), "stack_comparison").status == "ok"


def test_speedups_only_still_bring_in_the_metric_rules():
    text = ("# Medusa makes Vicuna 2.3x faster\n\nSpeed-up is the ratio of generation speed (tokens per second) with "
            "Medusa to the baseline, at batch size 1.\n\n| category | speed-up |\n|---|---|\n| coding | 2.6x |\n")
    report = audit_text(text)
    assert status(report, "observation_point").status == "unclear"
    assert status(report, "steady_decode").status == "unclear"
    assert status(report, "throughput_basis").status == "ok"


def test_serving_at_the_full_context_with_a_capacity_flag_is_a_capacity_misread():
    text = "With `--max-model-len 131072`, a single MI300X serves Llama 3.1 70B at its full 128K context at 1,450 tokens/s.\n"
    assert status(audit_text(text), "capacity_vs_workload").status == "violation"


def test_docker_port_mapping_is_not_a_prompt_length():
    report = audit_text("```bash\ndocker run --gpus all -p 8080:80 ghcr.io/huggingface/text-generation-inference:3.0.1\n```\n")
    assert status(report, "prompt_length").status == "missing"


# ---------------------------------------------------------------- fourth blind round


def test_speculation_switched_off_after_a_list_of_methods_is_not_speculation():
    report = audit_text("SGLang v0.4.6 on 8x H200, 512-token outputs at 40 tok/s. MTP/speculative decoding is off.\n")
    assert {status(report, k).status for k in ("spec_draft_tokens", "spec_acceptance")} == {"not_applicable"}


def test_hedged_capacity_read_as_sessions_is_a_capacity_misread():
    text = ("After weights the decode node has about 620 GB free for KV, about 8.8M tokens, so one decode node "
            "serves about 1,900 concurrent 4.6k-token sessions.\n")
    report = audit_text(text)
    assert status(report, "capacity_vs_workload").status == "violation"
    assert status(report, "evidence_class").status == "violation"


def test_switching_engines_with_cache_on_one_side_is_a_stack_comparison():
    text = ("We switched from vLLM 0.6.3 to SGLang 0.4.1 on 4x L40S: ~1,900 tok/s became ~3,700 tok/s. Radix cache "
            "was on; vLLM prefix caching was off.\n")
    assert status(audit_text(text), "stack_comparison").status == "violation"


def test_metric_against_metric_curve_title_is_not_a_comparison():
    text = ("```\nInferences/Second vs. Client p95 Batch Latency\nConcurrency: 4, throughput: 11.44 infer/sec, "
            "latency 352940 usec\n```\n")
    assert status(audit_text(text), "stack_comparison").status == "not_applicable"


def test_label_column_config_table_reads_rows_as_settings():
    text = ("| | Run A |\n|---|---|\n| Input / output tokens | 1,000 / 1,000 |\n| Concurrency | 1 |\n"
            "| Hardware | 8x Cerulean C2 accelerator |\n| Software | Cerulean Runtime 2.4 |\n")
    report = audit_text(text)
    for key in ("prompt_length", "output_length_requested", "concurrency", "hardware", "engine_revision"):
        assert status(report, key).status == "declared", key


def test_hedged_load_level_is_partial_concurrency():
    report = audit_text("Concurrency is whatever production sends, usually 40-60 requests in flight.\n")
    assert status(report, "concurrency").status == "partial"


def test_pandas_describe_of_latency_columns_is_a_distribution():
    text = ("```\n       ttft_ms  tpot_ms\ncount    800.0    800.0\nmean     212.4     21.7\n50%      188.0     21.5\n"
            "99%      602.8     27.0\n```\n")
    assert status(audit_text(text), "latency_distributions").status == "declared"


def test_output_length_that_is_also_a_cap_does_not_back_steady_decode():
    # max_tokens 128 with EOS honoured is a cap; "2.4 req/s x 128 tokens" repeats the cap, not a completed length.
    # (A per-user decode rate: an aggregate output rate alone is no decode-rate figure, LABELLING.md.)
    text = ("Requests use max_tokens 128 and end_id set. At c=16 that's ~306 output tok/s per user "
            "(2.4 req/s x 128 tokens).\n")
    report = audit_text(text)
    assert status(report, "output_length_completed").status != "declared"
    # LABELLING.md (after adjudicating batch 1): a requested length of 64 or more backs steady decode
    assert status(report, "steady_decode").status == "ok"
    aggregate = "Requests use max_tokens 128 and end_id set. At c=16 that's ~4.9k output tok/s aggregate.\n"
    assert status(audit_text(aggregate), "steady_decode").status == "not_applicable"


def test_projected_headline_figure_violates_evidence_class():
    text = ("# Acme serves Llama 3.1 405B at 1,000 tokens per second per user\n\n"
            "Footnote: projected from single-chip kernel timings scaled to 8 chips.\n")
    assert status(audit_text(text), "evidence_class").status == "violation"


def test_a_basis_defined_once_labels_the_thread_figures():
    text = ("vLLM 0.6.3 gave us ~1,900 tok/s on 4x L40S.\n\n"
            "Throughput is prompt + completion tokens, summed across the cluster.\n")
    assert status(audit_text(text), "throughput_basis").status == "ok"


def test_length_distribution_written_as_label_then_statistics_is_declared():
    # "Prompt tokens: min .., mean .." and "completed output tokens (from usage): min .., median .." state
    # distributions; the steady-decode check must use the median (231 tokens), not the minimum (41).
    text = ("Workload: 1,000 requests. Prompt tokens: min 612, mean 3,940, max 11,850.\n"
            "`max_tokens=256`; completed output tokens (from `usage`): min 41, median 231, max 256.\n\n"
            "| arm | TPOT p50 (ms) |\n|---|---|\n| a | 17.8 |\n")
    r = audit_benchmark(AuditRequest(text=text))
    items = {f.id: f.status for f in r.items}
    rules = {f.id: f.status for f in r.rules}
    assert items["prompt_length"] == "declared"
    assert items["output_length_completed"] == "declared"
    assert rules["steady_decode"] != "violation"


def test_off_peak_and_negated_synthetic_acceptance_are_not_peak_claims():
    # "off-peak" is a time of day and "no synthetic acceptance knob" says acceptance was measured;
    # neither makes a measured figure a ceiling.
    text = ("Acceptance is measured from the server counters; no synthetic acceptance knob was set.\n"
            "We run re-indexes off-peak. Prefix-cache hit rate 71%.\n\n"
            "| metric | value |\n|---|---|\n| TTFT p95 (client) | 730 ms |\n")
    r = audit_benchmark(AuditRequest(text=text))
    assert {f.id: f.status for f in r.rules}["evidence_class"] == "ok"


def test_wildcard_engine_version_is_not_a_pin():
    report = audit_text("We served the model with a vLLM 0.8.x build on one MI325X.\n")
    assert status(report, "engine_revision").status == "partial"


def test_warmed_the_server_up_without_a_procedure_is_partial():
    report = audit_text("We warmed the server up before measuring.\n")
    assert status(report, "warmup").status == "partial"


def test_text_report_names_each_line_once():
    # The why of a weight format already quotes its line ('FP8' (l.3)); the checklist must not add
    # "(l. 3)" again, while a why without line numbers still gets them appended.
    text = "# Results\n\nWe served Llama-3.1-8B-Instruct.\nWeights are FP8.\nMean TTFT was 120 ms.\n"
    report = audit_text(text)
    lines = report.to_text().splitlines()
    weight = next(line for line in lines if " weight_format " in line)
    assert weight.count("l.4") + weight.count("l. 4") == 1, weight
    missing_lines = next(line for line in lines if " observation_point " in line)
    assert "(l. 5)" in missing_lines or "line 5" in missing_lines, missing_lines
