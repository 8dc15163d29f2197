"""Auditing a benchmark tool's result file: read through the metrics readers, warm-up recognised, counts as
compute_metrics counts them, definitions from the format, and what a client's file cannot know missing.

The files are real tool output (tests/data/metrics/README.md): aiperf 0.13.0 and guidellm 0.8.1 runs against a
mock server, and a legacy vLLM benchmark_serving.py file from SemiAnalysisAI/InferenceX. Every expected count
below is derived in the test from the file itself with plain ``json``, not from the code under test.
"""

import json
import shutil
from pathlib import Path

import pytest

from llm_inference_fundamentals.tools.audit import AuditRequest, audit_benchmark
from llm_inference_fundamentals.tools.errors import InputFormatError
from llm_inference_fundamentals.tools.metrics import MetricsRequest, compute_metrics
from llm_inference_fundamentals.tools.metrics.formats import is_warmup_record

METRICS = Path(__file__).parent / "data" / "metrics"
AIPERF = METRICS / "aiperf_profile_export.jsonl"
AIPERF_SUMMARY = METRICS / "aiperf_profile_export_aiperf.json"
GUIDELLM = METRICS / "guidellm_benchmarks.json"
GUIDELLM_SWEEP = METRICS / "real" / "guidellm_constant_sweep.json"
INFERENCEX = METRICS / "vllm_legacy_inferencex_conc4.json"
AIPERF_RATE_2 = METRICS / "real" / "aiperf" / "rate_2" / "profile_export.jsonl"


def audit(**kw):
    return audit_benchmark(AuditRequest(**kw))


def finding(report, key):
    return {f.id: f for f in report.items + report.rules}[key]


def aiperf_rows(path=AIPERF):
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


# ------------------------------------------------------------------ aiperf records: warm-up and counts


def test_aiperf_records_count_requests_as_compute_metrics_does_without_warmup():
    rows = aiperf_rows()
    # by hand: 12 records, 2 with metadata.benchmark_phase "warmup" (lines 1-2), 10 in the profiling phase, of
    # which line 10 carries an error: 9 completed + 1 failed = 10 requests (the README's run: 2 warm-up, 9 + 1)
    phases = [r["metadata"]["benchmark_phase"] for r in rows]
    assert (len(rows), phases.count("warmup"), phases.count("profiling")) == (12, 2, 10)
    metrics = compute_metrics(MetricsRequest(path=str(AIPERF)))
    assert (metrics.completed, metrics.failed, metrics.warmup_dropped) == (9, 1, 2)
    r = audit(path=str(AIPERF))
    count = finding(r, "request_count")
    assert count.status == "declared"
    assert count.why.startswith("10 requests measured (9 completed + 1 failed)")
    assert "2 warm-up records (lines 1-2) not counted" in count.why
    assert "12 requests" not in count.why


def test_aiperf_warmup_is_declared_from_the_phase_the_file_marks():
    r = audit(path=str(AIPERF))
    warmup = finding(r, "warmup")
    assert warmup.status == "declared"
    assert "2 warm-up requests (lines 1-2) carry metadata.benchmark_phase 'warmup'" in warmup.why
    assert "2 warm-up records dropped" in finding(r, "exclusions").why


@pytest.mark.parametrize("how", ["path", "inline"])
def test_evidence_never_quotes_a_warmup_record(how):
    warm_lines = {n for n, row in enumerate(aiperf_rows(), 1) if row["metadata"]["benchmark_phase"] == "warmup"}
    assert warm_lines == {1, 2}
    r = audit(path=str(AIPERF)) if how == "path" else audit(text=AIPERF.read_text())
    quoted = [e for f in r.items + r.rules for e in f.evidence]
    assert quoted, "the report quotes the records somewhere"
    assert all(e.line not in warm_lines for e in quoted), [(e.line, e.text[:40]) for e in quoted if e.line in warm_lines]
    assert not any('"warmup"' in e.text for e in quoted)
    # the first profiling record (line 3) is the one quoted for the counted requests
    assert finding(r, "request_count").evidence[0].line == 3
    assert '"benchmark_phase":"profiling"' in finding(r, "request_count").evidence[0].text


