"""Real files from GuideLLM 0.8.1 and AIPerf 0.13.0 run against one mock server (tests/data/metrics/real/README.md):
the same figures whichever tool wrote the file, each tool's own figures explained, a real sweep and a real repeat."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from llm_inference_fundamentals.tools.metrics import (
    CompareRequest,
    MetricsRequest,
    RunInput,
    SweepRequest,
    analyze_sweep,
    compare_runs,
    compute_metrics,
)

REAL = Path(__file__).parent / "data" / "metrics" / "real"
GUIDELLM = REAL / "guidellm_constant_sweep.json"
RATES = (2, 6, 10, 14, 18)


def aiperf(rate) -> Path:
    return REAL / "aiperf" / f"rate_{rate}" / "profile_export.jsonl"


def aiperf_records(rate):
    return [json.loads(line) for line in aiperf(rate).read_text().splitlines() if line.strip()]


def guidellm_bench(index):
    return json.loads(GUIDELLM.read_text())["benchmarks"][index]


def test_aiperf_tpot_is_its_itl_rescaled_from_client_to_server_token_counts():
    # aiperf: ITL_i = (latency - TTFT) / (OSL_client - 1); ours: TPOT_i = (latency - TTFT) / (usage - 1)
    # so TPOT_i = ITL_i x (OSL_client - 1) / (usage - 1), from the file's own per-record fields
    for rate in (2, 14):
        m = [r["metrics"] for r in aiperf_records(rate)]
        expected = [x["inter_token_latency"]["value"] * (x["output_sequence_length"]["value"] - 1)
                    / (x["usage_completion_tokens"]["value"] - 1) for x in m]
        r = compute_metrics(MetricsRequest(path=str(aiperf(rate))))
        assert r.tpot_ms.mean == pytest.approx(np.mean(expected), rel=1e-9)
        assert r.ttft_ms.mean == pytest.approx(np.mean([x["time_to_first_token"]["value"] for x in m]), rel=1e-9)


def test_aiperf_records_match_aiperf_summary_of_the_same_run():
    for rate in RATES:
        summary = json.loads((aiperf(rate).parent / "profile_export_aiperf.json").read_text())
        r = compute_metrics(MetricsRequest(path=str(aiperf(rate))))
        assert r.ttft_ms.mean == pytest.approx(summary["time_to_first_token"]["avg"], rel=1e-9)
        assert r.e2el_ms.p99 == pytest.approx(summary["request_latency"]["p99"], rel=1e-9)
        assert r.itl_ms.mean == pytest.approx(summary["inter_chunk_latency"]["avg"], rel=1e-9)
        # the requested load comes from the summary beside the records
        assert (r.workload.load.request_rate, r.workload.load.loop) == (float(rate), "open")


def test_guidellm_tpot_is_its_own_inter_token_latency_and_not_its_tpot():
    bench = guidellm_bench(0)
    per_request = [q["inter_token_latency_ms"] for q in bench["requests"]["successful"]]
    r = compute_metrics(MetricsRequest(path=str(GUIDELLM), run_index=0))
    assert r.tpot_ms.mean == pytest.approx(np.mean(per_request), rel=1e-9)
    own_tpot = bench["metrics"]["time_per_output_token_ms"]["successful"]["mean"]
    assert own_tpot > r.tpot_ms.mean * 1.1  # guidellm's TPOT includes TTFT
    assert any("includes TTFT" in c for c in r.source_reported.comparisons)


def test_same_figures_whichever_tool_wrote_the_file():
    # both clients at 2 requests/s against the same mock server (40 ms TTFT, 8 ms per token, 32 tokens)
    r = compare_runs(CompareRequest(runs=[RunInput(path=str(GUIDELLM), run_index=0, label="guidellm"),
                                          RunInput(path=str(aiperf(2)), label="aiperf")]))
    tpot = next(m for m in r.metrics if m.metric == "tpot_ms" and m.statistic == "mean")
    ttft = next(m for m in r.metrics if m.metric == "ttft_ms" and m.statistic == "median")
    assert abs(tpot.relative_difference[1]) < 0.05 and abs(ttft.relative_difference[1]) < 0.05
    # their own TPOT-like figures are far apart: guidellm's TPOT (with TTFT) and aiperf's ITL (client token count)
    guidellm_own = guidellm_bench(0)["metrics"]["time_per_output_token_ms"]["successful"]["mean"]
    aiperf_own = np.mean([x["metrics"]["inter_token_latency"]["value"] for x in aiperf_records(2)])
    assert aiperf_own / guidellm_own > 1.5
    found = {c.kind for c in r.confounders}
    assert {"token_counting", "observation_point"} <= found
    assert "aiperf" in next(c.detail for c in r.confounders if c.kind == "token_counting")


def test_guidellm_sweep_attainment_equals_guidellm_own_and_gives_capacity():
    report = analyze_sweep(SweepRequest(runs=[RunInput(path=str(GUIDELLM))], slo_ttft_ms=60, slo_tpot_ms=9, attainment=0.8, gpus=1))
    assert [p.request_rate for p in report.points] == [2.0, 6.0, 10.0, 14.0, 18.0]
    own = [guidellm_bench(i)["metrics"]["slo_attainment"] for i in range(5)]  # 1.0, 0.9, 0.9, 0.7, 0.067
    assert [p.slo_attainment for p in report.points] == pytest.approx(own)
    # rates: completed / the benchmark's duration
    assert [p.request_throughput for p in report.points] == pytest.approx([30 / guidellm_bench(i)["duration"] for i in range(5)])
    # 80% target between 10 (0.9) and 14 (0.7): 10 + (0.9 - 0.8) / (0.9 - 0.7) x 4 = 12 requests/s
    cap = report.capacity_goodput
    assert cap.request_rate == pytest.approx(12.0) and cap.interpolated and cap.between == [2, 3]
    at_target = analyze_sweep(SweepRequest(runs=[RunInput(path=str(GUIDELLM))], slo_ttft_ms=60, slo_tpot_ms=9, attainment=0.9))
    assert (at_target.capacity_goodput.request_rate, at_target.capacity_goodput.interpolated) == (10.0, False)


def test_aiperf_artifact_folder_is_a_sweep_by_requested_rate():
    report = analyze_sweep(SweepRequest(runs=[RunInput(path=str(REAL / "aiperf"))], slo_ttft_ms=60, slo_tpot_ms=9))
    assert [p.request_rate for p in report.points] == [2.0, 6.0, 10.0, 10.0, 14.0, 18.0]
    assert report.points[0].offered_load_basis.startswith("requested rate")
    assert any(c.kind == "token_counting" for c in report.confounders)


def test_a_real_repeat_that_disagrees_is_flagged():
    r = compare_runs(CompareRequest(runs=[RunInput(path=str(aiperf(10))), RunInput(path=str(aiperf("10_repeat")))],
                                    repeats=True, resamples=500))
    ttft = next(f for f in r.repeats.figures if f.metric == "ttft_ms" and f.statistic == "mean")
    assert ttft.values[0] > 2 * ttft.values[1] and ttft.consistent is False
    assert any(w.startswith("mean ttft_ms: the runs disagree") for w in r.repeats.warnings)
