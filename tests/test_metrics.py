"""compute_metrics: hand-computed traces, one fixture per supported format, bad input, MCP and CLI parity."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import llm_inference_fundamentals
from llm_inference_fundamentals.tools.errors import InputFormatError
from llm_inference_fundamentals.tools.metrics import (
    MetricsRequest,
    RequestRecord,
    compute_metrics,
    parse_goodput,
)

DATA = Path(__file__).parent / "data" / "metrics"
REFERENCES = Path(llm_inference_fundamentals.__file__).parent / "references"


def run(**kwargs):
    return compute_metrics(MetricsRequest(**kwargs))


# --- hand-computed generic records -------------------------------------------------


def test_generic_records_jsonl_hand_computed():
    r = run(path=str(DATA / "records.jsonl"), slo_ttft_ms=150, slo_tpot_ms=15)
    # r1: ttft 120, e2el 120 + 4x10 = 160, n 5 -> TPOT 40/4 = 10; r2: ttft 200, e2el 240, n 3 -> TPOT 40/2 = 20
    # r3 failed; r4: ttft 80, n 1 -> E2E = TTFT = 80, no TPOT
    assert (r.completed, r.failed) == (3, 1)
    # TTFT [80, 120, 200]: mean 400/3; p90 at index 0.9 x 2 = 1.8 -> 120 + 0.8 x 80 = 184
    assert r.ttft_ms.mean == pytest.approx(400 / 3)
    assert r.ttft_ms.median == pytest.approx(120)
    assert r.ttft_ms.p90 == pytest.approx(184)
    # population std: deviations -160/3, -40/3, 200/3 -> sqrt((25600 + 1600 + 40000) / 9 / 3)
    assert r.ttft_ms.std == pytest.approx(((25600 + 1600 + 40000) / 27) ** 0.5)
    # TPOT over requests with n > 1: [10, 20] -> mean 15, std 5
    assert (r.tpot_ms.count, r.tpot_ms.mean, r.tpot_ms.std) == (2, pytest.approx(15), pytest.approx(5))
    # ITL: gaps flattened [10, 10, 10, 10, 20, 20] -> mean 80/6
    assert (r.itl_ms.count, r.itl_ms.mean) == (6, pytest.approx(80 / 6))
    # E2E [80, 160, 240]
    assert r.e2el_ms.mean == pytest.approx(160)
    # duration: first send 10.0 s to last token 10.05 + 0.24 = 10.29 s -> 0.29 s
    assert r.duration_s == pytest.approx(0.29)
    assert r.request_throughput == pytest.approx(3 / 0.29)
    # tokens of successful requests: input 100 + 300 + 50 = 450, output 5 + 3 + 1 = 9
    assert (r.total_input_tokens, r.total_output_tokens) == (450, 9)
    assert r.output_throughput == pytest.approx(9 / 0.29)
    assert r.total_token_throughput == pytest.approx(459 / 0.29)
    # goodput TTFT <= 150, TPOT <= 15: r1 (120, 10) good; r2 (200) no; r4 (80, TPOT := 0) good -> 2
    assert r.good_requests == 2
    assert r.request_goodput == pytest.approx(2 / 0.29)
    # attainment counts the failed request as a miss: 2 / 4
    assert r.slo_attainment == pytest.approx(0.5)
    # per-request output speed n / e2el: 5/0.16 = 31.25, 3/0.24 = 12.5, 1/0.08 = 12.5
    assert r.output_speed_tps.mean == pytest.approx((31.25 + 12.5 + 12.5) / 3)
    # effective prefill prompt / TTFT: 100/0.12, 300/0.2, 50/0.08
    assert r.effective_prefill_tps.mean == pytest.approx((100 / 0.12 + 1500 + 625) / 3)
    assert any("1 output token" in w for w in r.warnings)


def test_goodput_test_is_inclusive_and_one_token_requests_pass_tpot():
    # r1's TPOT is exactly 10 ms (40 ms over 4 gaps): an SLO of 10 keeps it; r4 has 1 token -> TPOT 0
    r = run(path=str(DATA / "records.jsonl"), slo_tpot_ms=10)
    assert r.good_requests == 2  # r1 (10 <= 10) and r4 (0); r2's 20 ms fails
    r = run(path=str(DATA / "records.jsonl"), slo_tpot_ms=9.99)
    assert r.good_requests == 1  # only the 1-token request


def test_csv_records_equal_jsonl_records():
    a = run(path=str(DATA / "records.jsonl"), slo_ttft_ms=150)
    b = run(path=str(DATA / "records.csv"), slo_ttft_ms=150)
    for name in ("ttft_ms", "tpot_ms", "itl_ms", "e2el_ms"):
        assert getattr(a, name) == getattr(b, name)
    assert (a.completed, a.failed, a.request_goodput) == (b.completed, b.failed, b.request_goodput)


def test_inline_records_and_requested_percentiles():
    records = [RequestRecord(ttft_ms=t, itl_ms=[5, 5], output_tokens=3) for t in (100, 200, 300, 400)]
    r = run(records=records, percentiles=[50, 25])
    # TTFT [100..400]: p25 at index 0.75 -> 175; p50 = median 250
    assert r.ttft_ms.percentiles == {"p50": pytest.approx(250), "p25": pytest.approx(175)}
    # no timestamps and no duration: rates unknown, said so
    assert r.duration_s is None and r.request_throughput is None
    assert any("no duration" in w for w in r.warnings)
    r = run(records=records, duration_s=2)
    assert r.request_throughput == pytest.approx(2.0)  # 4 requests / 2 s


def test_all_failed_gives_empty_distributions_not_zero():
    r = run(records=[RequestRecord(ok=False), RequestRecord(error="HTTP 500")])
    assert (r.completed, r.failed) == (0, 2)
    assert r.ttft_ms is None and r.tpot_ms is None and r.itl_ms is None and r.e2el_ms is None


def test_missing_usage_counts_fall_back_to_chunks_with_warning():
    r = run(records=[RequestRecord(ttft_ms=50, itl_ms=[10, 10, 10])])
    # 3 gaps -> 4 chunks -> 4 tokens; TPOT = 30 / 3 = 10
    assert r.total_output_tokens == 4
    assert r.tpot_ms.mean == pytest.approx(10)
    assert any("missing usage counts" in w for w in r.warnings)


def test_warmup_records_are_dropped():
    r = run(records=[RequestRecord(ttft_ms=999, e2el_ms=999, output_tokens=1, phase="warmup"), RequestRecord(ttft_ms=10, e2el_ms=10, output_tokens=1)])
    assert (r.completed, r.warmup_dropped, r.ttft_ms.mean) == (1, 1, pytest.approx(10))
    assert any("warm-up" in w for w in r.warnings)


def test_worked_example_of_the_metrics_reference_page():
    page = (REFERENCES / "metrics.md").read_text()
    section = page.split("## Worked example", 1)[1]
    block = re.search(r"```json\n(.*?)```", section, re.S).group(1)
    r = run(text=block, slo_ttft_ms=500, slo_tpot_ms=25)
    # the page's table: TTFT 300 / 200 / 520 / 592 / 216.0; E2E 420 / 280 / 664 / 750.4 / 241.7
    assert (r.ttft_ms.mean, r.ttft_ms.median, r.ttft_ms.p90, r.ttft_ms.p99) == pytest.approx((300, 200, 520, 592))
    assert r.ttft_ms.std == pytest.approx(216.0, abs=0.05)
    assert (r.e2el_ms.mean, r.e2el_ms.median, r.e2el_ms.p90, r.e2el_ms.p99) == pytest.approx((420, 280, 664, 750.4))
    assert r.e2el_ms.std == pytest.approx(241.7, abs=0.05)
    # TPOT 20, 15, 40 -> 25 / 20 / 36 / 39.6 / 10.8
    assert (r.tpot_ms.mean, r.tpot_ms.median, r.tpot_ms.p90, r.tpot_ms.p99) == pytest.approx((25, 20, 36, 39.6))
    assert r.tpot_ms.std == pytest.approx(10.8, abs=0.05)
    # ITL: 12 gaps, mean 30, p90 30, p99 65.6, std 12.9
    assert r.itl_ms.count == 12
    assert (r.itl_ms.mean, r.itl_ms.median, r.itl_ms.p90, r.itl_ms.p99) == pytest.approx((30, 30, 30, 65.6))
    assert r.itl_ms.std == pytest.approx(12.9, abs=0.05)
    # window 0 -> 1.0 s: 3 req/s, 4,100 input tok/s, 19 output tok/s, 4,119 total
    assert r.duration_s == pytest.approx(1.0)
    assert (r.request_throughput, r.input_throughput, r.output_throughput, r.total_token_throughput) == pytest.approx((3, 4100, 19, 4119))
    # goodput: A and B good, C not -> 2 req/s, attainment 2/3
    assert (r.good_requests, r.request_goodput, r.slo_attainment) == (2, pytest.approx(2.0), pytest.approx(2 / 3))
    # with TPOT <= 20, A still counts (inclusive): A and B -> 2
    assert run(text=block, slo_tpot_ms=20).good_requests == 2
    # decode speed 1/TPOT: 50, 66.7, 25; prompt/TTFT: 6,000, 5,000, 4,000 -> mean 5,000
    assert r.decode_speed_tps.mean == pytest.approx((50 + 1000 / 15 + 25) / 3)
    assert r.effective_prefill_tps.mean == pytest.approx(5000)
    # B carries 9 tokens in 5 chunks
    assert any("more tokens than chunks" in w for w in r.warnings)


# --- vLLM ---------------------------------------------------------------------------

_METRIC_KEY = re.compile(r"^(mean|median|std|p[\d.]+)_(ttft|tpot|itl|e2el)_ms$")


def _ours(report, key: str) -> float:
    stat, metric = _METRIC_KEY.match(key).groups()
    d = getattr(report, f"{metric}_ms")
    if stat in ("mean", "median", "std"):
        return getattr(d, stat)
    return getattr(d, stat, None) if stat in ("p90", "p95", "p99") else d.percentiles[stat]


@pytest.mark.parametrize("name", ["vllm_detailed.json", "vllm_legacy_detailed.json"])
def test_vllm_detailed_recompute_reproduces_the_files_summary(name):
    obj = json.loads((DATA / name).read_text())
    # the fixture's summary was computed with --goodput ttft:300 tpot:12
    r = run(path=str(DATA / name), slo_ttft_ms=300, slo_tpot_ms=12)
    keys = [k for k in obj if _METRIC_KEY.match(k)]
    assert len(keys) == 4 * 6  # mean, median, std, p90, p99, p99.9 of four metrics
    for key in keys:
        assert _ours(r, key) == pytest.approx(obj[key], rel=1e-9), key
    assert r.completed == obj["completed"]
    assert r.failed == 1
    assert r.total_input_tokens == obj["total_input_tokens"]
    assert r.total_output_tokens == obj["total_output_tokens"]
    for key in ("request_throughput", "output_throughput", "total_token_throughput"):
        assert getattr(r, key) == pytest.approx(obj[key], rel=1e-12)
    goodput = obj.get("request_goodput", obj.get("request_goodput:"))
    assert r.request_goodput == pytest.approx(goodput, rel=1e-12)
    assert r.source_reported.figures["request_goodput"] == pytest.approx(goodput)
    assert any("1 output token" in w for w in r.warnings)


def test_vllm_legacy_real_summary_file_quirks():
    # SemiAnalysisAI/InferenceX legacy benchmark_serving.py output: "request_goodput:" key, no "failed" key
    r = run(path=str(DATA / "vllm_legacy_inferencex_conc4.json"))
    assert (r.completed, r.failed) == (40, 0)  # failed = num_prompts - completed
    assert "legacy" in r.source_reported.tool
    assert r.source_reported.figures["request_goodput"] is None
    assert r.source_reported.figures["p99.9_itl_ms"] == pytest.approx(9.727208444615831)
    # rates from the file's totals: 40,960 input tokens / 89.195 s
    assert r.input_throughput == pytest.approx(40960 / 89.19548447802663)
    assert r.ttft_ms is None  # no per-request arrays: nothing recomputed, the file's own figures are reported
    assert any("request_goodput:" in w for w in r.warnings)


def test_vllm_summary_only_uses_latencies_and_refuses_goodput():
    obj = json.loads((DATA / "vllm_summary.json").read_text())
    r = run(path=str(DATA / "vllm_summary.json"), slo_ttft_ms=300)
    assert (r.completed, r.failed) == (7, 1)
    assert r.e2el_ms.mean == pytest.approx(obj["mean_e2el_ms"], rel=1e-12)
    assert r.ttft_ms is None
    assert r.request_goodput is None and any("goodput not computed" in w for w in r.warnings)
    assert r.output_throughput == pytest.approx(obj["output_throughput"])


# --- SGLang, AIPerf, GuideLLM, GenAI-Perf ----------------------------------------


def test_sglang_details_reproduce_ttft_and_itl_and_explain_tpot():
    obj = json.loads((DATA / "sglang_bench_serving.jsonl").read_text().splitlines()[0])
    r = run(path=str(DATA / "sglang_bench_serving.jsonl"))
    for stat in ("mean", "median", "std", "p90", "p95", "p99"):
        assert getattr(r.ttft_ms, stat) == pytest.approx(obj[f"{stat}_ttft_ms"], rel=1e-9)
        assert getattr(r.itl_ms, stat) == pytest.approx(obj[f"{stat}_itl_ms"], rel=1e-9)
    # SGLang's latency runs 1.5 ms past the last chunk ([DONE]): its E2E mean is 1.5 ms higher
    assert obj["mean_e2e_latency_ms"] - r.e2el_ms.mean == pytest.approx(1.5, abs=1e-6)
    assert r.tpot_ms.mean < obj["mean_tpot_ms"]
    assert any("[DONE]" in d for d in r.source_reported.definition_differences)
    assert any("holds 2 runs" in w for w in r.warnings)
    assert any("more tokens than chunks" in w for w in r.warnings)  # request 2 streams 2 tokens per chunk
    second = run(path=str(DATA / "sglang_bench_serving.jsonl"), run_index=1)
    assert second.ttft_ms is None and second.completed == obj["completed"]
    with pytest.raises(InputFormatError, match="run_index 2 is out of range"):
        run(path=str(DATA / "sglang_bench_serving.jsonl"), run_index=2)


def test_aiperf_records_match_aiperf_summary_from_the_same_run():
    summary = json.loads((DATA / "aiperf_profile_export_aiperf.json").read_text())
    r = run(path=str(DATA / "aiperf_profile_export.jsonl"))
    assert (r.completed, r.failed, r.warmup_dropped) == (9, 1, 2)
    for ours, tag in ((r.ttft_ms, "time_to_first_token"), (r.e2el_ms, "request_latency"), (r.itl_ms, "inter_chunk_latency")):
        assert ours.mean == pytest.approx(summary[tag]["avg"], rel=1e-9), tag
        assert ours.p90 == pytest.approx(summary[tag]["p90"], rel=1e-9), tag
        assert ours.p99 == pytest.approx(summary[tag]["p99"], rel=1e-9), tag
        assert ours.std == pytest.approx(summary[tag]["std"], rel=1e-9), tag
    # ns epoch timestamps as float64 resolve to ~256 ns
    assert r.duration_s == pytest.approx(summary["benchmark_duration"]["avg"], abs=1e-6)
    # aiperf's "inter_token_latency" uses its client tokenizer's OSL; ours uses usage: they differ, and we say so
    assert r.tpot_ms.mean != pytest.approx(summary["inter_token_latency"]["avg"], rel=1e-3)
    assert any("client vs server token counts" in w and "output tokens" in w for w in r.warnings)
    assert any("warm-up" in w for w in r.warnings)


def test_aiperf_summary_file_reports_its_figures_only():
    r = run(path=str(DATA / "aiperf_profile_export_aiperf.json"))
    assert r.source_format == "aiperf-summary"
    assert (r.completed, r.failed) == (9, 1)
    assert r.ttft_ms is None
    assert r.source_reported.figures["time_to_first_token.avg"] == pytest.approx(42.767, abs=1e-3)


def test_guidellm_report_same_ttft_definition_different_tpot():
    obj = json.loads((DATA / "guidellm_benchmarks.json").read_text())
    bench = obj["benchmarks"][0]
    r = run(path=str(DATA / "guidellm_benchmarks.json"), slo_ttft_ms=50)
    assert (r.completed, r.failed) == (7, 1)
    ttft = bench["metrics"]["time_to_first_token_ms"]["successful"]
    assert (r.ttft_ms.mean, r.ttft_ms.median, r.ttft_ms.std) == pytest.approx((ttft["mean"], ttft["median"], ttft["std_dev"]), rel=1e-6)
    # our TPOT per request = guidellm's per-request inter_token_latency_ms; we average by request
    per_request = [q["inter_token_latency_ms"] for q in bench["requests"]["successful"]]
    assert r.tpot_ms.mean == pytest.approx(sum(per_request) / len(per_request), rel=1e-6)
    assert r.itl_ms is None  # no chunk times in the file
    assert r.duration_s == pytest.approx(bench["duration"])
    assert any("includes TTFT" in d or "it includes TTFT" in d for d in r.source_reported.definition_differences)
    assert r.source_reported.figures["slo_attainment"] == pytest.approx(bench["metrics"]["slo_attainment"])


def test_genai_perf_raw_export_drops_role_and_usage_chunks():
    r = run(path=str(DATA / "genai_perf_profile_export.json"))
    # req0: TTFT 120 (the role-only delta at 115 ms does not count), gaps 10, 12, 11 -> E2E 153, TPOT 33/3 = 11
    # req1: TTFT 150, gaps 9, 9, 30, 9 -> E2E 207, TPOT 57/4 = 14.25; req2: 1 token, TTFT = E2E = 90
    assert r.ttft_ms.mean == pytest.approx((120 + 150 + 90) / 3)
    assert r.e2el_ms.mean == pytest.approx((153 + 207 + 90) / 3)
    assert r.tpot_ms.mean == pytest.approx((11 + 14.25) / 2)
    assert r.itl_ms.count == 7
    assert r.total_output_tokens == 10  # usage chunks: 4 + 5 + 1
    # duration: first send (t0) to last response of req1 (t0 + 20 + 207 + 1.2 ms [DONE]) = 0.2282 s
    assert r.duration_s == pytest.approx(0.2282)


# --- goodput syntax -------------------------------------------------------------------


def test_parse_goodput_vllm_syntax():
    assert parse_goodput(["ttft:500", "tpot:50", "e2el:10000"]) == {"ttft": 500.0, "tpot": 50.0, "e2el": 10000.0}
    for bad, match in (("ttft500", "KEY:MS"), ("itl:5", "keys are"), ("ttft:abc", "not a number"), ("ttft:-1", "between 0")):
        with pytest.raises(InputFormatError, match=match):
            parse_goodput([bad])
    with pytest.raises(InputFormatError, match="given twice"):
        parse_goodput(["ttft:1", "ttft:2"])


# --- bad input -------------------------------------------------------------------------


def test_truncated_json_names_the_line_and_says_truncated(tmp_path):
    text = (DATA / "vllm_detailed.json").read_text()
    bad = tmp_path / "cut.json"
    bad.write_text(text[: len(text) // 2])
    with pytest.raises(InputFormatError, match=r"line 1.*truncated"):
        run(path=str(bad))


def test_malformed_jsonl_line_is_named(tmp_path):
    f = tmp_path / "r.jsonl"
    f.write_text('{"ttft_ms": 10, "e2el_ms": 20, "output_tokens": 2}\n{"ttft_ms": 10, "e2el_ms": \n')
    with pytest.raises(InputFormatError, match="line 2"):
        run(path=str(f))


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ('{"ttft_ms": -5, "e2el_ms": 20}', "line 1: field 'ttft_ms'"),
        ('{"ttft_ms": "fast", "e2el_ms": 20}', "field 'ttft_ms'"),
        ('{"ttft_ms": 30, "e2el_ms": 20}', "exceeds e2el_ms"),
        ('{"ttft_ms": 10, "latency": 20}', "unknown field 'latency'"),
        ('{"ttft_ms": 10, "itl_ms": [1, -2]}', "field 'itl_ms.1'"),
        ('{"start_s": 5, "token_times_s": [4, 6]}', "before start_s"),
    ],
)
def test_bad_records_name_the_field(tmp_path, line, match):
    f = tmp_path / "r.jsonl"
    f.write_text(line + "\n")
    with pytest.raises(InputFormatError, match=match):
        run(path=str(f))


def test_non_finite_values_are_refused(tmp_path):
    obj = json.loads((DATA / "vllm_detailed.json").read_text())
    obj["ttfts"][0] = float("nan")
    f = tmp_path / "nan.json"
    f.write_text(json.dumps(obj))  # json writes NaN, which json.loads accepts
    with pytest.raises(InputFormatError, match="'ttfts'.*non-finite"):
        run(path=str(f))
    g = tmp_path / "nan.jsonl"
    g.write_text('{"ttft_ms": NaN}\n')
    with pytest.raises(InputFormatError, match="ttft_ms"):
        run(path=str(g))


@pytest.mark.parametrize(
    ("mutate", "match"),
    [
        (lambda o: o.update(ttfts="abc"), "'ttfts' must be a list"),
        (lambda o: o["itls"].pop(), "'itls' must be one list of chunk gaps per request"),
        (lambda o: o.update(output_lens=o["output_lens"][:-1]), "'output_lens' has 7 entries, expected 8"),
        (lambda o: o["itls"][0].append("x"), "'itls' holds a non-number"),
        (lambda o: o["ttfts"].__setitem__(0, 99.0), "exceeds its latency"),
    ],
)
def test_broken_vllm_files_name_the_field(tmp_path, mutate, match):
    obj = json.loads((DATA / "vllm_detailed.json").read_text())
    mutate(obj)
    f = tmp_path / "v.json"
    f.write_text(json.dumps(obj))
    with pytest.raises(InputFormatError, match=match):
        run(path=str(f))


def test_path_safety(tmp_path):
    with pytest.raises(InputFormatError, match="does not exist"):
        run(path=str(tmp_path / "missing.json"))
    with pytest.raises(InputFormatError, match="is a directory"):
        run(path=str(tmp_path))
    with pytest.raises(InputFormatError, match="not a regular file"):
        run(path="/dev/zero")
    empty = tmp_path / "empty.json"
    empty.write_text("")
    with pytest.raises(InputFormatError, match="empty"):
        run(path=str(empty))
    big = tmp_path / "big.jsonl"
    big.write_bytes(b'{"ttft_ms": 1, "e2el_ms": 2}\n' * 80_000)  # ~2.3 MB
    with pytest.raises(InputFormatError, match="over the 1,048,576-byte cap"):
        run(path=str(big), max_file_mb=1)
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path)
    with pytest.raises(InputFormatError, match="is a directory"):
        run(path=str(link))


def test_unrecognised_and_binary_input(tmp_path):
    with pytest.raises(InputFormatError, match="cannot tell which tool"):
        run(text='{"hello": 1}')
    f = tmp_path / "bin.json"
    f.write_bytes(b"{\xff\xfe\x00garbage")
    with pytest.raises(InputFormatError):
        run(path=str(f))
    with pytest.raises(InputFormatError, match="unknown CSV column"):
        run(text="ttft,latency\n1,2\n")


def test_request_needs_exactly_one_input():
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="exactly one of path, text or records"):
        MetricsRequest()
    with pytest.raises(ValidationError, match="exactly one"):
        MetricsRequest(path="a", text="b")
    with pytest.raises(ValidationError, match="less than or equal to 100"):
        MetricsRequest(text="x", percentiles=[101])


def test_large_jsonl_streams(tmp_path):
    f = tmp_path / "many.jsonl"
    with f.open("w") as fh:
        for i in range(20_000):
            fh.write(json.dumps({"start_s": i * 0.01, "ttft_ms": 50 + i % 7, "itl_ms": [10.0] * 9, "output_tokens": 10}) + "\n")
    r = run(path=str(f))
    # 20,000 requests; TPOT = 90 ms / 9 = 10 ms each; 180,000 gaps
    assert r.completed == 20_000
    assert r.tpot_ms.mean == pytest.approx(10)
    assert r.itl_ms.count == 180_000


# --- plot -------------------------------------------------------------------------------


def test_plot_without_matplotlib_says_how_to_install(tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("no matplotlib")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(InputFormatError, match=r"pip install matplotlib"):
        compute_metrics(MetricsRequest(path=str(DATA / "records.jsonl")), plot_path=tmp_path / "p.png")


def test_plot_writes_png(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "p.png"
    compute_metrics(MetricsRequest(path=str(DATA / "vllm_detailed.json")), plot_path=out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# --- MCP and CLI ------------------------------------------------------------------------


@pytest.mark.anyio
async def test_mcp_compute_metrics_and_cli_json_parity(capsys):
    from mcp import Client

    from llm_inference_fundamentals.cli import main
    from llm_inference_fundamentals.server.server import build_server

    path = str(DATA / "vllm_detailed.json")
    async with Client(build_server(allow_dirs=[DATA])) as client:
        result = await client.call_tool("compute_metrics", {"path": path, "slo_ttft_ms": 300, "slo_tpot_ms": 12, "percentiles": [50]})
        assert not result.is_error
        structured = result.structured_content
        inline = await client.call_tool(
            "compute_metrics", {"records": [{"ttft_ms": 100, "itl_ms": [10, 10], "output_tokens": 3}]}
        )
        assert inline.structured_content["tpot_ms"]["mean"] == pytest.approx(10)  # (120 - 100) / (3 - 1)
        for bad in ({}, {"path": "/nonexistent/x.json"}, {"text": "{not json"}, {"records": [{"ttft_ms": -1}]}, {"path": path, "percentiles": ["x"]}):
            answer = await client.call_tool("compute_metrics", bad)
            assert answer.is_error, bad
    assert main(["metrics", path, "--goodput", "ttft:300", "tpot:12", "--percentiles", "50", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == structured


def test_cli_text_output_and_errors(capsys):
    from llm_inference_fundamentals.cli import main

    assert main(["metrics", str(DATA / "records.jsonl"), "--goodput", "ttft:150"]) == 0
    out = capsys.readouterr().out
    assert "ttft_ms" in out and "request_goodput" in out
    assert main(["metrics", str(DATA / "records.jsonl"), "--goodput", "itl:5"]) == 1
    assert "InputFormatError: goodput" in capsys.readouterr().err
    assert main(["metrics", str(DATA / "records.jsonl"), "--percentiles", "50,abc"]) == 1
    assert "percentiles" in capsys.readouterr().err


# --- verification pass: vLLM key styles, appended runs, other tools' variants -----------------------


def _vllm_summary_run(latencies_s, *, percentiles=(25, 50, 99.9), **extra):
    """A `vllm bench serve` summary-only result object (no --save-detailed), E2EL stats written the way
    serve.py's process_one_metric names them (``p{str(int(p)) if int(p) == p else str(p)}_e2el_ms``)."""
    import numpy as np

    lat = [x for x in latencies_s if x > 0]
    obj = {
        "date": "20250101-000000", "endpoint_type": "openai", "backend": "openai", "label": None, "model_id": "m",
        "tokenizer_id": "m", "num_prompts": len(latencies_s), "request_rate": "inf", "burstiness": 1.0,
        "max_concurrency": None, "duration": 2.0, "completed": len(lat), "failed": len(latencies_s) - len(lat),
        "total_input_tokens": 100 * len(lat), "total_output_tokens": 10 * len(lat),
        "request_throughput": len(lat) / 2.0, "request_goodput": None, "output_throughput": 5.0 * len(lat),
        "total_token_throughput": 55.0 * len(lat), "latencies": list(latencies_s), "queue_times": [0.0] * len(latencies_s),
        "max_output_tokens_per_s": 0.0, "max_concurrent_requests": 1, "rtfx": 0.0,
        "mean_e2el_ms": float(np.mean(lat)) * 1000, "median_e2el_ms": float(np.median(lat)) * 1000,
        "std_e2el_ms": float(np.std(lat)) * 1000,
    }
    for p in percentiles:
        word = str(int(p)) if int(p) == p else str(p)
        obj[f"p{word}_e2el_ms"] = float(np.percentile(lat, p)) * 1000
    obj.update(extra)
    return obj


