"""The MCP server driven in-process through the SDK's own client."""

import json
from pathlib import Path

import pytest
from mcp import Client

from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.corpus import Corpus

pytestmark = pytest.mark.anyio

FIXTURES = Path(__file__).parent / "data" / "corpus"


@pytest.fixture(scope="module")
def server():
    return build_server(Corpus.from_directory(FIXTURES))


async def test_every_tool_is_read_only_and_publishes_an_output_schema(server):
    async with Client(server, raise_exceptions=True) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert {"search_references", "read_reference"} <= set(tools)
    for tool in tools.values():
        assert tool.annotations.read_only_hint is True
        assert tool.annotations.idempotent_hint is True
        assert tool.annotations.destructive_hint is not True
        assert tool.output_schema and tool.output_schema["type"] == "object"
        assert tool.description


async def test_search_tool_schema_carries_field_limits(server):
    async with Client(server, raise_exceptions=True) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    props = tools["search_references"].input_schema["properties"]
    assert tools["search_references"].input_schema["required"] == ["query"]
    assert props["k"]["minimum"] == 1 and props["k"]["maximum"] == 20 and props["k"]["default"] == 5
    assert props["max_tokens"]["default"] == 2000
    assert "description" in props["query"]


async def test_search_references_returns_structured_hits(server):
    async with Client(server, raise_exceptions=True) as client:
        result = await client.call_tool("search_references", {"query": "time to first token", "k": 2})
    assert not result.is_error
    hit = result.structured_content["hits"][0]
    assert (hit["page"], hit["anchor"]) == ("alpha", "time-to-first-token")
    assert set(hit) >= {"page", "section", "anchor", "score", "text", "truncated", "next_offset"}


async def test_read_reference_pages_with_next_offset(server):
    async with Client(server, raise_exceptions=True) as client:
        first = await client.call_tool("read_reference", {"page": "gamma", "max_tokens": 300})
        data = first.structured_content
        assert data["truncated"] and data["next_offset"]
        second = await client.call_tool("read_reference", {"page": "gamma", "offset": data["next_offset"], "max_tokens": 300})
    assert second.structured_content["offset"] == data["next_offset"]
    assert f"offset={data['next_offset']}" in data["note"]  # the answer gives the exact call that reads on


@pytest.mark.parametrize("page", ["../../etc/passwd", "/etc/passwd", "..%2F..%2Fetc%2Fpasswd", "%2e%2e%2fetc"])
async def test_read_reference_rejects_path_traversal(server, page):
    async with Client(server) as client:
        result = await client.call_tool("read_reference", {"page": page})
    assert result.is_error
    text = result.content[0].text
    assert "pages: alpha, beta, gamma" in text
    assert "root:" not in text


async def test_bad_arguments_are_tool_errors_naming_the_field(server):
    async with Client(server) as client:
        result = await client.call_tool("search_references", {"query": "prefill", "k": 0})
        empty = await client.call_tool("search_references", {"query": "?!?"})
    assert result.is_error and "k" in result.content[0].text
    assert empty.is_error and "no searchable words" in empty.content[0].text


async def test_every_page_is_a_resource_beside_an_index(server):
    async with Client(server, raise_exceptions=True) as client:
        uris = {str(r.uri) for r in (await client.list_resources()).resources}
        index = (await client.read_resource("llm-inference://references")).contents[0].text
        beta = (await client.read_resource("llm-inference://references/beta")).contents[0].text
    assert {"llm-inference://references", "skill://llm-inference-fundamentals/SKILL.md"} <= uris
    assert {f"llm-inference://references/{p}" for p in ("alpha", "beta", "gamma")} <= uris
    assert "beta: Beta memory" in index
    assert beta == (FIXTURES / "beta.md").read_text()


async def test_skill_is_served_as_a_resource(server):
    async with Client(server, raise_exceptions=True) as client:
        text = (await client.read_resource("skill://llm-inference-fundamentals/SKILL.md")).contents[0].text
    assert text.startswith("---\nname: llm-inference-fundamentals")


async def test_prompts_cover_the_three_jobs(server):
    async with Client(server, raise_exceptions=True) as client:
        names = {p.name for p in (await client.list_prompts()).prompts}
        answer = await client.get_prompt("answer_question", {"question": "Why is TPOT n-1?"})
        size = await client.get_prompt("size_deployment", {"model": "llama-3.1-70b", "context_tokens": "32768"})
        audit = await client.get_prompt("audit_benchmark", {"writeup": "We got 5000 tok/s."})
    assert {"answer_question", "size_deployment", "audit_benchmark"} <= names
    assert "Why is TPOT n-1?" in answer.messages[0].content.text
    assert "llama-3.1-70b" in size.messages[0].content.text and "32768 tokens" in size.messages[0].content.text
    assert "5000 tok/s" in audit.messages[0].content.text


