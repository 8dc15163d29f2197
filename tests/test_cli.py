"""The command line: same requests and reports as the MCP tools, text for people, JSON for scripts."""

import json
from pathlib import Path

import pytest
from mcp import Client

from llm_inference_fundamentals.cli import main
from llm_inference_fundamentals.server import build_server


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.anyio
async def test_search_json_is_the_mcp_structured_output(capsys, same_apart_from_spelling):
    code, out, _ = run(capsys, "search", "time", "to", "first", "token", "-k", "3", "--json")
    assert code == 0
    async with Client(build_server(), raise_exceptions=True) as client:
        result = await client.call_tool("search_references", {"query": "time to first token", "k": 3})
    same_apart_from_spelling(json.loads(out), result.structured_content)


@pytest.mark.anyio
async def test_read_json_is_the_mcp_structured_output(capsys, same_apart_from_spelling):
    code, out, _ = run(capsys, "read", "metrics", "--max-tokens", "300", "--json")
    assert code == 0
    async with Client(build_server(), raise_exceptions=True) as client:
        result = await client.call_tool("read_reference", {"page": "metrics", "max_tokens": 300})
    cli, mcp = json.loads(out), result.structured_content
    same_apart_from_spelling(cli, mcp)
    assert "`lif read metrics --offset" in cli["note"] and "read_reference(" in mcp["note"]


def test_search_prints_readable_hits_by_default(capsys):
    code, out, _ = run(capsys, "search", "prefill", "decode")
    assert code == 0
    assert out.startswith("5 hits; the first 3 are the best section of 3 different pages")
    assert "\n[1] " in out and "references/" in out and "score" in out


def test_read_without_page_lists_the_pages(capsys):
    code, out, _ = run(capsys, "read")
    assert code == 0 and out.startswith("# Reference corpus")


def test_unknown_page_is_one_line_on_stderr_with_exit_1(capsys):
    code, out, err = run(capsys, "read", "../../etc/passwd")
    assert code == 1 and out == ""
    assert err.startswith("UnknownPageError: page '../../etc/passwd' not found; pages: ")
    assert len(err.strip().splitlines()) == 1


def test_invalid_argument_names_the_field(capsys):
    code, _, err = run(capsys, "search", "prefill", "-k", "0")
    assert code == 1
    assert "  -k: Input should be greater than or equal to 1" in err


def test_symbols_only_query_is_rejected(capsys):
    code, _, err = run(capsys, "search", "?!")
    assert code == 1 and err.startswith("InvalidQueryError:")


def test_install_skill_into_a_directory(capsys, tmp_path):
    code, out, _ = run(capsys, "install-skill", str(tmp_path), "--json")
    assert code == 0
    report = json.loads(out)
    assert Path(report["path"]) == tmp_path / "llm-inference-fundamentals"
    assert "SKILL.md" in report["files"] and any(f.startswith("references/") for f in report["files"])


def test_install_skill_user_goes_to_home_claude_skills(capsys, tmp_path):
    code, out, _ = run(capsys, "install-skill", "--user", "--json")
    assert code == 0
    assert json.loads(out)["path"].endswith(".claude/skills/llm-inference-fundamentals")


def test_serve_rejects_a_bad_port(capsys):
    code, _, err = run(capsys, "serve", "--http", "--port", "70000")
    assert code == 2 and "--port" in err


def test_whole_request_errors_print_without_pydantic_noise(capsys):
    code, _, err = run(capsys, "size", "Llama-3.1-70B", "--tp", "8", "--gpus", "4", "--offline")
    assert code == 1
    # gpus 4 is not a multiple of tp x pp = 8 x 1
    assert "  --gpus (4) must be a multiple of --tp x --pp (8 x 1)" in err
    assert "Value error" not in err and "input:" not in err
