"""Sweeps: list values give one report per combination, in cartesian order, through tools, CLI and MCP."""

import json

import pytest
from mcp import Client

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.errors import InputFormatError, ModelConfigError
from llm_inference_fundamentals.tools.sizing import (
    SizingQuery,
    SizingReport,
    SizingRequest,
    SizingSweep,
    size_deployment,
    size_query,
)

GiB = 2**30
BASE = {"model": "Llama-3.1-70B", "concurrency": 16, "gpu": "h100", "tp": 4}


def test_lists_give_one_report_per_combination_first_axis_slowest():
    sweep = size_query(SizingQuery(**BASE, kv=["bf16", "fp8"], tokens=[4096, 32768]), order=["tokens", "kv"])
    assert isinstance(sweep, SizingSweep)
    assert [(a.field, a.values) for a in sweep.axes] == [("tokens", [4096, 32768]), ("kv", ["bf16", "fp8"])]
    # tokens typed first varies slowest: (4096, bf16), (4096, fp8), (32768, bf16), (32768, fp8)
    got = [(r.kv_cache.tokens_per_sequence, r.kv_cache.format) for r in sweep.reports]
    assert got == [(4096, "bf16"), (4096, "fp8"), (32768, "bf16"), (32768, "fp8")]


def test_each_report_is_identical_to_the_single_combination_call():
    sweep = size_query(SizingQuery(**BASE, kv=["bf16", "fp8"], tokens=[4096, 32768]))
    # without an order the request's field order decides: kv before tokens
    combos = [(kv, t) for kv in ("bf16", "fp8") for t in (4096, 32768)]
    for (kv, tokens), report in zip(combos, sweep.reports, strict=True):
        single = size_deployment(SizingRequest(**BASE, kv=kv, tokens=tokens))
        assert report.model_dump() == single.model_dump()


def test_single_combination_keeps_the_report_shape():
    one = size_query(SizingQuery(model="Llama-3.1-8B", tokens=[1024], kv="fp8"))
    assert isinstance(one, SizingReport)
    assert one.model_dump() == size_deployment(SizingRequest(model="Llama-3.1-8B", tokens=1024, kv="fp8")).model_dump()


def test_fit_flips_with_kv_format_at_32k_hand_derived():
    # Llama-3.1-70B bf16 weights, TP 4 on H100, 16 sequences x 32,768 tokens.
    # weights/GPU = 141,107,412,992 / 4 + norms kept whole 2,637,824 x 3/4 = 35,278,831,616 B
    # KV/GPU: 2 of 8 KV heads -> 2 x 80 x 2 x 128 x 2 B = 81,920 B/token x 524,288 tokens = 42,949,672,960 B (bf16)
    # overheads: activations 8,192 x 2 x (4 x 8,192 + 28,672/4) + 1,024 x ceil(128,256/4) x 4 = 785,645,568
    #   + CUDA graphs 1,073,741,824 + NCCL (4 GPUs) 411,041,792 + context 536,870,912 = 2,807,300,096
    # total = 81,035,804,672 B (75.47 GiB); budget floor(85,520,809,984 x 0.92) = 78,679,145,185 -> margin
    # -2,356,659,487 B: does not fit. FP8 KV halves KV to 21,474,836,480 -> margin +19,118,176,993 B: fits.
    bf16, fp8 = size_query(SizingQuery(**BASE, tokens=32768, kv=["bf16", "fp8"])).reports
    assert bf16.per_gpu.total_bytes == 81_035_804_672 and bf16.per_gpu.free_bytes == -2_356_659_487
    assert bf16.per_gpu.fits is False
    assert fp8.per_gpu.free_bytes == 19_118_176_993 and fp8.per_gpu.fits is True


def test_invalid_combination_is_named():
    with pytest.raises(ModelConfigError, match=r"^combination tp=3: tp: 3 does not divide"):
        size_query(SizingQuery(model="Llama-3.1-8B", tokens=16, tp=[1, 3]))


def test_bad_list_value_names_its_position():
    with pytest.raises(ValueError, match="value 2 of the list: Input should be greater than or equal to 1"):
        SizingQuery(model="Llama-3.1-8B", concurrency=[2, -3])


def test_too_many_combinations_are_refused_with_the_count():
    # 9 x 8 x 8 = 576 > 512
    q = SizingQuery(model="Llama-3.1-8B", tokens=list(range(1, 10)), concurrency=list(range(1, 9)),
                    memory_utilization=[0.5 + 0.05 * i for i in range(8)])
    with pytest.raises(InputFormatError, match="576 combinations, over the 512 limit"):
        size_query(q)


def test_cli_prints_a_comparison_table_in_flag_order(capsys):
    assert main(["size", "Llama-3.1-70B", "--tokens", "4096,32768", "--kv", "bf16,fp8", "--concurrency", "16",
                 "--gpu", "h100", "--tp", "4"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines() if line.strip().startswith(("4096", "32768"))]
    assert [r[:2] for r in rows] == [["4096", "bf16"], ["4096", "fp8"], ["32768", "bf16"], ["32768", "fp8"]]
    # the 32,768 / bf16 row: 75.47 GiB per GPU, margin -2.19 GiB (-2,356,659,487 / 2^30), does not fit
    assert rows[2][2:6] == ["75.47", "73.28", "-2.19", "NO"]
    assert "ceilings at 100% of peak" in out


def test_cli_rejects_non_numbers_in_a_list(capsys):
    with pytest.raises(SystemExit):
        main(["size", "Llama-3.1-8B", "--tokens", "4096,x"])
    assert "--tokens: '4096,x' is not an integer" in capsys.readouterr().err


@pytest.mark.anyio
async def test_mcp_sweep_matches_cli_json_and_publishes_an_object_schema(capsys, same_apart_from_spelling):
    # flags typed in the request's field order, so CLI and MCP agree on the axis order (kv, then tokens)
    assert main(["size", "Llama-3.1-70B", "--kv", "bf16,fp8", "--tokens", "4096,32768", "--concurrency", "16",
                 "--gpu", "h100", "--tp", "4", "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    async with Client(build_server(), raise_exceptions=True) as client:
        tool = next(t for t in (await client.list_tools()).tools if t.name == "size_deployment")
        result = await client.call_tool("size_deployment", {**BASE, "kv": ["bf16", "fp8"], "tokens": [4096, 32768]})
        single = await client.call_tool("size_deployment", {**BASE, "tokens": 4096})
    assert tool.output_schema["type"] == "object" and len(tool.output_schema["anyOf"]) >= 2
    assert tool.input_schema["properties"]["tokens"]["anyOf"][1]["type"] == "array"
    same_apart_from_spelling(cli, result.structured_content)  # the nearest changes: "--tp 8" vs "tp=8"
    assert set(cli) == {"reports", "axes"} and len(cli["reports"]) == 4
    assert "weights" in single.structured_content and "reports" not in single.structured_content