async def test_structured_content_matches_the_text_block(server):
    async with Client(server, raise_exceptions=True) as client:
        result = await client.call_tool("search_references", {"query": "kv cache"})
    assert json.loads(result.content[0].text) == result.structured_content


async def test_json_text_argument_reaches_the_tool_as_text():
    # The SDK decodes JSON-looking strings for parameters not typed exactly `str`;
    # compute_metrics' `text: str | None` must still receive the string.
    records = json.dumps([{"start_s": 0, "first_token_s": 0.1, "end_s": 1.0, "output_tokens": 10, "prompt_tokens": 5}])
    async with Client(build_server(), raise_exceptions=True) as client:
        result = await client.call_tool("compute_metrics", {"text": records})
    assert not result.is_error
    # TTFT = 0.1 s - 0 s = 100 ms; TPOT = (1000 ms - 100 ms) / (10 - 1) = 100 ms
    assert result.structured_content["ttft_ms"]["mean"] == pytest.approx(100.0)
    assert result.structured_content["tpot_ms"]["mean"] == pytest.approx(100.0)


async def test_cross_field_errors_read_as_field_and_problem():
    async with Client(build_server()) as client:
        result = await client.call_tool("compute_metrics", {"text": "[]", "records": []})
    assert result.is_error
    text = result.content[0].text
    assert "invalid arguments: " in text and "give exactly one of path, text or records" in text
    assert "errors.pydantic.dev" not in text


@pytest.mark.parametrize(
    ("tool", "field"),
    [("compute_metrics", "path"), ("audit_benchmark", "path"), ("size_deployment", "config_path")],
)
async def test_file_tools_refuse_paths_outside_the_allowed_folders(tool, field, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    async with Client(build_server(allow_dirs=[tmp_path])) as client:
        result = await client.call_tool(tool, {field: "/etc/passwd.md"})  # .md: a suffix the audit reads
    assert result.is_error
    text = result.content[0].text
    assert f"{field}: '/etc/passwd.md' is outside the folders this server may read" in text
    assert "root:" not in text


async def test_symlink_out_of_an_allowed_folder_is_refused(tmp_path, monkeypatch):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text("# secret\nTOP SECRET 4242\n")
    allowed = tmp_path / "allowed"
    allowed.mkdir()
    (allowed / "link.md").symlink_to(outside / "secret.md")
    monkeypatch.chdir(allowed)
    async with Client(build_server(allow_dirs=[allowed])) as client:
        result = await client.call_tool("audit_benchmark", {"path": str(allowed / "link.md")})
    assert result.is_error and "4242" not in result.content[0].text


async def test_allow_dir_opens_a_folder_to_the_tools(tmp_path, monkeypatch):
    data = tmp_path / "data"
    data.mkdir()
    (data / "run.jsonl").write_text('{"start_s": 0, "first_token_s": 0.25, "end_s": 1.25, "output_tokens": 5}\n')
    monkeypatch.chdir(tmp_path / "..")
    async with Client(build_server(allow_dirs=[data]), raise_exceptions=True) as client:
        result = await client.call_tool("compute_metrics", {"path": str(data / "run.jsonl")})
    assert not result.is_error
    # TTFT = 0.25 s = 250 ms; TPOT = (1250 - 250) ms / (5 - 1) = 250 ms
    assert result.structured_content["ttft_ms"]["mean"] == pytest.approx(250.0)
    assert result.structured_content["tpot_ms"]["mean"] == pytest.approx(250.0)


async def test_unknown_argument_names_are_refused_not_dropped():
    async with Client(build_server()) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        misspelt = await client.call_tool("size_deployment", {"model": "llama-3.1-8b", "concurency": 16})
        nested = await client.call_tool("size_deployment", {"request": {"model": "llama-3.1-8b"}})
    assert all(t.input_schema.get("additionalProperties") is False for t in tools.values())
    assert misspelt.is_error and "concurency" in misspelt.content[0].text
    assert nested.is_error and "request" in nested.content[0].text


@pytest.mark.anyio
async def test_read_reference_takes_several_sections_and_heading_prefixes(server):
    async with Client(server, raise_exceptions=True) as client:
        result = await client.call_tool("read_reference", {"page": "beta", "section": ["KV", "prefill"]})
    data = result.structured_content
    assert [s["anchor"] for s in data["sections"]] == ["kv-cache", "prefill"]
    assert data["note"].startswith("Read beta: #kv-cache, #prefill: all ") and not data["truncated"]