def test_percentile_keys_follow_vllm_str_rule():
    from llm_inference_fundamentals.tools.metrics.latency import percentile_key

    # vLLM: str(int(p)) if int(p) == p else str(p) -> every digit kept ('%g' would cut 33.3333333 to 33.3333)
    assert [percentile_key(p) for p in (99, 99.0, 99.9, 0.5, 33.3333333, 99.99)] == [
        "p99", "p99", "p99.9", "p0.5", "p33.3333333", "p99.99",
    ]
    records = [RequestRecord(ttft_ms=t, e2el_ms=t, output_tokens=1) for t in (100, 200, 300, 400)]
    r = run(records=records, percentiles=[33.3333333])
    # TTFT [100, 200, 300, 400]: p33.3333333 at index 0.999999999 -> 100 + 0.999999999 x 100
    assert r.ttft_ms.percentiles["p33.3333333"] == pytest.approx(100 + 0.999999999 * 100)


def test_vllm_summary_only_custom_percentiles_and_append_result_runs(tmp_path):
    # three runs appended with --append-result: vLLM writes "\n" between objects and none at the end
    runs = [
        _vllm_summary_run([0.1, 0.2, 0.3, 0.0]),
        _vllm_summary_run([0.4, 0.5], percentiles=(99,)),
        _vllm_summary_run([1.0, 2.0, 3.0, 4.0, 5.0], percentiles=(25, 99.9), max_concurrency=8, request_goodput=1.5),
    ]
    f = tmp_path / "openai-infqps-m-20250101-000000.json"
    f.write_text("\n".join(json.dumps(o) for o in runs))
    r = run(path=str(f))
    assert any("holds 3 runs" in w for w in r.warnings)
    # run 0: latencies 0.1, 0.2, 0.3 (the 0.0 is the failed request) -> E2E mean 200 ms; p25 at index 0.5 -> 150
    assert (r.completed, r.failed) == (3, 1)
    assert r.e2el_ms.mean == pytest.approx(200)
    assert r.e2el_ms.percentiles["p25"] == pytest.approx(150)
    # p99.9 of [100, 200, 300]: index 0.999 x 2 = 1.998 -> 200 + 0.998 x 100 = 299.8
    assert r.e2el_ms.percentiles["p99.9"] == pytest.approx(299.8)
    assert r.source_reported.figures["p99.9_e2el_ms"] == pytest.approx(299.8)
    last = run(path=str(f), run_index=2, slo_e2el_ms=3000)
    # run 2: E2E [1..5] s; p25 at index 1 -> 2,000 ms; goodput e2el <= 3 s: 3 requests / 2 s
    assert last.e2el_ms.percentiles["p25"] == pytest.approx(2000)
    assert last.request_goodput == pytest.approx(1.5)
    assert last.source_reported.figures["request_goodput"] == pytest.approx(1.5)
    with pytest.raises(InputFormatError, match="run_index 3 is out of range; the file holds 3 runs"):
        run(path=str(f), run_index=3)


