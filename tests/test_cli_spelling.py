"""Messages speak the caller's language: flags and `lif` commands on the command line, argument and tool names over MCP."""

import json
import re

import pytest
from mcp import Client

from llm_inference_fundamentals.cli import _build_parser, _spelling, main
from llm_inference_fundamentals.server import build_server
from llm_inference_fundamentals.tools.errors import argument, argument_names, on_command_line, tool_name

# MCP spellings that contain an underscore cannot be mistaken for prose: none may reach a CLI user.
MCP_ONLY = re.compile(r"\b(?:config_path|config_json|duration_s|max_tokens|max_file_mb|run_index|prompt_tokens|"
                      r"whole_page|hub_revision|read_reference|search_references|size_deployment|compute_metrics|"
                      r"audit_benchmark)\b|\b(?:offset|tp|gpus)=")


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_spelling_is_taken_from_the_argparse_actions():
    names, tools = _spelling(_build_parser(), "size")
    assert names["tp"] == "--tp" and names["config_path"] == "--config" and names["hub_revision"] == "--revision"
    assert names["model"] == "MODEL"  # a positional: its metavar
    assert names["offset"] == "--offset"  # another mirrored tool's flag, for notes that point there
    assert names["duration_s"] == "--duration" and names["slo_ttft_ms"] == "--goodput ttft:MS"
    assert tools["read_reference"] == "lif read" and tools["compute_metrics"] == "lif metrics"


def test_serve_flags_do_not_leak_into_tool_messages():
    # `serve --path` is the HTTP endpoint; a tool's `path` argument is the FILE of metrics and audit.
    names, _ = _spelling(_build_parser(), "read")
    assert names["path"] == "FILE"


def test_without_the_cli_arguments_keep_their_mcp_names():
    assert (argument("duration_s"), tool_name("read_reference"), on_command_line()) == ("duration_s", "read_reference", False)
    with argument_names({"duration_s": "--duration"}, tools={"read_reference": "lif read"}):
        assert (argument("duration_s"), tool_name("read_reference"), on_command_line()) == ("--duration", "lif read", True)
    assert argument("duration_s") == "duration_s"


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["read", "metrics", "--offset", "999999"], "--offset 999999 is past the end of the text"),
        (["size", "Llama-3.1-8B", "--tp", "3", "--offline"], "--tp: 3 does not divide num_attention_heads (32); valid --tp values"),
        (["size", "Llama-3.1-8B", "--tp", "2", "--gpus", "3", "--offline"], "--gpus (3) must be a multiple of --tp x --pp (2 x 1)"),
        (["size", "Llama-3.1-8B", "--config", "c.json"], "give exactly one of MODEL, --config, --config-json (got MODEL, --config)"),
        (["size", "org/not-cached", "--offline"], "and --offline is on; pass --config with its config.json"),
        (["size", "Llama-3.1-8B", "--weights", "int5", "--offline"], "--weights: unknown format 'int5'"),
        (["metrics", "no-such-file.json"], "FILE: 'no-such-file.json' does not exist"),
        (["search", "kv", "cache", "--max-tokens", "5"], "--max-tokens: Input should be greater than or equal to"),
    ],
)
def test_cli_errors_name_flags(capsys, argv, expected):
    code, out, err = run(capsys, *argv)
    assert code != 0 and out == ""
    assert expected in err
    assert not MCP_ONLY.search(err), err


def test_cli_notes_name_flags_and_commands(capsys, tmp_path):
    code, out, _ = run(capsys, "read", "metrics", "--max-tokens", "300")
    assert code == 0
    assert re.search(r"read on with `lif read metrics --offset \d+ --max-tokens 300`", out)
    assert not MCP_ONLY.search(out)
    code, out, _ = run(capsys, "search", "kv", "cache", "bytes", "per", "token", "--max-tokens", "100")
    assert code == 0 and "`lif read " in out and "--max-tokens" in out
    assert not MCP_ONLY.search(out)
    records = tmp_path / "records.jsonl"  # latencies without timestamps: no run duration
    records.write_text('{"ttft_ms": 100, "e2el_ms": 1000, "output_tokens": 10, "prompt_tokens": 5}\n' * 2)
    code, out, _ = run(capsys, "metrics", str(records), "--json")
    assert code == 0
    warnings = " ".join(json.loads(out)["warnings"])
    assert "set --duration to get throughput" in warnings


@pytest.mark.anyio
async def test_the_same_problems_over_mcp_name_arguments_and_tools():
    async with Client(build_server()) as client:
        tp = await client.call_tool("size_deployment", {"model": "Llama-3.1-8B", "tp": 3, "offline": True})
        both = await client.call_tool("size_deployment", {"model": "Llama-3.1-8B", "config_json": "{}"})
        page = await client.call_tool("read_reference", {"page": "metrics", "max_tokens": 300})
        past = await client.call_tool("read_reference", {"page": "metrics", "offset": 999999})
    assert tp.is_error and "tp: 3 does not divide" in tp.content[0].text and "--tp" not in tp.content[0].text
    assert both.is_error and "give exactly one of model, config_path, config_json" in both.content[0].text
    assert re.search(r'read on with `read_reference\(page="metrics", offset=\d+, max_tokens=300\)`',
                     page.structured_content["note"])
    assert past.is_error and "offset 999999 is past the end" in past.content[0].text
