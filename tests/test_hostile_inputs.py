"""The inputs issue 11's fuzzing crashed on, each now a tool error naming the argument (through the server)."""

import os

import pytest
from mcp import Client

from llm_inference_fundamentals.server import build_server

pytestmark = pytest.mark.anyio


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "loop1.json").symlink_to(tmp_path / "loop2.json")
    (tmp_path / "loop2.json").symlink_to(tmp_path / "loop1.json")
    os.mkfifo(tmp_path / "pipe.jsonl")
    return tmp_path


def _cases(folder):
    loop = str(folder / "loop1.json")
    return [
        # (tool, arguments, the argument the message must name, a phrase it must hold)
        ("audit_benchmark", {"text": "[" * 5000}, "text", "nested too deeply"),
        ("audit_benchmark", {"text": "{" * 3000 + "\n"}, None, None),  # not JSON: read as a (very odd) write-up
        ("size_deployment", {"config_json": "[" * 5000}, "config_json", "nested too deeply"),
        ("compute_metrics", {"text": "[" * 5000}, "text", "nested too deeply"),
        ("audit_benchmark", {"path": loop.replace(".json", ".md")}, "path", None),
        ("compute_metrics", {"path": loop}, "path", "symbolic link loop"),
        ("size_deployment", {"config_path": loop}, "config_path", "symbolic link loop"),
        ("size_deployment", {"config_path": str(folder / ("y" * 4000))}, "config_path", None),
        ("size_deployment", {"config_path": str(folder / ("y" * 300) / "config.json")}, "config_path", "longer than 255"),
        ("compute_metrics", {"path": str(folder / "a\x00b.jsonl")}, "path", "NUL byte"),
        ("audit_benchmark", {"path": str(folder / "a\x00b.md")}, "path", "NUL byte"),
        ("compute_metrics", {"path": str(folder / "pipe.jsonl")}, "path", "not a regular file"),
        ("compute_metrics", {"path": "/dev/zero"}, "path", None),
        ("compute_metrics", {"path": str(folder)}, "path", "directory"),
        ("size_deployment", {"model": "Llama-3.1-8B", "tokens": 10**30}, "tokens", None),
        ("size_deployment", {"model": "Llama-3.1-8B", "gpu_memory_bytes": 10**40}, "gpu_memory_bytes", None),
        ("compute_metrics", {"records": [{"ttft_ms": 1e308, "e2el_ms": 1e308, "output_tokens": 10**18}]}, "records", None),
        ("read_reference", {"page": "metrics", "offset": 10**18}, "offset", None),
    ]


@pytest.mark.parametrize("index", range(18))
async def test_hostile_input_is_a_tool_error_naming_the_argument(folder, index):
    tool, arguments, argument, phrase = _cases(folder)[index]
    async with Client(build_server(allow_dirs=[folder])) as client:
        result = await client.call_tool(tool, arguments)
    text = result.content[0].text
    assert text.strip() != f"Error executing tool {tool}", "an unhandled exception"
    if argument is None:
        return
    assert result.is_error, text
    assert argument in text, text
    if phrase:
        assert phrase in text, text