def test_goodput_when_every_request_failed_is_zero_not_missing():
    # vLLM: good_completed = 0 -> request_goodput = 0 / dur_s
    r = run(records=[RequestRecord(error="HTTP 500", start_s=1.0), RequestRecord(ok=False, start_s=2.0)], duration_s=4, slo_ttft_ms=100)
    assert (r.good_requests, r.request_goodput, r.slo_attainment) == (0, 0.0, 0.0)


def test_sglang_metrics_py_variant_total_keys(tmp_path):
    # sglang benchmark/metrics.py dumps BenchmarkMetrics.__dict__: total_input / total_output, no *_tokens keys
    obj = {
        "backend": "sglang", "dataset_name": "random", "request_rate": "inf", "max_concurrency": None,
        "duration": 4.0, "completed": 8, "total_input": 2048, "total_output": 512, "total_output_retokenized": 510,
        "request_throughput": 2.0, "input_throughput": 512.0, "output_throughput": 128.0,
        "output_throughput_retokenized": 127.5, "total_throughput": 640.0, "total_throughput_retokenized": 639.5,
        "mean_ttft_ms": 50.0, "median_ttft_ms": 49.0, "std_ttft_ms": 3.0, "p99_ttft_ms": 60.0,
        "mean_e2e_latency_ms": 900.0, "median_e2e_latency_ms": 880.0, "std_e2e_latency_ms": 40.0,
        "p99_e2e_latency_ms": 990.0, "concurrency": 1.8, "accept_length": None,
    }
    f = tmp_path / "sglang_0101_8_256_64.jsonl"
    f.write_text(json.dumps(obj) + "\n")
    r = run(path=str(f))
    assert r.source_format == "sglang"
    # 2,048 input and 512 output tokens over 4 s
    assert (r.total_input_tokens, r.total_output_tokens) == (2048, 512)
    assert (r.input_throughput, r.output_throughput, r.total_token_throughput) == pytest.approx((512, 128, 640))
    assert r.source_reported.figures["total_output_retokenized"] == 510