def test_inline_records_audit_like_the_file():
    by_path, inline = audit(path=str(AIPERF)), audit(text=AIPERF.read_text())
    assert [(f.id, f.status) for f in by_path.items + by_path.rules] == [(f.id, f.status) for f in inline.items + inline.rules]
    assert finding(inline, "request_count").why == finding(by_path, "request_count").why


def test_aiperf_completed_output_lengths_and_steady_decode_name_the_figures():
    # server usage (usage_completion_tokens) of the 9 successful profiling records: 24, 24, 22, 24, 24, 24, 20, 24, 24
    usage = [row["metrics"]["usage_completion_tokens"]["value"] for row in aiperf_rows()
             if row["metadata"]["benchmark_phase"] == "profiling" and not row.get("error")]
    assert sorted(usage) == [20, 22, 24, 24, 24, 24, 24, 24, 24]
    r = audit(path=str(AIPERF))
    assert finding(r, "output_length_completed").why.startswith("median 24 tokens (20-24) over 9 requests")
    steady = finding(r, "steady_decode")
    # a median of 24 completed tokens is under 64: TPOT mostly reflects start-up, not steady decode
    assert steady.status == "violation"
    assert "median completed output 24 tokens over 9 requests" in steady.why
    assert "usage_completion_tokens" in steady.evidence[0].text


def test_aiperf_observation_point_and_tpot_definition_come_from_the_format():
    r = audit(path=str(AIPERF))
    point = finding(r, "observation_point")
    assert point.status == "ok"
    assert "client (aiperf): start = request_start_ns" in point.why
    assert '"request_start_ns"' in point.evidence[0].text
    tpot = finding(r, "tpot_definition")
    assert tpot.status == "ok"
    assert tpot.why.startswith("inter_token_latency (aiperf)")
    assert "is vLLM's TPOT" in tpot.why
    assert '"inter_token_latency"' in tpot.evidence[0].text


def test_aiperf_records_beside_their_summary_take_its_configuration(tmp_path):
    # the real rate-2 run: --model mock-model --tokenizer ./tok --request-rate 2 --request-count 30,
    # --synthetic-input-tokens-mean 64 --output-tokens-mean 32 (tests/data/metrics/real/README.md), no warm-up
    rows = aiperf_rows(AIPERF_RATE_2)
    assert len(rows) == 30 and not any(is_warmup_record(row) for row in rows)
    r = audit(path=str(AIPERF_RATE_2))
    model = finding(r, "model_artifact")
    assert model.status == "partial"  # a served name, not a Hub id
    assert "input_config.models.items[*].name = 'mock-model' (in profile_export_aiperf.json beside the records)" in model.why
    assert finding(r, "tokenizer").status == "declared" and "'./tok'" in finding(r, "tokenizer").why
    assert finding(r, "concurrency").status == "declared" and "2 requests/s, open loop" in finding(r, "concurrency").why
    assert "input_config.datasets[*].prompts.osl.mean = 32.0" in finding(r, "output_length_requested").why
    assert finding(r, "request_count").why.startswith("30 requests measured (30 completed + 0 failed)")
    assert "input_config.phases[kind=profiling].requests = 30" in finding(r, "request_count").why
    warmup = finding(r, "warmup")
    assert warmup.status == "declared" and warmup.why.startswith("no warm-up phase")
    # alone (no summary beside it), the same records say nothing of model or load
    alone = tmp_path / "profile_export.jsonl"
    shutil.copy(AIPERF_RATE_2, alone)
    lonely = audit(path=str(alone))
    assert finding(lonely, "model_artifact").status == "missing"
    assert "profile_export_aiperf.json" in finding(lonely, "model_artifact").why
    assert finding(lonely, "concurrency").status == "partial"
    assert "measured, not the setting" in finding(lonely, "concurrency").why


