"""size_deployment through the MCP server, the CLI and the Hub look-up (httpx.MockTransport, no network)."""

import json

import httpx
import pytest
from mcp import Client

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.errors import NetworkUnavailableError, UnknownModelError
from llm_inference_fundamentals.tools.sizing.catalog import find_model
from llm_inference_fundamentals.tools.sizing.hub import fetch_hub_model
from llm_inference_fundamentals.tools.sizing import SizingRequest, size_deployment

REPO = "acme/tiny-llama"
CONFIG = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 4, "num_attention_heads": 8,
          "num_key_value_heads": 2, "intermediate_size": 1024, "vocab_size": 1000, "tie_word_embeddings": False,
          "torch_dtype": "bfloat16", "max_position_embeddings": 4096}
# params: embed + lm_head 2 x 1,000 x 512 = 1,024,000; per layer q 512 x 512 + k,v 2 x 512 x 128 + o 512 x 512
# = 655,360, MLP 3 x 512 x 1,024 = 1,572,864, norms 1,024 -> 2,229,248 x 4 = 8,916,992; final norm 512
# total 9,941,504 params = 19,883,008 B in bf16
TOTAL_PARAMS = 9_941_504


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("LLM_INFERENCE_FUNDAMENTALS_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("HF_TOKEN", raising=False)


def hub(status=200, index=True, seen=None):
    def handler(request: httpx.Request) -> httpx.Response:
        if seen is not None:
            seen.append(str(request.url))
        if status != 200:
            return httpx.Response(status)
        if request.url.path.endswith("/config.json"):
            return httpx.Response(200, json=CONFIG)
        if request.url.path.endswith("/model.safetensors.index.json") and index:
            return httpx.Response(200, json={"metadata": {"total_size": 2 * TOTAL_PARAMS}, "weight_map": {}})
        return httpx.Response(404)
    return httpx.MockTransport(handler)


def test_hub_fetch_reads_config_and_total_size_then_caches():
    seen = []
    model = fetch_hub_model(REPO, transport=hub(seen=seen))
    assert model.config == CONFIG and model.safetensors_total_size == 19_883_008 and not model.from_cache
    assert seen == [f"https://huggingface.co/{REPO}/resolve/main/config.json",
                    f"https://huggingface.co/{REPO}/resolve/main/model.safetensors.index.json"]
    again = fetch_hub_model(REPO, offline=True)
    assert again.from_cache and again.config == CONFIG
    # sizing through the cache: computed bytes equal the index total_size (2 B x 9,941,504)
    r = size_deployment(SizingRequest(model=REPO, offline=True, tokens=100))
    assert r.weights.params == TOTAL_PARAMS and r.weights.bytes == r.weights.checkpoint_bytes == 19_883_008
    assert "Hub" in r.model.source


def test_hub_without_index_has_no_total_size():
    assert fetch_hub_model(REPO, transport=hub(index=False)).safetensors_total_size is None


@pytest.mark.parametrize("status, error, text", [
    (401, NetworkUnavailableError, "gated or private"),
    (403, NetworkUnavailableError, "HF_TOKEN"),
    (404, UnknownModelError, "no config.json"),
    (500, NetworkUnavailableError, "HTTP 500"),
])
def test_hub_errors_are_clear(status, error, text):
    with pytest.raises(error, match=text):
        fetch_hub_model(REPO, transport=hub(status=status))


def test_hub_offline_and_unreachable():
    with pytest.raises(NetworkUnavailableError, match="offline"):
        fetch_hub_model(REPO, offline=True)

    def down(request):
        raise httpx.ConnectError("no route", request=request)

    with pytest.raises(NetworkUnavailableError, match="could not reach"):
        fetch_hub_model(REPO, transport=httpx.MockTransport(down))


def test_hub_rejects_bad_repo_ids_and_huge_answers():
    with pytest.raises(UnknownModelError, match="org/name"):
        fetch_hub_model("../../etc/passwd")
    big = httpx.MockTransport(lambda r: httpx.Response(200, content=b"{" + b" " * (6 * 1024 * 1024) + b"}"))
    with pytest.raises(Exception, match="limit"):
        fetch_hub_model(REPO, transport=big)


def test_unknown_repo_offline_says_how_to_proceed():
    with pytest.raises(NetworkUnavailableError, match="config_path"):
        size_deployment(SizingRequest(model="someone/Llama-3.1-8B-finetune", offline=True, tokens=1))


@pytest.mark.anyio
async def test_mcp_tool_returns_structured_report():
    async with Client(build_server(), raise_exceptions=True) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "size_deployment" in tools
        desc = tools["size_deployment"].description
        assert "references/memory-sizing.md#kv-cache-per-token" in desc and len(desc) <= 1200
        result = await client.call_tool("size_deployment", {"model": "Llama-3.1-70B", "tokens": 32768,
                                                            "concurrency": 16, "gpu": "h100", "tp": 4})
    data = result.structured_content
    # 2 x 80 x 8 x 128 x 2 = 327,680 B/token
    assert data["kv_cache"]["bytes_per_token"] == 327_680
    assert data["ceilings"]["decode"]["evidence"] == "ceiling"


@pytest.mark.anyio
async def test_mcp_tool_bad_input_is_a_tool_error_naming_the_field():
    async with Client(build_server()) as client:
        bad = await client.call_tool("size_deployment", {"model": "Llama-3.1-8B", "tokens": -1})
        unknown = await client.call_tool("size_deployment", {"model": "Llama-3.1-8B", "gpu": "h900"})
    assert bad.is_error and "tokens" in bad.content[0].text
    assert unknown.is_error and "gpu: 'h900'" in unknown.content[0].text


@pytest.mark.anyio
async def test_cli_size_json_is_exactly_the_mcp_structured_output(capsys):
    code = main(["size", "DeepSeek-V3", "--tokens", "8192", "--concurrency", "8", "--gpu", "h200", "--tp", "8",
                 "--json"])
    out, _ = capsys.readouterr()
    assert code == 0
    async with Client(build_server(), raise_exceptions=True) as client:
        result = await client.call_tool("size_deployment", {"model": "DeepSeek-V3", "tokens": 8192,
                                                            "concurrency": 8, "gpu": "h200", "tp": 8})
    assert json.loads(out) == result.structured_content


def test_cli_size_text_and_errors(capsys, tmp_path):
    assert main(["size", "gpt-oss-20b", "--tokens", "4096", "--gpu", "l40s"]) == 0
    out, _ = capsys.readouterr()
    assert "mxfp4" in out and "ceiling decode" in out
    assert main(["size", "llama-3.1-70", "--tokens", "1"]) == 1
    _, err = capsys.readouterr()
    assert err.startswith("UnknownModelError: ") and "Llama-3.1-70B" in err and len(err.strip().splitlines()) == 1
    assert main(["size", "Llama-3.1-8B", "--concurrency", "-3"]) == 1
    _, err = capsys.readouterr()
    assert "concurrency: Input should be greater than or equal to 1" in err
    path = tmp_path / "config.json"
    path.write_text(json.dumps(find_model("Llama-3.2-1B").config))
    assert main(["size", "--config", str(path), "--tokens", "10", "--json"]) == 0
    out, _ = capsys.readouterr()
    assert json.loads(out)["weights"]["params"] == 1_235_814_400