def test_aiperf_legacy_records_ns_timestamps_and_short_tags():
    # ai-dynamo/aiperf examples/artifacts/run1 shape: metadata.timestamp_ns + credit_phase, metric tag "ttft",
    # min_request_timestamp / max_response_timestamp in ns, failed records carry only error_request_count
    r = run(path=str(DATA / "aiperf_legacy_profile_export.jsonl"))
    assert (r.completed, r.failed, r.warmup_dropped) == (3, 1, 1)
    # TTFT 100, 200, 50 -> mean 350/3; TPOT (160-100)/3 = 20 and (280-200)/2 = 40 -> 30 (the 1-token request has none)
    assert r.ttft_ms.mean == pytest.approx(350 / 3)
    assert (r.tpot_ms.count, r.tpot_ms.mean) == (2, pytest.approx(30))
    # ITL: chunk gaps 20, 20, 20, 30, 50 -> mean 140/5 = 28
    assert (r.itl_ms.count, r.itl_ms.mean) == (5, pytest.approx(28))
    assert r.e2el_ms.mean == pytest.approx((160 + 280 + 50) / 3)
    # duration: last max_response_timestamp (T0 + 10 ms + 280 ms) - first start T0 = 0.29 s (ns epochs: ~1e-6 s resolution)
    assert r.duration_s == pytest.approx(0.29, abs=1e-6)
    # output tokens = OSL (client tokenizer, reasoning included): 4 + 3 + 1 = 8
    assert r.total_output_tokens == 8
    assert any("client-tokenizer" in w for w in r.warnings)


