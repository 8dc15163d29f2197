"""lif catalog models|gpus and the llm-inference://catalog/* resources: what the catalogs hold, with sources."""

import json

import pytest
from mcp import Client

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.sizing import CatalogRequest, gpu_catalog, list_catalog, model_catalog


def test_models_listing_has_every_entry_with_its_source_and_counts():
    listing = list_catalog(CatalogRequest(kind="models"))
    assert [m.name for m in listing.models] == [m.name for m in model_catalog()] and listing.gpus == []
    llama = next(m for m in listing.models if m.name == "Llama-3.1-70B")
    # 70,553,706,496 parameters (hand count in tests/test_sizing.py), 80 layers, stored in bf16
    assert (llama.params, llama.layers, llama.stored_format) == (70_553_706_496, 80, "bf16")
    deepseek = next(m for m in listing.models if m.name == "DeepSeek-V3")
    assert deepseek.stored_format.startswith("fp8-block") and deepseek.active_params < deepseek.params
    assert all(m.source.startswith("https://huggingface.co/") for m in listing.models)


def test_gpus_listing_has_every_value_sourced():
    listing = list_catalog(CatalogRequest(kind="gpus"))
    assert [g.id for g in listing.gpus] == [g.id for g in gpu_catalog()]
    h100 = next(g for g in listing.gpus if g.id == "nvidia-h100-sxm")
    # 81,559 MiB = 85,520,809,984 B; 3.35 TB/s; dense BF16 989.4 TFLOPS
    assert (h100.memory_bytes, h100.bandwidth_tb_s, h100.dense_tflops["bf16"]) == (85_520_809_984, 3.35, 989.4)
    for g in listing.gpus:
        assert g.memory_source and g.bandwidth_source and set(g.tflops_sources) == set(g.dense_tflops)


@pytest.mark.anyio
@pytest.mark.parametrize("kind", ["models", "gpus"])
async def test_cli_and_resource_list_the_same(kind, capsys):
    assert main(["catalog", kind]) == 0
    text = capsys.readouterr().out
    assert main(["catalog", kind, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["kind"] == kind and data[kind]
    async with Client(build_server(), raise_exceptions=True) as client:
        resources = {str(r.uri) for r in (await client.list_resources()).resources}
        assert f"llm-inference://catalog/{kind}" in resources
        served = await client.read_resource(f"llm-inference://catalog/{kind}")
    assert served.contents[0].text.strip() == text.strip()