def test_aiperf_summary_declares_warmup_counts_and_slos_from_input_config():
    doc = json.loads(AIPERF_SUMMARY.read_text())
    phases = {p["kind"]: p for p in doc["input_config"]["phases"]}
    assert (phases["warmup"]["requests"], phases["profiling"]["requests"]) == (2, 10)
    assert (doc["request_count"]["avg"], doc["error_request_count"]["avg"]) == (9.0, 1.0)
    r = audit(path=str(AIPERF_SUMMARY))
    assert finding(r, "warmup").why == "warm-up requests: input_config.phases[kind=warmup].requests = 2"
    assert finding(r, "warmup").evidence[0].text == '"requests": 2,'
    assert finding(r, "request_count").why.startswith("10 requests measured (9 completed + 1 failed)")
    assert finding(r, "concurrency").status == "declared" and "at most 3 requests in flight" in finding(r, "concurrency").why
    goodput = finding(r, "goodput_slo")
    assert goodput.status == "ok"
    assert '"time_to_first_token": 50.0' in goodput.why and "input_config.slos" in goodput.why


# ------------------------------------------------------------------ guidellm


def test_guidellm_file_configuration_and_definitions():
    doc = json.loads(GUIDELLM.read_text())
    bench = doc["benchmarks"][0]
    # by hand from the file: 7 successful + 1 errored, 2 streams, SLO ttft 50 / tpot 9, no warm-up configured
    assert (len(bench["requests"]["successful"]), len(bench["requests"]["errored"])) == (7, 1)
    assert bench["config"]["strategy"]["streams"] == 2
    r = audit(path=str(GUIDELLM))
    assert finding(r, "request_count").why.startswith("8 requests measured (7 completed + 1 failed)")
    assert finding(r, "concurrency").why.startswith("at most 2 requests in flight, closed loop")
    assert finding(r, "stopping").why == "benchmarks[0].requests.successful[0].request_args.body.ignore_eos = true"
    assert finding(r, "output_length_requested").why.endswith("max_completion_tokens = 24")
    assert finding(r, "warmup").status == "declared" and finding(r, "warmup").why.startswith("no warm-up phase")
    tpot = finding(r, "tpot_definition")
    assert tpot.status == "ok"
    assert "time_per_output_token_ms" in tpot.why and "it includes TTFT" in tpot.why  # unlike vLLM's TPOT
    assert "client (guidellm): start = request_start" in finding(r, "observation_point").why
    goodput = finding(r, "goodput_slo")
    assert goodput.status == "ok" and '"ttft_ms": 50.0, "tpot_ms": 9.0' in goodput.why


def test_guidellm_sweep_audits_every_benchmark():
    doc = json.loads(GUIDELLM_SWEEP.read_text())
    rates = [b["config"]["strategy"]["rate"] for b in doc["benchmarks"]]
    assert rates == [2, 6, 10, 14, 18]  # floats in the file (2.0, ...)
    r = audit(path=str(GUIDELLM_SWEEP))
    assert r.title == "guidellm result: mock-model, 5 runs"
    concurrency = finding(r, "concurrency").why
    for i, rate in enumerate(rates):
        assert f"benchmarks[{i}]: at most 10240 requests in flight and {rate:g} requests/s" in concurrency
    # the same setting in every benchmark reads once
    assert finding(r, "stopping").why == "benchmarks[*].requests.successful[0].request_args.body.ignore_eos = true"
    assert finding(r, "request_count").why.startswith("30 requests measured (30 completed + 0 failed)")


# ------------------------------------------------------------------ vLLM (real legacy file)


def test_vllm_legacy_file_from_inferencex():
    doc = json.loads(INFERENCEX.read_text())
    # by hand: num_prompts 40, completed 40, no 'failed' key (legacy): 40 - 40 = 0 failed; 40,960 output tokens over
    # 40 requests = 1,024 per request (>= 128: steady decode); max_concurrency 4 with request_rate inf
    assert (doc["num_prompts"], doc["completed"], doc["total_output_tokens"], doc["max_concurrency"]) == (40, 40, 40960, 4)
    r = audit(path=str(INFERENCEX))
    assert r.title.startswith("vllm bench serve (legacy benchmark_serving.py) result: /models/models--openai--gpt-oss-120b")
    assert finding(r, "model_artifact").status == "declared" and finding(r, "model_artifact").why.startswith("model_id = ")
    assert finding(r, "request_count").why == ("40 requests measured (40 completed + 0 failed), as compute_metrics counts "
                                               "them; num_prompts = 40 asked for")
    assert finding(r, "concurrency").why.startswith("at most 4 requests in flight, closed loop")
    steady = finding(r, "steady_decode")
    assert steady.status == "ok" and "mean completed output 1024.0 tokens (total_output_tokens 40960 / completed 40)" in steady.why
    assert "reference definition" in finding(r, "tpot_definition").why
    # request_goodput is null in this file: no goodput figure to judge
    assert finding(r, "goodput_slo").status == "not_applicable"
    for key, field in (("model_artifact", '"model_id"'), ("request_count", '"completed"'), ("steady_decode", '"total_output_tokens"')):
        assert finding(r, key).evidence[0].text.startswith(field), key