def test_aiperf_record_units_in_nanoseconds():
    line = {
        "metadata": {"request_start_ns": 5_000_000_000, "benchmark_phase": "profiling"},
        "metrics": {
            "time_to_first_token": {"value": 40_000_000, "unit": "ns"},
            "request_latency": {"value": 100_000_000, "unit": "ns"},
            "inter_chunk_latency": {"value": [30_000_000, 30_000_000], "unit": "ns"},
            "usage_completion_tokens": {"value": 3, "unit": "tokens"},
        },
        "error": None,
    }
    r = run(text=json.dumps(line))
    # 40 ms TTFT, 100 ms E2E, TPOT (100 - 40) / 2 = 30 ms, gaps 30 ms
    assert (r.ttft_ms.mean, r.e2el_ms.mean, r.tpot_ms.mean, r.itl_ms.mean) == pytest.approx((40, 100, 30, 30))
    bad = dict(line, metrics=dict(line["metrics"], time_to_first_token={"value": 1, "unit": "furlongs"}))
    with pytest.raises(InputFormatError, match=r"line 1: metrics.time_to_first_token.unit 'furlongs' is not a time unit"):
        run(text=json.dumps(bad))


def test_aiperf_old_summary_layout_counts_errors():
    # the old {"records": {tag: {...}}} layout (aiperf examples/artifacts/run1/profile_export_aiperf.json, trimmed)
    doc = {
        "records": {
            "error_request_count": {"tag": "error_request_count", "unit": "requests", "avg": 11.0, "count": 1},
            "ttft": {"tag": "ttft", "unit": "ms", "avg": 2343.219436988764, "p50": 2369.317693, "count": 89},
            "request_count": {"tag": "request_count", "unit": "requests", "avg": 89.0, "count": 1},
            "benchmark_duration": {"tag": "benchmark_duration", "unit": "sec", "avg": 9.317788951, "count": 1},
            "total_isl": {"tag": "total_isl", "unit": "tokens", "avg": 48950.0, "count": 1},
            "total_osl": {"tag": "total_osl", "unit": "tokens", "avg": 21624.0, "count": 1},
        },
        "input_config": {"endpoint": {"type": "chat", "streaming": True}},
        "was_cancelled": False,
        "error_summary": [{"error_details": {"code": 499, "type": "RequestCancellationError"}, "count": 11}],
        "start_time": "2025-10-03T13:13:39.146443",
        "end_time": "2025-10-03T13:13:48.474205",
    }
    r = run(text=json.dumps(doc, indent=2))
    assert r.source_format == "aiperf-summary"
    assert (r.completed, r.failed) == (89, 11)
    # 89 requests over 9.317788951 s; 48,950 input tokens over the same
    assert r.request_throughput == pytest.approx(89 / 9.317788951)
    assert r.input_throughput == pytest.approx(48950 / 9.317788951)
    assert r.source_reported.figures["ttft.avg"] == pytest.approx(2343.219436988764)


