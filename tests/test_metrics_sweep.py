"""analyze_sweep: ordering by load, one file holding many runs, Pareto frontier, knee and capacity goodput
(hand-derived), MCP and CLI parity."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from llm_inference_fundamentals.tools.metrics import RequestRecord, RunInput, SweepRequest, analyze_sweep
from llm_inference_fundamentals.tools.metrics.sweep import capacity, knee_point, pareto_front

DATA = Path(__file__).parent / "data" / "metrics"


def point_records(rate: float, good: int, n: int = 100):
    """n requests sent every 1/rate s; the first `good` have TTFT 50 ms, the rest 200 ms (SLO ttft:100)."""
    return [
        RequestRecord(start_s=i / rate, ttft_ms=50 if i < good else 200, e2el_ms=(50 if i < good else 200) + 300,
                      output_tokens=31, prompt_tokens=100)
        for i in range(n)
    ]


def test_capacity_goodput_is_interpolated_between_the_bracketing_points():
    # attainment 99%, 96%, 91%, 72% at 1..4 req/s (the illustrative sweep on references/metrics.md#capacity-goodput)
    runs = [RunInput(records=point_records(r, g), label=f"{r} rps") for r, g in ((3, 91), (1, 99), (4, 72), (2, 96))]
    report = analyze_sweep(SweepRequest(runs=runs, slo_ttft_ms=100, attainment=0.9, gpus=2))
    assert [p.label for p in report.points] == ["1 rps", "2 rps", "3 rps", "4 rps"]  # ordered by load
    # arrival rate = (100 - 1) / (99 / r) = r exactly
    assert [p.offered_load for p in report.points] == pytest.approx([1, 2, 3, 4])
    assert [p.slo_attainment for p in report.points] == pytest.approx([0.99, 0.96, 0.91, 0.72])
    cap = report.capacity_goodput
    # 3 + (0.91 - 0.90) / (0.91 - 0.72) x (4 - 3) = 3.0526 req/s; per GPU / 2
    assert cap.request_rate == pytest.approx(3 + 0.01 / 0.19)
    assert (cap.interpolated, cap.between) == (True, [2, 3])
    assert cap.per_gpu == pytest.approx((3 + 0.01 / 0.19) / 2)
    assert "interpolated between 3 (91.0% meet the SLOs) and 4 (72.0%)" in cap.note
    # the rate axis is the achieved send rate here: generic records state no requested rate
    assert cap.rate_basis.startswith("achieved arrival rate")


def test_capacity_when_every_point_or_no_point_meets_the_target():
    rate, interpolated, between, note = capacity([1, 2], [0.99, 0.95], 0.9)
    assert (rate, interpolated, between) == (2, False, [1]) and note.startswith("at least 2 requests/s")
    rate, _, between, note = capacity([1, 2], [0.5, 0.4], 0.9)
    assert rate is None and between == [] and "below the lowest rate measured" in note
    rate, _, _, note = capacity([1, 2, 3], [0.85, 0.95, 0.5], 0.9)
    assert rate == pytest.approx(2 + 0.05 / 0.45) and "not monotonic" in note


def test_pareto_frontier_and_knee_by_hand():
    # (x, y): (10, 50) (20, 40) (30, 20) (15, 30); (15, 30) is dominated by (20, 40)
    assert pareto_front([10, 20, 30, 15], [50, 40, 20, 30]) == [0, 1, 2]
    assert pareto_front([10, None], [5, 6]) == [0]
    # throughput 100, 200, 290, 300 -> 0, .5, .95, 1; latency 1, 1.1, 1.5, 3 -> 0, .05, .25, 1; score 0, .45, .70, 0
    assert knee_point([100, 200, 290, 300], [1, 1.1, 1.5, 3.0]) == 2
    assert knee_point([1, 2], [1, 2]) is None


def test_one_file_with_appended_vllm_runs_is_a_sweep(tmp_path):
    obj = json.loads((DATA / "vllm_detailed.json").read_text())
    lines = []
    for rate in (8.0, 2.0, 4.0):  # appended out of order (vllm bench serve --append-result)
        run = dict(obj, request_rate=rate, max_concurrency=None)
        lines.append(json.dumps(run))
    f = tmp_path / "sweep.jsonl"
    f.write_text("\n".join(lines))
    report = analyze_sweep(SweepRequest(runs=[RunInput(path=str(f))], slo_ttft_ms=300, slo_tpot_ms=12))
    assert [p.request_rate for p in report.points] == [2.0, 4.0, 8.0]
    assert [p.label for p in report.points] == ["sweep.jsonl#1", "sweep.jsonl#2", "sweep.jsonl#0"]
    assert report.points[0].offered_load_basis == "requested rate (requests/s)"
    assert report.capacity_goodput.rate_basis == "requested rate"
    # the same records at every rate: identical attainment, so no point misses or every point does
    assert len({p.slo_attainment for p in report.points}) == 1


@pytest.mark.parametrize("name", ["appended", "guidellm"])
def test_each_run_of_a_sweep_file_is_parsed_once(tmp_path, monkeypatch, name):
    # counting the runs, telling the format and reading each run all start from the same parsed JSON: a detailed
    # vLLM line can be 50 MB, and a GuideLLM sweep is one document holding every run
    if name == "appended":
        obj = json.loads((DATA / "vllm_detailed.json").read_text())
        f = tmp_path / "sweep.jsonl"
        f.write_text("\n".join(json.dumps(dict(obj, request_rate=rate)) for rate in (1.0, 2.0, 4.0)))
    else:
        f = DATA / "guidellm_v02_sweep_benchmarks.json"
    from llm_inference_fundamentals.tools.metrics import source

    monkeypatch.setattr(source, "_orjson", None)  # every parse then goes through json.loads, counted here
    parsed: list[str] = []
    loads = json.loads
    monkeypatch.setattr(json, "loads", lambda text, *a, **k: parsed.append(text) or loads(text, *a, **k))
    report = analyze_sweep(SweepRequest(runs=[RunInput(path=str(f))]))
    assert len(report.points) == (3 if name == "appended" else 2)
    assert parsed and len(parsed) == len(set(parsed))  # no text parsed twice


def test_an_aiperf_artifact_folder_gives_one_point_per_run(tmp_path):
    for name in ("run_a", "run_b"):
        (tmp_path / "artifacts" / name).mkdir(parents=True)
        shutil.copy(DATA / "aiperf_profile_export.jsonl", tmp_path / "artifacts" / name / "profile_export.jsonl")
    report = analyze_sweep(SweepRequest(runs=[RunInput(path=str(tmp_path / "artifacts"))]))
    assert sorted(p.label for p in report.points) == ["run_a", "run_b"]
    assert all(p.format == "aiperf" for p in report.points)


def test_a_guidellm_sweep_file_gives_every_benchmark():
    report = analyze_sweep(SweepRequest(runs=[RunInput(path=str(DATA / "guidellm_v02_sweep_benchmarks.json"))]))
    assert len(report.points) == 2 and report.capacity_goodput is None  # no SLOs given


def test_folder_without_aiperf_records_is_a_clear_error(tmp_path):
    from llm_inference_fundamentals.tools.errors import InputFormatError

    with pytest.raises(InputFormatError, match="no profile_export.jsonl"):
        analyze_sweep(SweepRequest(runs=[RunInput(path=str(tmp_path))]))


@pytest.mark.anyio
async def test_mcp_analyze_sweep_equals_cli_json(capsys):
    from mcp import Client

    from llm_inference_fundamentals.cli import main
    from llm_inference_fundamentals.server.server import build_server

    path = str(DATA / "guidellm_v02_sweep_benchmarks.json")
    async with Client(build_server(allow_dirs=[DATA])) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert tools["analyze_sweep"].annotations.read_only_hint is True
        assert {"points", "pareto", "capacity_goodput"} <= set(tools["analyze_sweep"].output_schema["properties"])
        result = await client.call_tool("analyze_sweep", {"runs": [{"path": path}], "slo_ttft_ms": 500, "attainment": 0.5, "gpus": 1})
        assert not result.is_error, result.content
    assert main(["sweep", "--goodput", "ttft:500", path, "--attainment", "0.5", "--gpus", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == result.structured_content
    assert set(out["capacity_goodput"]) >= {"request_rate", "interpolated"}
    assert all(("request_rate" in p or "concurrency" in p) and "slo_attainment" in p for p in out["points"])


def test_plots_of_a_comparison_and_a_sweep_are_pngs(tmp_path, capsys):
    pytest.importorskip("matplotlib")
    from llm_inference_fundamentals.cli import main

    real = DATA / "real"
    assert main(["sweep", str(real / "guidellm_constant_sweep.json"), "--goodput", "ttft:60", "tpot:9", "--plot", str(tmp_path / "s.png")]) == 0
    assert main(["compare", str(real / "guidellm_constant_sweep.json"), str(real / "aiperf" / "rate_2" / "profile_export.jsonl"),
                 "--plot", str(tmp_path / "c.png")]) == 0
    for name in ("s.png", "c.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_sweep_plot_without_matplotlib_warns_and_still_prints(tmp_path, capsys, monkeypatch):
    from llm_inference_fundamentals.cli import main
    from llm_inference_fundamentals.tools.metrics import plot

    monkeypatch.setattr(plot, "plot_available", lambda: False)
    assert main(["sweep", str(DATA / "guidellm_v02_sweep_benchmarks.json"), "--plot", str(tmp_path / "s.png")]) == 0
    out, err = capsys.readouterr()
    assert "points ordered by" in out and "warning: --plot skipped" in err and not (tmp_path / "s.png").exists()


def test_a_records_jsonl_is_one_run_not_one_run_per_line():
    report = analyze_sweep(SweepRequest(runs=[RunInput(path=str(DATA / "records.jsonl")), RunInput(path=str(DATA / "aiperf_profile_export.jsonl"))]))
    assert len(report.points) == 2