def test_vllm_goodput_without_saved_slos_is_unclear_and_names_the_field(tmp_path):
    doc = json.loads(INFERENCEX.read_text())
    doc["request_goodput:"] = 0.4
    f = tmp_path / "run.json"
    f.write_text(json.dumps(doc))
    goodput = finding(audit(path=str(f)), "goodput_slo")
    assert goodput.status == "unclear"
    assert goodput.why.startswith("request_goodput is in the file, but the --goodput SLOs are not saved")


def test_vllm_appended_runs_in_a_json_file_are_each_audited(tmp_path):
    # `vllm bench serve --append-result` writes one run per line into its .json file: two runs, concurrency 4 and 8
    first = json.loads(INFERENCEX.read_text())
    second = dict(first, max_concurrency=8)
    f = tmp_path / "runs.json"
    f.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    r = audit(path=str(f))
    assert r.title.endswith(", 2 runs")
    concurrency = finding(r, "concurrency").why
    assert "run 0 (line 1): at most 4 requests in flight" in concurrency and "run 1 (line 2): at most 8 requests in flight" in concurrency
    assert [e.line for e in finding(r, "concurrency").evidence] == [1, 2]


# ------------------------------------------------------------------ what a client's file cannot know


@pytest.mark.parametrize("path", [AIPERF, GUIDELLM, INFERENCEX])
def test_server_side_items_are_missing_because_a_result_file_cannot_record_them(path):
    r = audit(path=str(path))
    for item in ("weight_format", "kv_format", "launch_command", "kernels", "hardware"):
        f = finding(r, item)
        assert f.status == "missing", item
        assert "result files do not record" in f.why and "a benchmark client sees the server only through its API" in f.why
    assert finding(r, "capacity_vs_workload").status == "not_applicable"
    assert finding(r, "stack_comparison").status == "not_applicable"


def test_missing_whys_show_in_the_text_view():
    text = audit(path=str(INFERENCEX)).to_text()
    assert "--num-warmups is not saved" in text


# ------------------------------------------------------------------ not a result file


@pytest.mark.parametrize("content", [
    {"title": "Our benchmark", "notes": "fast"},
    '{"name": "run", "value": 3}\n{"name": "run", "value": 4}\n',
])
def test_json_that_is_not_a_result_file_is_a_clear_error_not_a_report(content):
    with pytest.raises(InputFormatError) as err:
        audit(text=content)
    message = str(err.value)
    assert message.startswith("text: the input is JSON with none of the fields a benchmark manifest or a result file holds")
    assert "vllm bench serve" in message and "guidellm" in message


def test_a_non_result_json_file_is_a_clear_error(tmp_path):
    f = tmp_path / "notes.json"
    f.write_text(json.dumps({"title": "hello", "items": [1, 2]}))
    with pytest.raises(InputFormatError, match=r"^path: .*notes\.json' is JSON with none of the fields .*top-level keys: title, items"):
        audit(path=str(f))


def test_a_yaml_file_that_is_not_a_manifest_is_a_clear_error(tmp_path):
    f = tmp_path / "results.yaml"
    f.write_text("duration: 3\ncompleted: 2\nmean_ttft_ms: 3\ntotal_token_throughput: 4\n")
    with pytest.raises(InputFormatError, match="is YAML but not a benchmark manifest"):
        audit(path=str(f))


def test_is_warmup_record_follows_the_readers():
    rows = aiperf_rows()
    assert [is_warmup_record(row) for row in rows[:3]] == [True, True, False]
    assert is_warmup_record({"ttft_ms": 10, "phase": "warmup"}) and not is_warmup_record({"ttft_ms": 10})
    assert not is_warmup_record(["not", "a", "record"])