def test_guidellm_v02_sweep_file_each_benchmark():
    f = str(DATA / "guidellm_v02_sweep_benchmarks.json")
    first = run(path=f)
    assert first.source_format == "guidellm"
    assert any("holds 2 benchmarks" in w for w in first.warnings)
    # benchmarks[0] (synchronous): TTFT 100 and 50 ms; E2E to last token 300 and 250 ms; TPOT 200/4 = 50, 200/2 = 100
    assert (first.completed, first.failed) == (2, 0)
    assert first.ttft_ms.mean == pytest.approx(75)
    assert first.e2el_ms.mean == pytest.approx(275)
    assert first.tpot_ms.mean == pytest.approx(75)
    assert first.duration_s == pytest.approx(0.66)
    second = run(path=f, run_index=1, slo_ttft_ms=250)
    # benchmarks[1] (throughput): TTFT 200 and 300 ms, one errored; TPOT only for the 4-token request: 300/3 = 100
    assert (second.completed, second.failed) == (2, 1)
    assert second.ttft_ms.mean == pytest.approx(250)
    assert (second.tpot_ms.count, second.tpot_ms.mean) == (1, pytest.approx(100))
    # goodput TTFT <= 250: one request over 0.51 s; attainment 1 / 3 (the errored request is a miss)
    assert second.good_requests == 1
    assert second.request_goodput == pytest.approx(1 / 0.51)
    assert second.slo_attainment == pytest.approx(1 / 3)
    with pytest.raises(InputFormatError, match="run_index 2 is out of range; the file has 2 benchmarks"):
        run(path=f, run_index=2)


