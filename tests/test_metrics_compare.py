"""compare_runs: bootstrap intervals checked against exact enumeration and the textbook variance, verdicts,
confounders from pairs that differ in exactly one way, repeats, cost, MCP and CLI parity."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from llm_inference_fundamentals.tools.metrics import (
    CONFOUNDER_KINDS,
    CompareRequest,
    RequestRecord,
    RunInput,
    compare_runs,
)
from llm_inference_fundamentals.tools.metrics import orderstats
from llm_inference_fundamentals.tools.metrics.bootstrap import STATISTICS, RunSample, relative_interval, replicates, resample_chunks
from llm_inference_fundamentals.tools.metrics.repeats import chi2_quantile, t_quantile

DATA = Path(__file__).parent / "data" / "metrics"


def records(ttfts_ms, **kw):
    return [RequestRecord(ttft_ms=t, e2el_ms=t + 10 * 31, output_tokens=32, **kw) for t in ttfts_ms]


def entry(report, metric, statistic):
    return next(m for m in report.metrics if m.metric == metric and m.statistic == statistic)


# --- the bootstrap against exact results ------------------------------------------------------


def _exact_ratio_quantiles(a, b, stat, qs):
    """Every bootstrap resample of a and of b (n^n each, equally likely), the ratio of their statistics."""
    def all_stats(x):
        return [stat(np.array(s)) for s in itertools.product(x, repeat=len(x))]

    ratios = np.array([sb / sa - 1 for sa in all_stats(a) for sb in all_stats(b)])
    return np.percentile(ratios, qs)


@pytest.mark.parametrize("name,stat", [("mean", np.mean), ("median", np.median)])
def test_interval_matches_exact_enumeration_of_every_resample(name, stat):
    # n = 3 per run: 27 resamples each, 729 equally likely pairs; the exact 2.5% and 97.5% points of
    # stat(B*)/stat(A*) - 1 bound the Monte Carlo interval (20,000 resamples) within the 2.0-3.0% / 97.0-98.0% bands
    a, b = [100.0, 200.0, 400.0], [150.0, 250.0, 700.0]
    r = compare_runs(CompareRequest(runs=[RunInput(records=records(a)), RunInput(records=records(b))], resamples=20000))
    lo, hi = entry(r, "ttft_ms", name).ci[1]
    q = _exact_ratio_quantiles(a, b, stat, [2.0, 3.0, 97.0, 98.0])
    assert q[0] - 1e-9 <= lo <= q[1] + 1e-9
    assert q[2] - 1e-9 <= hi <= q[3] + 1e-9


def test_bootstrap_variance_of_the_mean_is_the_textbook_formula():
    # the bootstrap distribution of a mean has variance sigma_pop^2 / n exactly (Efron & Tibshirani, ch. 6)
    x = np.random.default_rng(7).gamma(2.0, 50.0, 60) / 1000
    rep = replicates(RunSample(per_request={"ttft": x}, itl_s=np.zeros(0), n_itl=np.zeros(60, dtype=np.int64)),
                     resamples=20000, seed=3)
    assert np.std(rep["ttft"]["mean"]) == pytest.approx(np.std(x) / math.sqrt(x.size), rel=0.03)


def _materialised_replicates(sample, resamples, seed):
    """The straightforward bootstrap: build every resample (the same draws) and apply np.mean / np.percentile."""
    starts = np.concatenate(([0], np.cumsum(sample.n_itl)))
    out = {name: {s: [] for s in STATISTICS} for name in [*sample.per_request, "itl"]}
    for idx in resample_chunks(sample.n, resamples, seed):
        for row in idx:
            drawn = {name: v[row][np.isfinite(v[row])] for name, v in sample.per_request.items()}
            drawn["itl"] = np.concatenate([sample.itl_s[starts[i]:starts[i + 1]] for i in row])
            for name, x in drawn.items():
                for s, q in STATISTICS.items():
                    out[name][s].append(np.nan if x.size == 0 else np.mean(x) if q is None else np.percentile(x, q))
    return {name: {s: np.array(v) for s, v in d.items()} for name, d in out.items()}


def _medium_trace(n, seed, *, heavy=False):
    # ties (gaps rounded to 0.1 ms), zero gaps, requests without gaps (no TPOT), unknown TTFTs, one request
    # holding most of the gaps when heavy: every branch of the exact order statistics
    rng = np.random.default_rng(seed)
    n_itl = rng.integers(0, 40, n)
    if heavy:
        n_itl[0] = 4000
    gaps = np.round(rng.gamma(2.0, 0.005, int(n_itl.sum())), 4)
    gaps[rng.random(gaps.size) < 0.1] = 0.0
    ttft = rng.lognormal(-2, 0.5, n)
    ttft[rng.random(n) < 0.05] = np.nan
    tpot = np.where(n_itl > 0, np.round(rng.uniform(0.01, 0.02, n), 3), np.nan)
    return RunSample(per_request={"ttft": ttft, "tpot": tpot, "e2el": ttft + 1.0}, itl_s=gaps, n_itl=n_itl)


def _assert_same(fast, slow):
    assert fast.keys() == slow.keys()
    for name in slow:
        for s in STATISTICS:
            a, b = fast[name][s], slow[name][s]
            assert np.array_equal(np.isnan(a), np.isnan(b)), (name, s)
            if s == "mean":  # summation order differs: equal to rounding
                assert a[~np.isnan(a)] == pytest.approx(b[~np.isnan(b)], rel=1e-12), (name, s)
            else:  # order statistics interpolated as numpy does: bit for bit
                assert np.array_equal(a[~np.isnan(a)], b[~np.isnan(b)]), (name, s)


@pytest.mark.parametrize("heavy", [False, True])
def test_replicates_equal_the_materialised_resamples(heavy):
    sample = _medium_trace(300, 11, heavy=heavy)
    fast = replicates(sample, resamples=400, seed=5)
    _assert_same(fast, _materialised_replicates(sample, 400, 5))
    _assert_same(replicates(sample, resamples=400, seed=5), fast)  # same seed, same replicates


def test_replicates_outside_their_window_take_the_exact_slow_path(monkeypatch):
    # a window half a standard deviation wide misses most rows' ranks: they are answered from the sorted sample
    monkeypatch.setattr(orderstats, "WINDOW_Z", 0.5)
    missed = []
    full = orderstats.PooledSample._full
    monkeypatch.setattr(orderstats.PooledSample, "_full", lambda self, c, t: missed.append(t.size) or full(self, c, t))
    sample = _medium_trace(200, 12, heavy=True)
    _assert_same(replicates(sample, resamples=300, seed=9), _materialised_replicates(sample, 300, 9))
    assert sum(missed) > 100


def test_itl_mean_is_resampled_by_request_exactly():
    # two requests: gaps [10, 10] and [40]; a resample drawing request 1 twice has ITL mean 40, request 0 twice 10
    sample = RunSample(per_request={"ttft": np.array([0.1, 0.1])}, itl_s=np.array([0.01, 0.01, 0.04]), n_itl=np.array([2, 1]))
    rep = replicates(sample, resamples=2000, seed=0)
    # possible means: both 0 -> 10 ms; both 1 -> 40 ms; one of each -> (20 + 40) / 3 = 20 ms
    assert set(np.round(rep["itl"]["mean"] * 1000, 9)) <= {10.0, 40.0, 20.0}
    assert np.mean(np.isclose(rep["itl"]["mean"], 0.02)) == pytest.approx(0.5, abs=0.05)


def test_relative_interval_is_none_when_replicates_are_not_finite():
    assert relative_interval(np.zeros(100), np.ones(100), 0.95) is None


# --- verdicts ---------------------------------------------------------------------------------


def test_verdict_names_a_detectable_difference_with_its_interval():
    base = [100 + (i * 7) % 11 for i in range(60)]  # 100..110 ms
    slower = [t * 1.5 for t in base]
    r = compare_runs(CompareRequest(runs=[RunInput(records=records(base), label="A"), RunInput(records=records(slower), label="B")]))
    mean = entry(r, "ttft_ms", "mean")
    assert mean.relative_difference == [0.0, pytest.approx(0.5)]
    lo, hi = mean.ci[1]
    assert 0 < lo <= 0.5 <= hi
    assert any(v.startswith("B's mean TTFT is 50% higher than A's, 95% CI") for v in r.verdicts)
    assert r.metrics[0].ci[0] is None  # the baseline has no interval


def test_identical_runs_give_no_detectable_difference():
    base = [100 + (i * 7) % 11 for i in range(60)]
    r = compare_runs(CompareRequest(runs=[RunInput(records=records(base)), RunInput(records=records(base))]))
    assert r.confounders == []
    assert "no confounders found" in r.headline and "0 of" in r.headline
    assert all("no difference this sample can detect" in v for v in r.verdicts)


def test_p99_verdict_on_a_small_sample_says_so():
    r = compare_runs(CompareRequest(runs=[RunInput(records=records([100, 110, 120] * 10)), RunInput(records=records([200, 210, 220] * 10))]))
    assert any("p99 TTFT" in v and "n = 30 and 30" in v for v in r.verdicts)


# --- confounders: pairs that differ in exactly one way -------------------------------------------


def base_records(n=40, spacing_s=0.5, **overrides):
    out = []
    for i in range(n):
        kw = dict(start_s=i * spacing_s, ttft_ms=100 + i % 5, e2el_ms=100 + i % 5 + 10 * 31, output_tokens=32, prompt_tokens=500)
        kw.update({k: (v(i) if callable(v) else v) for k, v in overrides.items()})
        out.append(RequestRecord(**kw))
    return out


def kinds(a, b):
    r = compare_runs(CompareRequest(runs=[RunInput(records=a, label="A"), RunInput(records=b, label="B")], resamples=200))
    return {c.kind for c in r.confounders}, r


def test_confounder_kinds_cover_the_interface():
    assert {"output_length", "prompt_length", "token_counting", "request_rate", "concurrency", "warm_cache", "failures",
            "warmup"} <= set(CONFOUNDER_KINDS)


def test_only_output_length_differs():
    # B's requests complete 16 tokens in the same decode time per token: TPOT equal, outputs half as long
    found, r = kinds(base_records(), base_records(output_tokens=16, e2el_ms=lambda i: 100 + i % 5 + 10 * 15))
    assert found == {"output_length"}  # in-flight concurrency drops too, but in an open loop that follows from latency
    detail = next(c.detail for c in r.confounders if c.kind == "output_length")
    assert "A median 32" in detail and "B median 16" in detail


def test_only_token_counting_differs():
    found, r = kinds(base_records(), base_records(client_output_tokens=20))
    assert found == {"token_counting"}
    assert "counted 20.0 output tokens per request on average, the server 32.0" in r.confounders[0].detail


def test_only_cache_reuse_differs():
    found, r = kinds(base_records(cached_tokens=0), base_records(cached_tokens=400))
    assert found == {"warm_cache"}
    # 400 of 500 prompt tokens cached in B
    assert "B: 80% of prompt tokens cached" in r.confounders[0].detail and "A: 0% of prompt tokens cached" in r.confounders[0].detail


def test_only_achieved_rate_differs():
    # B sends every 0.25 s instead of 0.5 s: (40 - 1) / 9.75 s = 4 req/s against 2 req/s; in-flight follows by Little's law
    found, r = kinds(base_records(), base_records(spacing_s=0.25))
    assert found == {"request_rate"}
    detail = r.confounders[0].detail
    assert "A 2.00 req/s, B 4.00 req/s" in detail and "in flight follow" in detail


def test_only_failures_differ():
    b = base_records()
    b[5] = RequestRecord(start_s=2.5, ok=False, error="HTTP 500")
    found, r = kinds(base_records(), b)
    assert found == {"failures"}
    assert "B 1 of 40 (2.5%)" in r.confounders[0].detail


def test_only_prompt_length_differs():
    found, _ = kinds(base_records(), base_records(prompt_tokens=2000))
    assert found == {"prompt_length"}


def test_only_warmup_differs():
    warm = [RequestRecord(ttft_ms=900, e2el_ms=1200, output_tokens=32, phase="warmup")] + base_records()
    found, r = kinds(base_records(), warm)
    assert found == {"warmup"}
    assert "A 0, B 1" in r.confounders[0].detail


def test_a_generator_behind_its_requested_rate_is_a_confounder(tmp_path):
    # a vLLM file that asked for 50 req/s but whose send times show 1/0.05 = 20 req/s
    obj = json.loads((DATA / "vllm_detailed.json").read_text())
    n = len(obj["ttfts"])
    obj["request_rate"], obj["max_concurrency"] = 50.0, None
    obj["start_times"] = [100 + 0.05 * i for i in range(n)]
    f = tmp_path / "behind.json"
    f.write_text(json.dumps(obj))
    r = compare_runs(CompareRequest(runs=[RunInput(path=str(f)), RunInput(path=str(f))], resamples=200))
    assert any(c.kind == "request_rate" and "asked for 50 req/s but sent 20.00 req/s" in c.detail for c in r.confounders)


# --- repeats, cost --------------------------------------------------------------------------------


@pytest.mark.parametrize("p,df,table", [(0.975, 2, 4.303), (0.975, 4, 2.776), (0.995, 9, 3.250), (0.975, 30, 2.042), (0.95, 1, 6.314)])
def test_t_quantile_matches_the_published_table(p, df, table):
    assert t_quantile(p, df) == pytest.approx(table, abs=5e-4)


@pytest.mark.parametrize("df,table", [(2, 9.210), (4, 13.277), (10, 23.209)])
def test_chi2_quantile_wilson_hilferty_is_within_a_percent_of_the_table(df, table):
    assert chi2_quantile(0.99, df) == pytest.approx(table, rel=0.01)


def test_repeats_mean_spread_interval_and_disagreement():
    runs = [RunInput(records=records([100 + (i * 7) % 11 for i in range(60)]), label=f"r{k}") for k in range(3)]
    runs[2] = RunInput(records=records([200 + (i * 7) % 11 for i in range(60)]), label="r2")
    r = compare_runs(CompareRequest(runs=runs, repeats=True, resamples=400))
    fig = next(f for f in r.repeats.figures if f.metric == "ttft_ms" and f.statistic == "mean")
    m = entry(r, "ttft_ms", "mean").values
    # values ~105, 105, 205: mean 138.3, sample std = 100 / sqrt(3) = 57.7; t(0.975, 2) = 4.303 -> half-width 4.303 x 57.7 / sqrt(3)
    assert fig.mean == pytest.approx(sum(m) / 3)
    assert fig.std == pytest.approx(np.std(m, ddof=1))
    assert fig.ci[1] - fig.mean == pytest.approx(4.303 * fig.std / math.sqrt(3), rel=1e-3)
    assert fig.consistent is False and any(w.startswith("mean ttft_ms: the runs disagree beyond their own noise") for w in r.repeats.warnings)
    same = compare_runs(CompareRequest(runs=[runs[0], runs[1]], repeats=True, resamples=400))
    assert all(f.consistent is not False for f in same.repeats.figures)


def test_cost_per_million_tokens_is_an_estimate_with_its_inputs():
    from llm_inference_fundamentals.tools.metrics.cost import cost_estimate

    # the worked example on references/benchmarking.md: 2 GPUs x $2.50/h = $5/h at 3,000 output tokens/s
    # = 5 / (3,000 x 3,600) x 1e6 = $0.463 per 1M output tokens
    c = cost_estimate(input_tps=10_000.0, output_tps=3_000.0, gpu_hour_usd=2.5, gpus=2, where="test")
    assert c.evidence == "estimate"
    assert c.usd_per_million_output == pytest.approx(0.46296, rel=1e-4)
    assert c.usd_per_million_total == pytest.approx(5 / (13_000 * 3600) * 1e6)
    assert "2 GPU(s) at $2.5/h" in c.basis


def test_compare_prices_each_run_from_its_own_throughput():
    # base_records: 40 requests x 32 tokens; sends 0..19.5 s, last ends 19.5 + 0.414 s -> 1,280 tokens / 19.914 s
    a = base_records()
    r = compare_runs(CompareRequest(runs=[RunInput(records=a), RunInput(records=a)], gpu_hour_usd=2.0, gpus=1, resamples=200))
    out_tps = 1280 / (19.5 + 0.104 + 0.31)
    assert r.cost[0].usd_per_million_output == pytest.approx(2.0 / 3600 / out_tps * 1e6)
    with pytest.raises(ValueError):
        CompareRequest(runs=[RunInput(records=a), RunInput(records=a)], gpus=0)


# --- files, MCP, CLI ------------------------------------------------------------------------------


def test_mixed_tools_are_compared_under_one_definition():
    r = compare_runs(CompareRequest(runs=[RunInput(path=str(DATA / "aiperf_profile_export.jsonl")),
                                          RunInput(path=str(DATA / "guidellm_benchmarks.json"))], resamples=300))
    assert [run.format for run in r.runs] == ["aiperf", "guidellm"]
    assert r.headline.split(";")[1].strip().startswith("confounders found")
    assert any(c.kind == "observation_point" for c in r.confounders)
    # both recorded against the same mock server settings: TPOT agrees within 1% once both use server usage counts
    tpot = entry(r, "tpot_ms", "mean")
    assert abs(tpot.relative_difference[1]) < 0.01
    assert entry(r, "itl_ms", "mean").values[1] is None  # guidellm records carry no chunk times


def test_compare_needs_two_runs_and_valid_settings():
    with pytest.raises(ValueError, match="at least 2"):
        CompareRequest(runs=[RunInput(records=records([1.0]))])
    with pytest.raises(ValueError, match="exactly one of path, text or records"):
        RunInput(path="a.json", text="{}")


@pytest.mark.anyio
async def test_mcp_compare_runs_equals_cli_json(capsys):
    from mcp import Client

    from llm_inference_fundamentals.cli import main
    from llm_inference_fundamentals.server.server import build_server

    a, b = str(DATA / "aiperf_profile_export.jsonl"), str(DATA / "vllm_detailed.json")
    async with Client(build_server(allow_dirs=[DATA])) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert tools["compare_runs"].annotations.read_only_hint is True
        assert "confounders" in tools["compare_runs"].output_schema["properties"]
        result = await client.call_tool("compare_runs", {"runs": [{"path": a}, {"path": b}], "slo_ttft_ms": 300})
        assert not result.is_error, result.content
        outside = await client.call_tool("compare_runs", {"runs": [{"path": a}, {"path": "/etc/hostname"}]})
        assert outside.is_error and "runs[1].path" in outside.content[0].text
    assert main(["compare", "--goodput", "ttft:300", a, b, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == result.structured_content
    assert [k for k in out if k in ("confounders", "metrics", "verdicts")] == ["confounders", "metrics", "verdicts"]
    assert {"source", "format", "completed"} <= set(out["runs"][0])
    m = out["metrics"][0]
    assert {"metric", "statistic", "values", "relative_difference", "ci"} <= set(m) and m["ci"][0] is None


def test_cli_compare_needs_two_files(capsys):
    from llm_inference_fundamentals.cli import main

    assert main(["compare", str(DATA / "records.jsonl")]) == 2
    assert "two or more result files" in capsys.readouterr().err


def test_summary_only_files_say_why_there_is_no_latency_verdict():
    r = compare_runs(CompareRequest(runs=[RunInput(path=str(DATA / "vllm_legacy_inferencex_conc4.json")),
                                          RunInput(path=str(DATA / "vllm_summary.json"))], resamples=200))
    assert any(v.startswith("vllm_legacy_inferencex_conc4.json has no per-request latencies") for v in r.verdicts)
    # vllm_summary.json carries per-request 'latencies': its E2E is recomputed, TTFT is not
    assert entry(r, "e2el_ms", "mean").values[1] is not None and entry(r, "ttft_ms", "mean").values == [None, None]
