"""One result file, read closer: the workload it served, its own figures beside ours, warnings with observed values,
and the metrics command line (goodput before the file, forced formats, plots without matplotlib)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.tools.metrics import MetricsRequest, RequestRecord, compute_metrics

DATA = Path(__file__).parent / "data" / "metrics"


def run(**kwargs):
    return compute_metrics(MetricsRequest(**kwargs))


def warning(report, start: str) -> str:
    found = [w for w in report.warnings if w.startswith(start)]
    assert found, (start, report.warnings)
    return found[0]


# --- the metrics command line ----------------------------------------------------------------


def test_goodput_before_the_file_does_not_swallow_it(capsys):
    # records.jsonl: TTFT <= 150 and TPOT <= 15 hold for r1 (120, 10) and r4 (80, 1 token) -> 2 good (test_metrics)
    assert main(["metrics", "--goodput", "ttft:150", "tpot:15", str(DATA / "records.jsonl"), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["good_requests"] == 2


def test_goodput_with_a_bad_key_still_names_the_accepted_keys(capsys):
    assert main(["metrics", "--goodput", "itl:5", str(DATA / "records.jsonl")]) == 1
    assert "keys are ttft, tpot, e2el" in capsys.readouterr().err


def test_forced_format_that_does_not_match_the_file_is_an_error(capsys):
    assert main(["metrics", "--format", "vllm", str(DATA / "guidellm_benchmarks.json")]) == 1
    err = capsys.readouterr().err
    assert "does not match this file" in err and "looks like guidellm" in err
    assert main(["metrics", "--format", "aiperf", str(DATA / "vllm_detailed.json")]) == 1
    assert "looks like vllm" in capsys.readouterr().err
    # the right forced format still works
    assert main(["metrics", "--format", "guidellm", str(DATA / "guidellm_benchmarks.json")]) == 0


def test_plot_without_matplotlib_warns_and_still_prints_the_metrics(capsys, tmp_path, monkeypatch):
    from llm_inference_fundamentals.tools.metrics import plot

    monkeypatch.setattr(plot, "plot_available", lambda: False)
    out_png = tmp_path / "p.png"
    assert main(["metrics", str(DATA / "records.jsonl"), "--plot", str(out_png)]) == 0
    out, err = capsys.readouterr()
    assert "ttft_ms" in out and "warning: --plot skipped" in err and "[plot]" in err
    assert not out_png.exists()


# --- warnings that quote observed values --------------------------------------------------------


def test_short_output_warning_quotes_the_observed_lengths():
    records = [RequestRecord(ttft_ms=10, e2el_ms=10 + 5 * (n - 1), output_tokens=n) for n in (3, 5, 40)]
    w = warning(run(records=records), "2 requests have fewer than 32 output tokens")
    assert "(observed 3-5)" in w


def test_small_sample_warning_names_the_percentile_and_n():
    few = [RequestRecord(ttft_ms=10 + i, e2el_ms=20 + i, output_tokens=1) for i in range(20)]
    w = warning(run(records=few), "small sample")
    # 20 values: p90 needs 100/10 = 10 (ok), p95 needs 20 (ok), p99 needs 100 -> only p99 flagged
    assert "ttft_ms n=20 (p99)" in w and "e2el_ms n=20 (p99)" in w and "p99 >= 100" in w
    enough = [RequestRecord(ttft_ms=10 + i, e2el_ms=20 + i, output_tokens=1) for i in range(100)]
    assert not any(w.startswith("small sample") for w in run(records=enough).warnings)
    # a requested p99.9 needs 1,000 values
    w = warning(run(records=enough, percentiles=[99.9]), "small sample")
    assert "ttft_ms n=100 (p99.9)" in w and "p99.9 >= 1000" in w


def test_requested_versus_completed_output_length():
    records = [RequestRecord(ttft_ms=10, e2el_ms=10 + n, output_tokens=n, requested_output_tokens=100) for n in (60, 80, 100)]
    r = run(records=records)
    w = warning(r, "requested vs completed output length")
    # 60 and 80 < 100: 2 of 3, completed 60-80, median 70
    assert "2 of 3 requests completed fewer" in w and "requested 100, completed 60-80, median 70" in w
    assert r.workload.requested_output_tokens.mean == 100
    assert r.workload.output_tokens.mean == pytest.approx(80)


def test_client_versus_server_token_counts():
    records = [
        RequestRecord(ttft_ms=10, e2el_ms=100, output_tokens=100, client_output_tokens=50, prompt_tokens=200, client_prompt_tokens=200),
        RequestRecord(ttft_ms=10, e2el_ms=100, output_tokens=80, client_output_tokens=60, prompt_tokens=200, client_prompt_tokens=200),
    ]
    w = warning(run(records=records), "client vs server token counts")
    # (50 - 100) / 100 = -50%, (60 - 80) / 80 = -25% -> "client 25-50% fewer"; prompts agree -> no prompt warning
    assert "output tokens 50-60 where the server's usage reported 80-100" in w and "client 25-50% fewer" in w
    assert sum(w.startswith("client vs server") for w in run(records=records).warnings) == 1


def test_in_flight_concurrency_from_timestamps():
    # sends at 0, 1, 2 s, each 2 s long: [0,2) [1,3) [2,4); at t=2 one ends as one starts -> peak 2
    records = [RequestRecord(start_s=t, ttft_ms=100, e2el_ms=2000, output_tokens=1) for t in (0.0, 1.0, 2.0)]
    w = run(records=records).workload
    assert w.peak_concurrency == 2
    # duration 0 -> 4 s; sum of E2E 6 s -> 6 / 4 = 1.5 in flight on average; arrivals (3 - 1) / 2 s = 1 req/s
    assert w.mean_concurrency == pytest.approx(1.5)
    assert w.arrival_rate == pytest.approx(1.0)


def test_cached_tokens_and_repeated_prompts_are_warm_cache_signs():
    records = [
        RequestRecord(ttft_ms=10, e2el_ms=10, output_tokens=1, prompt_tokens=100, cached_tokens=0, prompt_id="a"),
        RequestRecord(ttft_ms=10, e2el_ms=10, output_tokens=1, prompt_tokens=100, cached_tokens=80, prompt_id="a"),
        RequestRecord(ttft_ms=10, e2el_ms=10, output_tokens=1, prompt_tokens=200, cached_tokens=0, prompt_id="b"),
    ]
    r = run(records=records)
    # 80 cached of 400 prompt tokens = 20%; one request repeats prompt "a"
    assert (r.workload.cached_prompt_tokens, r.workload.cached_share, r.workload.repeated_prompts) == (80, pytest.approx(0.2), 1)
    assert "1 of 3 requests had cached prompt tokens, 80 in all (20% of their prompt tokens)" in warning(r, "warm prefix cache")
    assert "1 of 3 requests repeat an earlier prompt (2 distinct)" in warning(r, "repeated prompts")


def test_cold_start_is_flagged_when_the_first_requests_are_slow():
    # 30 requests: the first 3 sent (10% of 30) have TTFT 500 ms, the rest 100 ms -> ratio 5.0
    records = [RequestRecord(start_s=i, ttft_ms=500 if i < 3 else 100, e2el_ms=600, output_tokens=1) for i in range(30)]
    r = run(records=records)
    assert r.workload.first_requests_ttft_ratio == pytest.approx(5.0)
    assert "first 3 requests sent have median TTFT 500.0 ms, 5.0x the rest's 100.0 ms" in warning(r, "cold start")


# --- the file's own figures beside ours ----------------------------------------------------------


def test_aiperf_jsonl_reports_its_own_figures_and_the_size_of_the_itl_difference():
    lines = [json.loads(line) for line in (DATA / "aiperf_profile_export.jsonl").read_text().splitlines()]
    profiling = [o for o in lines if o["metadata"].get("benchmark_phase") != "warmup" and not o.get("error")]
    theirs = [o["metrics"]["inter_token_latency"]["value"] for o in profiling if "inter_token_latency" in o["metrics"]]
    r = run(path=str(DATA / "aiperf_profile_export.jsonl"))
    figures = r.source_reported.figures
    assert figures["inter_token_latency.avg"] == pytest.approx(sum(theirs) / len(theirs))
    # aiperf's ITL uses its client tokenizer's OSL; the server's usage counts are larger, so our TPOT is smaller
    rel = figures["inter_token_latency.avg"] / r.tpot_ms.mean - 1
    line = next(c for c in r.source_reported.comparisons if c.startswith("aiperf inter_token_latency.avg"))
    assert f"({rel:+.1%})" in line and "client tokenizer" in line
    assert any("time_to_first_token.avg" in c and "equal within 0.1%" in c for c in r.source_reported.comparisons)
    # osl_mismatch_diff_pct = (OSL - requested) / requested x 100 with aiperf's OSL: requested = OSL / (1 + pct / 100)
    first = profiling[0]["metrics"]
    requested = first["output_sequence_length"]["value"] / (1 + first["osl_mismatch_diff_pct"]["value"] / 100)
    assert r.workload.requested_output_tokens.max == pytest.approx(round(requested))


def test_guidellm_comparisons_name_token_weighting_and_ttft_inclusion():
    r = run(path=str(DATA / "guidellm_benchmarks.json"))
    lines = r.source_reported.comparisons
    assert any(line.startswith("guidellm time_to_first_token_ms.mean") and "equal within 0.1%" in line for line in lines)
    assert any(line.startswith("guidellm time_per_output_token_ms.mean") and "includes TTFT" in line for line in lines)
    # requested output length from request_args (max_completion_tokens 24 in the real run), load from the strategy
    assert r.workload.requested_output_tokens.max == 24
    assert (r.workload.load.max_concurrency, r.workload.load.loop) == (2, "closed")


def test_vllm_own_figures_match_the_recomputation():
    r = run(path=str(DATA / "vllm_detailed.json"))
    assert any("match this report's recomputation within 0.1%" in c and "p99_tpot_ms" in c for c in r.source_reported.comparisons)
    # request_rate "inf" with --max-concurrency 4: a closed loop at 4 in flight
    assert (r.workload.load.request_rate, r.workload.load.max_concurrency, r.workload.load.loop) == (None, 4, "closed")