def test_csv_with_other_column_names_is_rejected_naming_line_1(tmp_path):
    f = tmp_path / "other.csv"
    f.write_text("request_id,ttft,latency,output_len\n1,0.1,0.5,20\n")
    with pytest.raises(InputFormatError, match=r"other.csv: line 1: unknown CSV columns \(no header cell is a record field name\)"):
        run(path=str(f))
    g = tmp_path / "mixed.csv"
    g.write_text("ttft_ms,latency_ms,output_tokens\n100,500,20\n")
    with pytest.raises(InputFormatError, match=r"line 1: unknown CSV column\(s\) 'latency_ms'"):
        run(path=str(g))
    h = tmp_path / "short.csv"
    h.write_text("ttft_ms,e2el_ms,output_tokens\n100,500,20\n100,500\n")
    with pytest.raises(InputFormatError, match="line 3: 2 cells, the header has 3"):
        run(path=str(h))


# --- per-session throughput, definitions --------------------------------------------------------


def test_per_session_throughput_next_to_aggregate():
    r = run(path=str(DATA / "records.jsonl"))
    s = r.per_session
    # successful requests: (e2el, prompt, output) = (0.16 s, 100, 5), (0.24 s, 300, 3), (0.08 s, 50, 1)
    # requests/s per session 1/e2el: 6.25, 4.1667, 12.5
    assert s.request_throughput.mean == pytest.approx((6.25 + 1 / 0.24 + 12.5) / 3)
    # input tok/s per session: 625, 1,250, 625 -> mean 833.33, median 625
    assert (s.input_throughput.mean, s.input_throughput.median) == pytest.approx((2500 / 3, 625))
    # output tok/s per session: 31.25, 12.5, 12.5 (= output_speed_tps)
    assert s.output_throughput.mean == pytest.approx(56.25 / 3)
    assert s.output_throughput == r.output_speed_tps
    # total tok/s per session: 105/0.16 = 656.25, 303/0.24 = 1,262.5, 51/0.08 = 637.5
    assert s.total_token_throughput.mean == pytest.approx((656.25 + 1262.5 + 637.5) / 3)
    # aggregate: 450 input tokens over the 0.29 s run, very different from the per-session mean
    assert r.input_throughput == pytest.approx(450 / 0.29)


def test_every_figure_names_its_observation_point_and_denominator():
    r = run(path=str(DATA / "records.jsonl"), slo_ttft_ms=150)
    not_figures = {"source", "source_format", "observation_point", "definitions", "duration_basis", "slos",
                   "source_reported", "warnings", "per_session"}
    figures = [k for k in type(r).model_fields if k not in not_figures]
    figures += [f"per_session.{k}" for k in type(r.per_session).model_fields]
    for name in figures:
        d = r.definitions[name]
        assert d.formula and d.observation_point and d.denominator and d.unit, name
    # the rates' denominator names this report's actual duration basis
    assert "first request send to last token" in r.definitions["request_throughput"].denominator
    assert "1e-9" in r.definitions["request_goodput"].formula  # the deliberate rounding difference is stated


# --- hostile input ---------------------------------------------------------------------------------


def test_fifo_proc_and_symlinked_files(tmp_path):
    import os

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    with pytest.raises(InputFormatError, match="not a regular file"):
        run(path=str(fifo))  # refused from stat(), never opened (opening a FIFO would block)
    with pytest.raises(InputFormatError, match="is empty"):
        run(path="/proc/self/status")  # st_size 0: refused, content never read
    outside = tmp_path / "outside" / "secret.txt"
    outside.parent.mkdir()
    outside.write_text("hunter2-password,other-secret\n1,2\n")
    inside = tmp_path / "inside"
    inside.mkdir()
    (inside / "link.csv").symlink_to(outside)
    with pytest.raises(InputFormatError) as err:
        run(path=str(inside / ".." / "inside" / "link.csv"))
    assert "hunter2" not in str(err.value) and "line 1" in str(err.value)


def test_error_messages_do_not_echo_file_content(tmp_path):
    f = tmp_path / "v.json"
    f.write_text(json.dumps({"duration": "sk-SECRET-VALUE", "completed": 1, "total_token_throughput": 1}))
    with pytest.raises(InputFormatError, match="field 'duration' must be a number") as err:
        run(path=str(f))
    assert "SECRET" not in str(err.value)
    with pytest.raises(InputFormatError) as err:
        run(text='{"ttft_ms": 1, "' + "password=abc " * 20 + '": 2}')
    assert "password" not in str(err.value)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[" * 100_000 + "]" * 100_000, "line 1: JSON nested too deeply"),
        ('{"a":' * 50_000 + "1" + "}" * 50_000, "line 1: JSON nested too deeply"),
        ('{"ttft_ms": 1, "e2el_ms": 2}\n{"ttft_ms": ' + "[" * 50_000 + "]" * 50_000 + "}", "line 2"),
        ("[\n" + "[" * 100_000 + "]" * 100_000 + "\n]", "nested too deeply"),
    ],
)
def test_deeply_nested_json_is_a_clear_error(text, match):
    with pytest.raises(InputFormatError, match=match):
        run(text=text)


def test_ten_megabyte_single_line_json(tmp_path):
    n = 500_000
    obj = {
        "duration": 100.0, "completed": n, "failed": 0, "total_token_throughput": 1.0, "request_goodput": None,
        "ttfts": [0.05] * n, "itls": [[0.01]] * n, "output_lens": [2] * n, "errors": [""] * n, "input_lens": [10] * n,
    }
    f = tmp_path / "big.json"
    f.write_text(json.dumps(obj))
    assert f.stat().st_size > 10 * 2**20 and f.read_text().count("\n") == 0
    r = run(path=str(f))
    # every request: TTFT 50 ms, one 10 ms gap, 2 tokens -> TPOT 10 ms; 500,000 requests / 100 s
    assert (r.completed, r.ttft_ms.mean, r.tpot_ms.mean) == (n, pytest.approx(50), pytest.approx(10))
    assert r.request_throughput == pytest.approx(5000)
    cut = tmp_path / "cut.json"
    cut.write_text(f.read_text()[: 5 * 2**20])
    with pytest.raises(InputFormatError, match="truncated"):
        run(path=str(cut))


@pytest.mark.parametrize("fmt", ["vllm-legacy", "sglang"])
def test_detailed_arrays_whose_last_request_has_a_single_chunk(tmp_path, fmt):
    # no 'latencies' array (legacy benchmark_serving.py, SGLang --output-details): E2E = TTFT + sum(ITL);
    # the last request streamed one chunk (no gaps), which once made numpy's reduceat index past the end
    arrays = {"input_lens": [10, 20, 30], "output_lens": [3, 0, 1], "ttfts": [0.1, 0.0, 0.05], "itls": [[0.02, 0.03], [], []],
              "errors": ["", "HTTP 500", ""], "generated_texts": ["a b c", "", "d"]}
    if fmt == "sglang":
        obj = {"backend": "sglang-oai", "duration": 1.0, "completed": 2, "total_input_tokens": 40, "total_output_tokens": 4,
               "total_output_tokens_retokenized": 4, "total_throughput": 44.0, **arrays}
    else:
        obj = {"backend": "vllm", "duration": 1.0, "completed": 2, "total_input_tokens": 40, "total_output_tokens": 4,
               "request_throughput": 2.0, "request_goodput:": None, "output_throughput": 4.0, "total_token_throughput": 44.0, **arrays}
    f = tmp_path / "d.json"
    f.write_text(json.dumps(obj))
    r = run(path=str(f))
    # E2E: 0.1 + 0.02 + 0.03 = 150 ms and 50 ms (one chunk); TPOT only for the 3-token request: 50 / 2 = 25 ms
    assert (r.completed, r.failed) == (2, 1)
    assert r.e2el_ms.mean == pytest.approx(100)
    assert (r.tpot_ms.count, r.tpot_ms.mean) == (1, pytest.approx(25))
    assert (r.itl_ms.count, r.itl_ms.mean) == (2, pytest.approx(25))


# --- UAT: a summary-only file shows its headline latencies, not only the spread of the first metric ---


def test_aiperf_summary_text_shows_ttft_and_itl_percentiles():
    text = run(path=str(DATA / "aiperf_profile_export_aiperf.json")).to_text()
    # the file holds time_to_first_token {"avg": 42.767..., "p99": 61.819...} and inter_token_latency p99;
    # before, the first 24 of its 710 figures were request_latency p1..p75/min/max/std and TTFT's avg only
    assert re.search(r"time_to_first_token\.p99\s+61\.819", text)
    assert re.search(r"inter_token_latency\.p99\s", text)
    assert "request_latency.p1 " not in text and "request_latency.std" not in text


def test_vllm_summary_text_shows_itl_and_e2el():
    text = run(path=str(DATA / "vllm_summary.json")).to_text()
    # 36 figures: the 12 run totals + TTFT / TPOT fill the first 24; ITL and E2EL came after the cut
    assert re.search(r"p99_itl_ms\s", text) and re.search(r"mean_e2el_ms\s", text)
    assert "std_ttft_ms" not in text


def test_poisson_span_tail_is_the_gamma_upper_tail():
    from llm_inference_fundamentals.tools.metrics.workload import _poisson_span_tail

    # by hand: P(sum of k Exp(1) gaps > x) = e^-x * sum_{i<k} x^i / i!
    assert _poisson_span_tail(1, 2.0) == pytest.approx(0.135335, rel=1e-5)  # e^-2
    assert _poisson_span_tail(2, 3.0) == pytest.approx(0.199148, rel=1e-5)  # 4 e^-3
    assert _poisson_span_tail(3, 2.0) == pytest.approx(0.676676, rel=1e-5)  # 5 e^-2


def _vllm_file_sending(tmp_path, *, asked, spacing_s, copies):
    obj = json.loads((DATA / "vllm_detailed.json").read_text())
    for key in ("input_lens", "output_lens", "ttfts", "itls", "latencies", "queue_times", "generated_texts", "errors"):
        obj[key] = obj[key] * copies
    n = len(obj["ttfts"])
    obj["num_prompts"], obj["request_rate"], obj["max_concurrency"] = n, asked, None
    obj["start_times"] = [100 + spacing_s * i for i in range(n)]
    path = tmp_path / "run.json"
    path.write_text(json.dumps(obj))
    return path


def test_a_generator_behind_its_requested_rate_is_warned(tmp_path):
    # 40 sends 0.05 s apart: (40 - 1) / 1.95 s = 20.00 req/s where 50 were asked; Poisson sends at 50 req/s
    # would span 1.95 s with probability e^-97.5 * sum_{i<39} 97.5^i / i! (about 1e-14)
    path = _vllm_file_sending(tmp_path, asked=50.0, spacing_s=0.05, copies=5)
    warnings = run(path=str(path)).warnings
    assert any("asked for 50 req/s but sent 20.00 req/s (40 sends over 1.95 s)" in w for w in warnings), warnings


def test_a_short_run_slower_than_asked_by_chance_is_not_called_client_bound(tmp_path):
    # 8 sends 0.05 s apart against 50 req/s asked: 7 Poisson gaps at 50 req/s span 0.35 s or more with
    # probability e^-17.5 * sum_{i<7} 17.5^i / i! = 0.0015, above the 0.001 the warning needs
    path = _vllm_file_sending(tmp_path, asked=50.0, spacing_s=0.05, copies=1)
    assert not any("behind schedule" in w for w in run(path=str(path)).warnings)
    # a rate met within 15% is never flagged, however many sends
    path = _vllm_file_sending(tmp_path, asked=21.0, spacing_s=0.05, copies=5)
    assert not any("behind schedule" in w for w in run(path=str(path)).warnings)


@pytest.mark.parametrize("text", [
    '{"a": 1.5, "b": [1, 2, 3], "c": "x"}',
    '{"rate": Infinity, "ttft": NaN, "low": -Infinity}',  # Python's json writes these; orjson refuses them
    '{"k": 1, "k": 2}',  # a repeated key: the last one wins in both parsers
    '"\\ud800"',  # a lone surrogate escape
    '[1e400, -0.0, 0.1]',
])
def test_parse_json_gives_what_the_standard_parser_gives(text):
    from llm_inference_fundamentals.tools.metrics.source import parse_json

    assert repr(parse_json(text)) == repr(json.loads(text))


def test_parse_json_reads_an_integer_past_64_bits_as_the_nearest_float():
    from llm_inference_fundamentals.tools.metrics.source import parse_json

    assert parse_json('{"big": 123456789012345678901234567890}')["big"] == pytest.approx(1.2345678901234568e29)
    assert parse_json('{"ns": 1733011200123456789}')["ns"] == 1733011200123456789  # a nanosecond timestamp stays exact


def test_parse_json_errors_are_the_standard_parsers():
    from llm_inference_fundamentals.tools.metrics.source import parse_json

    with pytest.raises(json.JSONDecodeError) as exc:
        parse_json('{"a": [1, 2,}')
    assert (exc.value.lineno, exc.value.colno) == (1, 13)
